/*
 * slurm.c: the Slurm backend.  Each job is one batch job (or one task of a
 * job array) that runs hpo-trial with the attempt's job.json.
 *
 * Everything here runs on the loop thread.  libslurm calls go to a worker
 * (slurm_rpc.c) one at a time, in a queue: cancels first, then submits and
 * polls in order.  One poll loads every job of the user in one RPC; the
 * poll period starts at poll_min and doubles up to poll_max while nothing
 * changes, as sbatch --wait does, and also while slurmctld does not answer.
 * A poll that a job's end marker brings forward (slurm_watch.c) loads the
 * marked jobs alone, by job id, while the timed poll of all is not due.
 *
 * A job is known by its token, which its comment carries; a job id is only
 * trusted together with the token, since ids wrap.  A submit whose answer
 * was lost is looked for by token before it is submitted again.  A job the
 * controller has forgotten (MinJobAge) is resolved from its result.json.
 *
 * This file keeps the job table, the request queue and the sched_ops;
 * slurm_submit.c builds submits, slurm_poll.c applies poll answers.
 */
#include <sys/queue.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "sched.h"
#include "slurm_int.h"

/* Forget a job. */
void
slurm_job_free(struct slurm *b, struct slurm_job *j)
{
	TAILQ_REMOVE(&b->jobs, j, entry);
	b->njobs--;
	slurm_watch_stop(j);
	free(j->token);
	free(j->name);
	free(j->dir);
	slurm_strv_free(j->env);
	free(j->jobfile);
	free(j->partition);
	free(j->account);
	free(j->qos);
	free(j->constraint);
	free((char *)j->extra.reservation);
	slurm_strv_free(j->extra.sbatch);
	free(j->comment);
	free(j->after);
	free(j);
}

/*
 * Deliver an event for j (never from inside an sched_* call); a released
 * job's go nowhere: its adopter learns its state from the controller.
 */
void
slurm_emit(struct slurm *b, struct slurm_job *j, struct sched_event *ev)
{
	if (b->closing || j->cb == NULL)
		return;
	ev->token = j->token;
	ev->job_id = j->job_id[0] ? j->job_id : NULL;
	if (ev->time == 0)
		ev->time = slurm_now();
	j->cb(j->arg, ev);
}

/* Deliver END and forget the job. */
void
slurm_end(struct slurm *b, struct slurm_job *j, enum sched_state state,
    int exit_code, int sig, double start, double end, const char *reason)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_END;
	ev.state = state;
	ev.exit_code = exit_code;
	ev.signal = sig;
	ev.start = start;
	ev.end = end;
	ev.suspended = start > 0 && end > 0 ? j->suspended : 0;
	ev.forgotten = j->forgotten;
	ev.time = end > 0 ? end : slurm_now();
	ev.eligible = j->started && j->eligible > j->started_at ?
	    j->started_at : j->eligible;
	ev.reason = reason;
	slurm_emit(b, j, &ev);
	slurm_job_free(b, j);
}

/* Give a job its controller id: "123", or "123_4" for an array task. */
void
slurm_job_name_id(struct slurm_job *j, uint32_t id, uint32_t task)
{
	j->id = id;
	j->task = task;
	if (task == SLURM_NO_TASK)
		snprintf(j->job_id, sizeof(j->job_id), "%u", id);
	else
		snprintf(j->job_id, sizeof(j->job_id), "%u_%u", id, task);
}

/* Queue a libslurm request; kills go first. */
struct slurm_work *
slurm_work_new(struct slurm *b, enum slurm_op op)
{
	struct slurm_work	*w;

	w = slurm_calloc(1, sizeof(*w));
	w->b = b;
	w->op = op;
	w->req.data = w;
	w->max_array = b->max_array;
	w->fed = b->fed;
	if (op == SLURM_OP_KILL)
		TAILQ_INSERT_HEAD(&b->queue, w, entry);
	else
		TAILQ_INSERT_TAIL(&b->queue, w, entry);
	return w;
}

/* Free a request and its answer. */
static void
slurm_work_free(struct slurm_work *w)
{
	slurm_desc_release(&w->desc);
	slurm_strv_free(w->files);
	slurm_recs_free(w->recs, w->nrecs);
	free(w->sbatch_msg);
	free(w->jobs);
	free(w);
}

/* Queue a kill for a job the controller has. */
void
slurm_kill(struct slurm *b, struct slurm_job *j)
{
	struct slurm_work	*w;

	if (j->killing || j->state != SJ_LIVE)
		return;
	j->killing = 1;
	w = slurm_work_new(b, SLURM_OP_KILL);
	snprintf(w->kill_id, sizeof(w->kill_id), "%s", j->job_id);
	w->jobs = slurm_calloc(1, sizeof(*w->jobs));
	w->jobs[0] = j;
	w->njobs = 1;
	slurm_kick(b);
}

/* A kill answered; the next poll sees the job end. */
static void
slurm_killed(struct slurm *b, struct slurm_work *w)
{
	struct slurm_job	*j;

	TAILQ_FOREACH(j, &b->jobs, entry)
		if (j == w->jobs[0])
			break;
	if (j == NULL)
		return;
	j->killing = 0;
	if (w->rc != 0 && w->rc != ESLURM_ALREADY_DONE &&
	    w->rc != ESLURM_INVALID_JOB_ID && !slurm_errno_transient(w->rc))
		slurm_warn(b, "cannot cancel job %s: %s",
		    j->job_id, slurm_strerror(w->rc));
	b->interval = b->opts.poll_min;
	slurm_arm(b);
}

static void	slurm_closed(uv_handle_t *);

static void	slurm_after(uv_work_t *, int);

/* Apply the answer of request w, free it, start the next. */
void
slurm_work_done(struct slurm_work *w)
{
	struct slurm		*b = w->b;

	b->inflight = NULL;
	if (!b->closing) {
		switch (w->op) {
		case SLURM_OP_SUBMIT:
			slurm_submitted(b, w);
			break;
		case SLURM_OP_POLL:
			slurm_polled(b, w);
			break;
		case SLURM_OP_KILL:
			slurm_killed(b, w);
			break;
		}
	}
	slurm_work_free(w);
	slurm_kick(b);
}

/*
 * uv_queue_work's after callback: a submit with sbatch options goes on to
 * sbatch (its files are written), anything else is answered.
 */
static void
slurm_after(uv_work_t *req, int status)
{
	struct slurm_work	*w = req->data;

	if (w->op == SLURM_OP_SUBMIT && w->desc.extra.sbatch != NULL &&
	    w->rc == 0 && !w->b->closing)
		slurm_sbatch_start(w->b, w);
	else
		slurm_work_done(w);
}

/* Start the next queued request if none is running. */
void
slurm_kick(struct slurm *b)
{
	struct slurm_work	*w;

	if (b->inflight != NULL)
		return;
	if (b->closing) {
		while ((w = TAILQ_FIRST(&b->queue)) != NULL) {
			TAILQ_REMOVE(&b->queue, w, entry);
			slurm_work_free(w);
		}
		if (!uv_is_closing((uv_handle_t *)&b->poll)) {
			uv_close((uv_handle_t *)&b->poll, slurm_closed);
			uv_close((uv_handle_t *)&b->flush, slurm_closed);
		}
		return;
	}
	if ((w = TAILQ_FIRST(&b->queue)) == NULL)
		return;
	TAILQ_REMOVE(&b->queue, w, entry);
	b->inflight = w;
	if (uv_queue_work(b->loop, &w->req, slurm_rpc_run, slurm_after) != 0) {
		slurm_warn(b, "cannot queue work");
		abort();
	}
}

/*
 * The poll timer fired: queue one poll, of the marked jobs alone if a
 * marker brought it and the timed poll of all is not due yet.
 */
void
slurm_poll_due(uv_timer_t *h)
{
	struct slurm		*b = h->data;
	struct slurm_work	*w;
	uint32_t		 ids[SLURM_CONFIRM_MAX];
	size_t			 n = 0;

	if (b->polling || b->closing)
		return;
	if (b->confirm && !b->flush_after_poll && !b->unreachable &&
	    uv_now(b->loop) - b->full_at < b->interval)
		n = slurm_watch_ids(b, ids);
	b->confirm = 0;
	b->polling = 1;
	w = slurm_work_new(b, SLURM_OP_POLL);
	memcpy(w->ids, ids, n * sizeof(*ids));
	w->nids = n;
	if (n == 0)
		b->full_at = uv_now(b->loop);
	slurm_kick(b);
}

/* Make sure a poll comes when some job needs one. */
void
slurm_arm(struct slurm *b)
{
	struct slurm_job	*j;

	if (b->closing || b->polling || uv_is_active((uv_handle_t *)&b->poll))
		return;
	TAILQ_FOREACH(j, &b->jobs, entry)
		if (j->state == SJ_LIVE || j->state == SJ_UNCERTAIN)
			break;
	if (j == NULL && !b->flush_after_poll)
		return;
	b->confirm = 0;
	uv_timer_start(&b->poll, slurm_poll_due, b->interval, 0);
}

/*
 * After a poll of marked jobs alone: the timed poll of all comes an
 * interval after the last one, however many markers came between.
 */
void
slurm_arm_rest(struct slurm *b)
{
	uint64_t	 now = uv_now(b->loop), due = b->full_at + b->interval;

	if (b->closing || b->polling || uv_is_active((uv_handle_t *)&b->poll))
		return;
	b->confirm = 0;
	uv_timer_start(&b->poll, slurm_poll_due, due > now ? due - now : 0, 0);
}

/* sched_submit(): take a job; it is submitted at the end of this turn. */
static int
slurm_submit(struct sched *s, const struct sched_job *job)
{
	struct slurm		*b = (struct slurm *)s;
	struct slurm_job	*j;

	if (b->closing || job->token == NULL || job->dir == NULL ||
	    job->argv == NULL || job->argv[0] == NULL || job->nodes < 1 ||
	    job->tasks_per_node < 1 || job->cpus_per_task < 1 ||
	    job->gpus_per_node < 0 || job->time_limit < 0)
		return -1;
	j = slurm_calloc(1, sizeof(*j));
	/* Written with the submit, off the loop thread. */
	j->jobfile = slurm_render_jobfile(job);
	j->token = slurm_strdup(job->token);
	j->name = slurm_strdup(job->name != NULL ? job->name : job->token);
	j->dir = slurm_strdup(job->dir);
	j->env = slurm_strv_dup(job->env);
	j->nodes = job->nodes;
	j->tasks_per_node = job->tasks_per_node;
	j->cpus_per_task = job->cpus_per_task;
	j->gpus_per_node = job->gpus_per_node;
	j->time_limit = job->time_limit;
	j->partition = slurm_strdup(job->partition);
	j->account = slurm_strdup(job->account);
	j->qos = slurm_strdup(job->qos);
	j->constraint = slurm_strdup(job->constraint);
	j->extra = job->extra;
	j->extra.reservation = slurm_strdup(job->extra.reservation);
	j->extra.sbatch = job->extra.sbatch == NULL ? NULL :
	    slurm_strv_dup((const char *const *)job->extra.sbatch);
	j->task = SLURM_NO_TASK;
	j->comment = slurm_strdup(job->token);
	j->after = slurm_strdup(job->after);
	j->cb = job->cb;
	j->arg = job->arg;
	j->state = SJ_QUEUED;
	TAILQ_INSERT_TAIL(&b->jobs, j, entry);
	b->njobs++;
	uv_timer_start(&b->flush, slurm_flush, 0, 0);
	return 0;
}

/* Find a job by token. */
static struct slurm_job *
slurm_lookup(struct slurm *b, const char *token)
{
	struct slurm_job	*j;

	TAILQ_FOREACH(j, &b->jobs, entry)
		if (strcmp(j->token, token) == 0)
			return j;
	return NULL;
}

/* sched_cancel(): scancel the job; its END follows from a poll. */
static int
slurm_cancel(struct sched *s, const char *token)
{
	struct slurm		*b = (struct slurm *)s;
	struct slurm_job	*j;

	if ((j = slurm_lookup(b, token)) == NULL)
		return -1;
	j->cancel = 1;
	if (j->state == SJ_QUEUED)
		uv_timer_start(&b->flush, slurm_flush, 0, 0);
	else
		slurm_kill(b, j);
	return 0;
}

/* Parse "123" or "123_4"; 0 if it is neither. */
static int
slurm_parse_id(const char *s, uint32_t *id, uint32_t *task)
{
	unsigned long	 a, t = SLURM_NO_TASK;
	char		*end;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (errno != 0 || end == s || a == 0 || a >= UINT32_MAX)
		return 0;
	if (*end == '_') {
		s = end + 1;
		t = strtoul(s, &end, 10);
		if (errno != 0 || end == s || t >= UINT32_MAX)
			return 0;
	}
	if (*end != '\0')
		return 0;
	*id = (uint32_t)a;
	*task = (uint32_t)t;
	return 1;
}

/*
 * sched_release(): the job's owner is gone.  The job stays in the table,
 * followed as before (its submit, kill or poll may be in flight), but its
 * events go nowhere; its END forgets it.  A later adopt of its token takes
 * it back (slurm_rebind), or, once it is forgotten, finds it again in the
 * controller's records or its result.json as after a restart.
 */
static int
slurm_release(struct sched *s, const char *token)
{
	struct slurm_job	*j;

	if ((j = slurm_lookup((struct slurm *)s, token)) != NULL) {
		j->cb = NULL;
		j->arg = NULL;
	}
	return 0;
}

/*
 * If token's job was released: hand it to cb(arg) and return 1, else 0.
 * Its adopter hears from the controller's view again: STARTED from the
 * next record that shows it running, SUBMITTED first when the adopter
 * has no job id (the one it was told was in a lost ledger batch).
 */
static int
slurm_rebind(struct slurm *b, const char *token, const char *job_id,
    sched_event_cb cb, void *arg)
{
	struct slurm_job	*j;

	TAILQ_FOREACH(j, &b->jobs, entry)
		if (j->cb == NULL && strcmp(j->token, token) == 0)
			break;
	if (j == NULL)
		return 0;
	j->cb = cb;
	j->arg = arg;
	j->started = 0;
	j->resend = j->state == SJ_LIVE && job_id == NULL;
	j->pend[0] = '\0';	/* its new owner hears why it waits */
	b->interval = b->opts.poll_min;
	slurm_arm(b);
	return 1;
}

/* sched_adopt(): follow a job an earlier process (or engine) submitted. */
static int
slurm_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	struct slurm		*b = (struct slurm *)s;
	struct slurm_job	*j;
	uint32_t		 id = 0, task = SLURM_NO_TASK;

	if (b->closing || token == NULL || dir == NULL || cb == NULL)
		return -1;
	if (slurm_rebind(b, token, job_id, cb, arg))
		return 0;
	j = slurm_calloc(1, sizeof(*j));
	j->token = slurm_strdup(token);
	j->name = slurm_strdup(token);
	j->dir = slurm_strdup(dir);
	j->env = slurm_calloc(1, sizeof(*j->env));
	j->cb = cb;
	j->arg = arg;
	j->adopted = 1;
	j->comment = slurm_strdup(token);
	j->task = SLURM_NO_TASK;
	if (job_id != NULL && slurm_parse_id(job_id, &id, &task)) {
		slurm_job_name_id(j, id, task);
		j->state = SJ_LIVE;
		if (task != SLURM_NO_TASK) {
			/*
			 * An array task: its record names the array's list,
			 * which must name this task's job.json.
			 */
			free(j->comment);
			j->comment = NULL;
		}
	} else
		j->state = SJ_UNCERTAIN;
	TAILQ_INSERT_TAIL(&b->jobs, j, entry);
	b->njobs++;
	slurm_watch_start(b, j);
	b->interval = b->opts.poll_min;
	slurm_arm(b);
	return 0;
}

/* sched_active(): jobs whose END is not yet delivered. */
static int
slurm_active(const struct sched *s)
{
	return ((const struct slurm *)s)->njobs;
}

/* A timer is closed; the last one finishes sched_close(). */
static void
slurm_closed(uv_handle_t *h)
{
	struct slurm	*b = h->data;
	void		(*done)(void *) = b->done;
	void		*arg = b->done_arg;

	if (--b->nopen > 0)
		return;
	while (!TAILQ_EMPTY(&b->jobs))
		slurm_job_free(b, TAILQ_FIRST(&b->jobs));
	free(b->wrapper);
	free(b);
	slurm_rpc_fini();
	if (done != NULL)
		done(arg);
}

/* sched_close(): leave the jobs to Slurm, wait for the running RPC. */
static void
slurm_close(struct sched *s, void (*done)(void *), void *arg)
{
	struct slurm	*b = (struct slurm *)s;

	struct slurm_job *j;

	b->closing = 1;
	b->done = done;
	b->done_arg = arg;
	TAILQ_FOREACH(j, &b->jobs, entry)
		slurm_watch_stop(j);
	uv_timer_stop(&b->poll);
	uv_timer_stop(&b->flush);
	slurm_kick(b);
}

static const struct sched_ops slurm_ops = {
	.name = "slurm",
	.submit = slurm_submit,
	.cancel = slurm_cancel,
	.adopt = slurm_adopt,
	.active = slurm_active,
	.close = slurm_close,
	.release = slurm_release,
};

/* Create the Slurm backend. */
struct sched *
sched_slurm_new(struct uv_loop_s *loop, const char *wrapper,
    const struct sched_slurm_opts *opts, char *err, size_t errlen)
{
	struct slurm	*b;

	if (opts->poll_min < 1 || opts->poll_max < opts->poll_min) {
		snprintf(err, errlen, "slurm: bad poll interval");
		return NULL;
	}
	if (slurm_rpc_check(err, errlen) == -1)
		return NULL;
	b = slurm_calloc(1, sizeof(*b));
	b->sched.ops = &slurm_ops;
	b->loop = loop;
	b->wrapper = slurm_strdup(wrapper);
	b->opts = *opts;
	b->interval = opts->poll_min;
	b->full_at = uv_now(loop);
	TAILQ_INIT(&b->jobs);
	TAILQ_INIT(&b->queue);
	uv_timer_init(loop, &b->poll);
	uv_timer_init(loop, &b->flush);
	b->poll.data = b->flush.data = b;
	b->nopen = 2;
	slurm_rpc_init();
	return &b->sched;
}
