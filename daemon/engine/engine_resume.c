/*
 * engine_resume.c: taking back a campaign left running by an earlier
 * process: its cost so far from the ledger, every unfinished attempt
 * re-adopted from its backend (or ended lost), every trial left between
 * attempts given its next one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "engine_int.h"
#include "invoke.h"
#include "log.h"
#include "obsbook.h"
#include "params.h"
#include "xmalloc.h"

/*
 * The file a's metrics are read from: its workload's metric_file,
 * rendered again for its trial's point as when it was submitted (read
 * anew from its start, as stdout is), else its stdout.
 */
static void
engine_adopt_out(struct engine *e, struct attempt *a,
    const struct ledger_trial *t)
{
	struct invoke_ctx	 ic;
	struct invocation	 inv;
	double			*x;
	char			 err[512];

	a->out = xasprintf("%s/stdout", a->dir);
	if (e->w->metric_file == NULL)
		return;
	x = xcalloc(e->spec->space->n + 1, sizeof(*x));
	memset(&ic, 0, sizeof(ic));
	ic.trial = a->trial_number;
	ic.attempt = a->number;
	ic.seed = t->seed;
	ic.dir = a->dir;
	ic.token = a->token;
	ic.x = x;
	if (params_from_json(e->spec->space, t->params_json, x, err,
	    sizeof(err)) == -1 || invoke_render(e->spec, e->w, &ic, &inv, err,
	    sizeof(err)) == -1)
		engine_say(e, "trial %d attempt %d: its metric_file: %s; its "
		    "stdout is read", a->trial_number, a->number, err);
	else {
		free(a->out);
		a->out = xasprintf("%s/%s", a->dir, inv.metric_file);
		a->out_file = 1;
		invoke_release(&inv);
	}
	free(x);
}

/* An unfinished attempt taken back after a restart, as the ledger has it. */
static struct attempt *
engine_adopt_new(struct engine *e, const struct ledger_attempt *la,
    const struct ledger_trial *t)
{
	struct attempt		*a;
	double			*x;
	char			 err[256];

	a = xcalloc(1, sizeof(*a));
	a->e = e;
	a->trial_id = la->trial_id;
	a->attempt_id = la->id;
	a->trial_number = la->trial_number;
	a->number = la->number;
	a->token = xstrdup(la->token);
	a->dir = xstrdup(la->dir);
	engine_adopt_out(e, a, t);
	a->started = la->started > 0;
	a->t_started = la->started;
	a->suspended = la->suspended;
	a->suspended_at = la->suspended_at;
	a->nodes = la->nodes;
	a->gpus = la->gpus;
	a->cpus = la->cpus;
	a->node_share = la->node_share;
	/* Why its job waits, as recorded: the same seen again is not news. */
	if (!a->started && la->pending_reason != NULL) {
		snprintf(a->pending, sizeof(a->pending), "%s",
		    la->pending_reason);
		a->pend_kept = 1;
	}
	if (a->nodes == 0 && (x = calloc(e->spec->space->n + 1,
	    sizeof(*x))) != NULL) {
		/* A ledger older than the allocation recorded at insert. */
		if (params_from_json(e->spec->space, t->params_json, x, err,
		    sizeof(err)) == 0)
			attempt_alloc(e, a, x);
		free(x);
	}
	a->has_best = t->has_best;
	a->best = t->best;
	a->reached = t->reached;
	a->next = e->active;
	e->active = a;
	e->nactive++;
	return a;
}

/* Follow an attempt taken back from its backend, or end it lost. */
static void
engine_adopt(struct engine *e, struct attempt *a, const char *job_id)
{
	struct sched_event	 ev;

	/* A failed commit dropped the engine meanwhile (env.lost). */
	if (e->detached)
		return;
	if (sched_adopt(e->env.sched, a->token, job_id, a->dir,
	    engine_event, a) == 0) {
		/*
		 * A pilot's job: its pilot's suspensions from here on add
		 * to those recorded (a job of its own: Slurm counts them
		 * all).
		 */
		if (e->pilot != NULL && (a->suspended > 0 ||
		    a->suspended_at > 0))
			(void)sched_pilot_job_suspended(e->pilot, a->token,
			    a->suspended, a->suspended_at);
		engine_say(e, "trial %d attempt %d: re-adopted (%s)",
		    a->trial_number, a->number, job_id ? job_id :
		    "no job id");
		return;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_END;
	ev.token = a->token;
	ev.time = engine_now(e);
	ev.state = SCHED_LOST;
	ev.exit_code = -1;
	ev.reason = "could not be re-adopted after a restart";
	engine_event(a, &ev);
}

/*
 * What the attempts of a resumed campaign that ended have cost: the
 * ledger's account less its unfinished attempts (at, na) and the idle
 * time of its pilots not ended, which the engine follows from here.
 */
static int
engine_spent_load(struct engine *e, struct ledger_campaign *c,
    const struct ledger_attempt *at, size_t na)
{
	struct account	 acct;
	double		 now = engine_now(e), el, idle_n, idle_g;
	size_t		 i;

	if (account_campaign(e->env.ledger, c, now, &acct) == -1)
		return -1;
	e->spent_node_s = acct.node_seconds;
	e->spent_gpu_s = acct.gpu_seconds;
	account_release(&acct);
	if (engine_pilot_spent_live(e, now, &idle_n, &idle_g) == -1)
		return -1;
	e->spent_node_s -= idle_n;
	e->spent_gpu_s -= idle_g;
	for (i = 0; i < na; i++) {
		el = account_attempt_elapsed(&at[i], now);
		e->spent_node_s -= el * at[i].node_share;
		e->spent_gpu_s -= el * at[i].gpus;
	}
	return 0;
}

/* The trials whose cancel was recorded (cancel_trial events). */
struct resume_cancels {
	int	*number;
	size_t	 n;
};

/* Count an event (the campaign's 'cancel' events). */
static void
engine_resume_count(void *arg, int number, const char *message)
{
	(void)number;
	(void)message;
	(*(int *)arg)++;
}

/* Note the trial of a 'cancel_trial' event (engine_cancel_trial). */
static void
engine_resume_note_cancel(void *arg, int number, const char *message)
{
	struct resume_cancels	*rcan = arg;

	(void)message;
	if (number < 0)
		return;
	rcan->number = xreallocarray(rcan->number, rcan->n + 1,
	    sizeof(*rcan->number));
	rcan->number[rcan->n++] = number;
}

/* Was trial number's cancel recorded? */
static int
engine_resume_cancelled(const struct resume_cancels *rc, int number)
{
	size_t	 i;

	for (i = 0; i < rc->n; i++)
		if (rc->number[i] == number)
			return 1;
	return 0;
}

/* The message of a campaign's last 'held' event. */
struct resume_held {
	char	 last[sizeof(((struct campaign_spec *)0)->hold)];
};

/* Keep the message of a 'held' event: the last one read stays. */
static void
engine_resume_last(void *arg, int number, const char *message)
{
	struct resume_held	*rh = arg;

	(void)number;
	snprintf(rh->last, sizeof(rh->last), "%s", message != NULL ? message :
	    "");
}

/*
 * Record whether the campaign is taken back held, as a 'held' event that
 * the report and status read (report_held()): its reason, or "" when one
 * held before is taken back by an hpod that accepts its spec.  Only a
 * change is recorded: a restart that finds it as the last one left it
 * adds nothing.
 */
static int
engine_resume_hold(struct engine *e, int64_t id)
{
	struct resume_held	 rh;
	const char		*why = engine_held(e) != NULL ? engine_held(e) :
				    "";

	rh.last[0] = '\0';
	if (ledger_event_each(e->env.ledger, id, "held", engine_resume_last,
	    &rh) == -1)
		return -1;
	/* Its owner logs it (hpod: "resumed held") at each take-back. */
	return strcmp(rh.last, why) == 0 ? 0 : ledger_event(e->env.ledger, id,
	    "held", why);
}

/* Take over a campaign left running by an earlier process. */
int
engine_resume(struct engine *e, int64_t id, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct ledger_trial	*t = NULL;
	struct ledger_attempt	*at = NULL;
	struct attempt		*a, **made = NULL;
	struct resume_cancels	 rcan;
	size_t			 nt = 0, na = 0, i, j;
	int			 rc = -1, lanes, n;

	memset(&c, 0, sizeof(c));
	memset(&rcan, 0, sizeof(rcan));
	if (ledger_campaign_get(e->env.ledger, id, &c) != 0 ||
	    ledger_trial_list(e->env.ledger, id, &t, &nt) == -1 ||
	    ledger_attempt_list(e->env.ledger, id, 1, &at, &na) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	if (curves_load(e->curves, e->env.ledger, id, e->spec->metric) == -1 ||
	    obsbook_load(e->book, e->env.ledger, id, e->curves,
	    e->spec->name) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	e->id = id;
	e->started = c.started;
	/*
	 * A cancel is recorded before it is acted on (engine_cancel): one
	 * in the ledger holds after a crash too, as its reply said.  One
	 * asked of this engine before (hpoctl cancel --ledger) is recorded
	 * here.
	 */
	n = 0;
	if (ledger_event_each(e->env.ledger, id, "cancel",
	    engine_resume_count, &n) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	if (n > 0 && !e->cancelled) {
		e->cancelled = 1;
		if (e->stop_reason == NULL)
			e->stop_reason = "cancelled";
	} else if (n == 0 && e->cancelled)
		ledger_event(e->env.ledger, id, "cancel",
		    "campaign cancelled on request");
	/*
	 * So are the cancels of single trials (engine_cancel_trial): read
	 * before any attempt is taken back, as one that cannot be ends
	 * lost at once and would be retried.
	 */
	if (ledger_event_each(e->env.ledger, id, "cancel_trial",
	    engine_resume_note_cancel, &rcan) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	if (engine_pilot_start(e, err, errlen) == -1)
		goto out;
	e->ntrials = (int)nt;
	if (engine_spent_load(e, &c, at, na) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	for (i = 0; i < nt; i++) {
		if (t[i].reached && e->spec->stop_on_target &&
		    e->stop_reason == NULL)
			e->stop_reason = "target reached";
		if (e->scaling != NULL)
			scaling_note(e->scaling, t[i].number,
			    scaling_lane(e->scaling, t[i].batch_size),
			    (enum scaling_role)(scaling_role_parse(t[i].role) <
			    0 ? ROLE_SEARCH : scaling_role_parse(t[i].role)));
	}
	engine_say(e, "campaign '%s' (id %lld): resumed with %zu trials, %zu "
	    "attempts unfinished", e->spec->name, (long long)id, nt, na);
	if (engine_resume_hold(e, id) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	/*
	 * Every attempt first, then their lanes as the ledger recorded
	 * them, then each is followed (an end that it brings may launch a
	 * retry, which queues behind a lane as it would have before).
	 */
	made = xcalloc(na + 1, sizeof(*made));
	for (i = 0; i < na; i++)
		for (j = 0; j < nt; j++)
			if (t[j].id == at[i].trial_id)
				made[i] = engine_adopt_new(e, &at[i], &t[j]);
	for (i = 0, lanes = 0; i < na; i++)
		if (made[i] != NULL) {
			engine_chain_adopt(e, made[i], at[i].after_id);
			lanes |= at[i].after_id != 0;
		}
	if (!lanes)
		engine_chain_infer(e, made, na);
	/*
	 * A trial cancelled on request is cancelled before its attempt is
	 * followed: sent at the next tick, as the reply said, or, if it
	 * cannot be taken back, ended with no retry.
	 */
	for (i = 0; i < na; i++)
		if (made[i] != NULL && !e->cancelled &&
		    engine_resume_cancelled(&rcan, made[i]->trial_number)) {
			made[i]->cancel_as = CANCEL_USER;
			made[i]->cancel_due = 1;
			obsbook_state(e->book, made[i]->trial_number,
			    TRIAL_CANCELLED);
		}
	/*
	 * A trial pruned before is pruned still, whatever the stopper would
	 * say now: its points past the step it was pruned at are late.
	 */
	if (engine_prune_resume(e, made, na) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	for (i = 0; i < na; i++)
		if (made[i] != NULL)
			engine_adopt(e, made[i], at[i].job_id);
	/*
	 * A trial left between attempts gets its next one now, or ends
	 * cancelled with a campaign cancelled before it was taken back, or
	 * when its own cancel was recorded.
	 */
	for (j = 0; j < nt; j++) {
		if (!trial_state_active(trial_state_parse(t[j].state)))
			continue;
		for (a = e->active; a != NULL; a = a->next)
			if (a->trial_id == t[j].id)
				break;
		if (a == NULL && e->cancelled)
			ledger_trial_set_state(e->env.ledger, t[j].id,
			    trial_state_name(TRIAL_CANCELLED));
		else if (a == NULL && engine_resume_cancelled(&rcan,
		    t[j].number))
			engine_trial_state(e, t[j].id, t[j].number,
			    TRIAL_CANCELLED);
		else if (a == NULL && engine_held(e) == NULL)
			engine_retry(e, t[j].id, t[j].number, t[j].attempts);
	}
	if (e->cancelled)
		engine_cancel_all(e, CANCEL_USER, 0);
	engine_kick(e);
	rc = 0;
out:
	free(rcan.number);
	free(made);
	ledger_campaign_release(&c);
	ledger_trial_list_free(t, nt);
	ledger_attempt_list_free(at, na);
	return rc;
}
