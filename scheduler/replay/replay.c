/*
 * replay.c: the replay backend.  It runs no program: each job is answered
 * from a table of real learning curves (replay_table.h) on a virtual
 * clock, so that a campaign of hundreds of trials runs in seconds through
 * the real engine, search, stopper and ledger.
 *
 * The clock starts at the whole second of wall-clock time when the
 * backend is created (so every virtual time is that second plus the same
 * sums, rounded alike: two replays of one spec give the same costs to the
 * last digit whenever they run) and moves only when the engine has nothing left to do: one step at a time,
 * to the end of the next epoch of the running job that gets there first.
 * That epoch's MLLOG line goes to the job's stdout and a SCHED_EV_OUTPUT
 * event asks the engine to read it, so the engine records the point (and
 * may cancel the job) before the clock moves again.  A job starts as soon
 * as it is submitted, ends after its last epoch (completed, or failed
 * with the real run's exit status), at the first epoch that meets
 * HPO_TARGET as the real trainer would, or when cancelled, at the
 * current virtual time.  Jobs cannot outlive the process: adopt fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>
#include <unistd.h>

#include "replay_table.h"
#include "sched.h"

struct rjob {
	TAILQ_ENTRY(rjob) entry;
	char		*token, *job_id, *out;
	const struct replay_run *run;
	sched_event_cb	 cb;
	void		*arg;
	int		 nodes, gpus, cpus;
	double		 start;		/* virtual start */
	double		 next;		/* virtual end of the next epoch */
	size_t		 epoch;		/* epochs done */
	int		 has_target;
	double		 target;
	int		 ended;		/* END queued */
};

struct rev {
	TAILQ_ENTRY(rev) entry;
	struct sched_event ev;
	char		*token, *job_id, *reason;
	sched_event_cb	 cb;
	void		*arg;
};

struct replay {
	struct sched	 sched;		/* first: the engine's handle */
	struct replay_table *table;
	double		 now;		/* the virtual clock */
	long		 njobs;		/* jobs ever submitted */
	int		 nactive;	/* END not yet delivered */
	TAILQ_HEAD(, rjob) jobs;
	TAILQ_HEAD(revq, rev) events;
	uv_idle_t	 step;		/* runs once per loop iteration */
	int		 closing;
	void		(*done)(void *);
	void		*done_arg;
};

static void	replay_arm(struct replay *);

/* Free a job. */
static void
rjob_free(struct rjob *j)
{
	free(j->token);
	free(j->job_id);
	free(j->out);
	free(j);
}

/* Free an event. */
static void
rev_free(struct rev *e)
{
	free(e->token);
	free(e->job_id);
	free(e->reason);
	free(e);
}

/*
 * An event that cannot be queued would stall the campaign that waits for
 * it: say so and abort.
 */
static _Noreturn void
replay_nomem(void)
{
	fprintf(stderr, "replay: out of memory queueing an event\n");
	abort();
}

/* Queue an event for cb(arg), stamped with the virtual time. */
static void
replay_emit(struct replay *r, sched_event_cb cb, void *arg,
    enum sched_event_type type, const struct rjob *j, const char *reason)
{
	struct rev *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		replay_nomem();
	e->cb = cb;
	e->arg = arg;
	e->ev.type = type;
	e->ev.time = r->now;
	e->ev.exit_code = -1;
	if (j != NULL) {
		if ((e->token = strdup(j->token)) == NULL ||
		    (e->job_id = strdup(j->job_id)) == NULL)
			replay_nomem();
		e->ev.nodes = j->nodes;
		e->ev.gpus = j->gpus;
		e->ev.cpus = j->cpus;
		e->ev.start = j->start;
		e->ev.end = r->now;
	}
	if (reason != NULL && (e->reason = strdup(reason)) == NULL)
		replay_nomem();
	e->ev.token = e->token;
	e->ev.job_id = e->job_id;
	e->ev.reason = e->reason;
	e->ev.host = "replay";
	TAILQ_INSERT_TAIL(&r->events, e, entry);
	replay_arm(r);
}

/* Queue j's END event in state st. */
static void
replay_end(struct replay *r, struct rjob *j, enum sched_state st, int code,
    const char *reason)
{
	struct rev *e;

	j->ended = 1;
	replay_emit(r, j->cb, j->arg, SCHED_EV_END, j, reason);
	e = TAILQ_LAST(&r->events, revq);
	e->ev.state = st;
	e->ev.exit_code = code;
}

/* Append an MLLOG line to the job's stdout. */
static void
replay_write(struct replay *r, const struct rjob *j, const char *key,
    const char *value, size_t epoch)
{
	char line[512];
	int fd, n;

	if (epoch > 0)
		n = snprintf(line, sizeof(line), ":::MLLOG {\"namespace\": \"\", "
		    "\"time_ms\": %.0f, \"event_type\": \"POINT_IN_TIME\", "
		    "\"key\": \"%s\", \"value\": %s, \"metadata\": {\"file\": "
		    "\"replay\", \"epoch_num\": %zu}}\n", r->now * 1000, key,
		    value, epoch);
	else
		n = snprintf(line, sizeof(line), ":::MLLOG {\"namespace\": \"\", "
		    "\"time_ms\": %.0f, \"event_type\": \"INTERVAL_%s\", "
		    "\"key\": \"%s\", \"value\": null, \"metadata\": {\"file\": "
		    "\"replay\"%s}}\n", r->now * 1000, value, key,
		    strcmp(key, "run_stop") == 0 ? ", \"status\": \"success\"" :
		    "");
	if ((fd = open(j->out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0600)) == -1)
		return;
	if (write(fd, line, (size_t)n) != n)
		fprintf(stderr, "hpod: replay: %s: short write\n", j->out);
	close(fd);
}

/* Does v meet the job's target? */
static int
replay_meets(const struct replay *r, const struct rjob *j, double v)
{
	if (!j->has_target)
		return 0;
	return r->table->maximize ? v >= j->target : v <= j->target;
}

/* Play the next epoch of the job that gets there first. */
static void
replay_advance(struct replay *r)
{
	struct rjob *j, *first = NULL;
	char num[32];
	double v;

	TAILQ_FOREACH(j, &r->jobs, entry)
		if (!j->ended && (first == NULL || j->next < first->next))
			first = j;
	if ((j = first) == NULL)
		return;
	if (j->next > r->now)
		r->now = j->next;
	v = j->run->values[j->epoch++];
	snprintf(num, sizeof(num), "%.17g", v);
	replay_write(r, j, r->table->metric, num, j->epoch);
	replay_emit(r, j->cb, j->arg, SCHED_EV_OUTPUT, j, NULL);
	if (j->epoch < j->run->n && !replay_meets(r, j, v)) {
		j->next += j->run->epoch_s[j->epoch];
		return;
	}
	if (j->run->status != 0 && !replay_meets(r, j, v)) {
		snprintf(num, sizeof(num), "exit %d", j->run->status);
		replay_end(r, j, SCHED_FAILED, j->run->status, num);
		return;
	}
	replay_write(r, j, "run_stop", "END", 0);
	replay_end(r, j, SCHED_COMPLETED, 0, "exit 0");
}

/*
 * The backend's step, once per loop iteration: deliver what is queued
 * (the engine reacts, and its 0-ms timer runs in the next iteration's
 * timer phase, before this one comes back); with nothing queued, move
 * the clock one epoch.  An idle handle, not a 0-ms timer re-armed from
 * its own callback: libuv runs such a timer again within the same pass
 * over the timers, and the loop would never poll for a signal.
 */
static void
replay_step(uv_idle_t *h)
{
	struct replay *r = h->data;
	struct rev *e;
	struct rjob *j, *next;

	if (r->closing)
		return;
	if (TAILQ_EMPTY(&r->events))
		replay_advance(r);
	else
		while (!r->closing && (e = TAILQ_FIRST(&r->events)) != NULL) {
			TAILQ_REMOVE(&r->events, e, entry);
			if (e->ev.type == SCHED_EV_END ||
			    e->ev.type == SCHED_EV_SUBMIT_FAILED)
				r->nactive--;
			e->cb(e->arg, &e->ev);
			rev_free(e);
		}
	for (j = TAILQ_FIRST(&r->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->ended) {
			TAILQ_REMOVE(&r->jobs, j, entry);
			rjob_free(j);
		}
	}
	replay_arm(r);
}

/* Run the step again soon if there is anything to do. */
static void
replay_arm(struct replay *r)
{
	struct rjob *j;
	int busy = !TAILQ_EMPTY(&r->events);

	TAILQ_FOREACH(j, &r->jobs, entry)
		busy |= !j->ended;
	if (r->closing)
		return;
	if (busy)
		uv_idle_start(&r->step, replay_step);
	else
		uv_idle_stop(&r->step);
}

/* Take a job: find its run, start it now. */
static int
replay_submit(struct sched *s, const struct sched_job *job)
{
	struct replay *r = (struct replay *)s;
	struct rjob *j;
	const char *t;
	char err[256], *end;

	if (job->token == NULL || job->dir == NULL || job->cb == NULL)
		return -1;
	if ((j = calloc(1, sizeof(*j))) == NULL)
		return -1;
	if (asprintf(&j->job_id, "replay-%ld", r->njobs + 1) == -1)
		j->job_id = NULL;
	if (asprintf(&j->out, "%s/stdout", job->dir) == -1)
		j->out = NULL;
	if ((j->token = strdup(job->token)) == NULL || j->job_id == NULL ||
	    j->out == NULL) {
		rjob_free(j);
		return -1;
	}
	r->njobs++;
	j->cb = job->cb;
	j->arg = job->arg;
	j->nodes = job->nodes;
	j->gpus = job->nodes * job->gpus_per_node;
	j->cpus = job->nodes * job->tasks_per_node * job->cpus_per_task;
	r->nactive++;
	if ((j->run = replay_table_find(r->table, job->env, err,
	    sizeof(err))) == NULL) {
		replay_emit(r, j->cb, j->arg, SCHED_EV_SUBMIT_FAILED, j, err);
		rjob_free(j);
		return 0;
	}
	if ((t = replay_env(job->env, "HPO_TARGET")) != NULL) {
		j->target = strtod(t, &end);
		j->has_target = *t != '\0' && *end == '\0';
	}
	j->start = r->now;
	j->next = r->now + j->run->start_s + (j->run->n > 0 ?
	    j->run->epoch_s[0] : 0);
	TAILQ_INSERT_TAIL(&r->jobs, j, entry);
	replay_emit(r, j->cb, j->arg, SCHED_EV_SUBMITTED, j, NULL);
	replay_emit(r, j->cb, j->arg, SCHED_EV_STARTED, j, NULL);
	replay_write(r, j, "run_start", "START", 0);
	if (j->run->n == 0) {
		snprintf(err, sizeof(err), "exit %d", j->run->status);
		replay_end(r, j, j->run->status == 0 ? SCHED_COMPLETED :
		    SCHED_FAILED, j->run->status, err);
	}
	return 0;
}

/* Cancel a job now, at the virtual time. */
static int
replay_cancel(struct sched *s, const char *token)
{
	struct replay *r = (struct replay *)s;
	struct rjob *j;

	TAILQ_FOREACH(j, &r->jobs, entry)
		if (!j->ended && strcmp(j->token, token) == 0) {
			replay_end(r, j, SCHED_CANCELLED, -1, "cancelled");
			return 0;
		}
	return -1;
}

/* A replayed job lives only as long as the process that replays it. */
static int
replay_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	return -1;
}

/* Jobs whose END is not yet delivered. */
static int
replay_active(const struct sched *s)
{
	return ((const struct replay *)s)->nactive;
}

/* The virtual clock. */
static double
replay_now(const struct sched *s)
{
	return ((const struct replay *)s)->now;
}

/* The timer is closed: free everything and tell the owner. */
static void
replay_closed(uv_handle_t *h)
{
	struct replay *r = h->data;
	struct rjob *j;
	struct rev *e;

	while ((j = TAILQ_FIRST(&r->jobs)) != NULL) {
		TAILQ_REMOVE(&r->jobs, j, entry);
		rjob_free(j);
	}
	while ((e = TAILQ_FIRST(&r->events)) != NULL) {
		TAILQ_REMOVE(&r->events, e, entry);
		rev_free(e);
	}
	replay_table_free(r->table);
	if (r->done != NULL)
		r->done(r->done_arg);
	free(r);
}

/* Drop every job and close the timer. */
static void
replay_close(struct sched *s, void (*done)(void *), void *arg)
{
	struct replay *r = (struct replay *)s;

	r->closing = 1;
	r->done = done;
	r->done_arg = arg;
	uv_close((uv_handle_t *)&r->step, replay_closed);
}

static const struct sched_ops replay_ops = {
	.name = "replay",
	.submit = replay_submit,
	.cancel = replay_cancel,
	.adopt = replay_adopt,
	.active = replay_active,
	.close = replay_close,
	.now = replay_now,
	.in_process = 1,
};

/* Create a replay backend answering from the table at path. */
struct sched *
sched_replay_new(uv_loop_t *loop, const char *path, char *err, size_t errlen)
{
	struct replay *r;
	struct timespec ts;

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if ((r->table = replay_table_load(path, err, errlen)) == NULL) {
		free(r);
		return NULL;
	}
	r->sched.ops = &replay_ops;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->now = (double)ts.tv_sec;
	TAILQ_INIT(&r->jobs);
	TAILQ_INIT(&r->events);
	uv_idle_init(loop, &r->step);
	r->step.data = r;
	return &r->sched;
}
