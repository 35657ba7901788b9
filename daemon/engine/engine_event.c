/*
 * engine_event.c: what the engine does with a backend's event for one of
 * its attempts (submitted, started, output, end; a retry when the end is
 * an infrastructure failure) and with each point of a learning curve (the
 * early-stopping decision).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_int.h"
#include "log.h"
#include "obsbook.h"
#include "params.h"
#include "testpause.h"
#include "xmalloc.h"

/* How an attempt ended, as the ledger has it. */
static enum attempt_state
engine_end_state(const struct attempt *a, const struct sched_event *ev)
{
	switch (ev->state) {
	case SCHED_COMPLETED:
		return ATTEMPT_COMPLETED;
	case SCHED_FAILED:
		return ATTEMPT_FAILED;
	case SCHED_TIMEOUT:
		return ATTEMPT_TIMEOUT;
	case SCHED_CANCELLED:
		return a->cancel_as == CANCEL_PRUNE ? ATTEMPT_PRUNED :
		    ATTEMPT_CANCELLED;
	case SCHED_NODE_FAIL:
		return ATTEMPT_NODE_FAIL;
	case SCHED_PREEMPTED:
		return ATTEMPT_PREEMPTED;
	case SCHED_LOST:
		return ATTEMPT_LOST;
	}
	return ATTEMPT_UNKNOWN;
}

/*
 * The node share the ledger records for an attempt: 0 (NULL, its whole
 * nodes) unless it is charged a share of them (a pilot's slot).
 */
static double
engine_node_share(const struct attempt *a)
{
	return a->node_share != a->nodes ? a->node_share : 0;
}

/* An end that is the infrastructure's, not the trial's. */
static int
engine_infra_end(const struct engine *e, enum sched_state st)
{
	return st == SCHED_NODE_FAIL || st == SCHED_PREEMPTED ||
	    st == SCHED_LOST || (st == SCHED_TIMEOUT && e->spec->retry_timeout);
}

/*
 * Whether an attempt that ended in state st may be tried again: 1 yes, 0
 * not at all, -1 not for retry.limit, -2 a timeout not for
 * retry.on_timeout.
 */
static int
engine_retryable(const struct engine *e, const struct attempt *a,
    enum sched_state st)
{
	if (e->cancelled || e->stop_reason != NULL ||
	    engine_held(e) != NULL || a->cancel_as != CANCEL_NONE)
		return 0;
	if (st == SCHED_TIMEOUT && !e->spec->retry_timeout)
		return -2;
	if (!engine_infra_end(e, st))
		return 0;
	return a->number < e->spec->retry_limit ? 1 : -1;
}

/* Retry a trial with a new attempt, recovering its point from the ledger. */
void
engine_retry(struct engine *e, int64_t trial_id, int trial_number,
    int number)
{
	struct ledger_trial	 t;
	double			*x;
	char			 err[256];

	if (ledger_trial_get(e->env.ledger, trial_id, &t) != 0) {
		log_warnx("campaign '%s': trial %d: %s", e->spec->name,
		    trial_number, ledger_error(e->env.ledger));
		return;
	}
	x = xcalloc(e->spec->space->n + 1, sizeof(*x));
	if (params_from_json(e->spec->space, t.params_json, x, err,
	    sizeof(err)) == -1) {
		log_warnx("campaign '%s': trial %d: %s", e->spec->name,
		    trial_number, err);
		engine_trial_state(e, trial_id, trial_number, TRIAL_FAILED);
	} else
		attempt_launch(e, trial_id, trial_number, number, x,
		    t.params_json, t.seed);
	ledger_trial_release(&t);
	free(x);
}

/* What a step counts in the singular, for messages. */
const char *
engine_unit(const struct engine *e)
{
	return e->w->step_unit_one;
}

/*
 * An attempt ended: record its end (and its start, if it was never
 * recorded) with its trial's state, then retry it or end the trial.
 */
static void
engine_ended(struct attempt *a, const struct sched_event *ev)
{
	struct engine	*e = a->e;
	const char		*state, *reason;
	enum trial_state	 tstate;
	int64_t		 tid;
	int		 tnum, next, susp, retry;
	double		 end, seen;
	size_t		 len;
	char		*path, *late, last[160], why[240];

	a->ending = 1;
	attempt_follow(a, 1);
	state = attempt_state_name(engine_end_state(a, ev));
	tid = a->trial_id;
	tnum = a->trial_number;
	next = a->number + 1;
	/* The attempt's end and its trial's state, both or neither. */
	ledger_begin(e->env.ledger);
	/*
	 * It ran, but its start was never recorded (the process that
	 * submitted it died first): take the start from the job's own
	 * record, with the allocation asked for, so that it is costed.
	 */
	if (!a->started && ev->start > 0) {
		a->t_started = ev->start;
		if (ev->node_share > 0)
			a->node_share = ev->node_share;
		if (ledger_attempt_started(e->env.ledger, a->attempt_id, NULL,
		    ev->start, a->nodes, a->gpus, a->cpus, engine_node_share(a),
		    NULL) == -1)
			log_warnx("campaign '%s': %s", e->spec->name,
			    ledger_error(e->env.ledger));
	}
	if (ev->eligible > 0 && ledger_attempt_eligible(e->env.ledger,
	    a->attempt_id, ev->eligible) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	/*
	 * Suspended seconds only grow: an end that knows fewer than its
	 * polls said (a job the controller forgot, read from result.json
	 * by a backend that never saw it run) keeps those.  A forgotten
	 * job last seen suspended is billed as that last view has it:
	 * suspended from then on, no run time past it (nothing says when,
	 * or whether, it was resumed).
	 */
	susp = a->suspended > 0 || a->suspended_at > 0;
	end = ev->end > 0 ? ev->end : ev->time;
	seen = ev->forgotten ? sched_suspended_by(a->suspended,
	    a->suspended_at, end) : a->suspended;
	a->suspended = fmax(ev->suspended, seen);
	a->suspended_at = 0;
	if ((susp || a->suspended > 0) && ledger_attempt_suspended(
	    e->env.ledger, a->attempt_id, a->suspended, 0) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	/*
	 * Pruned: the stopper's words, not the backend's "cancelled", and
	 * the points its trainer logged past them before its job ended.
	 */
	reason = ev->state == SCHED_CANCELLED && a->cancel_as == CANCEL_PRUNE &&
	    a->pruned_why != NULL ? a->pruned_why : ev->reason;
	late = NULL;
	if (reason == a->pruned_why && a->late > 0)
		reason = late = xasprintf("%s; %ld %s point%s after it, to "
		    "%s %g, late: not counted", a->pruned_why, a->late,
		    e->spec->metric, a->late == 1 ? "" : "s", engine_unit(e),
		    a->late_step);
	if (ledger_attempt_finished(e->env.ledger, a->attempt_id, state,
	    end, ev->exit_code, ev->signal, reason) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	free(late);
	engine_spend(e, a, end);
	testpause_at("after-end");
	if ((retry = engine_retryable(e, a, ev->state)) == 1) {
		engine_say(e, "trial %d attempt %d: %s%s%s; retrying", tnum,
		    a->number, state, ev->reason ? ": " : "",
		    ev->reason ? ev->reason : "");
		/* Its next attempt waits in the queue: pending, as at first. */
		ledger_trial_set_state(e->env.ledger, tid,
		    trial_state_name(TRIAL_PENDING));
		ledger_commit(e->env.ledger);
		attempt_forget(e, a);
		engine_retry(e, tid, tnum, next);
		engine_kick(e);
		return;
	}
	switch (ev->state) {
	case SCHED_COMPLETED:
		tstate = TRIAL_COMPLETED;
		curves_complete(e->curves, tnum);
		break;
	case SCHED_CANCELLED:
		tstate = a->cancel_as == CANCEL_PRUNE ? TRIAL_PRUNED :
		    TRIAL_CANCELLED;
		break;
	case SCHED_LOST:
		/* Lost after its cancel was asked for: cancelled, as told. */
		tstate = a->cancel_as == CANCEL_USER ? TRIAL_CANCELLED :
		    TRIAL_FAILED;
		break;
	default:
		tstate = TRIAL_FAILED;
		break;
	}
	engine_trial_state(e, tid, tnum, tstate);
	ledger_commit(e->env.ledger);
	/* Why a trial failed is most often the program's last word. */
	why[0] = '\0';
	if (tstate == TRIAL_FAILED && a->dir != NULL) {
		path = xasprintf("%s/stderr", a->dir);
		tail_last_line(path, last, sizeof(last));
		free(path);
		if (last[0] != '\0')
			snprintf(why, sizeof(why), "; stderr: %s", last);
	}
	/* An infrastructure failure or a timeout not retried: say why not. */
	len = strlen(why);
	if (retry == -1)
		snprintf(why + len, sizeof(why) - len, "; not retried: "
		    "retry.limit %d spent", e->spec->retry_limit);
	else if (retry == -2)
		snprintf(why + len, sizeof(why) - len, "; not retried: "
		    "retry.on_timeout is off");
	/* A failure says how it ended (a signal, an exit status) here too. */
	if (a->has_best && tstate == TRIAL_FAILED && ev->reason != NULL)
		engine_say(e, "trial %d: %s: %s, best %s %g%s%s", tnum, state,
		    ev->reason, e->spec->metric, a->best,
		    a->reached ? " (target met)" : "", why);
	else if (a->has_best)
		engine_say(e, "trial %d: %s, best %s %g%s%s", tnum, state,
		    e->spec->metric, a->best, a->reached ? " (target met)" : "",
		    why);
	else if (a->nonfinite > 0)
		engine_say(e, "trial %d: %s%s%s, no finite %s reported (%ld "
		    "NaN or infinite)%s", tnum, state, ev->reason ? ": " : "",
		    ev->reason ? ev->reason : "", e->spec->metric,
		    a->nonfinite, why);
	else if (a->other_key[0] != '\0')
		engine_say(e, "trial %d: %s%s%s, no %s reported (it logged "
		    "%s: is objective.metric the key it logs?)%s", tnum, state,
		    ev->reason ? ": " : "", ev->reason ? ev->reason : "",
		    e->spec->metric, a->other_key, why);
	else if (a->out_refused)
		engine_say(e, "trial %d: %s%s%s, no %s reported: %s is a "
		    "symbolic link or not a regular file: not read%s", tnum,
		    state, ev->reason ? ": " : "", ev->reason ? ev->reason : "",
		    e->spec->metric, a->out, why);
	else if (a->out_file && access(a->out, F_OK) == -1)
		engine_say(e, "trial %d: %s%s%s, no %s reported: %s was never "
		    "written%s", tnum, state, ev->reason ? ": " : "",
		    ev->reason ? ev->reason : "", e->spec->metric, a->out, why);
	else
		engine_say(e, "trial %d: %s%s%s, no %s reported%s", tnum, state,
		    ev->reason ? ": " : "", ev->reason ? ev->reason : "",
		    e->spec->metric, why);
	attempt_forget(e, a);
	engine_kick(e);
}

/* A backend event for one of our attempts. */
void
engine_event(void *arg, const struct sched_event *ev)
{
	struct attempt	*a = arg;
	struct engine	*e = a->e;

	if (e->detached)
		return;
	engine_batch(e);
	log_debug("campaign %s: trial %d attempt %d: event %d (%s)",
	    e->spec->name, a->trial_number, a->number, (int)ev->type,
	    ev->type == SCHED_EV_END ? sched_state_name(ev->state) :
	    ev->job_id ? ev->job_id : "-");
	switch (ev->type) {
	case SCHED_EV_SUBMITTED:
		testpause_at("after-submit");
		ledger_attempt_submitted(e->env.ledger, a->attempt_id,
		    ev->job_id, ev->time);
		return;
	case SCHED_EV_STARTED:
		/*
		 * A job taken back whose allocation its backend does not
		 * know (nodes 0) runs on what was asked for; its start, if
		 * recorded, stands.
		 */
		if (ev->nodes == 0 && a->started)
			return;
		a->started = 1;
		a->t_started = ev->time;
		if (ev->nodes > 0) {
			a->nodes = ev->nodes;
			a->gpus = ev->gpus;
			a->cpus = ev->cpus;
			a->node_share = ev->node_share > 0 ? ev->node_share :
			    ev->nodes;
		}
		ledger_attempt_started(e->env.ledger, a->attempt_id, ev->job_id,
		    ev->time, a->nodes, a->gpus, a->cpus, engine_node_share(a),
		    ev->host);
		/* Its queue wait counts from when it could start. */
		if (ev->eligible > 0)
			ledger_attempt_eligible(e->env.ledger, a->attempt_id,
			    ev->eligible);
		ledger_trial_set_state(e->env.ledger, a->trial_id,
		    trial_state_name(TRIAL_RUNNING));
		return;
	case SCHED_EV_SUBMIT_FAILED:
		attempt_submit_failed(e, a, ev->reason ? ev->reason :
		    "submission failed");
		attempt_forget(e, a);
		engine_kick(e);
		return;
	case SCHED_EV_OUTPUT:
		if (a->started)
			attempt_follow(a, 0);
		return;
	case SCHED_EV_END:
		engine_ended(a, ev);
		return;
	case SCHED_EV_PENDING:
		engine_pending(a, ev);
		return;
	case SCHED_EV_SUSPENDED:
		/* Its run time, billed while it runs, stops while suspended. */
		a->suspended = fmax(ev->suspended, a->suspended);
		a->suspended_at = ev->suspended_at > 0 ? ev->suspended_at : 0;
		if (ledger_attempt_suspended(e->env.ledger, a->attempt_id,
		    a->suspended, a->suspended_at) == -1)
			log_warnx("campaign '%s': %s", e->spec->name,
			    ledger_error(e->env.ledger));
		engine_say(e, "trial %d attempt %d: %s, %.0f s suspended "
		    "before", a->trial_number, a->number, a->suspended_at > 0 ?
		    "suspended" : "running", a->suspended);
		return;
	}
}

/*
 * Record a point of the objective for the search, then ask the stopper
 * about the trial, over a history of every trial's curve and whether it
 * completed, ended otherwise (pruned, failed) or runs (all a stopper
 * reads).
 */
void
engine_point(struct attempt *a, const char *key, double step, double value,
    double when)
{
	struct engine		*e = a->e;
	struct observation	*obs, *book;
	struct history		 h;
	size_t			 nb;
	int			 i, n, k, me, lane;
	const char		*rule;

	if (strcmp(key, e->spec->metric) != 0)
		return;
	curves_add(e->curves, a->trial_number, a->attempt_id, step, value,
	    when);
	obsbook_curve(e->book, e->curves, a->trial_number);
	if (e->stopper == NULL || e->detached || a->ending ||
	    a->cancel_as != CANCEL_NONE)
		return;
	/* A trial on target is a solution, whatever the others did. */
	if (e->spec->has_target && (e->spec->maximize ?
	    value >= e->spec->target : value <= e->spec->target))
		return;
	/* Scaling: confirmation runs run out; trials compete in their lane. */
	lane = e->scaling ? scaling_lane_of(e->scaling, a->trial_number) : -1;
	if (e->scaling != NULL && (lane < 0 || scaling_role_of(e->scaling,
	    a->trial_number) == ROLE_CONFIRM))
		return;
	n = e->ntrials > a->trial_number ? e->ntrials : a->trial_number + 1;
	obs = xcalloc((size_t)n, sizeof(*obs));
	book = obsbook_obs(e->book, &nb);
	for (i = 0, k = 0, me = 0; i < n; i++) {
		if (e->scaling != NULL && (scaling_lane_of(e->scaling, i) !=
		    lane || scaling_role_of(e->scaling, i) == ROLE_CONFIRM))
			continue;
		if (i == a->trial_number)
			me = k;
		/* Pruned and failed trials ended too (target's leader). */
		obs[k].state = curves_completed(e->curves, i) ? OBS_COMPLETE :
		    (size_t)i < nb && (book[i].state == OBS_PRUNED ||
		    book[i].state == OBS_FAILED) ? book[i].state : OBS_RUNNING;
		curves_fill(e->curves, i, &obs[k++]);
	}
	h.n = (size_t)k;
	h.obs = obs;
	h.maximize = e->spec->maximize;
	if (stop_decide_why(e->stopper, &h, (size_t)me, step, value, &rule)
	    == STOP_PRUNE)
		engine_prune(a, step, key, value, rule);
	free(obs);
}
