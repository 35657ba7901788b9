/*
 * engine.c: the campaign state machine (see engine.h and DESIGN.md).
 *
 * Everything happens on the loop thread.  Backend events only update the
 * ledger and the attempt's record; decisions (submit more, stop, finish)
 * are taken in one place, engine_tick(), which runs every poll interval
 * and right after anything changes.  Launching and following a single
 * attempt is in attempt.c, events and curve points in engine_event.c,
 * taking back a running campaign in engine_resume.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "engine_int.h"
#include "invoke.h"
#include "log.h"
#include "obsbook.h"
#include "params.h"
#include "paths.h"
#include "prior.h"
#include "testpause.h"
#include "xmalloc.h"

static void	engine_tick(uv_timer_t *);

/*
 * An attempt's elapsed seconds at end (its end, or now while it runs), as
 * the ledger's accounting has it: account_attempt_elapsed() of what the
 * engine recorded.
 */
static double
engine_elapsed(const struct attempt *a, double end)
{
	struct ledger_attempt la;

	memset(&la, 0, sizeof(la));
	la.started = a->t_started;
	la.suspended = a->suspended;
	la.suspended_at = a->suspended_at;
	return account_attempt_elapsed(&la, end);
}

/* Add what an attempt that ended at `end` cost to the campaign's sum. */
void
engine_spend(struct engine *e, const struct attempt *a, double end)
{
	double el = engine_elapsed(a, end);

	e->spent_node_s += el * a->node_share;
	e->spent_gpu_s += el * a->gpus;
}

/* Set a trial's state in the ledger and in the search history. */
void
engine_trial_state(struct engine *e, int64_t trial_id, int number,
    enum trial_state state)
{
	ledger_trial_set_state(e->env.ledger, trial_id,
	    trial_state_name(state));
	obsbook_state(e->book, number, state);
}

/* The engine's time in seconds: its backend's clock. */
double
engine_now(const struct engine *e)
{
	return sched_now(e->env.sched);
}

/* Report a line of progress. */
void __attribute__((format(printf, 2, 3)))
engine_say(struct engine *e, const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (e->env.progress != NULL)
		e->env.progress(e->env.arg, e, buf);
	if (e->id > 0)
		ledger_event(e->env.ledger, e->id, "progress", buf);
}

/* Run engine_tick() as soon as the loop gets to it. */
void
engine_kick(struct engine *e)
{
	if (!e->detached && !e->done)
		uv_timer_start(&e->timer, engine_tick, 0,
		    (uint64_t)e->env.poll_interval);
}

/* Create an engine. */
struct engine *
engine_new(const struct engine_env *env, struct campaign_spec *spec,
    struct workload *w, char *err, size_t errlen)
{
	struct engine	*e;

	if ((e = calloc(1, sizeof(*e))) == NULL) {
		snprintf(err, errlen, "campaign '%s': out of memory",
		    spec->name);
		spec_free(spec);
		workload_free(w);
		return NULL;
	}
	e->env = *env;
	e->spec = spec;
	e->w = w;
	/* A campaign taken back held starts nothing: no search to set up. */
	if (engine_held(e) != NULL)
		goto held;
	e->search = search_new(spec->algorithm, spec->space, spec->seed, err,
	    errlen);
	if (e->search != NULL) {
		search_set_budget(e->search, (size_t)spec->max_trials);
		search_set_objective(e->search, spec->rank, spec->target);
	}
	if (e->search != NULL && strcmp(spec->stopper, "none") != 0 &&
	    (e->stopper = stop_new(spec->stopper, &spec->stop, err, errlen)) ==
	    NULL) {
		search_free(e->search);
		e->search = NULL;
	}
	if (e->search != NULL && spec->scaling.nbatch > 0 &&
	    (e->scaling = scaling_new(spec, err, errlen)) == NULL) {
		search_free(e->search);
		stop_free(e->stopper);
		e->search = NULL;
	}
	if (e->search == NULL) {
		spec_free(spec);
		workload_free(w);
		free(e);
		return NULL;
	}
held:
	e->curves = curves_new();
	curves_keep_best(e->curves, spec->maximize);
	e->book = obsbook_new(spec->space);
	uv_timer_init(env->loop, &e->timer);
	e->timer.data = e;
	e->nopen = 1;
	engine_flush_init(e, env->loop);
	return e;
}

/* The engine's memory, once its handles and pilot backend are closed. */
void
engine_release(void *arg)
{
	struct engine	*e = arg;
	struct attempt	*a, *next;

	if (--e->nopen > 0)
		return;
	for (a = e->active; a != NULL; a = next) {
		next = a->next;
		attempt_free(a);
	}
	search_free(e->search);
	stop_free(e->stopper);
	scaling_free(e->scaling);
	curves_free(e->curves);
	obsbook_free(e->book);
	spec_free(e->spec);
	workload_free(e->w);
	free(e);
}

static void
engine_closed(uv_handle_t *h)
{
	engine_release(h->data);
}

/* Release an engine. */
void
engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	/* Detached first: hpod's shutdown, which closed the backends. */
	if (e->detached && e->pilot != NULL)
		sched_pilot_forget(e->pilot);
	e->detached = 1;
	engine_pilot_close(e);
	engine_flush_close(e, engine_closed);
	uv_close((uv_handle_t *)&e->timer, engine_closed);
}

/* Accessors. */
int64_t
engine_id(const struct engine *e)
{
	return e->id;
}

const char *
engine_name(const struct engine *e)
{
	return e->spec->name;
}

enum campaign_state
engine_state(const struct engine *e)
{
	if (!e->done)
		return CAMPAIGN_RUNNING;
	return e->cancelled ? CAMPAIGN_CANCELLED : CAMPAIGN_FINISHED;
}

/* Record trial lt (number, point, role set) and launch its first attempt. */
static int
engine_create(struct engine *e, struct ledger_trial *lt, const double *x)
{
	const struct campaign_spec *s = e->spec;
	const char	*bp = s->scaling.batch_param ? s->scaling.batch_param :
			    "batch_size";
	char		*pj, buf[64];
	int64_t		 tid;
	int		 bi, rc;

	if ((pj = params_to_json(s->space, x)) == NULL) {
		log_warnx("campaign '%s': trial %d: out of memory", s->name,
		    e->ntrials);
		return -1;
	}
	lt->campaign_id = e->id;
	lt->number = e->ntrials;
	lt->params_json = pj;
	lt->seed = invoke_seed(s, e->ntrials, x);
	lt->state = xstrdup(trial_state_name(TRIAL_PENDING));
	lt->created = engine_now(e);
	if ((bi = space_find(s->space, bp)) != -1 &&
	    space_format(s->space, bi, x[bi], buf, sizeof(buf)) > 0)
		lt->batch_size = strtol(buf, NULL, 10);
	if (ledger_trial_insert(e->env.ledger, lt, &tid) == -1) {
		log_warnx("campaign '%s': %s", s->name,
		    ledger_error(e->env.ledger));
		free(pj);
		free(lt->state);
		return -1;
	}
	free(lt->state);
	e->ntrials++;
	obsbook_add(e->book, lt->number, pj, s->name);
	engine_say(e, "trial %d: %s", lt->number, pj);
	rc = attempt_launch(e, tid, lt->number, 0, x, pj, lt->seed);
	free(pj);
	return rc;
}

/*
 * Plan a scaling campaign's next trial and launch it: 0, 1 when every
 * batch size is done, 2 when it must wait for running trials, -1.
 */
static int
engine_new_scaling_trial(struct engine *e)
{
	struct ledger_trial	 lt, *t = NULL;
	struct scaling_plan	 p;
	size_t			 n = 0;
	int			 rc;

	if (ledger_trial_list(e->env.ledger, e->id, &t, &n) == -1) {
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
		return -1;
	}
	p.x = xcalloc(e->spec->space->n + 1, sizeof(*p.x));
	switch (scaling_next(e->scaling, t, n, e->curves, &p)) {
	case SCALING_DONE:
		e->exhausted = 1;
		rc = 1;
		break;
	case SCALING_WAIT:
		rc = 2;
		break;
	default:
		engine_say(e, "trial %d: %s", e->ntrials, p.why);
		scaling_note(e->scaling, e->ntrials, p.lane, p.role);
		memset(&lt, 0, sizeof(lt));
		lt.role = xstrdup(scaling_role_name(p.role));
		rc = engine_create(e, &lt, p.x);
		free(lt.role);
		break;
	}
	free(p.x);
	ledger_trial_list_free(t, n);
	return rc;
}

/*
 * Ask the search for a point, record a new trial and launch it: 0, 1 when
 * the search is exhausted, 2 when it must wait, -1 on error.
 */
static int
engine_new_trial(struct engine *e)
{
	const struct campaign_spec *s = e->spec;
	struct ledger_trial	 lt;
	struct history		 h;
	struct history_log	 log;
	struct observation	*obs;
	double			*x;
	int			 rc, marked = 0;

	if (e->scaling != NULL)
		return engine_new_scaling_trial(e);
	/* The history in memory: no read of the ledger per trial. */
	obs = obsbook_obs(e->book, &h.n);
	if (e->stopper != NULL && stop_nbrackets(e->stopper) > 1) {
		stop_mark_brackets(e->stopper, obs, h.n, (size_t)e->ntrials);
		marked = 1;
	}
	/* The search reads the priors too, before the trials. */
	h.obs = obsbook_history(e->book, &h.n);
	h.maximize = s->maximize;
	x = xcalloc(s->space->n + 1, sizeof(*x));
	/* What changed since the last suggestion, unless marked anew. */
	obsbook_log(e->book, &log);
	rc = search_suggest_logged(e->search, &h, marked ? NULL : &log, x);
	if (rc != 0) {
		e->exhausted = 1;
		free(x);
		return 1;
	}
	memset(&lt, 0, sizeof(lt));
	rc = engine_create(e, &lt, x);
	free(x);
	return rc;
}

/* Cancel every active attempt (but_reached: spare those on target). */
void
engine_cancel_all(struct engine *e, enum cancel_as why, int but_reached)
{
	struct attempt	*a;

	for (a = e->active; a != NULL; a = a->next) {
		if (a->cancel_as != CANCEL_NONE || (but_reached && a->reached))
			continue;
		a->cancel_as = why;
		sched_cancel(e->env.sched, a->token);
	}
}

/*
 * The node- and GPU-seconds of the campaign's attempts at time now, as
 * account_campaign() counts them from the ledger (elapsed time from a
 * recorded start to the end, or to now while running, times the
 * allocation), but from what the engine recorded: the ended attempts'
 * sum and its active attempts, not a read of every attempt per tick.
 * The idle time of the pilots that ended is in the sum.
 */
static void
engine_spent(const struct engine *e, double now, double *node_s,
    double *gpu_s)
{
	const struct attempt	*a;
	double			 el;

	*node_s = e->spent_node_s;
	*gpu_s = e->spent_gpu_s;
	for (a = e->active; a != NULL; a = a->next) {
		el = engine_elapsed(a, now);
		*node_s += el * a->node_share;
		*gpu_s += el * a->gpus;
	}
}

/* The budget cap that node_s and gpu_s spend, or NULL. */
static const char *
engine_over(const struct campaign_spec *s, double node_s, double gpu_s)
{
	if (s->max_node_hours > 0 && node_s / 3600 >= s->max_node_hours)
		return "node-hour budget spent";
	if (s->max_gpu_hours > 0 && gpu_s / 3600 >= s->max_gpu_hours)
		return "GPU-hour budget spent";
	return NULL;
}

/*
 * Check the budget caps; set stop_reason when one is spent.  The running
 * pilots' idle time so far counts, as the ledger's account has it
 * (account_pilots()): left out, a campaign of pilots ran past its budget
 * by it until they ended.  Its bound, which reads nothing, is enough
 * while it leaves the budget unspent; else the ledger's figure decides.
 */
static void
engine_check_budget(struct engine *e, double now)
{
	const struct campaign_spec	*s = e->spec;
	double				 node_s, gpu_s, idle_n, idle_g;
	int				 rc;

	if (e->stop_reason != NULL)
		return;
	if (s->max_wall_time > 0 && now - e->started >= s->max_wall_time) {
		e->stop_reason = "wall-clock budget spent";
		engine_cancel_all(e, CANCEL_BUDGET, 0);
		return;
	}
	if (s->max_node_hours <= 0 && s->max_gpu_hours <= 0)
		return;
	engine_spent(e, now, &node_s, &gpu_s);
	rc = engine_pilot_idle(e, now, 0, &idle_n, &idle_g);
	if (rc == 0 && engine_over(s, node_s + idle_n, gpu_s + idle_g) != NULL)
		rc = engine_pilot_idle(e, now, 1, &idle_n, &idle_g);
	if (rc == -1) {
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
		idle_n = idle_g = 0;
	}
	e->stop_reason = engine_over(s, node_s + idle_n, gpu_s + idle_g);
}

/* Record the end of the campaign and tell the owner. */
static void
engine_finish(struct engine *e)
{
	const char	*state = campaign_state_name(e->cancelled ?
			    CAMPAIGN_CANCELLED : CAMPAIGN_FINISHED);

	e->done = 1;
	uv_timer_stop(&e->timer);
	engine_pilot_close(e);
	ledger_campaign_set_state(e->env.ledger, e->id, state, engine_now(e));
	engine_say(e, "campaign %s: %s (%d trials)", state,
	    e->stop_reason ? e->stop_reason : e->scaling != NULL ?
	    "every batch size tuned and confirmed" : e->exhausted ?
	    "search space exhausted" : "all trials done", e->ntrials);
	if (e->env.done != NULL)
		e->env.done(e->env.arg, e);
}

/* The engine's heartbeat: follow output, enforce budgets, submit, finish. */
static void
engine_tick(uv_timer_t *t)
{
	struct engine	*e = t->data;
	struct attempt	*a;
	double		 now = engine_now(e);
	int		 rc = 0;

	if (e->detached || e->done)
		return;
	engine_batch(e);
	/* Cancels asked for (engine_cancel, engine_cancel_trial), sent now. */
	if (e->cancelled)
		engine_cancel_all(e, CANCEL_USER, 0);
	for (a = e->active; a != NULL; a = a->next)
		if (a->cancel_due) {
			a->cancel_due = 0;
			sched_cancel(e->env.sched, a->token);
		}
	/*
	 * Output is polled once per interval, not at every kick: a
	 * campaign whose trials end one after the other kicks the tick
	 * per end, and would reread every running attempt's output each
	 * time.  Backends that signal output (SCHED_EV_OUTPUT) are read
	 * at once, whatever the interval.
	 */
	for (a = e->active; a != NULL; a = a->next)
		if (a->started && uv_now(t->loop) - a->followed >=
		    (uint64_t)e->env.poll_interval)
			attempt_follow(a, 0);
	engine_check_budget(e, now);
	if (e->stop_reason != NULL && strcmp(e->stop_reason, "target reached")
	    == 0)
		engine_cancel_all(e, CANCEL_BUDGET, 1);
	if (e->spec->chain && (e->stop_reason != NULL || e->cancelled))
		engine_chain_cancel(e);
	while (!e->detached && !e->cancelled && e->stop_reason == NULL &&
	    !e->exhausted && engine_held(e) == NULL &&
	    e->ntrials < e->spec->max_trials &&
	    engine_chain_room(e) && !diskfull_wait(e))
		if ((rc = engine_new_trial(e)) == -1 || rc == 2)
			break;
	/* A failed commit dropped it (env.lost): it decides nothing more. */
	if (e->detached)
		return;
	/* Waiting with nothing running would wait forever. */
	if (rc == 2 && e->nactive == 0 && engine_new_trial(e) == 2) {
		log_warnx("campaign '%s': scaling plan stuck with nothing "
		    "running; ending", e->spec->name);
		e->exhausted = 1;
	}
	/*
	 * A held campaign waits, its attempts ended, until it is cancelled;
	 * its pilots, with nothing more to run, are let go (drained) rather
	 * than billed idle to their time limit.
	 */
	if (e->nactive == 0 && engine_held(e) != NULL && !e->cancelled)
		(void)engine_pilot_wait(e);
	if (e->nactive == 0 && (e->cancelled || (engine_held(e) == NULL &&
	    (e->stop_reason != NULL || e->exhausted || e->ntrials >=
	    e->spec->max_trials))) && !engine_pilot_wait(e))
		engine_finish(e);
}

/* engine_held(): see engine.h. */
const char *
engine_held(const struct engine *e)
{
	return e->spec->hold[0] != '\0' ? e->spec->hold : NULL;
}

/* Record a new campaign and start it. */
/*
 * Claim a new campaign's run directory, RUN_DIR/ID-NAME: it must not exist
 * yet, or be empty.  Attempts append their output, so one left by a
 * campaign of another ledger with the same id and name would be read as
 * this one's; such a campaign is refused before anything of it is kept.
 */
static int
engine_claim(void *arg, int64_t id, char *err, size_t errlen)
{
	struct engine	*e = arg;
	struct stat	 st;
	char		*dir;
	int		 rc = 0;

	if (asprintf(&dir, "%s/%lld-%s", e->env.run_dir, (long long)id,
	    e->spec->name) == -1) {
		snprintf(err, errlen, "campaign '%s': out of memory",
		    e->spec->name);
		return -1;
	}
	/*
	 * An empty one holds nothing to mix up: a process killed before the
	 * campaign's record was committed left it, and it is taken.
	 */
	if (paths_mkdir(e->env.run_dir, 0700) == -1 || (mkdir(dir, 0700) ==
	    -1 && (errno != EEXIST || rmdir(dir) == -1 ||
	    mkdir(dir, 0700) == -1))) {
		/* A run_dir that is a file: not "exists already". */
		if (stat(e->env.run_dir, &st) == 0 && !S_ISDIR(st.st_mode))
			snprintf(err, errlen, "campaign '%s': run_dir %s: %s",
			    e->spec->name, e->env.run_dir, strerror(ENOTDIR));
		else if (errno == EEXIST || errno == ENOTEMPTY ||
		    errno == ENOTDIR)
			snprintf(err, errlen, "campaign '%s': run directory %s "
			    "exists already (left by a campaign of another "
			    "ledger?); it is not reused: move it away or set "
			    "another run_dir", e->spec->name, dir);
		else
			snprintf(err, errlen, "campaign '%s': mkdir %s: %s",
			    e->spec->name, dir, strerror(errno));
		rc = -1;
	} else
		testpause_at("after-claim");
	free(dir);
	return rc;
}

int
engine_start(struct engine *e, char *err, size_t errlen)
{
	const struct campaign_spec	*s = e->spec;
	const char			*why;
	char				 why_grid[512];
	struct ledger_campaign		 c;
	struct ledger_prior		*pr = NULL;
	size_t				 npr = 0;
	int				 rc;

	/* The warm start is read and checked before anything is recorded. */
	if (diskfull_check(e, err, errlen) == -1)
		return -1;
	if (prior_read(s, &pr, &npr, err, errlen) == -1) {
		prior_error(s, err, errlen);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.name = s->name;
	c.workload = e->w->name;
	c.backend = s->backend;
	c.spec_json = s->json;
	c.spec_path = s->path;
	c.state = xstrdup(campaign_state_name(CAMPAIGN_RUNNING));
	c.metric = s->metric;
	c.maximize = s->maximize;
	c.has_target = s->has_target;
	c.target = s->target;
	c.started = e->started = engine_now(e);
	c.max_trials = s->max_trials;
	c.driver = xstrdup(e->env.driver);
	c.workload_json = e->w->json;
	rc = prior_record(e->env.ledger, &c, pr, npr, engine_claim, e, &e->id,
	    err, errlen);
	free(c.state);
	free(c.driver);
	if (rc == -1) {
		ledger_prior_list_free(pr, npr);
		return -1;
	}
	if (engine_pilot_start(e, err, errlen) == -1) {
		ledger_prior_list_free(pr, npr);
		return -1;
	}
	if (obsbook_load(e->book, e->env.ledger, e->id, e->curves, s->name) ==
	    -1) {
		snprintf(err, errlen, "%s", ledger_error(e->env.ledger));
		ledger_prior_list_free(pr, npr);
		return -1;
	}
	ledger_prior_list_free(pr, npr);
	engine_say(e, "campaign '%s' (id %lld): %s search over %zu "
	    "parameters, %d trials, %d at a time, %s backend", s->name,
	    (long long)e->id, s->algorithm, s->space->n, s->max_trials,
	    s->max_parallel, s->backend);
	if (s->search_points > (size_t)s->max_trials)
		engine_say(e, "%s", spec_grid_cut(s, why_grid,
		    sizeof(why_grid)));
	if (s->chain)
		engine_say(e, "dispatch: chain, %d lanes: each slot's next job "
		    "queued behind its running one (afterany)", s->max_parallel);
	if (*search_chosen(e->search, &why) != '\0' && *why != '\0')
		engine_say(e, "search: auto chose %s", why);
	if (s->stop_why[0] != '\0')
		engine_say(e, "stopper: auto chose %s", s->stop_why);
	if (s->prior.kind != NULL)
		engine_say(e, "warm start: %zu priors from %s (prior "
		    "knowledge: no cost and no trials of this campaign)", npr,
		    s->prior.path);
	if (e->scaling != NULL)
		engine_say(e, "scaling over %zu batch sizes: %d tuning trials "
		    "and %d confirmation runs each, learning rate rule %s",
		    s->scaling.nbatch, s->scaling.trials_per_batch,
		    s->scaling.seeds, spec_lr_rule_name(s->scaling.lr_rule));
	engine_kick(e);
	return 0;
}

/*
 * Cancel the campaign: recorded (an event) now, its attempts cancelled at
 * the next tick, so that the commit of the request that asked comes
 * first (engine.h).
 */
void
engine_cancel(struct engine *e)
{
	if (e->done || e->cancelled)
		return;
	e->cancelled = 1;
	if (e->stop_reason == NULL)
		e->stop_reason = "cancelled";
	if (e->id > 0)
		ledger_event(e->env.ledger, e->id, "cancel",
		    "campaign cancelled on request");
	engine_kick(e);
}

/* Stop following the campaign without ending it. */
void
engine_detach(struct engine *e)
{
	e->detached = 1;
	uv_timer_stop(&e->timer);
}

/*
 * Stop, and hand the campaign's jobs over to a later engine_resume().
 * With pilots, the pilots' jobs are handed over (sched_pilot_release):
 * their backend is the engine's own (the agents' listener, the pilots'
 * accounting) and goes with it; the trials in them are taken back by
 * the next engine's, from the agents' hellos, as after a restart.  The
 * backends hpod runs (local, Slurm, pilots over either) always hand
 * their jobs over; replay, which cannot, runs only in hpoctl run, where
 * no engine is dropped.
 */
void
engine_drop(struct engine *e)
{
	struct attempt	*a;

	engine_detach(e);
	if (e->pilot != NULL) {
		(void)sched_pilot_release(e->pilot);
		return;
	}
	for (a = e->active; a != NULL; a = a->next)
		(void)sched_release(e->env.sched, a->token);
}
