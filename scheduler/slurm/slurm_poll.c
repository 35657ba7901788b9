/*
 * slurm_poll.c: the Slurm backend applies one poll's answer (every job
 * record of the user) to its jobs: STARTED, PENDING and END events, jobs
 * whose lost submit turns up or not, jobs the controller has forgotten.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "jobfile.h"
#include "result.h"
#include "slurm_int.h"

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

/* 1 if the job's wrapper has written a result.json. */
static int
slurm_has_result(const struct slurm_job *j)
{
	struct trial_result	 r;
	char			 err[256];

	return result_read(j->dir, &r, err, sizeof(err)) != 1;
}

/* Resolve a job the controller no longer knows from its result.json. */
static void
slurm_resolve(struct slurm *b, struct slurm_job *j, const char *why)
{
	struct trial_result	 r;
	enum sched_state	 st;
	char			 err[256], reason[512];

	j->forgotten = 1;
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
	/*
	 * An array task cancelled while it pended leaves no record of its
	 * own: it never ran, and that is all there is to say.
	 */
	if (j->cancel && !j->started && !slurm_has_result(j))
		snprintf(reason, sizeof(reason), "cancelled while pending, "
		    "before it started");
	else
		snprintf(reason, sizeof(reason), "%s and left no final "
		    "result.json", why);
	slurm_end(b, j, j->cancel ? SCHED_CANCELLED : SCHED_LOST, -1, 0, 0, 0,
	    reason);
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

/*
 * An adopted job whose job id was never recorded may have gone as a task
 * of an array, whose record carries the array's list, not the token: find
 * the list that names its job.json, and take the array's id and that line
 * as its task, as if adopted with them.
 */
static void
slurm_find_task(struct slurm_job *j, const struct slurm_rec *recs, size_t n)
{
	const char	*last = NULL, *c;
	char		*want, err[256];
	long		 task;
	size_t		 i;

	want = slurm_printf("%s/job.json", j->dir);
	for (i = 0; i < n; i++) {
		c = recs[i].comment;
		if (c == NULL || strncmp(c, "hpod-array ", 11) != 0 ||
		    (last != NULL && strcmp(c, last) == 0))
			continue;
		last = c;
		if ((task = jobfile_list_index(c + 11, want, err,
		    sizeof(err))) < 0)
			continue;
		j->id = recs[i].array_job_id ? recs[i].array_job_id :
		    recs[i].job_id;
		j->task = (uint32_t)task;
		free(j->comment);
		j->comment = NULL;
		break;
	}
	free(want);
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

/*
 * A job that has not started, as its record r shows it: tell why it waits
 * when that changed (Slurm's name of its state_reason, "" for none), and
 * whether that will clear by itself (a job Slurm took that its partition
 * can never start, EnforcePartLimits=NO, waits for ever; so does a held
 * one).
 */
static void
slurm_pend_seen(struct slurm *b, struct slurm_job *j,
    const struct slurm_rec *r)
{
	struct sched_event	 ev;
	const char		*why = "";

	if (j->started || (r->state & JOB_STATE_BASE) != JOB_PENDING)
		return;
	if (r->wait != WAIT_NO_REASON)
		why = slurm_reason_name(r->wait);
	if (strcmp(why, j->pend) == 0)
		return;
	snprintf(j->pend, sizeof(j->pend), "%s", why);
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_PENDING;
	ev.reason = j->pend;
	ev.stuck = slurm_wait_stuck(r->wait, r->reason, &ev.fix_key);
	slurm_emit(b, j, &ev);
}

/*
 * A running job suspended or resumed since its last record: say how, so
 * that its run time, billed while it runs, leaves the suspension out.
 */
static void
slurm_suspend_seen(struct slurm *b, struct slurm_job *j,
    const struct slurm_rec *r)
{
	struct sched_event	 ev;

	if ((double)r->suspended == j->suspended &&
	    (double)r->suspended_at == j->suspended_at)
		return;
	j->suspended = (double)r->suspended;
	j->suspended_at = (double)r->suspended_at;
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_SUSPENDED;
	ev.suspended = j->suspended;
	ev.suspended_at = j->suspended_at;
	slurm_emit(b, j, &ev);
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
	size_t			 n;
	int			 code, sig, rc;

	if (j->resend) {
		j->resend = 0;
		memset(&ev, 0, sizeof(ev));
		ev.type = SCHED_EV_SUBMITTED;
		ev.time = j->submitted > 0 ? j->submitted : (double)r->submit;
		slurm_emit(b, j, &ev);
	}
	/*
	 * Its queue wait counts from when it could start: a chained job's
	 * eligible time is when its predecessor's end met its dependency.
	 */
	if (r->eligible > 0)
		j->eligible = (double)r->eligible;
	/*
	 * A job cancelled while pending gets a start time but no nodes.  A
	 * job first seen ended starts from its final record: while Slurm
	 * completes it, its record shows only the nodes still completing
	 * (fewer nodes, a shorter list), which would bill it short.
	 */
	if (r->start > 0 && !j->started && (st->terminal ?
	    slurm_rec_final(r) && (st->running || r->nodes != NULL) :
	    st->running)) {
		memset(&ev, 0, sizeof(ev));
		ev.type = SCHED_EV_STARTED;
		/*
		 * Slurm's own start, as it bills the job: it counts whole
		 * seconds, so a job started in the second it was submitted
		 * starts before hpod's clock said it was; its queue wait
		 * counts 0 (ledger/account.c), and its cost is Slurm's.
		 */
		ev.time = j->started_at = (double)r->start;
		ev.eligible = j->eligible > ev.time ? ev.time : j->eligible;
		ev.host = r->nodes;
		ev.nodes = r->nnodes;
		ev.cpus = r->ncpus;
		ev.gpus = r->ngpus;
		j->started = 1;
		slurm_emit(b, j, &ev);
	}
	if (!slurm_rec_final(r)) {
		if (j->started)
			slurm_suspend_seen(b, j, r);
		return 0;
	}
	out = slurm_rec_outcome(r, &code, &sig);
	/* The wrapper knows how the workload itself ended. */
	if ((rc = result_read(j->dir, &res, err, sizeof(err))) == 0 &&
	    strcmp(res.token, j->token) == 0 && !res.running) {
		code = res.exit_code;
		sig = res.signal;
		if (out == SCHED_COMPLETED && (code != 0 || sig != 0))
			out = SCHED_FAILED;
		if (out == SCHED_FAILED && res.timed_out)
			out = SCHED_TIMEOUT;
	}
	slurm_state_format(r->state, name, sizeof(name));
	n = (size_t)snprintf(err, sizeof(err), "slurm %s%s%s", name,
	    r->reason[0] ? ": " : "", r->reason);
	/* A failure: say how the job ended, as local does. */
	if (out == SCHED_FAILED && n < sizeof(err) && sig != 0)
		snprintf(err + n, sizeof(err) - n, ", signal %d", sig);
	else if (out == SCHED_FAILED && n < sizeof(err) && code > 0)
		snprintf(err + n, sizeof(err) - n, ", exit %d", code);
	/*
	 * Failed with no record at all: hpo-trial writes one before it
	 * starts the workload, so the workload never ran and the failure
	 * is the launch's (slurmstepd exits with errno, 2, when its copy
	 * of the batch script is gone; a TaskProlog's status).  Lost, and
	 * so retried, as the local backend has a wrapper that left none.
	 * Unless hpo-trial itself refused its job file (EX_USAGE): hpod
	 * wrote that file, and a retry would be refused the same: failed.
	 */
	if (out == SCHED_FAILED && rc == 1 && sig == 0 &&
	    code == JOBFILE_EX_USAGE) {
		n = strlen(err);
		snprintf(err + n, sizeof(err) - n, "; hpo-trial refused its "
		    "job file before it started the workload (no " RESULT_OWN
		    "; Slurm's output file for the job says why)");
	} else if (out == SCHED_FAILED && rc == 1) {
		out = SCHED_LOST;
		n = strlen(err);
		snprintf(err + n, sizeof(err) - n, "; it ended before "
		    "hpo-trial started the workload (no " RESULT_OWN "): "
		    "a launch failure");
	}
	end = r->end > 0 ? (double)r->end : 0;
	if (j->started && end < j->started_at)
		end = j->started_at;
	/* Ended before it could ever start: it waited for no resources. */
	if (!j->started && r->eligible == 0 && end > 0)
		j->eligible = end;
	/* Its run time, as Slurm bills it, leaves suspended time out. */
	if (j->started && end > 0) {
		j->suspended = (double)r->suspended;
		if (j->suspended > end - j->started_at)
			j->suspended = end - j->started_at;
	}
	slurm_end(b, j, out, code, sig, j->started ? j->started_at : 0, end,
	    err);
	return 1;
}

/*
 * A job whose submission is uncertain, as the poll's record r (NULL: no
 * job carries its token) shows it: live from now on (0), or still too
 * early to say, submitted again or resolved (1: nothing more to do).
 */
static int
slurm_uncertain(struct slurm *b, const struct slurm_work *w,
    struct slurm_job *j, const struct slurm_rec *r)
{
	struct sched_event	 ev;

	if (r == NULL && w->sent < j->absent_after)
		return 1;	/* too early to say */
	if (r == NULL && !j->adopted && !slurm_has_result(j)) {
		/* It never reached the controller. */
		slurm_warn(b, "no job carries token %s; submitting it again",
		    j->token);
		j->state = SJ_QUEUED;
		uv_timer_start(&b->flush, slurm_flush, 0, 0);
		return 1;
	}
	if (r == NULL) {
		slurm_resolve(b, j, "no job carries its token");
		return 1;
	}
	slurm_job_name_id(j, r->array_job_id && j->task != SLURM_NO_TASK ?
	    r->array_job_id : r->job_id, j->task);
	j->state = SJ_LIVE;
	/* A chained job may wait for this job's id. */
	uv_timer_start(&b->flush, slurm_flush, 0, 0);
	if (!j->adopted) {
		memset(&ev, 0, sizeof(ev));
		ev.type = SCHED_EV_SUBMITTED;
		ev.time = j->submitted = (double)r->submit;
		slurm_emit(b, j, &ev);
	}
	return 0;
}

/* 1 if a confirm w loaded j's records. */
static int
slurm_confirms(const struct slurm_work *w, const struct slurm_job *j)
{
	size_t	 i;

	for (i = 0; i < w->nids; i++)
		if (w->ids[i] == j->id || (j->own_id != 0 &&
		    w->ids[i] == j->own_id))
			return 1;
	return 0;
}

/*
 * A confirm answered (the records of the marked jobs' ids alone): apply
 * them to the jobs they are about; a job without a record waits for the
 * next poll of all, which alone may say it is gone.  The period of the
 * timed polls is left as it was.
 */
static void
slurm_confirmed(struct slurm *b, struct slurm_work *w)
{
	struct slurm_job	*j, *next;
	const struct slurm_rec	*r;
	int			 pending;

	for (j = TAILQ_FIRST(&b->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state != SJ_LIVE || !slurm_confirms(w, j) ||
		    (r = slurm_find(j, w->recs, w->nrecs, &pending)) == NULL)
			continue;
		if (!pending && j->task != SLURM_NO_TASK)
			j->own_id = r->job_id;
		j->seen = r->state;
		if (!pending && slurm_apply(b, j, r))
			continue;
		slurm_pend_seen(b, j, r);
		if (j->cancel)
			slurm_kill(b, j);
	}
	if (!slurm_watch_followup(b))
		slurm_arm_rest(b);
}

/* A poll answered: bring every job up to date. */
void
slurm_polled(struct slurm *b, struct slurm_work *w)
{
	struct slurm_job	*j, *next;
	const struct slurm_rec	*r;
	int			 changed = 0, pending;

	b->polling = 0;
	if (w->fed != 0)
		b->fed = w->fed;
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
	if (w->nids > 0) {
		slurm_confirmed(b, w);
		return;
	}
	if (w->max_array > 0)
		b->max_array = w->max_array;
	else if (b->max_array == 0)
		b->max_array = 1001;	/* Slurm's default MaxArraySize */
	for (j = TAILQ_FIRST(&b->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state != SJ_LIVE && j->state != SJ_UNCERTAIN)
			continue;
		if (j->adopted && j->id == 0 && j->task == SLURM_NO_TASK)
			slurm_find_task(j, w->recs, w->nrecs);
		r = slurm_find(j, w->recs, w->nrecs, &pending);
		if (r != NULL && j->comment == NULL)
			j->comment = slurm_strdup(r->comment);
		if (j->state == SJ_UNCERTAIN) {
			changed = 1;
			if (slurm_uncertain(b, w, j, r))
				continue;
		}
		if (r == NULL) {
			changed = 1;
			slurm_resolve(b, j, "slurmctld no longer knows the job");
			continue;
		}
		if (r->state != j->seen)
			changed = 1;
		j->seen = r->state;
		if (!pending && j->task != SLURM_NO_TASK)
			j->own_id = r->job_id;
		if (!pending && slurm_apply(b, j, r))
			continue;
		slurm_pend_seen(b, j, r);
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
	if (!slurm_watch_followup(b))
		slurm_arm(b);
}
