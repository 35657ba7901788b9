/*
 * slurm_submit.c: the Slurm backend turns the jobs queued in one loop turn
 * into submit requests: one batch job each, or one job array for alike
 * jobs, whose script only names hpo-trial and the attempt's job.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "jobfile.h"
#include "slurm_int.h"

extern char **environ;

/* A submit answered. */
void
slurm_submitted(struct slurm *b, struct slurm_work *w)
{
	struct sched_event	 ev;
	struct slurm_job	*j;
	char			 reason[1024];
	size_t			 i;

	for (i = 0; i < w->njobs; i++) {
		j = w->jobs[i];
		if (w->rc == ESLURM_DEPENDENCY && w->desc.dependency != NULL) {
			/*
			 * The job it was to wait for is gone from the
			 * controller (ended, MinJobAge passed): nothing to
			 * wait for.  Submitted again, without the chain.
			 */
			slurm_warn(b, "submit of %s: %s (%s): submitting it "
			    "again without", j->token, slurm_strerror(w->rc),
			    w->desc.dependency);
			free(j->after);
			j->after = NULL;
			j->state = SJ_QUEUED;
			continue;
		}
		if (w->rc == 0) {
			slurm_job_name_id(j, w->job_id, w->desc.array ?
			    (uint32_t)i : SLURM_NO_TASK);
			j->state = SJ_LIVE;
			slurm_watch_start(b, j);
			memset(&ev, 0, sizeof(ev));
			ev.type = SCHED_EV_SUBMITTED;
			ev.time = j->submitted = slurm_now();
			slurm_emit(b, j, &ev);
			if (j->cancel)
				slurm_kill(b, j);
		} else if (slurm_errno_transient(w->rc)) {
			/*
			 * It may exist: polls look for the token.  A request
			 * that was sent may still wait in slurmctld, so a
			 * poll must come well after it to prove it absent.
			 */
			j->state = SJ_UNCERTAIN;
			slurm_watch_start(b, j);
			j->absent_after = slurm_errno_unsent(w->rc) ? 0 :
			    slurm_now() + SLURM_LOST_GRACE_S;
		} else {
			if (w->file_failed != NULL)
				snprintf(reason, sizeof(reason), "%s: %s",
				    w->file_failed, strerror(w->file_errno));
			else if (w->sbatch_msg != NULL)
				snprintf(reason, sizeof(reason), "sbatch "
				    "(resources.sbatch_extra): %s",
				    w->sbatch_msg);
			else
				snprintf(reason, sizeof(reason), "slurm: %s",
				    slurm_strerror(w->rc));
			memset(&ev, 0, sizeof(ev));
			ev.type = SCHED_EV_SUBMIT_FAILED;
			ev.reason = reason;
			slurm_emit(b, j, &ev);
			slurm_job_free(b, j);
		}
	}
	if (w->rc != 0 && slurm_errno_transient(w->rc)) {
		if (!b->unreachable)
			slurm_warn(b, "submit: %s; will look for the job "
			    "before submitting it again",
			    slurm_strerror(w->rc));
		b->unreachable = 1;
	} else
		b->interval = b->opts.poll_min;
	slurm_arm(b);
	/* Chained jobs waiting for this answer, or submitted again. */
	TAILQ_FOREACH(j, &b->jobs, entry)
		if (j->state == SJ_QUEUED) {
			uv_timer_start(&b->flush, slurm_flush, 0, 0);
			break;
		}
}

/* Single-quote s for the batch script (it is one of our own paths). */
static char *
slurm_quote(const char *s)
{
	size_t	 n = 3;
	char	*q, *p;

	for (p = (char *)s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = p = slurm_calloc(1, n);
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = *s;
	}
	*p = '\'';
	return q;
}

/* The environment of a job: ours, with the job's entries on top. */
static char **
slurm_environment(char *const *extra)
{
	size_t	 n = 0, m = 0, i, k, len;
	char	**env;
	int	 shadowed;

	while (environ[n] != NULL)
		n++;
	while (extra != NULL && extra[m] != NULL)
		m++;
	env = slurm_calloc(n + m + 1, sizeof(*env));
	for (i = 0, k = 0; i < n; i++) {
		shadowed = 0;
		len = strcspn(environ[i], "=");
		for (size_t x = 0; x < m && !shadowed; x++)
			shadowed = strncmp(extra[x], environ[i], len + 1) == 0;
		if (!shadowed)
			env[k++] = slurm_strdup(environ[i]);
	}
	for (i = 0; i < m; i++)
		env[k++] = slurm_strdup(extra[i]);
	return env;
}

/* Fill in what every submit of j's shape asks for. */
static void
slurm_desc_shape(struct slurm_desc *d, const struct slurm_job *j)
{
	d->nodes = j->nodes;
	d->tasks_per_node = j->tasks_per_node;
	d->cpus_per_task = j->cpus_per_task;
	d->gpus_per_node = j->gpus_per_node;
	d->time_limit = j->time_limit;
	d->partition = slurm_strdup(j->partition);
	d->account = slurm_strdup(j->account);
	d->qos = slurm_strdup(j->qos);
	d->constraint = slurm_strdup(j->constraint);
	d->extra = j->extra;
	d->extra.reservation = slurm_strdup(j->extra.reservation);
	d->extra.sbatch = j->extra.sbatch == NULL ? NULL :
	    slurm_strv_dup((const char *const *)j->extra.sbatch);
}

/*
 * A job with sbatch options goes through sbatch (slurm_sbatch.c), which
 * reads its script from a file: name it and queue it with w's files.
 */
static void
slurm_sbatch_script(struct slurm_work *w, const char *dir)
{
	size_t	 n = 0;

	if (w->desc.extra.sbatch == NULL)
		return;
	while (w->files[n] != NULL)
		n += 2;
	w->desc.script_path = slurm_printf("%s/sbatch.sh", dir);
	w->files[n] = slurm_strdup(w->desc.script_path);
	w->files[n + 1] = slurm_strdup(w->desc.script);
}

/* Queue the submit of one job on its own (dependency: NULL or taken). */
static void
slurm_submit_one(struct slurm *b, struct slurm_job *j, char *dependency)
{
	struct slurm_work	*w;
	char			*qw, *qf, *path;

	w = slurm_work_new(b, SLURM_OP_SUBMIT);
	w->jobs = slurm_calloc(1, sizeof(*w->jobs));
	w->jobs[0] = j;
	w->njobs = 1;
	free(j->comment);
	j->comment = slurm_strdup(j->token);
	j->task = SLURM_NO_TASK;
	path = slurm_printf("%s/job.json", j->dir);
	qw = slurm_quote(b->wrapper);
	qf = slurm_quote(path);
	w->desc.script = slurm_printf("#!/bin/sh\nexec %s -j %s\n", qw, qf);
	free(qw);
	free(qf);
	w->files = slurm_calloc(5, sizeof(*w->files));
	w->files[0] = path;
	w->files[1] = slurm_strdup(j->jobfile);
	w->desc.name = slurm_strdup(j->name);
	w->desc.comment = slurm_strdup(j->token);
	w->desc.work_dir = slurm_strdup(j->dir);
	w->desc.std_out = slurm_printf("%s/slurm.out", j->dir);
	w->desc.env = slurm_environment(j->env);
	w->desc.dependency = dependency;
	slurm_desc_shape(&w->desc, j);
	slurm_sbatch_script(w, j->dir);
	j->state = SJ_SUBMITTING;
}

/* Queue the submit of n jobs of one shape as one job array. */
static void
slurm_submit_array(struct slurm *b, struct slurm_job **js, size_t n)
{
	struct slurm_work	*w;
	char			*list, *text, *qw, *ql, *p;
	size_t			 i, len = 0;

	list = slurm_printf("%s/array.list", js[0]->dir);
	for (i = 0; i < n; i++)
		len += strlen(js[i]->dir) + sizeof("/job.json\n");
	text = p = slurm_calloc(1, len + 1);
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s/job.json\n", js[i]->dir);
	p[-1] = '\0';	/* file_save adds the last newline */
	w = slurm_work_new(b, SLURM_OP_SUBMIT);
	w->jobs = slurm_calloc(n, sizeof(*w->jobs));
	w->njobs = n;
	/* The tasks' job.json files, then the list that names them. */
	w->files = slurm_calloc(2 * n + 5, sizeof(*w->files));
	for (i = 0; i < n; i++) {
		w->files[2 * i] = slurm_printf("%s/job.json", js[i]->dir);
		w->files[2 * i + 1] = slurm_strdup(js[i]->jobfile);
	}
	w->files[2 * n] = slurm_strdup(list);
	w->files[2 * n + 1] = text;
	w->desc.comment = slurm_printf("hpod-array %s", list);
	for (i = 0; i < n; i++) {
		w->jobs[i] = js[i];
		free(js[i]->comment);
		js[i]->comment = slurm_strdup(w->desc.comment);
		js[i]->task = (uint32_t)i;
		js[i]->state = SJ_SUBMITTING;
	}
	qw = slurm_quote(b->wrapper);
	ql = slurm_quote(list);
	w->desc.script = slurm_printf("#!/bin/sh\nexec %s -J %s\n", qw, ql);
	free(qw);
	free(ql);
	w->desc.name = slurm_strdup(js[0]->name);
	w->desc.work_dir = slurm_strdup(js[0]->dir);
	w->desc.std_out = slurm_printf("%s/slurm-%%a.out", js[0]->dir);
	w->desc.env = slurm_environment(NULL);
	w->desc.array = slurm_printf("0-%zu", n - 1);
	slurm_desc_shape(&w->desc, js[0]);
	slurm_sbatch_script(w, js[0]->dir);
	free(list);
}

/* 1 if two NULL-terminated vectors (or NULLs) are equal. */
static int
slurm_strv_same(char *const *a, char *const *b)
{
	size_t	 i;

	if (a == NULL || b == NULL)
		return a == b;
	for (i = 0; a[i] != NULL && b[i] != NULL; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return a[i] == b[i];
}

/* 1 if two jobs ask for the same resources. */
static int
slurm_same_shape(const struct slurm_job *a, const struct slurm_job *b)
{
#define SAME_STR(x) ((a->x == NULL && b->x == NULL) || \
	(a->x != NULL && b->x != NULL && strcmp(a->x, b->x) == 0))
	return a->nodes == b->nodes && a->tasks_per_node == b->tasks_per_node &&
	    a->cpus_per_task == b->cpus_per_task &&
	    a->gpus_per_node == b->gpus_per_node &&
	    a->time_limit == b->time_limit && SAME_STR(partition) &&
	    SAME_STR(account) && SAME_STR(qos) && SAME_STR(constraint) &&
	    SAME_STR(extra.reservation) &&
	    a->extra.mem_mb == b->extra.mem_mb &&
	    a->extra.mem_per_cpu_mb == b->extra.mem_per_cpu_mb &&
	    a->extra.mem_per_gpu_mb == b->extra.mem_per_gpu_mb &&
	    a->extra.exclusive == b->extra.exclusive &&
	    a->extra.signal == b->extra.signal &&
	    a->extra.signal_time == b->extra.signal_time &&
	    a->extra.signal_batch == b->extra.signal_batch &&
	    a->extra.gpus_per_task == b->extra.gpus_per_task &&
	    a->extra.cpus_per_gpu == b->extra.cpus_per_gpu &&
	    slurm_strv_same(a->extra.sbatch, b->extra.sbatch);
#undef SAME_STR
}

/*
 * The dependency of a chained job (one with an `after`): "afterany:ID" of
 * the job it comes after while the controller has that one, NULL when it
 * has ended (the chain is dropped: no wait).  Return 1 while that job's
 * id is not known yet (queued, submitting, uncertain): it waits.
 */
static int
slurm_chain_dependency(struct slurm *b, struct slurm_job *j, char **dep)
{
	struct slurm_job	*p;

	*dep = NULL;
	TAILQ_FOREACH(p, &b->jobs, entry)
		if (p != j && strcmp(p->token, j->after) == 0)
			break;
	if (p == NULL) {
		free(j->after);
		j->after = NULL;
		return 0;
	}
	if (p->state != SJ_LIVE)
		return 1;
	/* An array task by its own id where known: "123_4" otherwise. */
	if (p->own_id != 0)
		*dep = slurm_printf("afterany:%u", p->own_id);
	else
		*dep = slurm_printf("afterany:%s", p->job_id);
	return 0;
}

/* Submit what was queued in this loop turn, as arrays where it can. */
void
slurm_flush(uv_timer_t *h)
{
	struct slurm		*b = h->data;
	struct slurm_job	*j, *k, *next, **group;
	char			*dep;
	size_t			 n, limit;

	if (b->closing)
		return;
	/* Cancelled before they were submitted. */
	for (j = TAILQ_FIRST(&b->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state == SJ_QUEUED && j->cancel)
			slurm_end(b, j, SCHED_CANCELLED, -1, 0, 0, 0,
			    "cancelled before it was submitted");
	}
	if (b->opts.array_min > 0 && b->max_array == 0) {
		/* An array must fit MaxArraySize: learn it first. */
		n = 0;
		TAILQ_FOREACH(j, &b->jobs, entry)
			n += j->state == SJ_QUEUED;
		if (n >= (size_t)b->opts.array_min) {
			b->flush_after_poll = 1;
			if (!b->polling) {
				uv_timer_stop(&b->poll);
				slurm_poll_due(&b->poll);
			}
			return;
		}
	}
	group = slurm_calloc((size_t)b->njobs + 1, sizeof(*group));
	limit = b->max_array > 0 ? b->max_array : 1;
	TAILQ_FOREACH(j, &b->jobs, entry) {
		if (j->state != SJ_QUEUED)
			continue;
		/* A chained job goes alone, once its lane's last has an id. */
		if (j->after != NULL) {
			if (slurm_chain_dependency(b, j, &dep) == 0)
				slurm_submit_one(b, j, dep);
			continue;
		}
		n = 0;
		group[n++] = j;
		for (k = TAILQ_NEXT(j, entry); k != NULL && n < limit;
		    k = TAILQ_NEXT(k, entry))
			if (k->state == SJ_QUEUED && k->after == NULL &&
			    slurm_same_shape(j, k))
				group[n++] = k;
		if (b->opts.array_min > 0 && n >= (size_t)b->opts.array_min)
			slurm_submit_array(b, group, n);
		else
			slurm_submit_one(b, j, NULL);
	}
	free(group);
	slurm_kick(b);
}

/* The text of the attempt's job.json for hpo-trial. */
char *
slurm_render_jobfile(const struct sched_job *job)
{
	struct jobfile	 jf;
	char		*text;

	memset(&jf, 0, sizeof(jf));
	jf.token = (char *)job->token;
	jf.dir = (char *)job->dir;
	jf.argv = (char **)job->argv;
	jf.env = (char **)(job->env != NULL ? job->env :
	    (const char *const[]){ NULL });
	jf.limit = 0;	/* Slurm enforces the time limit */
	jf.nodes = job->nodes;
	jf.gpus = job->nodes * job->gpus_per_node;
	jf.cpus = job->nodes * job->tasks_per_node * job->cpus_per_task;
	if ((text = jobfile_render(&jf)) == NULL) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return text;
}
