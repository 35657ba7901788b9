/*
 * slurm_rpc.c: the Slurm backend's libslurm calls.  Each runs on a libuv
 * worker thread (uv_queue_work) and fills in the answer of its
 * struct slurm_work; slurm.c applies the answer on the loop thread.  Only
 * plain copies leave this file: no libslurm structure outlives its call.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "file.h"
#include "slurm_int.h"

/*
 * libslurm exits the process when it finds no configuration, so look
 * first: $SLURM_CONF, the default file, or the copy slurmd keeps in
 * configless mode.  Return 0, or -1 with err.
 */
int
slurm_rpc_check(char *err, size_t errlen)
{
	static const char *const paths[] = {
		"/etc/slurm/slurm.conf", "/run/slurm/conf/slurm.conf",
		"/var/spool/slurmd/conf-cache/slurm.conf", NULL
	};
	const char	*env = getenv("SLURM_CONF");
	size_t		 i;

	if (env != NULL && *env != '\0') {
		if (access(env, R_OK) == 0)
			return 0;
		snprintf(err, errlen, "slurm: SLURM_CONF=%s: %s", env,
		    strerror(errno));
		return -1;
	}
	for (i = 0; paths[i] != NULL; i++)
		if (access(paths[i], R_OK) == 0)
			return 0;
	snprintf(err, errlen, "slurm: no Slurm configuration (set SLURM_CONF "
	    "or install %s)", paths[0]);
	return -1;
}

static void
slurm_rpc_init_once(void)
{
	slurm_init(NULL);
}

/*
 * Before any other call, on the loop thread: the backend's start and a
 * check's partition query (slurm_part.c) both ask; libslurm is set up
 * once per process.
 */
void
slurm_rpc_init(void)
{
	static pthread_once_t	 once = PTHREAD_ONCE_INIT;

	pthread_once(&once, slurm_rpc_init_once);
}

/*
 * What is inside libslurm on a worker thread that the backend's close
 * does not wait for (a check's partition query, slurm_sbatch.c); libslurm
 * is process-wide state, and so is this.
 */
static struct slurm_hold	 slurm_holds;

/* On the loop thread, before uv_queue_work of such work. */
void
slurm_rpc_hold(void)
{
	slurm_hold_take(&slurm_holds);
}

/* On the loop thread, in that work's after callback. */
void
slurm_rpc_release(void)
{
	if (slurm_hold_drop(&slurm_holds))
		slurm_fini();
}

/*
 * Once per process, after the last call, on the loop thread: now, or
 * when the last hold is released, never while a worker is inside
 * libslurm.
 */
void
slurm_rpc_fini(void)
{
	if (slurm_hold_fini(&slurm_holds))
		slurm_fini();
}

/*
 * Write the files a submit needs (an array's job.json files and list), two
 * flushes for all of them; 0, or -1 with the failure recorded.
 */
static int
slurm_rpc_files(struct slurm_work *w)
{
	size_t	 i;

	if (w->files == NULL || file_save_all(w->files, &i) == 0)
		return 0;
	w->file_errno = errno;
	w->file_failed = w->files[i];
	return -1;
}

/*
 * Where the spec leaves them out, take partition, account, QOS and
 * reservation from the SBATCH_* variables of hpod's environment, as sbatch
 * would from the user's.
 */
static void
slurm_rpc_env(job_desc_msg_t *jd)
{
	if (jd->partition == NULL)
		jd->partition = getenv("SBATCH_PARTITION");
	if (jd->account == NULL)
		jd->account = getenv("SBATCH_ACCOUNT");
	if (jd->qos == NULL)
		jd->qos = getenv("SBATCH_QOS");
	if (jd->reservation == NULL)
		jd->reservation = getenv("SBATCH_RESERVATION");
}

/*
 * The keys beyond the shape, as sbatch sets them; the three buffers (len
 * bytes each) hold the TRES strings.
 */
static void
slurm_rpc_extra(job_desc_msg_t *jd, const struct sched_slurm_extra *x,
    char *mem_gpu, char *per_task, char *cpus_gpu, size_t len)
{
	if (x->mem_mb > 0)
		jd->pn_min_memory = x->mem_mb;
	if (x->mem_per_cpu_mb > 0)
		jd->pn_min_memory = x->mem_per_cpu_mb | MEM_PER_CPU;
	if (x->mem_per_gpu_mb > 0) {
		snprintf(mem_gpu, len, "gres:gpu:%llu",
		    (unsigned long long)x->mem_per_gpu_mb);
		jd->mem_per_tres = mem_gpu;
	}
	if (x->exclusive)
		jd->shared = JOB_SHARED_NONE;
	jd->reservation = (char *)x->reservation;
	if (x->signal > 0) {
		jd->warn_signal = (uint16_t)x->signal;
		jd->warn_time = (uint16_t)x->signal_time;
		if (x->signal_batch)
			jd->warn_flags = KILL_JOB_BATCH;
	}
	if (x->gpus_per_task > 0) {
		snprintf(per_task, len, "gres:gpu:%d", x->gpus_per_task);
		jd->tres_per_task = per_task;
	}
	if (x->cpus_per_gpu > 0) {
		snprintf(cpus_gpu, len, "gres:gpu:%d", x->cpus_per_gpu);
		jd->cpus_per_tres = cpus_gpu;
	}
	slurm_rpc_env(jd);
}

/* Submit one batch job (or job array) described by w->desc. */
static void
slurm_rpc_submit(struct slurm_work *w)
{
	const struct slurm_desc	*d = &w->desc;
	job_desc_msg_t		 jd;
	submit_response_msg_t	*resp = NULL;
	char			 gres[64], mem_gpu[64], per_task[64], cpus_gpu[64];
	uint32_t		 n;

	if (slurm_rpc_files(w) == -1) {
		w->rc = SLURM_ERROR;
		return;
	}
	if (d->extra.sbatch != NULL) {
		/* sbatch parses them: it runs next, on the loop. */
		w->rc = 0;
		return;
	}
	slurm_init_job_desc_msg(&jd);
	jd.name = d->name;
	jd.comment = d->comment;
	jd.script = d->script;
	jd.work_dir = d->work_dir;
	jd.std_out = d->std_out;
	jd.std_err = d->std_err;
	for (n = 0; d->env[n] != NULL; n++)
		;
	jd.environment = d->env;
	jd.env_size = n;
	jd.min_nodes = jd.max_nodes = (uint32_t)d->nodes;
	jd.ntasks_per_node = (uint16_t)d->tasks_per_node;
	jd.num_tasks = (uint32_t)(d->nodes * d->tasks_per_node);
	jd.cpus_per_task = (uint16_t)d->cpus_per_task;
	jd.bitflags |= JOB_NTASKS_SET | JOB_CPUS_SET;
	if (d->gpus_per_node > 0) {
		/* What sbatch --gpus-per-node=N asks for. */
		snprintf(gres, sizeof(gres), "gres:gpu:%d", d->gpus_per_node);
		jd.tres_per_node = gres;
	}
	if (d->time_limit > 0)
		jd.time_limit = (uint32_t)((d->time_limit + 59) / 60);
	jd.partition = d->partition;
	jd.account = d->account;
	jd.qos = d->qos;
	jd.features = d->constraint;
	slurm_rpc_extra(&jd, &d->extra, mem_gpu, per_task, cpus_gpu,
	    sizeof(gres));
	jd.array_inx = d->array;
	jd.dependency = d->dependency;
	/* Every retry must be an attempt hpod records and costs. */
	jd.requeue = 0;
	jd.user_id = getuid();
	jd.group_id = getgid();

	if (slurm_submit_batch_job(&jd, &resp) != SLURM_SUCCESS) {
		w->rc = slurm_get_errno();
		if (w->rc == 0)
			w->rc = SLURM_ERROR;
	} else {
		w->rc = 0;
		w->job_id = resp->job_id;
	}
	slurm_free_submit_response_response_msg(resp);
}

/*
 * Copy s, or NULL for NULL or "" (a copy that cannot be made aborts with a
 * message, as slurm_printf does: a NULL would read as "none").
 */
static char *
slurm_rpc_strdup(const char *s)
{
	return s != NULL && *s != '\0' ? slurm_printf("%s", s) : NULL;
}

/* Copy what hpod needs of one job record. */
static void
slurm_rpc_copy(struct slurm_rec *r, const slurm_job_info_t *j)
{
	int	 per_node;

	memset(r, 0, sizeof(*r));
	r->job_id = j->job_id;
	r->array_job_id = j->array_job_id;
	r->array_task_id = j->array_task_id == NO_VAL ? SLURM_NO_TASK :
	    j->array_task_id;
	r->array_pending = slurm_rpc_strdup(j->array_task_str);
	r->state = j->job_state;
	r->comment = slurm_rpc_strdup(j->comment);
	r->nodes = slurm_rpc_strdup(j->nodes);
	r->submit = j->submit_time;
	r->start = j->start_time;
	r->end = j->end_time;
	/*
	 * Slurm's run time leaves suspended time out: it ran pre_sus_time
	 * up to suspend_time, its last suspend or resume (0: never).
	 */
	if (j->suspend_time > 0 && j->start_time > 0 &&
	    j->suspend_time - j->start_time > j->pre_sus_time)
		r->suspended = j->suspend_time - j->start_time -
		    j->pre_sus_time;
	/* Suspended now: its run time stopped at its last suspend. */
	if ((j->job_state & JOB_STATE_BASE) == JOB_SUSPENDED &&
	    j->start_time > 0 && j->suspend_time >= j->start_time)
		r->suspended_at = j->suspend_time;
	r->eligible = j->eligible_time;
	r->exit_code = j->exit_code;
	r->nnodes = (int)j->num_nodes;
	r->ncpus = (int)j->num_cpus;
	r->ngpus = slurm_gpus_parse(j->gres_total, j->tres_alloc_str);
	if (r->ngpus < 0) {
		/* Nothing allocated yet: what was asked for, per node. */
		per_node = 0;
		if (j->tres_per_node != NULL &&
		    sscanf(j->tres_per_node, "gres:gpu:%d", &per_node) != 1 &&
		    sscanf(j->tres_per_node, "gres/gpu:%d", &per_node) != 1)
			per_node = 0;
		r->ngpus = per_node > 0 ? per_node * r->nnodes : 0;
	}
	if (j->state_desc != NULL)
		snprintf(r->reason, sizeof(r->reason), "%s", j->state_desc);
	r->wait = j->state_reason;
}

/* Append the records of msg that carry a comment (all of hpod's do). */
static int
slurm_rpc_take(struct slurm_work *w, const job_info_msg_t *msg)
{
	struct slurm_rec	*recs;
	uint32_t		 i;

	if (msg->record_count == 0)
		return 0;
	if ((recs = realloc(w->recs, (w->nrecs + msg->record_count) *
	    sizeof(*recs))) == NULL)
		return -1;
	w->recs = recs;
	for (i = 0; i < msg->record_count; i++) {
		if (msg->job_array[i].comment == NULL)
			continue;
		slurm_rpc_copy(&w->recs[w->nrecs++], &msg->job_array[i]);
	}
	return 0;
}

/*
 * Learn once whether the cluster is in a federation: libslurm asks before
 * every job query (REQUEST_FED_INFO, as many RPCs as the queries) unless
 * told SHOW_LOCAL, which is the same answer when there is no federation.
 * Unknown (0) if the controller does not answer.
 */
static int
slurm_rpc_fed(void)
{
	slurmdb_federation_rec_t	*fed = NULL;
	int				 in;

	if (slurm_load_federation((void **)&fed) != SLURM_SUCCESS)
		return 0;
	in = fed != NULL && fed->cluster_list != NULL &&
	    slurm_list_count(fed->cluster_list) > 0;
	if (fed != NULL)
		slurm_destroy_federation_rec(fed);
	return in ? -1 : 1;
}

/*
 * Load every job of this user, one RPC for all of the daemon's jobs; or,
 * for a confirm (w->nids > 0), only the jobs of those ids, one RPC each
 * (an id slurmctld no longer knows is left to the next poll of all).
 */
static void
slurm_rpc_poll(struct slurm_work *w)
{
	job_info_msg_t	*msg = NULL;
	slurm_conf_t	*conf = NULL;
	struct timespec	 ts;
	size_t		 i;
	uint16_t	 flags;
	int		 rc;

	clock_gettime(CLOCK_REALTIME, &ts);
	w->sent = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (w->nids == 0 && w->max_array == 0 &&
	    slurm_load_ctl_conf((time_t)0, &conf) == SLURM_SUCCESS) {
		w->max_array = conf->max_array_sz;
		slurm_free_ctl_conf(conf);
	}
	if (w->fed == 0)
		w->fed = slurm_rpc_fed();
	flags = SHOW_ALL | (w->fed == 1 ? SHOW_LOCAL : 0);
	w->rc = 0;
	for (i = 0; i == 0 || i < w->nids; i++) {
		msg = NULL;
		rc = w->nids == 0 ? slurm_load_job_user(&msg, getuid(),
		    flags) : slurm_load_job(&msg, w->ids[i], flags);
		if (rc != SLURM_SUCCESS) {
			rc = slurm_get_errno();
			if (w->nids > 0 && rc == ESLURM_INVALID_JOB_ID)
				continue;
			w->rc = rc != 0 ? rc : SLURM_ERROR;
			return;
		}
		rc = slurm_rpc_take(w, msg);
		slurm_free_job_info_msg(msg);
		if (rc == -1) {
			w->rc = ENOMEM;
			return;
		}
	}
}

/* Cancel a job (or one task of an array) as scancel does. */
static void
slurm_rpc_kill(struct slurm_work *w)
{
	if (slurm_kill_job2(w->kill_id, SIGKILL, 0, NULL) != SLURM_SUCCESS) {
		w->rc = slurm_get_errno();
		if (w->rc == 0)
			w->rc = SLURM_ERROR;
	} else
		w->rc = 0;
}

/* uv_queue_work's work callback. */
void
slurm_rpc_run(uv_work_t *req)
{
	struct slurm_work	*w = req->data;

	switch (w->op) {
	case SLURM_OP_SUBMIT:
		slurm_rpc_submit(w);
		break;
	case SLURM_OP_POLL:
		slurm_rpc_poll(w);
		break;
	case SLURM_OP_KILL:
		slurm_rpc_kill(w);
		break;
	}
}

/* Free records copied by a poll. */
void
slurm_recs_free(struct slurm_rec *recs, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(recs[i].array_pending);
		free(recs[i].comment);
		free(recs[i].nodes);
	}
	free(recs);
}

/* Free what a submit description owns. */
void
slurm_desc_release(struct slurm_desc *d)
{
	size_t	 i;

	free(d->name);
	free(d->comment);
	free(d->script);
	free(d->work_dir);
	free(d->std_out);
	free(d->std_err);
	for (i = 0; d->env != NULL && d->env[i] != NULL; i++)
		free(d->env[i]);
	free(d->env);
	free(d->partition);
	free(d->account);
	free(d->qos);
	free(d->constraint);
	free((char *)d->extra.reservation);
	slurm_strv_free(d->extra.sbatch);
	free(d->array);
	free(d->dependency);
	free(d->script_path);
	memset(d, 0, sizeof(*d));
}
