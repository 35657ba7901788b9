/*
 * score.c: score MLPerf result logs (see score.h).
 *
 * The traps of real logs, and what is done about them:
 * - the run_stop status says "success" whatever happened in some
 *   references: whether the target was reached is decided from the
 *   evaluations alone, and the status is only reported;
 * - evaluations go on after run_stop (CosmoFlow): everything after
 *   run_stop is ignored, and so are evaluations before run_start, in the
 *   file or in time (skipped with a warning: a clock out of order);
 * - the status is missing (it is then reported as absent);
 * - ranks prefix the lines ("  0: :::MLLOG ..."): mllog_parse_line()
 *   skips anything before the tag;
 * - OpenFold's epoch_num counts training samples, not epochs: it is
 *   reported as logged, with the unit "samples";
 * - "value": NaN (a diverged evaluation, in a DeepCAM run that succeeded),
 *   Infinity or -Infinity: an evaluation that never meets the target and
 *   is never the best (an infinite accuracy or a -Infinity error would
 *   otherwise meet any target at its epoch);
 * - a run_start or run_stop without a numeric time_ms, or a run_stop
 *   timed before its run_start or more than a year after it (a time_ms
 *   of 1e308): refused, as the time to train would be the epoch's age,
 *   negative or absurd;
 * - an evaluation whose epoch_num is below the one before it (epoch 2
 *   logged after epoch 12: a restarted or merged log): skipped with a
 *   warning, as the epoch to target would be the earlier one's;
 * - a log cut before run_stop (the job died): aborted, not reached, with
 *   its partial curve;
 * - garbage or half-written lines (a node dying mid-write, two ranks
 *   writing at once): skipped, counted, and the first few kept with their
 *   line numbers for the caller's warnings.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mllog.h"
#include "score.h"

/* A benchmark's quality target. */
struct score_bench {
	const char	*name;		/* submission_benchmark */
	const char	*metric;
	enum score_goal	 goal;
	int		 has_target;
	double		 target;
	int		 runs;		/* runs required for a result */
	const char	*epoch_unit;
};

/*
 * The MLPerf HPC v3.0 closed division (hpc_training_rules.adoc of
 * mlcommons/training_policies: "Benchmarks" gives the targets, "Benchmark
 * Results" the number of runs), then hpod's proxy trainers, whose target
 * each campaign chooses (give --target).  Any other log needs its metric,
 * goal and target on the command line, and is scored on at least 3 runs.
 */
static const struct score_bench score_benches[] = {
	{ "cosmoflow", "eval_error", SCORE_MIN, 1, 0.124, 10, "epochs" },
	{ "deepcam", "eval_accuracy", SCORE_MAX, 1, 0.82, 5, "epochs" },
	{ "oc20", "eval_error", SCORE_MIN, 1, 0.036, 5, "epochs" },
	{ "openfold", "eval_accuracy", SCORE_MAX, 1, 0.8, 10, "samples" },
	{ "minicosmo", "eval_error", SCORE_MIN, 0, 0, 3, "epochs" },
	{ "minicam", "eval_accuracy", SCORE_MAX, 0, 0, 3, "epochs" },
};

#define SCORE_MIN_RUNS	3	/* the olympic mean drops two */

/* The longest time to train believed (366 days): more is a broken clock. */
#define SCORE_MAX_TTT_MS	(366.0 * 24 * 3600 * 1000)

/* A numeric event inside the run, kept until the metric is known. */
struct score_point {
	char		 key[64];
	int		 is_num;
	double		 value;
	int		 has_epoch;
	double		 epoch;
	int		 has_time;
	double		 time_ms;
	unsigned long	 line;
};

/* What one pass over the log found. */
struct score_scan {
	cJSON		*hparams;	/* the opt_* keys, last value kept */
	struct score_point *pts;
	size_t		 npts, cap;
	unsigned long	 start_line, stop_line;
	double		 start_ms, stop_ms;
	unsigned long	 bench_line;	/* submission_benchmark's, 0: none */
};

/* The benchmark called name, or NULL. */
static const struct score_bench *
score_bench_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof(score_benches) / sizeof(score_benches[0]); i++)
		if (strcmp(score_benches[i].name, name) == 0)
			return &score_benches[i];
	return NULL;
}

/* Keep a numeric (or would-be numeric) event of the run; -1 if no memory. */
static int
score_keep(struct score_scan *s, const struct mllog_event *ev,
    unsigned long line)
{
	struct score_point	*p;

	if (s->npts == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		if ((p = reallocarray(s->pts, s->cap, sizeof(*p))) == NULL)
			return -1;
		s->pts = p;
	}
	p = &s->pts[s->npts++];
	memset(p, 0, sizeof(*p));
	snprintf(p->key, sizeof(p->key), "%s", ev->key);
	p->is_num = ev->has_num;
	p->value = ev->num;
	p->has_epoch = ev->has_epoch;
	p->epoch = ev->epoch;
	p->has_time = ev->has_time;
	p->time_ms = ev->time_ms;
	p->line = line;
	return 0;
}

/* Count a skipped line; keep the first few with their reason. */
static void
score_skip(struct score_run *r, unsigned long line, const char *why)
{
	if (r->skipped < SCORE_SKIPS_KEPT) {
		r->skips[r->skipped].line = line;
		snprintf(r->skips[r->skipped].why,
		    sizeof(r->skips[r->skipped].why), "%s", why);
	}
	r->skipped++;
}

/*
 * Keep a hyperparameter (an opt_* key) as the log declares it; -1 if no
 * memory.
 */
static int
score_hparam(struct score_scan *s, const struct mllog_event *ev)
{
	cJSON		*v;
	cJSON_bool	 ok;

	if (ev->value_json[0] != '\0')
		v = cJSON_Parse(ev->value_json);
	else if (ev->has_num)
		v = cJSON_CreateNumber(ev->num);
	else
		v = cJSON_CreateString(ev->str);
	if (v == NULL)
		return ev->value_json[0] != '\0' ? 0 : -1;
	if (s->hparams == NULL && (s->hparams = cJSON_CreateObject()) == NULL) {
		cJSON_Delete(v);
		return -1;
	}
	if (cJSON_GetObjectItemCaseSensitive(s->hparams, ev->key) != NULL)
		ok = cJSON_ReplaceItemInObjectCaseSensitive(s->hparams,
		    ev->key, v);
	else
		ok = cJSON_AddItemToObject(s->hparams, ev->key, v);
	if (!ok)
		cJSON_Delete(v);
	return ok ? 0 : -1;
}

/* Refuse a second ev->key event, the first on line first (0: none). */
static int
score_first(const struct mllog_event *ev, unsigned long first,
    const char *name, unsigned long line, char *err, size_t errlen)
{
	if (first == 0)
		return 0;
	snprintf(err, errlen, "%s:%lu: second %s (the first is on line %lu)",
	    name, line, ev->key, first);
	return -1;
}

/*
 * Refuse a run_start or run_stop without a time: the time to train is the
 * difference of theirs, and a missing one would make it the epoch's age.
 */
static int
score_time(const struct mllog_event *ev, const char *name,
    unsigned long line, char *err, size_t errlen)
{
	if (ev->has_time)
		return 0;
	snprintf(err, errlen, "%s:%lu: %s without a numeric time_ms", name,
	    line, ev->key);
	return -1;
}

/*
 * Take the benchmark's name; a second that names another benchmark is
 * refused: the log is two runs' (merged), and either target would be wrong.
 */
static int
score_benchmark(struct score_scan *s, struct score_run *r,
    const struct mllog_event *ev, const char *name, unsigned long line,
    char *err, size_t errlen)
{
	if (s->bench_line != 0 && strcmp(r->benchmark, ev->str) != 0) {
		snprintf(err, errlen, "%s:%lu: submission_benchmark '%s', but "
		    "line %lu says '%s'", name, line, ev->str, s->bench_line,
		    r->benchmark);
		return -1;
	}
	if (s->bench_line == 0) {
		snprintf(r->benchmark, sizeof(r->benchmark), "%s", ev->str);
		s->bench_line = line;
	}
	return 0;
}

/* The largest global batch size believed (2^53: exact as a double). */
#define SCORE_MAX_GBS	9007199254740992.0

/*
 * Take the global batch size: a whole number from 1 up, else the line is
 * skipped (a batch size of -5.5 or 1e300 is no row of a table).
 */
static void
score_gbs(struct score_run *r, const struct mllog_event *ev,
    unsigned long line)
{
	char	 why[128];

	if (!(ev->num >= 1 && ev->num <= SCORE_MAX_GBS) ||
	    ev->num != floor(ev->num)) {
		snprintf(why, sizeof(why), "global_batch_size %g is not a "
		    "whole number from 1 to 2^53", ev->num);
		score_skip(r, line, why);
		return;
	}
	r->has_gbs = 1;
	r->gbs = ev->num;
}

/* Take one event into the scan and the run; -1 with err if it is wrong. */
static int
score_event(struct score_scan *s, struct score_run *r,
    const struct mllog_event *ev, const char *name, unsigned long line,
    char *err, size_t errlen)
{
	if (strcmp(ev->key, "run_start") == 0) {
		if (score_first(ev, s->start_line, name, line, err,
		    errlen) == -1 || score_time(ev, name, line, err,
		    errlen) == -1)
			return -1;
		s->start_line = line;
		s->start_ms = ev->time_ms;
		return 0;
	}
	if (strcmp(ev->key, "run_stop") == 0) {
		if (score_first(ev, s->stop_line, name, line, err,
		    errlen) == -1)
			return -1;
		if (s->start_line == 0) {
			snprintf(err, errlen, "%s:%lu: run_stop before "
			    "run_start", name, line);
			return -1;
		}
		if (score_time(ev, name, line, err, errlen) == -1)
			return -1;
		if (ev->time_ms < s->start_ms) {
			snprintf(err, errlen, "%s:%lu: run_stop's time_ms %.0f "
			    "is before run_start's %.0f (line %lu): the time "
			    "to train would be negative", name, line,
			    ev->time_ms, s->start_ms, s->start_line);
			return -1;
		}
		if (ev->time_ms - s->start_ms > SCORE_MAX_TTT_MS) {
			snprintf(err, errlen, "%s:%lu: run_stop's time_ms %g "
			    "is more than a year after run_start's %.0f (line "
			    "%lu): no run trains that long", name, line,
			    ev->time_ms, s->start_ms, s->start_line);
			return -1;
		}
		s->stop_line = line;
		s->stop_ms = ev->time_ms;
		snprintf(r->status, sizeof(r->status), "%s", ev->status);
		return 0;
	}
	if (s->stop_line != 0)
		return 0;
	if (strncmp(ev->key, "opt_", 4) == 0 && score_hparam(s, ev) == -1) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	if (strcmp(ev->key, "submission_benchmark") == 0)
		return score_benchmark(s, r, ev, name, line, err, errlen);
	else if (strcmp(ev->key, "global_batch_size") == 0 && ev->has_num)
		score_gbs(r, ev, line);
	else if (s->start_line != 0 &&
	    strcmp(ev->event_type, "POINT_IN_TIME") == 0 &&
	    score_keep(s, ev, line) == -1) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	return 0;
}

/* Settle metric, goal and target from the benchmark and the rule. */
static int
score_resolve(struct score_run *r, const struct score_rule *rule,
    const char *name, unsigned long bench_line, char *err, size_t errlen)
{
	const struct score_bench *b = score_bench_find(r->benchmark);
	char			  what[512], known[128] = "";
	size_t			  i, k = 0;

	/* The names known, as many as fit (k never passes the end). */
	for (i = 0; i < sizeof(score_benches) / sizeof(score_benches[0]) &&
	    k < sizeof(known); i++)
		k += (size_t)snprintf(known + k, sizeof(known) - k, "%s%s",
		    i > 0 ? ", " : "", score_benches[i].name);
	if (r->benchmark[0] == '\0')
		snprintf(what, sizeof(what), "%s: no submission_benchmark",
		    name);
	else
		snprintf(what, sizeof(what), "%s:%lu: unknown benchmark '%s' "
		    "(submission_benchmark; known: %s)", name, bench_line,
		    r->benchmark, known);
	if (b == NULL && (rule->metric == NULL || !rule->has_goal ||
	    !rule->has_target)) {
		snprintf(err, errlen, "%s: give --metric, --target and "
		    "--maximize or --minimize", what);
		return -1;
	}
	if (b != NULL && !b->has_target && !rule->has_target) {
		snprintf(err, errlen, "%s: benchmark '%s' has no fixed "
		    "target: give --target", name, b->name);
		return -1;
	}
	snprintf(r->metric, sizeof(r->metric), "%s",
	    rule->metric ? rule->metric : b->metric);
	r->goal = rule->has_goal ? rule->goal : b->goal;
	r->target = rule->has_target ? rule->target : b->target;
	r->epoch_unit = b ? b->epoch_unit : "epochs";
	r->runs_required = b ? b->runs : SCORE_MIN_RUNS;
	return 0;
}

/* Go through the run's evaluations of the metric, in order. */
static void
score_evals(const struct score_scan *s, struct score_run *r)
{
	const struct score_point *p;
	char			  why[256];
	size_t			  i;
	unsigned long		  last_line = 0;
	double			  last = 0;
	int			  hit, has_last = 0;

	for (i = 0; i < s->npts; i++) {
		p = &s->pts[i];
		if (strcmp(p->key, r->metric) != 0)
			continue;
		if (!p->is_num) {
			snprintf(why, sizeof(why), "%s: value is not a number",
			    r->metric);
			score_skip(r, p->line, why);
			continue;
		}
		/* After run_start in the file, before it in time. */
		if (p->has_time && p->time_ms < s->start_ms) {
			snprintf(why, sizeof(why), "%s: time_ms %.0f is before "
			    "run_start's", r->metric, p->time_ms);
			score_skip(r, p->line, why);
			continue;
		}
		/* An epoch logged after a later one: the log is out of order. */
		if (p->has_epoch && has_last && p->epoch < last) {
			snprintf(why, sizeof(why), "%s: epoch_num %g is before "
			    "the previous evaluation's %g (line %lu)",
			    r->metric, p->epoch, last, last_line);
			score_skip(r, p->line, why);
			continue;
		}
		if (p->has_epoch) {
			has_last = 1;
			last = p->epoch;
			last_line = p->line;
		}
		r->evals++;
		/* NaN or infinite: evaluated, neither the best nor on target. */
		if (!isfinite(p->value))
			continue;
		if (!r->has_best || (r->goal == SCORE_MAX ?
		    p->value > r->best : p->value < r->best)) {
			r->has_best = 1;
			r->best = p->value;
		}
		hit = r->goal == SCORE_MAX ? p->value >= r->target :
		    p->value <= r->target;
		if (hit && !r->reached) {
			r->reached = 1;
			r->has_epochs = p->has_epoch;
			r->epochs = p->epoch;
		}
	}
}

/* Score the log read from f. */
int
score_stream(FILE *f, const char *name, const struct score_rule *rule,
    struct score_run *r, char *err, size_t errlen)
{
	struct score_scan	 s;
	struct mllog_event	 ev;
	char			*line = NULL, *hp, why[128];
	size_t			 cap = 0, len;
	ssize_t			 n;
	unsigned long		 lineno = 0;
	int			 rc = -1;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	if ((r->file = strdup(name)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		len = (size_t)n;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			len--;
		switch (mllog_parse_line(line, len, &ev, why, sizeof(why))) {
		case 1:
			continue;
		case -1:
			if (ev.nomem) {
				snprintf(err, errlen, "%s:%lu: %s", name,
				    lineno, why);
				goto out;
			}
			score_skip(r, lineno, why);
			continue;
		}
		if (score_event(&s, r, &ev, name, lineno, err, errlen) == -1)
			goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto out;
	}
	if (s.start_line == 0) {
		snprintf(err, errlen, "%s: no run_start event", name);
		goto out;
	}
	if (score_resolve(r, rule, name, s.bench_line, err, errlen) == -1)
		goto out;
	score_evals(&s, r);
	if (s.stop_line != 0) {
		r->stopped = 1;
		r->ttt_ms = s.stop_ms - s.start_ms;
	} else {
		/* Cut short: the run never ended, so it did not converge. */
		r->reached = 0;
		r->has_epochs = 0;
		snprintf(r->status, sizeof(r->status), "aborted");
	}
	hp = s.hparams != NULL ? cJSON_PrintUnformatted(s.hparams) : NULL;
	if ((hp == NULL && s.hparams != NULL) ||
	    (r->hparams = strdup(hp != NULL ? hp : "{}")) == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		cJSON_free(hp);
		goto out;
	}
	cJSON_free(hp);
	rc = 0;
out:
	free(line);
	free(s.pts);
	cJSON_Delete(s.hparams);
	if (rc == -1)
		score_run_release(r);
	return rc;
}

/* Score the file at path. */
int
score_file(const char *path, const struct score_rule *rule,
    struct score_run *r, char *err, size_t errlen)
{
	FILE	*f;
	int	 rc;

	memset(r, 0, sizeof(*r));
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	rc = score_stream(f, path, rule, r, err, errlen);
	fclose(f);
	return rc;
}

/* Warn about a run's skipped lines and a log cut short (see score.h). */
void
score_warn(FILE *f, const char *prog, const struct score_run *r)
{
	size_t	 i;

	for (i = 0; i < r->skipped && i < SCORE_SKIPS_KEPT; i++)
		fprintf(f, "%s: warning: %s:%lu: %s; line skipped\n", prog,
		    r->file, r->skips[i].line, r->skips[i].why);
	if (r->skipped > SCORE_SKIPS_KEPT)
		fprintf(f, "%s: warning: %s: %zu malformed lines skipped in "
		    "all\n", prog, r->file, r->skipped);
	if (!r->stopped)
		fprintf(f, "%s: warning: %s: no run_stop (the log is cut "
		    "short): scored as aborted\n", prog, r->file);
}

/* Free what a run holds. */
void
score_run_release(struct score_run *r)
{
	free(r->file);
	r->file = NULL;
	free(r->hparams);
	r->hparams = NULL;
}

/* scandir() filter: the result files of a submission. */
static int
score_is_result(const struct dirent *d)
{
	return fnmatch("result_*.txt", d->d_name, 0) == 0;
}

/* Score every result file of dir. */
int
score_dir(const char *dir, const struct score_rule *rule,
    struct score_run **runs, size_t *n, char *err, size_t errlen)
{
	struct dirent	**names;
	struct score_run *r;
	char		 *path;
	const char	 *sep;
	int		  i, k, rc = 0;

	*runs = NULL;
	*n = 0;
	if ((k = scandir(dir, &names, score_is_result, versionsort)) == -1) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (k == 0) {
		snprintf(err, errlen, "%s: no result_*.txt files", dir);
		free(names);
		return -1;
	}
	if ((r = calloc((size_t)k, sizeof(*r))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", dir);
		rc = -1;
	}
	sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";
	for (i = 0; i < k && rc == 0; i++) {
		if (asprintf(&path, "%s%s%s", dir, sep, names[i]->d_name) ==
		    -1) {
			snprintf(err, errlen, "%s: out of memory", dir);
			rc = -1;
			break;
		}
		rc = score_file(path, rule, &r[i], err, errlen);
		free(path);
	}
	if (rc == 0) {
		*runs = r;
		*n = (size_t)k;
	} else if (r != NULL) {
		while (i-- > 0)
			score_run_release(&r[i]);
		free(r);
	}
	for (i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* A run's value for the olympic mean, and its index. */
struct score_rank {
	double	 v;
	size_t	 i;
};

/* qsort() order: by value, then by position, so that ties are stable. */
static int
score_rank_cmp(const void *a, const void *b)
{
	const struct score_rank *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Sort the n values (INFINITY for a run that missed the target) and sum
 * those left once the lowest and highest are dropped; -1 if one of them
 * is infinite.
 */
static int
score_olympic(struct score_rank *v, size_t n, double *sum, size_t *lo,
    size_t *hi)
{
	size_t	 i;

	qsort(v, n, sizeof(*v), score_rank_cmp);
	*lo = v[0].i;
	*hi = v[n - 1].i;
	*sum = 0;
	for (i = 1; i + 1 < n; i++) {
		if (isinf(v[i].v))
			return -1;
		*sum += v[i].v;
	}
	return 0;
}

/* Check that every run was scored against the same target. */
static int
score_same(const struct score_run *r, size_t n, char *err, size_t errlen)
{
	size_t	 i;

	for (i = 1; i < n; i++) {
		if (strcmp(r[i].benchmark, r[0].benchmark) != 0) {
			snprintf(err, errlen, "%s is benchmark '%s' but %s is "
			    "'%s'", r[i].file, r[i].benchmark, r[0].file,
			    r[0].benchmark);
			return -1;
		}
		if (strcmp(r[i].metric, r[0].metric) != 0 ||
		    r[i].goal != r[0].goal || r[i].target != r[0].target) {
			snprintf(err, errlen, "%s and %s have different "
			    "targets", r[i].file, r[0].file);
			return -1;
		}
	}
	return 0;
}

/* Score a set of runs. */
int
score_summary(const struct score_run *r, size_t n, struct score_set *set,
    char *err, size_t errlen)
{
	struct score_rank	*t, *e;
	size_t			 i, failed, lo, hi;
	double			 sum;
	int			 epochs_known = 1;

	memset(set, 0, sizeof(*set));
	if (n == 0) {
		snprintf(err, errlen, "no runs");
		return -1;
	}
	if (score_same(r, n, err, errlen) == -1)
		return -1;
	set->runs = n;
	set->required = (size_t)r[0].runs_required;
	for (i = 0; i < n; i++)
		set->converged += r[i].reached != 0;
	failed = n - set->converged;
	if (failed > 1)
		snprintf(set->reason, sizeof(set->reason), "%zu runs did not "
		    "reach the target; at most 1 may", failed);
	else if (n < SCORE_MIN_RUNS)
		snprintf(set->reason, sizeof(set->reason), "%zu run%s; the "
		    "olympic mean needs %d", n, n == 1 ? "" : "s",
		    SCORE_MIN_RUNS);
	if (set->reason[0] != '\0')
		return 0;

	t = calloc(n, sizeof(*t));
	e = calloc(n, sizeof(*e));
	if (t == NULL || e == NULL) {
		free(t);
		free(e);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		t[i].i = e[i].i = i;
		t[i].v = r[i].reached ? r[i].ttt_ms : INFINITY;
		e[i].v = r[i].reached ? r[i].epochs : INFINITY;
		if (r[i].reached && !r[i].has_epochs)
			epochs_known = 0;
	}
	/* At most one infinity, and it sorts last: both sums are finite. */
	score_olympic(t, n, &sum, &set->fastest, &set->slowest);
	set->has_mean = 1;
	set->mean_s = sum / (1000.0 * (double)(n - 2));
	set->mean_min = sum / (60000.0 * (double)(n - 2));
	score_olympic(e, n, &sum, &lo, &hi);
	if (epochs_known) {
		set->has_epochs = 1;
		set->mean_epochs = sum / (double)(n - 2);
	}
	free(t);
	free(e);
	if (n < set->required)
		snprintf(set->reason, sizeof(set->reason), "%zu runs; the "
		    "rules require %zu", n, set->required);
	else
		set->scores = 1;
	return 0;
}
