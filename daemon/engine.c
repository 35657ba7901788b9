/*
 * engine.c: the campaign state machine (see engine.h and DESIGN.md).
 *
 * Everything happens on the loop thread.  Backend events only update the
 * ledger and the attempt's record; decisions (submit more, stop, finish)
 * are taken in one place, engine_tick(), which runs every poll interval
 * and right after anything changes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "account.h"
#include "engine.h"
#include "log.h"
#include "mllog.h"
#include "params.h"
#include "paths.h"
#include "rng.h"
#include "search.h"
#include "tail.h"

enum cancel_as { CANCEL_NONE, CANCEL_USER, CANCEL_PRUNE, CANCEL_BUDGET };

/* An attempt in flight. */
struct attempt {
	struct engine	*e;
	struct attempt	*next;
	int64_t		 trial_id;
	int64_t		 attempt_id;
	int		 trial_number;
	int		 number;
	char		*token;
	char		*dir;
	char		*out;		/* dir/stdout */
	int		 started;
	enum cancel_as	 cancel_as;
	struct tail	 tail;
	int		 has_best;	/* the trial's best so far */
	double		 best;
	int		 reached;
	double		 npoints;
	int		 diverged;	/* run_stop said aborted */
};

struct engine {
	struct engine_env	 env;
	struct campaign_spec	*spec;
	struct workload		*w;
	struct search		*search;
	int64_t			 id;
	double			 started;
	uv_timer_t		 timer;
	struct attempt		*active;
	int			 nactive;
	int			 ntrials;	/* trials created */
	int			 exhausted;	/* no more trials to create */
	const char		*stop_reason;	/* why no more are created */
	int			 cancelled;
	int			 detached;
	int			 done;
};

static void	engine_tick(uv_timer_t *);
static void	engine_event(void *, const struct sched_event *);

/* Wall-clock time in seconds. */
static double
engine_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Report a line of progress. */
static void __attribute__((format(printf, 2, 3)))
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
static void
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

	if ((e = calloc(1, sizeof(*e))) == NULL)
		abort();
	e->env = *env;
	e->spec = spec;
	e->w = w;
	e->search = search_new(spec->algorithm, spec->space, spec->seed, err,
	    errlen);
	if (e->search == NULL) {
		spec_free(spec);
		workload_free(w);
		free(e);
		return NULL;
	}
	uv_timer_init(env->loop, &e->timer);
	e->timer.data = e;
	return e;
}

/* Free an attempt record. */
static void
attempt_free(struct attempt *a)
{
	tail_release(&a->tail);
	free(a->token);
	free(a->dir);
	free(a->out);
	free(a);
}

/* The engine's memory, once its timer is closed. */
static void
engine_closed(uv_handle_t *h)
{
	struct engine	*e = h->data;
	struct attempt	*a, *next;

	for (a = e->active; a != NULL; a = next) {
		next = a->next;
		attempt_free(a);
	}
	search_free(e->search);
	spec_free(e->spec);
	workload_free(e->w);
	free(e);
}

/* Release an engine. */
void
engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	e->detached = 1;
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

int
engine_done(const struct engine *e)
{
	return e->done;
}

const char *
engine_state(const struct engine *e)
{
	if (!e->done)
		return "running";
	return e->cancelled ? "cancelled" : "finished";
}

/* A seed for a trial: derived from the campaign seed and trial number. */
static long long
engine_trial_seed(const struct engine *e, int number)
{
	struct rng	 r;

	rng_seed(&r, e->spec->seed ^ 0x5eedULL, (uint64_t)number);
	return (long long)(rng_next(&r) % 2147483647ULL);
}

/* A token no other job anywhere will carry. */
static char *
engine_token(const struct engine *e, int trial, int attempt)
{
	unsigned char	 r[4] = { 0 };
	char		*t;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r[0] = (unsigned char)getpid();
	if (asprintf(&t, "hpod-%lld-%d-%d-%02x%02x%02x%02x", (long long)e->id,
	    trial, attempt, r[0], r[1], r[2], r[3]) == -1)
		abort();
	return t;
}

/* Write the attempt's params.json: every value the workload receives. */
static int
engine_write_params(const struct attempt *a, const char *params_json,
    long long seed, const struct campaign_spec *s)
{
	cJSON	*root, *fixed;
	char	*path, *tmp, *text;
	FILE	*f;
	size_t	 i;
	int	 rc = -1;

	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "campaign", s->name);
	cJSON_AddNumberToObject(root, "trial", a->trial_number);
	cJSON_AddNumberToObject(root, "attempt", a->number);
	cJSON_AddNumberToObject(root, "seed", (double)seed);
	cJSON_AddStringToObject(root, "token", a->token);
	cJSON_AddItemToObject(root, "params", cJSON_Parse(params_json));
	fixed = cJSON_AddObjectToObject(root, "fixed");
	for (i = 0; i < s->nfixed; i++)
		cJSON_AddStringToObject(fixed, s->fixed[i].name,
		    s->fixed[i].value);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (asprintf(&path, "%s/params.json", a->dir) == -1 ||
	    asprintf(&tmp, "%s/.params.json.tmp", a->dir) == -1)
		abort();
	if ((f = fopen(tmp, "w")) != NULL) {
		fprintf(f, "%s\n", text);
		if (fclose(f) == 0 && rename(tmp, path) == 0)
			rc = 0;
	}
	cJSON_free(text);
	free(path);
	free(tmp);
	return rc;
}

/* Unlink an attempt from the active list and free it. */
static void
engine_forget(struct engine *e, struct attempt *a)
{
	struct attempt	**pp;

	for (pp = &e->active; *pp != NULL; pp = &(*pp)->next)
		if (*pp == a) {
			*pp = a->next;
			e->nactive--;
			break;
		}
	attempt_free(a);
}

/* Upper-case a parameter name into an HPO_ environment variable. */
static char *
engine_envvar(const char *name, const char *value)
{
	char	*s, *p;

	if (asprintf(&s, "HPO_%s=%s", name, value) == -1)
		abort();
	for (p = s + 4; *p != '='; p++)
		*p = (*p == '-' || *p == '.') ? '_' :
		    (*p >= 'a' && *p <= 'z') ? *p - 'a' + 'A' : *p;
	return s;
}

/* Mark an attempt that could not be submitted, and its trial, failed. */
static void
engine_submit_failed(struct engine *e, struct attempt *a, const char *why)
{
	double	 now = engine_now();

	ledger_attempt_finished(e->env.ledger, a->attempt_id, "failed", now, -1,
	    0, why);
	ledger_trial_set_state(e->env.ledger, a->trial_id, "failed");
	engine_say(e, "trial %d: not submitted: %s", a->trial_number, why);
}

/*
 * Start attempt `number` of a trial: record it, prepare its directory,
 * render what it runs and submit it.  The trial row exists already.
 */
static int
engine_launch(struct engine *e, int64_t trial_id, int trial_number,
    int number, const double *x, const char *params_json, long long seed)
{
	const struct campaign_spec *s = e->spec;
	struct ledger_attempt	 la;
	struct workload_var	*vars;
	struct sched_job	 job;
	struct attempt		*a;
	char			**argv = NULL, **wenv = NULL, **env;
	char			 err[512], buf[64], tnum[16], anum[16];
	char			 seedbuf[32], target[32], **vals;
	size_t			 i, nv = 0, ne = 0, nvals;
	int			 rc = -1;

	a = calloc(1, sizeof(*a));
	a->e = e;
	a->trial_id = trial_id;
	a->trial_number = trial_number;
	a->number = number;
	a->token = engine_token(e, trial_number, number);
	if (asprintf(&a->dir, "%s/%lld-%s/trial-%04d/attempt-%d",
	    e->env.run_dir, (long long)e->id, s->name, trial_number, number) ==
	    -1 || asprintf(&a->out, "%s/stdout", a->dir) == -1)
		abort();

	memset(&la, 0, sizeof(la));
	la.trial_id = trial_id;
	la.number = number;
	la.token = a->token;
	la.dir = a->dir;
	la.created = engine_now();
	if (ledger_attempt_insert(e->env.ledger, &la, &a->attempt_id) == -1) {
		log_warnx("campaign '%s': %s", s->name,
		    ledger_error(e->env.ledger));
		attempt_free(a);
		return -1;
	}
	a->next = e->active;
	e->active = a;
	e->nactive++;
	if (paths_mkdir(a->dir, 0755) == -1) {
		snprintf(err, sizeof(err), "mkdir %s: %s", a->dir,
		    strerror(errno));
		engine_submit_failed(e, a, err);
		goto out;
	}
	if (engine_write_params(a, params_json, seed, s) == -1) {
		snprintf(err, sizeof(err), "write %s/params.json: %s", a->dir,
		    strerror(errno));
		engine_submit_failed(e, a, err);
		goto out;
	}

	/* Values: searched parameters, fixed ones, then the built-ins. */
	nvals = s->space->n;
	vals = calloc(nvals + 1, sizeof(*vals));
	vars = calloc(s->space->n + s->nfixed + 9, sizeof(*vars));
	for (i = 0; i < s->space->n; i++) {
		space_format(s->space, i, x[i], buf, sizeof(buf));
		if (s->space->params[i].type == PARAM_CHOICE &&
		    s->space->params[i].choices[(size_t)x[i]].is_string)
			vals[i] = strdup(
			    s->space->params[i].choices[(size_t)x[i]].str);
		else
			vals[i] = strdup(buf);
		vars[nv].name = s->space->params[i].name;
		vars[nv++].value = vals[i];
	}
	for (i = 0; i < s->nfixed; i++)
		vars[nv++] = s->fixed[i];
	snprintf(tnum, sizeof(tnum), "%d", trial_number);
	snprintf(anum, sizeof(anum), "%d", number);
	snprintf(seedbuf, sizeof(seedbuf), "%lld", seed);
	space_shortest(s->target, target, sizeof(target));
	/*
	 * Built-ins go first so that a parameter of the same name wins.  The
	 * campaign's target is {target} unless the campaign has none (then
	 * the workload's default applies).
	 */
	memmove(vars + 7, vars, nv * sizeof(*vars));
	vars[0] = (struct workload_var){ "trial", tnum };
	vars[1] = (struct workload_var){ "attempt", anum };
	vars[2] = (struct workload_var){ "seed", seedbuf };
	vars[3] = (struct workload_var){ "dir", a->dir };
	vars[4] = (struct workload_var){ "campaign", s->name };
	vars[5] = (struct workload_var){ "token", a->token };
	vars[6] = (struct workload_var){ "target", target };
	nv += 7;
	if (!s->has_target) {
		memmove(vars + 6, vars + 7, (nv - 7) * sizeof(*vars));
		nv--;
	}
	if (workload_render(e->w, vars, nv, &argv, &wenv, err, sizeof(err)) ==
	    -1) {
		engine_submit_failed(e, a, err);
		goto free_vars;
	}
	for (ne = 0; wenv[ne] != NULL; ne++)
		;
	env = calloc(ne + nv + 1, sizeof(*env));
	for (i = 0; i < ne; i++)
		env[i] = wenv[i];
	for (i = 0; i < nv; i++)
		env[ne + i] = engine_envvar(vars[i].name, vars[i].value);
	free(wenv);
	wenv = env;

	memset(&job, 0, sizeof(job));
	job.token = a->token;
	job.name = a->token;
	job.dir = a->dir;
	job.argv = (const char *const *)argv;
	job.env = (const char *const *)wenv;
	job.nodes = s->res.nodes;
	job.gpus_per_node = s->res.gpus_per_node;
	job.cpus_per_task = s->res.cpus_per_task;
	job.tasks_per_node = s->res.tasks_per_node;
	job.time_limit = s->res.time_limit;
	job.partition = s->res.partition;
	job.account = s->res.account;
	job.qos = s->res.qos;
	job.constraint = s->res.constraint;
	job.cb = engine_event;
	job.arg = a;
	if (sched_submit(e->env.sched, &job) == -1) {
		snprintf(err, sizeof(err), "the %s backend refused the job "
		    "(resources beyond what it has?)", e->env.sched->ops->name);
		engine_submit_failed(e, a, err);
		goto free_vars;
	}
	rc = 0;
free_vars:
	workload_strv_free(argv);
	workload_strv_free(wenv);
	for (i = 0; i < nvals; i++)
		free(vals[i]);
	free(vals);
	free(vars);
out:
	if (rc == -1)
		engine_forget(e, a);
	return rc;
}

/* Is value better than the best so far? */
static int
engine_better(const struct engine *e, int has_best, double best, double v)
{
	if (!has_best)
		return 1;
	return e->spec->maximize ? v > best : v < best;
}

/* Does value meet the campaign's target? */
static int
engine_meets(const struct engine *e, double v)
{
	if (!e->spec->has_target)
		return 0;
	return e->spec->maximize ? v >= e->spec->target : v <= e->spec->target;
}

/* One line of an attempt's output: record MLLOG metric points. */
static void
engine_line(void *arg, const char *line, size_t len)
{
	struct attempt		*a = arg;
	struct engine		*e = a->e;
	struct mllog_event	 ev;
	char			 err[256];
	double			 when, step, now;

	if (mllog_parse_line(line, len, &ev, err, sizeof(err)) != 0)
		return;
	if (strcmp(ev.key, "run_stop") == 0 && strcmp(ev.status, "aborted") ==
	    0)
		a->diverged = 1;
	if (!ev.has_num || !isfinite(ev.num))
		return;
	if (strcmp(ev.key, e->spec->metric) != 0 &&
	    strncmp(ev.key, "eval_", 5) != 0 &&
	    strncmp(ev.key, "train_", 6) != 0)
		return;
	/* The job's own clock, unless it is clearly not comparable to ours. */
	now = engine_now();
	when = ev.time_ms / 1000.0;
	if (when < e->started - 60 || when > now + 60)
		when = now;
	step = ev.has_epoch ? ev.epoch : a->npoints;
	a->npoints++;
	ledger_metric_insert(e->env.ledger, a->attempt_id, step, ev.key, ev.num,
	    when);
	if (strcmp(ev.key, e->spec->metric) != 0 ||
	    !engine_better(e, a->has_best, a->best, ev.num))
		return;
	a->has_best = 1;
	a->best = ev.num;
	if (!a->reached && engine_meets(e, ev.num)) {
		a->reached = 1;
		engine_say(e, "trial %d: %s %g at %s %g meets the target",
		    a->trial_number, ev.key, ev.num, strcmp(e->w->fidelity,
		    "steps") == 0 ? "step" : "epoch", step);
		ledger_trial_set_best(e->env.ledger, a->trial_id, ev.num, step,
		    1, when);
		if (e->spec->stop_on_target && e->stop_reason == NULL)
			e->stop_reason = "target reached";
		engine_kick(e);
	} else
		ledger_trial_set_best(e->env.ledger, a->trial_id, ev.num, step,
		    a->reached, 0);
}

/* Read what an attempt printed since the last poll. */
static void
engine_follow(struct attempt *a, int final)
{
	tail_read(&a->tail, a->out, final ? SIZE_MAX : 4 << 20, final,
	    engine_line, a);
}

/* The ledger's name for how an attempt ended. */
static const char *
engine_end_state(const struct attempt *a, const struct sched_event *ev)
{
	if (ev->state == SCHED_CANCELLED && a->cancel_as == CANCEL_PRUNE)
		return "pruned";
	return sched_state_name(ev->state);
}

/* Should an attempt that ended in this state be tried again? */
static int
engine_retryable(const struct engine *e, const struct attempt *a,
    enum sched_state st)
{
	if (e->cancelled || a->cancel_as != CANCEL_NONE ||
	    a->number >= e->spec->retry_limit)
		return 0;
	return st == SCHED_NODE_FAIL || st == SCHED_PREEMPTED ||
	    st == SCHED_LOST || (st == SCHED_TIMEOUT && e->spec->retry_timeout);
}

/* Retry a trial with a new attempt, recovering its point from the ledger. */
static void
engine_retry(struct engine *e, int64_t trial_id, int trial_number,
    int number)
{
	struct ledger_trial	*t = NULL;
	size_t			 n = 0, i;
	double			*x;
	char			 err[256];

	x = calloc(e->spec->space->n + 1, sizeof(*x));
	if (ledger_trial_list(e->env.ledger, e->id, &t, &n) == 0) {
		for (i = 0; i < n; i++) {
			if (t[i].id != trial_id)
				continue;
			if (params_from_json(e->spec->space, t[i].params_json, x,
			    err, sizeof(err)) == -1) {
				log_warnx("campaign '%s': trial %d: %s",
				    e->spec->name, trial_number, err);
				ledger_trial_set_state(e->env.ledger, trial_id,
				    "failed");
			} else
				engine_launch(e, trial_id, trial_number, number,
				    x, t[i].params_json, t[i].seed);
			break;
		}
	}
	ledger_trial_list_free(t, n);
	free(x);
}

/* A backend event for one of our attempts. */
static void
engine_event(void *arg, const struct sched_event *ev)
{
	struct attempt	*a = arg;
	struct engine	*e = a->e;
	const char	*state, *tstate;
	int64_t		 tid;
	int		 tnum, next;

	if (e->detached)
		return;
	switch (ev->type) {
	case SCHED_EV_SUBMITTED:
		ledger_attempt_submitted(e->env.ledger, a->attempt_id,
		    ev->job_id, ev->time);
		return;
	case SCHED_EV_STARTED:
		a->started = 1;
		ledger_attempt_started(e->env.ledger, a->attempt_id, ev->job_id,
		    ev->time, ev->nodes, ev->gpus, ev->cpus, ev->host);
		ledger_trial_set_state(e->env.ledger, a->trial_id, "running");
		return;
	case SCHED_EV_SUBMIT_FAILED:
		engine_submit_failed(e, a, ev->reason ? ev->reason :
		    "submission failed");
		engine_forget(e, a);
		engine_kick(e);
		return;
	case SCHED_EV_END:
		break;
	}
	engine_follow(a, 1);
	if (a->diverged && ev->state == SCHED_COMPLETED)
		log_debug("trial %d: run_stop aborted with exit 0",
		    a->trial_number);
	state = engine_end_state(a, ev);
	if (ledger_attempt_finished(e->env.ledger, a->attempt_id, state,
	    ev->end > 0 ? ev->end : ev->time, ev->exit_code, ev->signal,
	    ev->reason) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	tid = a->trial_id;
	tnum = a->trial_number;
	next = a->number + 1;
	if (engine_retryable(e, a, ev->state)) {
		engine_say(e, "trial %d attempt %d: %s%s%s; retrying", tnum,
		    a->number, state, ev->reason ? ": " : "",
		    ev->reason ? ev->reason : "");
		engine_forget(e, a);
		engine_retry(e, tid, tnum, next);
		engine_kick(e);
		return;
	}
	switch (ev->state) {
	case SCHED_COMPLETED:
		tstate = "completed";
		break;
	case SCHED_CANCELLED:
		tstate = a->cancel_as == CANCEL_PRUNE ? "pruned" : "cancelled";
		break;
	default:
		tstate = "failed";
		break;
	}
	ledger_trial_set_state(e->env.ledger, tid, tstate);
	if (a->has_best)
		engine_say(e, "trial %d: %s, best %s %g%s", tnum, state,
		    e->spec->metric, a->best, a->reached ? " (target met)" : "");
	else
		engine_say(e, "trial %d: %s%s%s, no %s reported", tnum, state,
		    ev->reason ? ": " : "", ev->reason ? ev->reason : "",
		    e->spec->metric);
	engine_forget(e, a);
	engine_kick(e);
}

/* Rebuild the search history from the ledger; caller frees *xs, *obs. */
static int
engine_history(struct engine *e, struct history *h, double **xs,
    struct observation **obs)
{
	struct ledger_trial	*t = NULL;
	size_t			 n = 0, i, dim = e->spec->space->n;
	char			 err[256];

	if (ledger_trial_list(e->env.ledger, e->id, &t, &n) == -1)
		return -1;
	*xs = calloc(n * dim + 1, sizeof(**xs));
	*obs = calloc(n + 1, sizeof(**obs));
	for (i = 0; i < n; i++) {
		struct observation *o = &(*obs)[i];

		o->x = *xs + i * dim;
		if (params_from_json(e->spec->space, t[i].params_json,
		    *xs + i * dim, err, sizeof(err)) == -1)
			log_warnx("campaign '%s': trial %d: %s", e->spec->name,
			    t[i].number, err);
		if (strcmp(t[i].state, "completed") == 0)
			o->state = OBS_COMPLETE;
		else if (strcmp(t[i].state, "pruned") == 0)
			o->state = OBS_PRUNED;
		else if (strcmp(t[i].state, "pending") == 0 ||
		    strcmp(t[i].state, "running") == 0)
			o->state = OBS_RUNNING;
		else
			o->state = OBS_FAILED;
		o->has_value = t[i].has_best;
		o->value = t[i].best;
	}
	h->n = n;
	h->obs = *obs;
	h->maximize = e->spec->maximize;
	ledger_trial_list_free(t, n);
	return 0;
}

/* Ask the search for a point, record a new trial and launch it. */
static int
engine_new_trial(struct engine *e)
{
	const struct campaign_spec *s = e->spec;
	struct ledger_trial	 lt;
	struct history		 h;
	struct observation	*obs = NULL;
	double			*xs = NULL, *x;
	char			*pj, buf[64];
	int64_t			 tid;
	int			 bi, rc;
	long long		 seed;

	if (engine_history(e, &h, &xs, &obs) == -1)
		return -1;
	x = calloc(s->space->n + 1, sizeof(*x));
	rc = search_suggest(e->search, &h, x);
	free(xs);
	free(obs);
	if (rc != 0) {
		e->exhausted = 1;
		if (e->stop_reason == NULL)
			e->stop_reason = "search space exhausted";
		free(x);
		return 1;
	}
	pj = params_to_json(s->space, x);
	seed = engine_trial_seed(e, e->ntrials);
	if ((bi = space_find(s->space, "seed")) != -1 &&
	    space_format(s->space, bi, x[bi], buf, sizeof(buf)) > 0)
		seed = strtoll(buf, NULL, 10);
	memset(&lt, 0, sizeof(lt));
	lt.campaign_id = e->id;
	lt.number = e->ntrials;
	lt.params_json = pj;
	lt.seed = seed;
	lt.state = "pending";
	lt.created = engine_now();
	if ((bi = space_find(s->space, "batch_size")) != -1 &&
	    space_format(s->space, bi, x[bi], buf, sizeof(buf)) > 0)
		lt.batch_size = strtol(buf, NULL, 10);
	if (ledger_trial_insert(e->env.ledger, &lt, &tid) == -1) {
		log_warnx("campaign '%s': %s", s->name,
		    ledger_error(e->env.ledger));
		free(pj);
		free(x);
		return -1;
	}
	e->ntrials++;
	engine_say(e, "trial %d: %s", lt.number, pj);
	rc = engine_launch(e, tid, lt.number, 0, x, pj, seed);
	free(pj);
	free(x);
	return rc;
}

/* Cancel every active attempt (but_reached: spare those on target). */
static void
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

/* Check the budget caps; set stop_reason when one is spent. */
static void
engine_check_budget(struct engine *e, double now)
{
	const struct campaign_spec	*s = e->spec;
	struct ledger_campaign		 c;
	struct account			 acct;

	if (e->stop_reason != NULL)
		return;
	if (s->max_wall_time > 0 && now - e->started >= s->max_wall_time) {
		e->stop_reason = "wall-clock budget spent";
		engine_cancel_all(e, CANCEL_BUDGET, 0);
		return;
	}
	if (s->max_node_hours <= 0 && s->max_gpu_hours <= 0)
		return;
	memset(&c, 0, sizeof(c));
	c.id = e->id;
	c.started = e->started;
	c.maximize = s->maximize;
	if (account_campaign(e->env.ledger, &c, now, &acct) == -1)
		return;
	if (s->max_node_hours > 0 && acct.node_seconds / 3600 >=
	    s->max_node_hours)
		e->stop_reason = "node-hour budget spent";
	else if (s->max_gpu_hours > 0 && acct.gpu_seconds / 3600 >=
	    s->max_gpu_hours)
		e->stop_reason = "GPU-hour budget spent";
	account_release(&acct);
}

/* Record the end of the campaign and tell the owner. */
static void
engine_finish(struct engine *e)
{
	const char	*state = e->cancelled ? "cancelled" : "finished";

	e->done = 1;
	uv_timer_stop(&e->timer);
	ledger_campaign_set_state(e->env.ledger, e->id, state, engine_now());
	engine_say(e, "campaign %s: %s (%d trials)", state,
	    e->stop_reason ? e->stop_reason : "all trials done", e->ntrials);
	if (e->env.done != NULL)
		e->env.done(e->env.arg, e);
}

/* The engine's heartbeat: follow output, enforce budgets, submit, finish. */
static void
engine_tick(uv_timer_t *t)
{
	struct engine	*e = t->data;
	struct attempt	*a;
	double		 now = engine_now();

	if (e->detached || e->done)
		return;
	for (a = e->active; a != NULL; a = a->next)
		if (a->started)
			engine_follow(a, 0);
	engine_check_budget(e, now);
	if (e->stop_reason != NULL && strcmp(e->stop_reason, "target reached")
	    == 0)
		engine_cancel_all(e, CANCEL_BUDGET, 1);
	while (!e->cancelled && e->stop_reason == NULL && !e->exhausted &&
	    e->ntrials < e->spec->max_trials &&
	    e->nactive < e->spec->max_parallel)
		if (engine_new_trial(e) == -1)
			break;
	if (e->nactive == 0 && (e->cancelled || e->stop_reason != NULL ||
	    e->exhausted || e->ntrials >= e->spec->max_trials))
		engine_finish(e);
}

/* Record a new campaign and start it. */
int
engine_start(struct engine *e, char *err, size_t errlen)
{
	const struct campaign_spec	*s = e->spec;
	struct ledger_campaign		 c;

	memset(&c, 0, sizeof(c));
	c.name = s->name;
	c.workload = e->w->name;
	c.backend = s->backend;
	c.spec_json = s->json;
	c.spec_path = s->path;
	c.state = "running";
	c.metric = s->metric;
	c.maximize = s->maximize;
	c.has_target = s->has_target;
	c.target = s->target;
	c.started = e->started = engine_now();
	c.max_trials = s->max_trials;
	if (ledger_campaign_insert(e->env.ledger, &c, &e->id) == -1) {
		snprintf(err, errlen, "%s", ledger_error(e->env.ledger));
		return -1;
	}
	engine_say(e, "campaign '%s' (id %lld): %s search over %zu "
	    "parameters, %d trials, %d at a time, %s backend", s->name,
	    (long long)e->id, s->algorithm, s->space->n, s->max_trials,
	    s->max_parallel, s->backend);
	engine_kick(e);
	return 0;
}

/* Re-adopt one unfinished attempt after a restart. */
static void
engine_adopt(struct engine *e, const struct ledger_attempt *la,
    const struct ledger_trial *t)
{
	struct sched_event	 ev;
	struct attempt		*a;

	a = calloc(1, sizeof(*a));
	a->e = e;
	a->trial_id = la->trial_id;
	a->attempt_id = la->id;
	a->trial_number = la->trial_number;
	a->number = la->number;
	a->token = strdup(la->token);
	a->dir = strdup(la->dir);
	if (asprintf(&a->out, "%s/stdout", a->dir) == -1)
		abort();
	a->started = la->started > 0;
	a->has_best = t->has_best;
	a->best = t->best;
	a->reached = t->reached;
	a->next = e->active;
	e->active = a;
	e->nactive++;
	if (sched_adopt(e->env.sched, a->token, la->job_id, a->dir,
	    engine_event, a) == 0) {
		engine_say(e, "trial %d attempt %d: re-adopted (%s)",
		    a->trial_number, a->number, la->job_id ? la->job_id :
		    "no job id");
		return;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_END;
	ev.token = a->token;
	ev.time = engine_now();
	ev.state = SCHED_LOST;
	ev.exit_code = -1;
	ev.reason = "could not be re-adopted after a restart";
	engine_event(a, &ev);
}

/* Take over a campaign left running by an earlier process. */
int
engine_resume(struct engine *e, int64_t id, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct ledger_trial	*t = NULL;
	struct ledger_attempt	*at = NULL;
	struct attempt		*a;
	size_t			 nt = 0, na = 0, i, j;
	int			 rc = -1;

	memset(&c, 0, sizeof(c));
	if (ledger_campaign_get(e->env.ledger, id, &c) != 0 ||
	    ledger_trial_list(e->env.ledger, id, &t, &nt) == -1 ||
	    ledger_attempt_list(e->env.ledger, id, 1, &at, &na) == -1) {
		snprintf(err, errlen, "campaign %lld: %s", (long long)id,
		    ledger_error(e->env.ledger));
		goto out;
	}
	e->id = id;
	e->started = c.started;
	e->ntrials = (int)nt;
	for (i = 0; i < nt; i++)
		if (t[i].reached && e->spec->stop_on_target)
			e->stop_reason = "target reached";
	engine_say(e, "campaign '%s' (id %lld): resumed with %zu trials, %zu "
	    "attempts unfinished", e->spec->name, (long long)id, nt, na);
	for (i = 0; i < na; i++)
		for (j = 0; j < nt; j++)
			if (t[j].id == at[i].trial_id)
				engine_adopt(e, &at[i], &t[j]);
	/* A trial left between attempts gets its next one now. */
	for (j = 0; j < nt; j++) {
		if (strcmp(t[j].state, "pending") != 0 &&
		    strcmp(t[j].state, "running") != 0)
			continue;
		for (a = e->active; a != NULL; a = a->next)
			if (a->trial_id == t[j].id)
				break;
		if (a == NULL)
			engine_retry(e, t[j].id, t[j].number, t[j].attempts);
	}
	engine_kick(e);
	rc = 0;
out:
	ledger_campaign_release(&c);
	ledger_trial_list_free(t, nt);
	ledger_attempt_list_free(at, na);
	return rc;
}

/* Cancel the campaign. */
void
engine_cancel(struct engine *e)
{
	if (e->done || e->cancelled)
		return;
	e->cancelled = 1;
	if (e->stop_reason == NULL)
		e->stop_reason = "cancelled";
	engine_cancel_all(e, CANCEL_USER, 0);
	engine_kick(e);
}

/* Stop following the campaign without ending it. */
void
engine_detach(struct engine *e)
{
	e->detached = 1;
	uv_timer_stop(&e->timer);
}
