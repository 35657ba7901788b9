/*
 * local.c: the local backend.  Each job runs on this machine as a child
 * process, through the hpo-trial wrapper, in its own session so that it
 * survives the daemon.  Jobs start first come, first served, when the CPUs
 * they need are free.
 *
 * Events are never delivered from inside a call of the engine: they are
 * queued and a 0-ms timer delivers them from the loop.  A job is counted
 * by active() until its END event has been delivered.
 *
 * Adopted jobs (started by an earlier daemon) are in local_adopt.c,
 * spawning a job in local_spawn.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "local_int.h"

static void	local_schedule(struct local *);

/* Return the wall-clock time in seconds since the epoch. */
double
local_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
ljob_free(struct ljob *j)
{
	free(j->token);
	free(j->dir);
	free(j->job_id);
	local_strv_free(j->argv);
	local_strv_free(j->env);
	free(j);
}

/* Free a queued event. */
static void
lev_free(struct lev *e)
{
	free(e->token);
	free(e->job_id);
	free(e->host);
	free(e->reason);
	free(e);
}

/* Return the live job named token, or NULL. */
struct ljob *
local_find(struct local *l, const char *token)
{
	struct ljob *j;

	TAILQ_FOREACH(j, &l->jobs, entry)
		if (strcmp(j->token, token) == 0)
			return j;
	return NULL;
}

/* Deliver the queued events, oldest first. */
static void
local_deliver(uv_timer_t *h)
{
	struct local *l = h->data;
	struct lev *e;

	while (!l->closing && (e = TAILQ_FIRST(&l->events)) != NULL) {
		TAILQ_REMOVE(&l->events, e, entry);
		/* A released job's: held until it is adopted again. */
		if (e->cb == NULL) {
			TAILQ_INSERT_TAIL(&l->held, e, entry);
			continue;
		}
		if (e->ev.type == SCHED_EV_END ||
		    e->ev.type == SCHED_EV_SUBMIT_FAILED)
			l->nactive--;
		e->cb(e->arg, &e->ev);
		lev_free(e);
	}
}

/* Stop reporting token's events; they are held for a later adopt(). */
int
local_release(struct sched *s, const char *token)
{
	struct local *l = (struct local *)s;
	struct ljob *j;
	struct lev *e;

	TAILQ_FOREACH(e, &l->events, entry)
		if (e->token != NULL && strcmp(e->token, token) == 0)
			e->cb = NULL;
	TAILQ_FOREACH(j, &l->jobs, entry)
		if (strcmp(j->token, token) == 0) {
			j->cb = NULL;
			j->arg = NULL;
		}
	return 0;
}

/*
 * If token was released: hand its job and its held events to cb(arg),
 * and return 1; else 0.
 */
int
local_rebind(struct local *l, const char *token, sched_event_cb cb,
    void *arg)
{
	struct ljob *j;
	struct lev *e, *next;
	int found = 0;

	TAILQ_FOREACH(j, &l->jobs, entry)
		if (strcmp(j->token, token) == 0 && j->cb == NULL) {
			j->cb = cb;
			j->arg = arg;
			found = 1;
		}
	for (e = TAILQ_FIRST(&l->held); e != NULL; e = next) {
		next = TAILQ_NEXT(e, entry);
		if (e->token == NULL || strcmp(e->token, token) != 0)
			continue;
		TAILQ_REMOVE(&l->held, e, entry);
		e->cb = cb;
		e->arg = arg;
		TAILQ_INSERT_TAIL(&l->events, e, entry);
		found = 1;
	}
	TAILQ_FOREACH(e, &l->events, entry)
		if (e->cb == NULL && e->token != NULL &&
		    strcmp(e->token, token) == 0) {
			e->cb = cb;
			e->arg = arg;
			found = 1;
		}
	/* Its STARTED was delivered to the owner that released it. */
	TAILQ_FOREACH(j, &l->jobs, entry)
		if (strcmp(j->token, token) == 0 && j->cb == cb &&
		    j->arg == arg)
			local_restarted(j);
	if (found)
		uv_timer_start(&l->defer, local_deliver, 0, 0);
	return found;
}

/*
 * Queue ev for delivery to cb(arg), copying its strings.  Running out of
 * memory here would lose an event the engine counts on: that is fatal.
 */
void
local_emit(struct local *l, sched_event_cb cb, void *arg,
    const struct sched_event *ev)
{
	struct lev *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		goto oom;
	e->ev = *ev;
	e->cb = cb;
	e->arg = arg;
	if ((ev->token && (e->token = strdup(ev->token)) == NULL) ||
	    (ev->job_id && (e->job_id = strdup(ev->job_id)) == NULL) ||
	    (ev->host && (e->host = strdup(ev->host)) == NULL) ||
	    (ev->reason && (e->reason = strdup(ev->reason)) == NULL))
		goto oom;
	e->ev.token = e->token;
	e->ev.job_id = e->job_id;
	e->ev.host = e->host;
	e->ev.reason = e->reason;
	if (e->ev.time == 0)
		e->ev.time = local_now();
	TAILQ_INSERT_TAIL(&l->events, e, entry);
	uv_timer_start(&l->defer, local_deliver, 0, 0);
	return;
oom:
	fprintf(stderr, "hpod: local backend: out of memory\n");
	abort();
}

/*
 * Queue j's STARTED event (again, when its owner released it and took it
 * back: the owner may have lost the first one's record): a job we
 * spawned, with its allocation, or one adopted, from its result.json.
 */
void
local_restarted(struct ljob *j)
{
	struct sched_event ev;

	if (j->state == LJOB_ADOPTED) {
		local_adopted_started(j);
		return;
	}
	if (j->state != LJOB_RUNNING || j->started_at <= 0)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_STARTED;
	ev.token = j->token;
	ev.job_id = j->job_id;
	ev.time = j->started_at;
	ev.exit_code = -1;
	ev.host = j->l->host;
	ev.nodes = 1;
	ev.gpus = j->gpus;
	ev.cpus = j->cpus;
	local_emit(j->l, j->cb, j->arg, &ev);
}

/* Queue an END event for j with state st. */
void
local_end(struct ljob *j, enum sched_state st, const struct trial_result *r,
    const char *reason)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_END;
	ev.token = j->token;
	ev.job_id = j->job_id;
	ev.state = st;
	ev.exit_code = r != NULL ? r->exit_code : -1;
	ev.signal = r != NULL ? r->signal : 0;
	ev.start = r != NULL ? r->start : 0;
	ev.end = r != NULL ? r->end : 0;
	ev.reason = reason;
	local_emit(j->l, j->cb, j->arg, &ev);
}

/* Queue the END event that a finished result r means for j. */
void
local_end_result(struct ljob *j, const struct trial_result *r)
{
	char reason[64];
	enum sched_state st;

	if (r->signal != 0)
		snprintf(reason, sizeof(reason), "signal %d", r->signal);
	else
		snprintf(reason, sizeof(reason), "exit %d", r->exit_code);
	if (r->timed_out) {
		st = SCHED_TIMEOUT;
		snprintf(reason, sizeof(reason), "time limit reached");
	} else if (j->cancelled) {
		st = SCHED_CANCELLED;
		snprintf(reason, sizeof(reason), "cancelled");
	} else if (r->signal == 0 && r->exit_code == 0)
		st = SCHED_COMPLETED;
	else
		st = SCHED_FAILED;
	local_end(j, st, r, reason);
}

/* Count a closed handle; the last one at close time finishes the close. */
static void
local_handle_closed(struct local *l)
{
	void (*done)(void *) = l->done;
	void *arg = l->done_arg;

	if (--l->nopen > 0 || !l->closing)
		return;
	free(l->wrapper);
	free(l);
	if (done != NULL)
		done(arg);
}

/* Close callback of a job's handles: free the job with its last one. */
static void
local_job_closed(uv_handle_t *h)
{
	struct ljob *j = h->data;
	struct local *l = j->l;

	if (--j->nopen == 0) {
		TAILQ_REMOVE(&l->jobs, j, entry);
		ljob_free(j);
	}
	local_handle_closed(l);
}

/* Close h if it is still open. */
static void
local_job_close_handle(uv_handle_t *h)
{
	if (!uv_is_closing(h))
		uv_close(h, local_job_closed);
}

/* Close a started job's handles; it is freed when they are closed. */
static void
local_job_release(struct ljob *j)
{
	if (j->spawned)
		local_job_close_handle((uv_handle_t *)&j->proc);
	local_job_close_handle((uv_handle_t *)&j->grace);
	local_job_close_handle((uv_handle_t *)&j->limit);
}

/* Finish a started job: give back its CPUs and let queued jobs start. */
static void
local_job_finish(struct ljob *j)
{
	struct local *l = j->l;

	j->state = LJOB_DONE;
	l->used -= j->cpus;
	local_job_release(j);
	local_schedule(l);
}

/* Exit callback of a wrapper: read its result.json and end the job. */
void
local_exited(uv_process_t *p, int64_t status, int sig)
{
	struct ljob *j = p->data;
	struct trial_result r;
	char err[PATH_MAX + 128], reason[PATH_MAX + 192];
	int rc;

	rc = result_read(j->dir, &r, err, sizeof(err));
	if (rc == 0 && r.running && sig == 0) {
		/*
		 * hpo-trial ran the workload and exited with its status but
		 * could not record it (a full disk): its exit status and this
		 * moment are the outcome, not a lost job to run again.
		 */
		r.running = 0;
		r.end = local_now();
		r.exit_code = status > 128 && status < 128 + 65 ? -1 :
		    (int)status;
		r.signal = status > 128 && status < 128 + 65 ?
		    (int)status - 128 : 0;
	}
	if (rc == 0 && !r.running) {
		local_end_result(j, &r);
		local_job_finish(j);
		return;
	}
	if (rc == 0) {
		/* The wrapper died before the workload, e.g. by SIGKILL. */
		r.end = local_now();
		r.exit_code = sig != 0 ? -1 : (int)status;
		r.signal = sig;
		snprintf(reason, sizeof(reason), "hpo-trial %s %d without a "
		    "result", sig != 0 ? "killed by signal" : "exited",
		    sig != 0 ? sig : (int)status);
	} else {
		memset(&r, 0, sizeof(r));
		r.exit_code = sig != 0 ? -1 : (int)status;
		r.signal = sig;
		snprintf(reason, sizeof(reason), "hpo-trial %s %d: %s",
		    sig != 0 ? "killed by signal" : "exited",
		    sig != 0 ? sig : (int)status,
		    rc == 1 ? "no result.json" : err);
	}
	if (j->cancelled)
		local_end(j, SCHED_CANCELLED, &r, reason);
	else if (j->overdue)
		local_end(j, SCHED_TIMEOUT, &r, reason);
	else
		local_end(j, SCHED_LOST, &r, reason);
	local_job_finish(j);
}

/* Kill the wrapper's process group: its grace time is over. */
static void
local_grace_over(uv_timer_t *h)
{
	struct ljob *j = h->data;

	kill(-(pid_t)j->pid, SIGKILL);
}

/* Kill the wrapper's process group: it ran far past its time limit. */
static void
local_limit_over(uv_timer_t *h)
{
	struct ljob *j = h->data;

	j->overdue = 1;
	kill(-(pid_t)j->pid, SIGKILL);
}

static void
local_start(struct local *l, struct ljob *j)
{
	char reason[PATH_MAX + 128], id[32];
	int rc;

	j->state = LJOB_RUNNING;
	l->used += j->cpus;
	uv_timer_init(l->loop, &j->grace);
	uv_timer_init(l->loop, &j->limit);
	j->grace.data = j->limit.data = j;
	j->nopen += 2;
	l->nopen += 2;
	rc = local_spawn(j, reason, sizeof(reason));
	if (rc == -1) {
		local_end(j, SCHED_LOST, NULL, reason);
		j->state = LJOB_DONE;
		l->used -= j->cpus;
		local_job_release(j);
		return;
	}
	j->pid = j->proc.pid;
	snprintf(id, sizeof(id), "%ld", j->pid);
	free(j->job_id);
	if ((j->job_id = strdup(id)) == NULL) {
		fprintf(stderr, "hpod: local backend: out of memory\n");
		abort();
	}
	j->started_at = local_now();
	local_restarted(j);
	if (j->time_limit > 0)
		uv_timer_start(&j->limit, local_limit_over,
		    ((uint64_t)j->time_limit + LOCAL_SLACK_S) * 1000, 0);
}

/* Start queued jobs, in order, while the first one fits. */
static void
local_schedule(struct local *l)
{
	struct ljob *j, *next;

	if (l->closing)
		return;
	for (j = TAILQ_FIRST(&l->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state != LJOB_QUEUED)
			continue;
		if (j->cpus > l->cpus - l->used)
			break;
		local_start(l, j);
	}
}

/* Return n, or 1 if n is less than 1. */
static long long
local_atleast1(int n)
{
	return n < 1 ? 1 : n;
}

/* Make a job record for token; NULL when out of memory. */
struct ljob *
local_job_new(struct local *l, const char *token, const char *dir,
    sched_event_cb cb, void *arg)
{
	struct ljob *j;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return NULL;
	j->l = l;
	j->cb = cb;
	j->arg = arg;
	if ((j->token = strdup(token)) == NULL ||
	    (j->dir = strdup(dir)) == NULL) {
		ljob_free(j);
		return NULL;
	}
	return j;
}

/* Take a job: queue it and start it when its CPUs are free. */
static int
local_submit(struct sched *s, const struct sched_job *job)
{
	struct local *l = (struct local *)s;
	struct sched_event ev;
	struct ljob *j;
	char dir[PATH_MAX];
	long long cpus;
	static const char *const noenv[] = { NULL };

	if (l->closing || job->token == NULL || job->dir == NULL ||
	    job->argv == NULL || job->argv[0] == NULL || job->cb == NULL ||
	    local_find(l, job->token) != NULL)
		return -1;
	cpus = local_atleast1(job->nodes) * local_atleast1(job->tasks_per_node) *
	    local_atleast1(job->cpus_per_task);
	if (cpus > l->cpus)
		return -1;
	/* The wrapper runs in dir: give it a path that works from there. */
	if (realpath(job->dir, dir) == NULL)
		return -1;
	if ((j = local_job_new(l, job->token, dir, job->cb, job->arg)) == NULL)
		return -1;
	j->cpus = (int)cpus;
	j->nodes = (int)local_atleast1(job->nodes);
	j->gpus = job->gpus_per_node > 0 ? j->nodes * job->gpus_per_node : 0;
	j->time_limit = job->time_limit > 0 ? job->time_limit : 0;
	if ((j->argv = local_strv(job->argv)) == NULL ||
	    (j->env = local_strv(job->env ? job->env : noenv)) == NULL) {
		ljob_free(j);
		return -1;
	}
	j->state = LJOB_QUEUED;
	TAILQ_INSERT_TAIL(&l->jobs, j, entry);
	l->nactive++;
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_SUBMITTED;
	ev.token = j->token;
	ev.exit_code = -1;
	local_emit(l, j->cb, j->arg, &ev);
	local_schedule(l);
	return 0;
}

/* Cancel a job: drop it if queued, else SIGTERM its wrapper. */
static int
local_cancel(struct sched *s, const char *token)
{
	struct local *l = (struct local *)s;
	struct ljob *j;

	if ((j = local_find(l, token)) == NULL)
		return -1;
	if (j->cancelled || j->state == LJOB_DONE)
		return 0;
	j->cancelled = 1;
	switch (j->state) {
	case LJOB_QUEUED:
		local_end(j, SCHED_CANCELLED, NULL, "cancelled before it "
		    "started");
		TAILQ_REMOVE(&l->jobs, j, entry);
		ljob_free(j);
		local_schedule(l);
		break;
	case LJOB_RUNNING:
		uv_process_kill(&j->proc, SIGTERM);
		uv_timer_start(&j->grace, local_grace_over, LOCAL_GRACE_MS, 0);
		break;
	case LJOB_ADOPTED:
		local_kill_adopted(j, SIGTERM);
		j->kill_at = local_now() + LOCAL_GRACE_S;
		break;
	case LJOB_DONE:
		break;
	}
	return 0;
}

/* Return the number of jobs whose END has not been delivered. */
static int
local_active(const struct sched *s)
{
	const struct local *l = (const struct local *)s;

	return l->nactive;
}

/* Close callback of the backend's own timers. */
static void
local_timer_closed(uv_handle_t *h)
{
	local_handle_closed(h->data);
}

/*
 * Release everything: pending events are dropped, running jobs keep
 * running (they are detached) and can be adopted by the next daemon.
 */
static void
local_close(struct sched *s, void (*done)(void *), void *arg)
{
	struct local *l = (struct local *)s;
	struct ljob *j, *next;
	struct lev *e;

	if (l->closing)
		return;
	l->closing = 1;
	l->done = done;
	l->done_arg = arg;
	while ((e = TAILQ_FIRST(&l->events)) != NULL) {
		TAILQ_REMOVE(&l->events, e, entry);
		lev_free(e);
	}
	while ((e = TAILQ_FIRST(&l->held)) != NULL) {
		TAILQ_REMOVE(&l->held, e, entry);
		lev_free(e);
	}
	for (j = TAILQ_FIRST(&l->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state == LJOB_QUEUED || j->state == LJOB_ADOPTED) {
			TAILQ_REMOVE(&l->jobs, j, entry);
			ljob_free(j);
		} else
			local_job_release(j);
	}
	uv_timer_stop(&l->defer);
	uv_timer_stop(&l->watch);
	uv_close((uv_handle_t *)&l->defer, local_timer_closed);
	uv_close((uv_handle_t *)&l->watch, local_timer_closed);
}

static const struct sched_ops local_ops = {
	.name = "local",
	.submit = local_submit,
	.cancel = local_cancel,
	.adopt = local_adopt,
	.active = local_active,
	.close = local_close,
	.release = local_release
};

/* Create the local backend, running jobs through the wrapper at path. */
struct sched *
sched_local_new(uv_loop_t *loop, const char *path, int cpus, char *err,
    size_t errlen)
{
	struct local *l;
	char abspath[PATH_MAX];

	if (cpus < 1) {
		snprintf(err, errlen, "local backend: cpus must be >= 1, "
		    "not %d", cpus);
		return NULL;
	}
	/* Jobs run in their own directory: a relative path would break. */
	if (strchr(path, '/') != NULL) {
		if (realpath(path, abspath) == NULL) {
			snprintf(err, errlen, "'%s': %s", path,
			    strerror(errno));
			return NULL;
		}
		path = abspath;
		if (access(path, X_OK) == -1) {
			snprintf(err, errlen, "'%s': %s", path,
			    strerror(errno));
			return NULL;
		}
	}
	if ((l = calloc(1, sizeof(*l))) == NULL ||
	    (l->wrapper = strdup(path)) == NULL) {
		free(l);
		snprintf(err, errlen, "local backend: out of memory");
		return NULL;
	}
	l->sched.ops = &local_ops;
	l->loop = loop;
	l->cpus = cpus;
	if (gethostname(l->host, sizeof(l->host) - 1) == -1)
		snprintf(l->host, sizeof(l->host), "localhost");
	TAILQ_INIT(&l->jobs);
	TAILQ_INIT(&l->events);
	TAILQ_INIT(&l->held);
	uv_timer_init(loop, &l->defer);
	uv_timer_init(loop, &l->watch);
	l->defer.data = l->watch.data = l;
	l->nopen = 2;
	return &l->sched;
}
