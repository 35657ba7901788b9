/*
 * slurm.c: the Slurm backend.  Each job is one batch job (or one task of a
 * job array) that runs hpo-trial with the attempt's job.json.
 *
 * Everything here runs on the loop thread.  libslurm calls go to a worker
 * (slurm_rpc.c) one at a time, in a queue: cancels first, then submits and
 * polls in order.  One poll loads every job of the user in one RPC; the
 * poll period starts at poll_min and doubles up to poll_max while nothing
 * changes, as sbatch --wait does, and also while slurmctld does not answer.
 *
 * A job is known by its token, which its comment carries; a job id is only
 * trusted together with the token, since ids wrap.  A submit whose answer
 * was lost is looked for by token before it is submitted again.  A job the
 * controller has forgotten (MinJobAge) is resolved from its result.json.
 */
#include <sys/queue.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "file.h"
#include "jobfile.h"
#include "result.h"
#include "sched.h"
#include "slurm_int.h"

extern char **environ;

enum slurm_job_state {
	SJ_QUEUED,		/* waiting for the next flush */
	SJ_SUBMITTING,		/* its submit RPC is queued or running */
	SJ_UNCERTAIN,		/* submit answer lost: look for the token */
	SJ_LIVE			/* the controller has it */
};

struct slurm_job {
	TAILQ_ENTRY(slurm_job) entry;
	enum slurm_job_state state;
	char		*token, *name, *dir;
	char		**env;		/* the job's own NAME=VALUE entries */
	int		 nodes, tasks_per_node, cpus_per_task, gpus_per_node;
	long		 time_limit;
	char		*partition, *account, *qos, *constraint;
	uint32_t	 id;		/* job id (array: the array's), 0 = ? */
	uint32_t	 task;		/* array task, SLURM_NO_TASK if none */
	char		*comment;	/* what its record's comment must be */
	char		 job_id[32];	/* "123" or "123_4" */
	uint32_t	 seen;		/* last state seen, for back-off */
	int		 adopted;	/* from an earlier process */
	int		 started;	/* STARTED delivered */
	int		 cancel;	/* cancel asked for */
	int		 killing;	/* a kill is queued or running */
	double		 submitted;	/* when the controller took it */
	double		 started_at;	/* the STARTED event's time */
	double		 absent_after;	/* SJ_UNCERTAIN: trust "no such job"
					   only from polls after this */
	sched_event_cb	 cb;
	void		*arg;
};

struct slurm {
	struct sched	 sched;		/* first: the engine's handle */
	uv_loop_t	*loop;
	char		*wrapper;
	struct sched_slurm_opts opts;
	TAILQ_HEAD(, slurm_job) jobs;
	TAILQ_HEAD(, slurm_work) queue;
	struct slurm_work *inflight;
	uv_timer_t	 poll;		/* the poll cycle */
	uv_timer_t	 flush;		/* submits of one loop turn together */
	uint64_t	 interval;	/* current poll period, ms */
	uint32_t	 max_array;	/* MaxArraySize, 0 = not known yet */
	int		 polling;	/* a poll is queued or running */
	int		 flush_after_poll;
	int		 unreachable;	/* slurmctld is not answering */
	int		 njobs;
	int		 nopen;
	int		 closing;
	void		(*done)(void *);
	void		*done_arg;
};

#define SLURM_LOST_GRACE_S	30	/* a lost request may still arrive */

static void	slurm_kick(struct slurm *);
static void	slurm_arm(struct slurm *);
static void	slurm_flush(uv_timer_t *);

/* Duplicate s (NULL stays NULL); abort on exhaustion like the rest. */
static char *
slurm_strdup(const char *s)
{
	char	*p;

	if (s == NULL)
		return NULL;
	if ((p = strdup(s)) == NULL) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return p;
}

/* Allocate zeroed memory or abort. */
static void *
slurm_calloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n, size)) == NULL) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return p;
}

/* Format into a new string or abort. */
static char * __attribute__((format(printf, 1, 2)))
slurm_printf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return s;
}

/* Free a NULL-terminated string array. */
static void
slurm_strv_free(char **v)
{
	size_t	 i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Report a condition an operator should know about. */
static void __attribute__((format(printf, 2, 3)))
slurm_warn(const struct slurm *b, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (b->opts.warn != NULL)
		b->opts.warn("slurm: %s", msg);
	else
		fprintf(stderr, "hpod: slurm: %s\n", msg);
}

/* Forget a job. */
static void
slurm_job_free(struct slurm *b, struct slurm_job *j)
{
	TAILQ_REMOVE(&b->jobs, j, entry);
	b->njobs--;
	free(j->token);
	free(j->name);
	free(j->dir);
	slurm_strv_free(j->env);
	free(j->partition);
	free(j->account);
	free(j->qos);
	free(j->constraint);
	free(j->comment);
	free(j);
}

/* The time now, in epoch seconds. */
static double
slurm_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Deliver an event for j (never from inside an sched_* call). */
static void
slurm_emit(struct slurm *b, struct slurm_job *j, struct sched_event *ev)
{
	if (b->closing)
		return;
	ev->token = j->token;
	ev->job_id = j->job_id[0] ? j->job_id : NULL;
	if (ev->time == 0)
		ev->time = slurm_now();
	j->cb(j->arg, ev);
}

/* Deliver END and forget the job. */
static void
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
	ev.time = end > 0 ? end : slurm_now();
	ev.reason = reason;
	slurm_emit(b, j, &ev);
	slurm_job_free(b, j);
}

/* Give a job its controller id: "123", or "123_4" for an array task. */
static void
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
static struct slurm_work *
slurm_work_new(struct slurm *b, enum slurm_op op)
{
	struct slurm_work	*w;

	w = slurm_calloc(1, sizeof(*w));
	w->b = b;
	w->op = op;
	w->req.data = w;
	w->max_array = b->max_array;
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
	slurm_recs_free(w->recs, w->nrecs);
	free(w->jobs);
	free(w);
}

/*
 * The job ran but its record is gone: it started when its result.json
 * says, on what its job.json asked for (an exact request is what Slurm
 * allocates), so that its cost is counted.
 */
static void
slurm_started_from_file(struct slurm *b, struct slurm_job *j,
    const struct trial_result *r)
{
	struct sched_event	 ev;
	struct jobfile		 jf;
	char			*path, err[256];

	path = slurm_printf("%s/job.json", j->dir);
	if (jobfile_read(path, &jf, err, sizeof(err)) == -1) {
		slurm_warn(b, "%s", err);
		free(path);
		return;
	}
	free(path);
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_STARTED;
	ev.time = r->start;
	ev.host = r->host;
	ev.nodes = jf.nodes;
	ev.gpus = jf.gpus;
	ev.cpus = jf.cpus;
	jobfile_release(&jf);
	j->started = 1;
	slurm_emit(b, j, &ev);
}

/* Resolve a job the controller no longer knows from its result.json. */
static void
slurm_resolve(struct slurm *b, struct slurm_job *j, const char *why)
{
	struct trial_result	 r;
	enum sched_state	 st;
	char			 err[256], reason[512];

	if (result_read(j->dir, &r, err, sizeof(err)) == 0 &&
	    strcmp(r.token, j->token) == 0 && !r.running) {
		if (!j->started && r.start > 0)
			slurm_started_from_file(b, j, &r);
		if (j->cancel)
			st = SCHED_CANCELLED;
		else if (r.timed_out)
			st = SCHED_TIMEOUT;
		else if (r.exit_code == 0 && r.signal == 0)
			st = SCHED_COMPLETED;
		else
			st = SCHED_FAILED;
		snprintf(reason, sizeof(reason), "%s; outcome read from "
		    "result.json", why);
		slurm_end(b, j, st, r.exit_code, r.signal, r.start, r.end,
		    reason);
		return;
	}
	snprintf(reason, sizeof(reason), "%s and left no final result.json",
	    why);
	slurm_end(b, j, j->cancel ? SCHED_CANCELLED : SCHED_LOST, -1, 0, 0, 0,
	    reason);
}

/* 1 if the job's wrapper has written a result.json. */
static int
slurm_has_result(const struct slurm_job *j)
{
	struct trial_result	 r;
	char			 err[256];

	return result_read(j->dir, &r, err, sizeof(err)) != 1;
}

/*
 * 1 if the record of an array is the one an adopted task of it belongs to:
 * line `task` of the array's list is the task's job.json.
 */
static int
slurm_list_has(const struct slurm_job *j, const char *comment)
{
	char	*entry, *want, err[256];
	int	 yes;

	if (strncmp(comment, "hpod-array ", 11) != 0)
		return 0;
	if ((entry = jobfile_list_entry(comment + 11, (long)j->task, err,
	    sizeof(err))) == NULL)
		return 0;
	want = slurm_printf("%s/job.json", j->dir);
	yes = strcmp(entry, want) == 0;
	free(entry);
	free(want);
	return yes;
}

/* The record for j in a poll's answer; *pending is set for array tasks
 * still waiting inside their array's record. */
static const struct slurm_rec *
slurm_find(struct slurm_job *j, const struct slurm_rec *recs,
    size_t n, int *pending)
{
	size_t	 i;

	*pending = 0;
	for (i = 0; i < n; i++) {
		const struct slurm_rec *r = &recs[i];

		if (r->comment == NULL || (j->comment != NULL ?
		    strcmp(r->comment, j->comment) != 0 :
		    (r->array_job_id != j->id ||
		    !slurm_list_has(j, r->comment))))
			continue;
		if (j->task == SLURM_NO_TASK) {
			if (j->id == 0 || r->job_id == j->id)
				return r;
			continue;
		}
		if (r->array_job_id != j->id)
			continue;
		if (r->array_task_id == j->task)
			return r;
		if (r->array_task_id == SLURM_NO_TASK &&
		    slurm_tasks_contain(r->array_pending, j->task)) {
			*pending = 1;
			return r;
		}
	}
	return NULL;
}

/* Apply one record to its job; return 1 if the job is gone. */
static int
slurm_apply(struct slurm *b, struct slurm_job *j, const struct slurm_rec *r)
{
	const struct slurm_state *st = slurm_state_of(r->state);
	struct sched_event	 ev;
	enum sched_state	 out;
	struct trial_result	 res;
	char			 err[256], name[128];
	double			 end;
	int			 code, sig;

	/* A job cancelled while pending gets a start time but no nodes. */
	if (r->start > 0 && !j->started && (st->running ||
	    (st->terminal && r->nodes != NULL))) {
		memset(&ev, 0, sizeof(ev));
		ev.type = SCHED_EV_STARTED;
		/* Slurm counts whole seconds; never start before submit. */
		ev.time = j->started_at = (double)r->start < j->submitted ?
		    j->submitted : (double)r->start;
		ev.host = r->nodes;
		ev.nodes = r->nnodes;
		ev.cpus = r->ncpus;
		ev.gpus = r->ngpus;
		j->started = 1;
		slurm_emit(b, j, &ev);
	}
	if (!slurm_rec_final(r))
		return 0;
	out = slurm_rec_outcome(r, &code, &sig);
	/* The wrapper knows how the workload itself ended. */
	if (result_read(j->dir, &res, err, sizeof(err)) == 0 &&
	    strcmp(res.token, j->token) == 0 && !res.running) {
		code = res.exit_code;
		sig = res.signal;
		if (out == SCHED_COMPLETED && (code != 0 || sig != 0))
			out = SCHED_FAILED;
		if (out == SCHED_FAILED && res.timed_out)
			out = SCHED_TIMEOUT;
	}
	slurm_state_format(r->state, name, sizeof(name));
	snprintf(err, sizeof(err), "slurm %s%s%s", name, r->reason[0] ?
	    ": " : "", r->reason);
	end = r->end > 0 ? (double)r->end : 0;
	if (j->started && end < j->started_at)
		end = j->started_at;
	slurm_end(b, j, out, code, sig, j->started ? j->started_at : 0, end,
	    err);
	return 1;
}

/* Queue a kill for a job the controller has. */
static void
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

/* A poll answered: bring every job up to date. */
static void
slurm_polled(struct slurm *b, struct slurm_work *w)
{
	struct slurm_job	*j, *next;
	const struct slurm_rec	*r;
	struct sched_event	 ev;
	int			 changed = 0, pending;

	b->polling = 0;
	if (w->rc != 0) {
		if (!b->unreachable)
			slurm_warn(b, "cannot query slurmctld: %s; "
			    "retrying", slurm_strerror(w->rc));
		b->unreachable = 1;
		b->interval = b->interval * 2 > b->opts.poll_max ?
		    b->opts.poll_max : b->interval * 2;
		slurm_arm(b);
		return;
	}
	if (b->unreachable)
		slurm_warn(b, "slurmctld answers again");
	b->unreachable = 0;
	if (w->max_array > 0)
		b->max_array = w->max_array;
	else if (b->max_array == 0)
		b->max_array = 1001;	/* Slurm's default MaxArraySize */
	for (j = TAILQ_FIRST(&b->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state != SJ_LIVE && j->state != SJ_UNCERTAIN)
			continue;
		r = slurm_find(j, w->recs, w->nrecs, &pending);
		if (r != NULL && j->comment == NULL)
			j->comment = slurm_strdup(r->comment);
		if (j->state == SJ_UNCERTAIN) {
			changed = 1;
			if (r == NULL && w->sent < j->absent_after)
				continue;	/* too early to say */
			if (r == NULL && !j->adopted && !slurm_has_result(j)) {
				/* It never reached the controller. */
				slurm_warn(b, "no job carries token %s; "
				    "submitting it again", j->token);
				j->state = SJ_QUEUED;
				uv_timer_start(&b->flush, slurm_flush, 0, 0);
				continue;
			}
			if (r == NULL) {
				slurm_resolve(b, j, "no job carries its token");
				continue;
			}
			slurm_job_name_id(j, r->array_job_id && j->task !=
			    SLURM_NO_TASK ? r->array_job_id : r->job_id,
			    j->task);
			j->state = SJ_LIVE;
			if (!j->adopted) {
				memset(&ev, 0, sizeof(ev));
				ev.type = SCHED_EV_SUBMITTED;
				ev.time = j->submitted = (double)r->submit;
				slurm_emit(b, j, &ev);
			}
		}
		if (r == NULL) {
			changed = 1;
			slurm_resolve(b, j, "slurmctld no longer knows the job");
			continue;
		}
		if (r->state != j->seen)
			changed = 1;
		j->seen = r->state;
		if (!pending && slurm_apply(b, j, r))
			continue;
		if (j->cancel)
			slurm_kill(b, j);
	}
	if (changed)
		b->interval = b->opts.poll_min;
	else if (b->interval * 2 <= b->opts.poll_max)
		b->interval *= 2;
	else
		b->interval = b->opts.poll_max;
	if (b->flush_after_poll) {
		b->flush_after_poll = 0;
		uv_timer_start(&b->flush, slurm_flush, 0, 0);
	}
	slurm_arm(b);
}

/* A submit answered. */
static void
slurm_submitted(struct slurm *b, struct slurm_work *w)
{
	struct sched_event	 ev;
	struct slurm_job	*j;
	char			 reason[256];
	size_t			 i;

	for (i = 0; i < w->njobs; i++) {
		j = w->jobs[i];
		if (w->rc == 0) {
			slurm_job_name_id(j, w->job_id, w->desc.array ?
			    (uint32_t)i : SLURM_NO_TASK);
			j->state = SJ_LIVE;
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
			j->absent_after = slurm_errno_unsent(w->rc) ? 0 :
			    slurm_now() + SLURM_LOST_GRACE_S;
		} else {
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

/* uv_queue_work's after callback: apply the answer, start the next. */
static void
slurm_after(uv_work_t *req, int status)
{
	struct slurm_work	*w = req->data;
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

/* Start the next queued request if none is running. */
static void
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
		if (b->nopen == 2) {
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

/* The poll timer fired: queue one poll. */
static void
slurm_poll_due(uv_timer_t *h)
{
	struct slurm	*b = h->data;

	if (b->polling || b->closing)
		return;
	b->polling = 1;
	slurm_work_new(b, SLURM_OP_POLL);
	slurm_kick(b);
}

/* Make sure a poll comes when some job needs one. */
static void
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
	uv_timer_start(&b->poll, slurm_poll_due, b->interval, 0);
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
}

/* Queue the submit of one job on its own. */
static void
slurm_submit_one(struct slurm *b, struct slurm_job *j)
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
	free(path);
	w->desc.name = slurm_strdup(j->name);
	w->desc.comment = slurm_strdup(j->token);
	w->desc.work_dir = slurm_strdup(j->dir);
	w->desc.std_out = slurm_printf("%s/slurm.out", j->dir);
	w->desc.env = slurm_environment(j->env);
	slurm_desc_shape(&w->desc, j);
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
	if (file_save(list, text) == -1) {
		/* Fall back to one job each. */
		slurm_warn(b, "%s: %s", list,
		    strerror(errno));
		for (i = 0; i < n; i++)
			slurm_submit_one(b, js[i]);
		free(text);
		free(list);
		return;
	}
	free(text);
	w = slurm_work_new(b, SLURM_OP_SUBMIT);
	w->jobs = slurm_calloc(n, sizeof(*w->jobs));
	w->njobs = n;
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
	free(list);
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
	    SAME_STR(account) && SAME_STR(qos) && SAME_STR(constraint);
#undef SAME_STR
}

/* Submit what was queued in this loop turn, as arrays where it can. */
static void
slurm_flush(uv_timer_t *h)
{
	struct slurm		*b = h->data;
	struct slurm_job	*j, *k, *next, **group;
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
		n = 0;
		group[n++] = j;
		for (k = TAILQ_NEXT(j, entry); k != NULL && n < limit;
		    k = TAILQ_NEXT(k, entry))
			if (k->state == SJ_QUEUED && slurm_same_shape(j, k))
				group[n++] = k;
		if (b->opts.array_min > 0 && n >= (size_t)b->opts.array_min)
			slurm_submit_array(b, group, n);
		else
			slurm_submit_one(b, j);
	}
	free(group);
	slurm_kick(b);
}

/* Copy a NULL-terminated string array. */
static char **
slurm_strv_dup(const char *const *v)
{
	size_t	 n = 0, i;
	char	**c;

	while (v != NULL && v[n] != NULL)
		n++;
	c = slurm_calloc(n + 1, sizeof(*c));
	for (i = 0; i < n; i++)
		c[i] = slurm_strdup(v[i]);
	return c;
}

/* Write the attempt's job.json for hpo-trial. */
static int
slurm_write_jobfile(const struct sched_job *job)
{
	struct jobfile	 jf;
	char		*path;
	int		 rc;

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
	path = slurm_printf("%s/job.json", job->dir);
	rc = jobfile_write(path, &jf);
	free(path);
	return rc;
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
	if (slurm_write_jobfile(job) == -1) {
		slurm_warn(b, "%s/job.json: %s", job->dir,
		    strerror(errno));
		return -1;
	}
	j = slurm_calloc(1, sizeof(*j));
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
	j->task = SLURM_NO_TASK;
	j->comment = slurm_strdup(job->token);
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

/* sched_adopt(): follow a job an earlier process submitted. */
static int
slurm_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	struct slurm		*b = (struct slurm *)s;
	struct slurm_job	*j;
	uint32_t		 id = 0, task = SLURM_NO_TASK;

	if (b->closing || token == NULL || dir == NULL)
		return -1;
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

	b->closing = 1;
	b->done = done;
	b->done_arg = arg;
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
	TAILQ_INIT(&b->jobs);
	TAILQ_INIT(&b->queue);
	uv_timer_init(loop, &b->poll);
	uv_timer_init(loop, &b->flush);
	b->poll.data = b->flush.data = b;
	b->nopen = 2;
	slurm_rpc_init();
	return &b->sched;
}
