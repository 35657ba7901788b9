/*
 * attempt.c: one attempt of a trial: its token, directory, params.json,
 * argv and environment, its submission, and the MLLOG metric points read
 * from its output.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "engine_int.h"
#include "invoke.h"
#include "log.h"
#include "mllog.h"
#include "obsbook.h"
#include "paths.h"
#include "testpause.h"
#include "xmalloc.h"

/* Malformed MLLOG lines reported per attempt; later ones only counted. */
#define ATTEMPT_BAD_LINES_SHOWN	3

/* Free an attempt record. */
void
attempt_free(struct attempt *a)
{
	tail_release(&a->tail);
	free(a->token);
	free(a->dir);
	free(a->out);
	free(a->pruned_why);
	free(a);
}

/* A token no other job anywhere will carry. */
static char *
attempt_token(const struct engine *e, int trial, int attempt)
{
	unsigned char	 r[4] = { 0 };

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r[0] = (unsigned char)getpid();
	return xasprintf("hpod-%lld-%d-%d-%02x%02x%02x%02x", (long long)e->id,
	    trial, attempt, r[0], r[1], r[2], r[3]);
}

/* Write the attempt's params.json: every value the workload receives. */
static int
attempt_write_params(const struct attempt *a, const char *params_json,
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
	/* Raw: exactly the ledger's text, not cJSON's reprint of it. */
	cJSON_AddRawToObject(root, "params", params_json);
	fixed = cJSON_AddObjectToObject(root, "fixed");
	for (i = 0; i < s->nfixed; i++)
		cJSON_AddStringToObject(fixed, s->fixed[i].name,
		    s->fixed[i].value);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	path = xasprintf("%s/params.json", a->dir);
	tmp = xasprintf("%s/.params.json.tmp", a->dir);
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

/*
 * The directory of an attempt of an in-process backend (replay) exists:
 * left by a process that died before the attempt's record was committed
 * (its job died with it), in the run directory that the campaign claimed
 * with its ledger row.  Move it aside, named so, and make a new one.
 */
static int
attempt_mkdir_again(struct engine *e, const struct attempt *a, char *err,
    size_t errlen)
{
	char	*aside = xasprintf("%s.unrecorded-XXXXXX", a->dir);
	int	 rc = -1;

	/* rename(2) replaces the empty directory mkdtemp() made. */
	if (mkdtemp(aside) == NULL || rename(a->dir, aside) == -1 ||
	    mkdir(a->dir, 0700) == -1)
		snprintf(err, errlen, "move aside %s, left unrecorded by a "
		    "crash: %s", a->dir, strerror(errno));
	else {
		engine_say(e, "trial %d attempt %d: its directory, left "
		    "unrecorded by a crash, moved to %s", a->trial_number,
		    a->number, aside);
		rc = 0;
	}
	free(aside);
	return rc;
}

/*
 * Make the attempt's directory, its parents as needed.  The directory
 * itself must be new: output files are appended to, so an old run's lines
 * (another ledger's campaign of the same id and name, say) would be read
 * as this attempt's.  Such a clash stops the campaign.
 */
static int
attempt_mkdir(struct engine *e, const struct attempt *a, char *err,
    size_t errlen)
{
	char	*parent = paths_dirname(a->dir);
	int	 rc;

	rc = paths_mkdir(parent, 0700);
	free(parent);
	if (rc == 0 && mkdir(a->dir, 0700) == 0)
		return 0;
	if (errno == EEXIST && e->env.sched->ops->in_process)
		return attempt_mkdir_again(e, a, err, errlen);
	if (errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", a->dir, strerror(errno));
		return -1;
	}
	snprintf(err, errlen, "attempt directory %s exists already (left by "
	    "another ledger's campaign?); it is not reused: move it away or "
	    "set another run_dir", a->dir);
	if (e->stop_reason == NULL)
		e->stop_reason = "an attempt directory exists already";
	return -1;
}

/* Unlink an attempt from the active list and free it. */
void
attempt_forget(struct engine *e, struct attempt *a)
{
	struct attempt	**pp;

	engine_chain_unlink(a);
	for (pp = &e->active; *pp != NULL; pp = &(*pp)->next)
		if (*pp == a) {
			*pp = a->next;
			e->nactive--;
			break;
		}
	attempt_free(a);
}

/*
 * The allocation an attempt asks for, as totals, recorded with it before
 * it is submitted: what costs it if it ran but its start was never seen.
 */
void
attempt_alloc(const struct engine *e, struct attempt *a, const double *x)
{
	struct spec_resources	 res;

	invoke_resources(e->spec, x, &res);
	a->nodes = res.nodes > 1 ? res.nodes : 1;
	a->node_share = a->nodes;
	a->gpus = res.gpus_per_node > 0 ? a->nodes * res.gpus_per_node : 0;
	a->cpus = a->nodes * (res.tasks_per_node > 1 ? res.tasks_per_node : 1) *
	    (res.cpus_per_task > 1 ? res.cpus_per_task : 1);
}

/* Mark an attempt that could not be submitted, and its trial, failed. */
void
attempt_submit_failed(struct engine *e, struct attempt *a, const char *why)
{
	double	 now = engine_now(e);

	ledger_attempt_finished(e->env.ledger, a->attempt_id,
	    attempt_state_name(ATTEMPT_FAILED), now, -1, 0, why);
	engine_trial_state(e, a->trial_id, a->trial_number, TRIAL_FAILED);
	engine_say(e, "trial %d: not submitted: %s", a->trial_number, why);
}

/*
 * Render what attempt a (of point x) runs and hand it to the backend:
 * 0, or -1 with the attempt recorded as not submitted.
 */
static int
attempt_submit(struct engine *e, struct attempt *a, const double *x,
    long long seed)
{
	const struct campaign_spec *s = e->spec;
	struct invoke_ctx	 ic;
	struct invocation	 inv;
	struct sched_job	 job;
	struct attempt		*prev;
	char			 err[512];
	int			 rc = -1;

	memset(&ic, 0, sizeof(ic));
	ic.trial = a->trial_number;
	ic.attempt = a->number;
	ic.seed = seed;
	ic.dir = a->dir;
	ic.token = a->token;
	ic.x = x;
	ic.resolve = strcmp(e->env.sched->ops->name, "local") == 0;
	if (invoke_render(s, e->w, &ic, &inv, err, sizeof(err)) == -1) {
		attempt_submit_failed(e, a, err);
		return -1;
	}
	/*
	 * Its metrics are read from the file its trainer writes them to;
	 * the replay backend runs no trainer: its lines are on stdout.
	 */
	if (inv.metric_file != NULL &&
	    strcmp(e->env.sched->ops->name, "replay") != 0) {
		free(a->out);
		a->out = xasprintf("%s/%s", a->dir, inv.metric_file);
		a->out_file = 1;
	}
	memset(&job, 0, sizeof(job));
	job.token = a->token;
	job.name = a->token;
	job.dir = a->dir;
	job.argv = (const char *const *)inv.argv;
	job.env = (const char *const *)inv.env;
	invoke_job_resources(s, x, &job);
	if ((prev = engine_chain_place(e, a)) != NULL) {
		job.after = prev->token;
		/* Its lane, for a daemon that takes the campaign back. */
		if (ledger_attempt_chained(e->env.ledger, a->attempt_id,
		    prev->attempt_id) == -1)
			log_warnx("campaign '%s': %s", s->name,
			    ledger_error(e->env.ledger));
	}
	job.cb = engine_event;
	job.arg = a;
	testpause_at("after-record");
	if (sched_submit(e->env.sched, &job) == -1) {
		snprintf(err, sizeof(err), "the %s backend refused the job "
		    "(resources beyond what it has?)", e->env.sched->ops->name);
		attempt_submit_failed(e, a, err);
	} else
		rc = 0;
	invoke_release(&inv);
	return rc;
}

/*
 * Start attempt `number` of a trial: record it, prepare its directory,
 * render what it runs and submit it.  The trial row exists already.
 */
int
attempt_launch(struct engine *e, int64_t trial_id, int trial_number,
    int number, const double *x, const char *params_json, long long seed)
{
	const struct campaign_spec *s = e->spec;
	struct ledger_attempt	 la;
	struct attempt		*a;
	char			 err[512];
	int			 rc = -1;

	a = xcalloc(1, sizeof(*a));
	a->e = e;
	a->trial_id = trial_id;
	a->trial_number = trial_number;
	a->number = number;
	a->token = attempt_token(e, trial_number, number);
	a->dir = xasprintf("%s/%lld-%s/trial-%04d/attempt-%d", e->env.run_dir,
	    (long long)e->id, s->name, trial_number, number);
	a->out = xasprintf("%s/stdout", a->dir);

	memset(&la, 0, sizeof(la));
	la.trial_id = trial_id;
	la.number = number;
	la.token = a->token;
	la.dir = a->dir;
	la.created = engine_now(e);
	attempt_alloc(e, a, x);
	la.nodes = a->nodes;
	la.gpus = a->gpus;
	la.cpus = a->cpus;
	if (ledger_attempt_insert(e->env.ledger, &la, &a->attempt_id) == -1) {
		log_warnx("campaign '%s': %s", s->name,
		    ledger_error(e->env.ledger));
		attempt_free(a);
		return -1;
	}
	a->next = e->active;
	e->active = a;
	e->nactive++;
	/*
	 * The attempt and its trial are committed before its directory and
	 * its job exist: a crash that lost them after the directory was made
	 * would leave the next process to record the trial again and find
	 * its directory taken.  A job that cannot outlive this process
	 * (replay) is not worth a commit each: attempt_mkdir() moves the
	 * directory of such a lost attempt aside.  If that commit fails,
	 * nothing of the attempt is recorded: nothing is started either.
	 */
	if (!e->env.sched->ops->in_process)
		testpause_at("before-launch-commit");
	if (!e->env.sched->ops->in_process && (engine_flush(e) == -1 ||
	    e->detached)) {
		attempt_forget(e, a);
		return -1;
	}
	if (attempt_mkdir(e, a, err, sizeof(err)) == -1) {
		attempt_submit_failed(e, a, err);
		goto out;
	}
	if (attempt_write_params(a, params_json, seed, s) == -1) {
		snprintf(err, sizeof(err), "write %s/params.json: %s", a->dir,
		    strerror(errno));
		attempt_submit_failed(e, a, err);
		goto out;
	}
	testpause_at("after-mkdir");
	rc = attempt_submit(e, a, x, seed);
out:
	if (rc == -1)
		attempt_forget(e, a);
	return rc;
}

/* Is value better than the best so far? */
static int
attempt_better(const struct engine *e, int has_best, double best, double v)
{
	if (!has_best)
		return 1;
	return e->spec->maximize ? v > best : v < best;
}

/* Does value meet the campaign's target? */
static int
attempt_meets(const struct engine *e, double v)
{
	if (!e->spec->has_target)
		return 0;
	return e->spec->maximize ? v >= e->spec->target : v <= e->spec->target;
}

/*
 * When an event happened: the job's own clock (its log's time_ms, as
 * MLPerf scores it), unless it is clearly not comparable to ours (a node
 * whose clock is skewed more than a minute, a line with no time), then
 * ours as the line is read.  run_start and the points take the same
 * rule, so a time to train is one clock's difference.
 */
static double
attempt_when(const struct engine *e, const struct mllog_event *ev)
{
	double	 now = engine_now(e), when = ev->time_ms / 1000.0;

	if (!ev->has_time || when < e->started - 60 || when > now + 60)
		return now;
	return when;
}

/*
 * One line of an attempt's output: record its metric points.  Of a line
 * cut (longer than tail.c keeps), only the head is at hand: not read.
 */
static void
attempt_line(void *arg, const char *line, size_t len, int cut)
{
	struct attempt		*a = arg;
	struct engine		*e = a->e;
	struct mllog_event	 ev;
	char			 err[256];
	double			 when, step, prev;
	int			 late;

	/*
	 * A failed commit dropped the engine (env.lost, engine_prune()):
	 * the one that takes the campaign back reads the output again.
	 */
	if (e->detached)
		return;
	a->lines++;
	if (cut) {
		if (a->bad_lines++ < ATTEMPT_BAD_LINES_SHOWN)
			engine_say(e, "trial %d attempt %d: %s:%ld: longer than "
			    "%zu MiB; line ignored", a->trial_number, a->number,
			    a->out, a->lines, len >> 20);
		return;
	}
	switch (workload_read_line(e->w, line, len, &ev, err, sizeof(err))) {
	case 0:
		break;
	case -1:
		/* Say so, but a chatty broken trainer must not flood the log. */
		if (a->bad_lines++ < ATTEMPT_BAD_LINES_SHOWN)
			engine_say(e, "trial %d attempt %d: %s:%ld: %s; line "
			    "ignored", a->trial_number, a->number, a->out,
			    a->lines, err);
		return;
	default:
		return;
	}
	/* Its time to train counts from its first (the guide's table). */
	if (strcmp(ev.key, "run_start") == 0) {
		if (!a->run_started)
			ledger_attempt_run_start(e->env.ledger, a->attempt_id,
			    attempt_when(e, &ev));
		a->run_started = 1;
		return;
	}
	if (strcmp(ev.key, e->spec->metric) == 0 && !ev.has_num) {
		if (a->bad_lines++ < ATTEMPT_BAD_LINES_SHOWN)
			engine_say(e, "trial %d attempt %d: %s:%ld: %s is not a "
			    "number; line ignored", a->trial_number, a->number,
			    a->out, a->lines, ev.key);
		return;
	}
	/* A diverged trainer's NaN or inf is no value, but it was seen. */
	if (strcmp(ev.key, e->spec->metric) == 0 && !isfinite(ev.num)) {
		a->nonfinite++;
		return;
	}
	if (!ev.has_num || !isfinite(ev.num))
		return;
	/* For a trial with no metric: what it logged instead, eval_ first. */
	if (strcmp(ev.key, e->spec->metric) != 0 && (a->other_key[0] ==
	    '\0' || (strncmp(a->other_key, "eval_", 5) != 0 &&
	    strncmp(ev.key, "eval_", 5) == 0)))
		snprintf(a->other_key, sizeof(a->other_key), "%s", ev.key);
	if (strcmp(ev.key, e->spec->metric) != 0 &&
	    strncmp(ev.key, "eval_", 5) != 0 &&
	    strncmp(ev.key, "train_", 6) != 0)
		return;
	when = attempt_when(e, &ev);
	/*
	 * An epoch past any a trial can reach would count as its epochs to
	 * the target: a malformed line, as a negative one is (mllog.c).
	 */
	if (ev.has_epoch && ev.epoch > e->spec->step_max) {
		if (a->bad_lines++ < ATTEMPT_BAD_LINES_SHOWN)
			engine_say(e, "trial %d attempt %d: %s:%ld: %s: %s %g "
			    "is past the last one a trial can reach (%g); line "
			    "ignored", a->trial_number, a->number, a->out,
			    a->lines, ev.key, engine_unit(e), ev.epoch,
			    e->spec->step_max);
		return;
	}
	/*
	 * A point with no step is numbered from 1: the first evaluation of
	 * a trainer that evaluates each epoch is after one, and one that
	 * met the target there took 1 epoch to it, not 0.  An attempt whose
	 * first such point an older hpod recorded at 0 (its output read
	 * anew after an upgrade) goes on from 0, so that its points keep
	 * their steps and none is recorded twice.
	 */
	if (!ev.has_epoch && a->npoints == 0 &&
	    ledger_metric_get(e->env.ledger, a->attempt_id, ev.key, 0,
	    &prev) == 1)
		a->zero_based = 1;
	step = ev.has_epoch ? ev.epoch : a->npoints + !a->zero_based;
	a->npoints++;
	/*
	 * Past the step it was pruned at (its trainer logs on through the
	 * cancel's grace): recorded, marked late, and counted nowhere: the
	 * trial's best, its reach of the target and the search's history
	 * are those the stopper acted on.
	 */
	late = a->cancel_as == CANCEL_PRUNE && step > a->pruned_step;
	/*
	 * A step up to the prune's logged again once pruned (evaluated once
	 * more in the grace) changes nothing either: the value the stopper
	 * acted on stays, as the best and the target's reach do.  Read anew
	 * after a restart, such a step is already recorded: also ignored.
	 */
	if (a->cancel_as == CANCEL_PRUNE && !late &&
	    ledger_metric_get(e->env.ledger, a->attempt_id, ev.key, step,
	    &prev) == 1)
		return;
	ledger_metric_insert_as(e->env.ledger, a->attempt_id, step, ev.key,
	    ev.num, when, late);
	if (late) {
		if (strcmp(ev.key, e->spec->metric) == 0) {
			a->late++;
			a->late_step = fmax(a->late_step, step);
		}
		return;
	}
	/*
	 * A step logged again with another value (a trainer that evaluates
	 * several times an epoch, as DeepCAM's reference does at small
	 * batch sizes): every value counts for the trial's best and its
	 * reach of the target, so the ledger keeps the best value of the
	 * objective at each step, that its curve hold them; other metrics
	 * keep their first.  Read anew after a restart, they change nothing.
	 */
	if (ev.has_epoch && strcmp(ev.key, e->spec->metric) == 0 &&
	    ledger_metric_get(e->env.ledger, a->attempt_id, ev.key, step,
	    &prev) == 1 && attempt_better(e, 1, prev, ev.num))
		ledger_metric_set(e->env.ledger, a->attempt_id, ev.key, step,
		    ev.num, when);
	engine_point(a, ev.key, step, ev.num, when);
	if (strcmp(ev.key, e->spec->metric) != 0 ||
	    !attempt_better(e, a->has_best, a->best, ev.num))
		return;
	a->has_best = 1;
	a->best = ev.num;
	obsbook_best(e->book, a->trial_number, ev.num);
	if (!a->reached && attempt_meets(e, ev.num)) {
		a->reached = 1;
		engine_say(e, "trial %d: %s %g at %s %g meets the target",
		    a->trial_number, ev.key, ev.num, engine_unit(e), step);
		ledger_trial_set_best(e->env.ledger, a->trial_id, ev.num, step,
		    1, when);
		if (e->spec->stop_on_target && e->stop_reason == NULL)
			e->stop_reason = "target reached";
		engine_kick(e);
	} else
		ledger_trial_set_best(e->env.ledger, a->trial_id, ev.num, step,
		    a->reached, 0);
}

/* What attempt_stderr() counts: lines of the objective metric. */
struct attempt_count {
	const struct engine	*e;
	long			 n;
};

/* One line of an attempt's stderr: count a point of the objective. */
static void
attempt_stderr_line(void *arg, const char *line, size_t len, int cut)
{
	struct attempt_count	*c = arg;
	struct mllog_event	 ev;
	char			 err[256];

	if (!cut && workload_read_line(c->e->w, line, len, &ev, err,
	    sizeof(err)) == 0 && ev.has_num &&
	    strcmp(ev.key, c->e->spec->metric) == 0)
		c->n++;
}

/*
 * An attempt that ended with nothing of its metric on its stdout: when
 * its stderr (its first 4 MiB) has lines that would be points, say so.
 * A Python trainer that logs with the logging module writes there.
 */
static void
attempt_stderr(struct attempt *a)
{
	struct attempt_count	 c = { a->e, 0 };
	struct tail		 t;
	char			*path;

	memset(&t, 0, sizeof(t));
	path = xasprintf("%s/stderr", a->dir);
	tail_read(&t, path, 4 << 20, 1, attempt_stderr_line, &c);
	tail_release(&t);
	if (c.n > 0 && a->out_file)
		engine_say(a->e, "trial %d attempt %d: %s has %ld %s line%s, "
		    "but only %s is read (its workload's metric_file)",
		    a->trial_number, a->number, path, c.n, a->e->spec->metric,
		    c.n == 1 ? "" : "s", a->out);
	else if (c.n > 0)
		engine_say(a->e, "trial %d attempt %d: %s has %ld %s line%s, "
		    "but only stdout is read (Python's logging module writes "
		    "to stderr: logging.basicConfig(stream=sys.stdout) sends "
		    "it to stdout)", a->trial_number, a->number, path, c.n,
		    a->e->spec->metric, c.n == 1 ? "" : "s");
	free(path);
}

/* Read what an attempt printed since the last poll. */
void
attempt_follow(struct attempt *a, int final)
{
	a->followed = uv_now(a->e->timer.loop);
	/* What its trainer made in its directory is not followed out. */
	a->tail.trusted = a->dir != NULL ? strlen(a->dir) : 0;
	if (tail_read(&a->tail, a->out, final ? SIZE_MAX : 4 << 20, final,
	    attempt_line, a) == -2 && !a->out_refused && !a->e->detached) {
		a->out_refused = 1;
		engine_say(a->e, "trial %d attempt %d: %s: a symbolic link or "
		    "not a regular file in its attempt directory; not read",
		    a->trial_number, a->number, a->out);
	}
	if (final && !a->has_best && a->nonfinite == 0 &&
	    a->other_key[0] == '\0' && !a->e->detached && a->dir != NULL)
		attempt_stderr(a);
}
