/*
 * mllogcmd.c: `hpoctl mllog`: score MLPerf result logs, one by one or as
 * sets (--summary), and print a table or JSON lines.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "guide.h"
#include "mllogcmd.h"
#include "report.h"
#include "score.h"
#include "space.h"
#include "xmalloc.h"

/* The command's options. */
struct mllog_opts {
	int			 json;
	int			 summary;
	int			 table;
	enum report_format	 format;
	struct score_rule	 rule;
};

/*
 * Apply scoring-rule option ch (argument arg) to rule: 1 if ch is one of
 * them, 0 if not, -1 (the reason in err) if its argument is wrong.
 */
static int
mllog_rule_opt(int ch, const char *arg, struct score_rule *rule, char *err,
    size_t errlen)
{
	char	*end;

	switch (ch) {
	case 'm':
		if (arg[0] == '\0') {
			snprintf(err, errlen, "--metric: expected a key, "
			    "got ''");
			return -1;
		}
		rule->metric = arg;
		return 1;
	case 't':
		rule->target = strtod(arg, &end);
		if (end == arg || *end != '\0' || !isfinite(rule->target)) {
			snprintf(err, errlen, "--target: expected a number, "
			    "got '%s'", arg);
			return -1;
		}
		rule->has_target = 1;
		return 1;
	case 'X':
	case 'N':
		if (rule->has_goal && rule->goal != (ch == 'X' ? SCORE_MAX :
		    SCORE_MIN)) {
			snprintf(err, errlen, "--maximize and --minimize "
			    "exclude each other");
			return -1;
		}
		rule->has_goal = 1;
		rule->goal = ch == 'X' ? SCORE_MAX : SCORE_MIN;
		return 1;
	}
	return 0;
}

/*
 * The reason getopt_long (opterr 0, optstring starting with ':') returned
 * ch ':' or '?' for argv, in err; return -1.
 */
static int
mllog_opt_refused(int ch, char **argv, char *err, size_t errlen)
{
	if (ch == ':')
		snprintf(err, errlen, "option '%s' needs a value",
		    argv[optind - 1]);
	else if (optopt != 0)
		snprintf(err, errlen, "unknown option '-%c'", optopt);
	else
		snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
	return -1;
}

/* Parse argv's options; see mllogcmd.h. */
int
mllog_opts_getopt(int argc, char **argv, const struct option *longopts,
    struct score_rule *rule, mllog_opt_take *take, void *own, char *err,
    size_t errlen)
{
	int	 ch, r;

	optind = 0;	/* GNU: start afresh, options anywhere */
	opterr = 0;	/* the refusal names the option (cli_refuse) */
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		if (ch == ':' || ch == '?')
			return mllog_opt_refused(ch, argv, err, errlen);
		if ((r = take(own, ch, optarg, err, errlen)) == -1)
			return -1;
		if (r == 0 && mllog_rule_opt(ch, optarg, rule, err,
		    errlen) != 1)
			return -1;
	}
	return optind;
}

/* Take one of mllog's own options into own, a struct mllog_opts. */
static int
mllog_opt_take_own(void *own, int ch, const char *arg, char *err,
    size_t errlen)
{
	struct mllog_opts *o = own;

	switch (ch) {
	case 'j':
		o->json = 1;
		return 1;
	case 'S':
		o->summary = 1;
		return 1;
	case 'T':
		o->table = 1;
		return 1;
	case 'f':
		if (report_format_parse(arg, &o->format) == -1 ||
		    o->format == REPORT_HTML) {
			snprintf(err, errlen, "--format: expected text, json, "
			    "csv, markdown or rcp, got '%s'", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* Parse the options; return the index of the first operand, or -1 (err). */
static int
mllog_opts_parse(int argc, char **argv, struct mllog_opts *o, char *err,
    size_t errlen)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "summary", no_argument, NULL, 'S' },
		{ "table", no_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'f' },
		MLLOG_RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};

	memset(o, 0, sizeof(*o));
	if (mllog_opts_getopt(argc, argv, longopts, &o->rule,
	    mllog_opt_take_own, o, err, errlen) == -1)
		return -1;
	if (o->table + o->summary + o->json > 1 && !(o->json && o->summary)) {
		snprintf(err, errlen, "--table excludes --summary and --json "
		    "(use --format json)");
		return -1;
	}
	if (o->format != REPORT_TEXT && !o->table) {
		snprintf(err, errlen, "--format goes with --table");
		return -1;
	}
	if (optind == argc) {
		snprintf(err, errlen, "expected %s", o->summary ||
		    o->table ? "a directory" : "a file");
		return -1;
	}
	return optind;
}

/*
 * Add a number in its shortest exact form (whole numbers without an
 * exponent: OpenFold's sample counts), or null.
 */
static void
mllog_add_number(cJSON *o, const char *k, int has, double v)
{
	char	 num[64];

	if (has && isfinite(v)) {
		if (v == floor(v) && fabs(v) < 1e15)
			snprintf(num, sizeof(num), "%.0f", v);
		else
			space_shortest(v, num, sizeof(num));
		cJSON_AddRawToObject(o, k, num);
	} else
		cJSON_AddNullToObject(o, k);
}

/* Add a string, or null when it is empty. */
static void
mllog_add_string(cJSON *o, const char *k, const char *s)
{
	if (s != NULL && s[0] != '\0')
		cJSON_AddStringToObject(o, k, s);
	else
		cJSON_AddNullToObject(o, k);
}

/* Print o on one line and free it. */
static void
mllog_print_json(cJSON *o)
{
	char	*s;

	s = xneed(cJSON_PrintUnformatted(o), "hpoctl mllog: the JSON text");
	printf("%s\n", s);
	cJSON_free(s);
	cJSON_Delete(o);
}

/* The goal as the campaign specs write it. */
static const char *
mllog_goal(enum score_goal g)
{
	return g == SCORE_MAX ? "max" : "min";
}

/* Print one run as a JSON object on one line. */
static void
mllog_run_json(const struct score_run *r)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "file", r->file);
	mllog_add_string(o, "benchmark", r->benchmark);
	mllog_add_number(o, "global_batch_size", r->has_gbs, r->gbs);
	cJSON_AddStringToObject(o, "metric", r->metric);
	cJSON_AddStringToObject(o, "goal", mllog_goal(r->goal));
	mllog_add_number(o, "target", 1, r->target);
	mllog_add_number(o, "best", r->has_best, r->best);
	cJSON_AddBoolToObject(o, "reached", r->reached);
	mllog_add_number(o, "epochs_to_target", r->reached && r->has_epochs,
	    r->epochs);
	cJSON_AddStringToObject(o, "epoch_unit", r->epoch_unit);
	cJSON_AddNumberToObject(o, "evaluations", r->evals);
	mllog_add_number(o, "time_to_train_s", r->stopped, r->ttt_ms / 1000.0);
	mllog_add_string(o, "status", r->status);
	cJSON_AddNumberToObject(o, "skipped_lines", (double)r->skipped);
	mllog_print_json(o);
}

/* A run whose log claims success without reaching the target. */
static int
mllog_false_success(const struct score_run *r)
{
	return !r->reached && strcmp(r->status, "success") == 0;
}

/* Print one run as a row of the table. */
static void
mllog_run_text(const struct score_run *r)
{
	char	 gbs[32], best[32], epochs[32], target[40], status[40];
	char	 ttt[32];

	snprintf(gbs, sizeof(gbs), r->has_gbs ? "%g" : "-", r->gbs);
	snprintf(best, sizeof(best), r->has_best ? "%.6g" : "-", r->best);
	snprintf(epochs, sizeof(epochs), r->reached && r->has_epochs ?
	    "%g" : "-", r->epochs);
	snprintf(target, sizeof(target), "%s%g",
	    r->goal == SCORE_MAX ? ">=" : "<=", r->target);
	snprintf(status, sizeof(status), "%s%s", r->status[0] ? r->status :
	    "-", mllog_false_success(r) ? "*" : "");
	snprintf(ttt, sizeof(ttt), r->stopped ? "%.3f" : "-",
	    r->ttt_ms / 1000.0);
	printf("%-10s %6s %-14s %-8s %-9s %-3s %7s %9s %-9s %s\n",
	    r->benchmark[0] ? r->benchmark : "-", gbs, r->metric, target,
	    best, r->reached ? "yes" : "no", epochs, ttt, status, r->file);
}

/* `hpoctl mllog FILE...`. */
static int
mllog_files(char **files, int n, const struct mllog_opts *o)
{
	struct score_run r;
	char		 err[1024];
	int		 i, rc = 0, header = 0, footnote = 0;

	for (i = 0; i < n; i++) {
		if ((strcmp(files[i], "-") == 0 ? score_stream(stdin,
		    "(stdin)", &o->rule, &r, err, sizeof(err)) :
		    score_file(files[i], &o->rule, &r, err, sizeof(err))) ==
		    -1) {
			fflush(stdout);
			fprintf(stderr, "hpoctl: %s\n", err);
			rc = 1;
			continue;
		}
		fflush(stdout);
		score_warn(stderr, "hpoctl", &r);
		if (o->json)
			mllog_run_json(&r);
		else {
			if (!header++)
				printf("%-10s %6s %-14s %-8s %-9s %-3s %7s "
				    "%9s %-9s %s\n", "BENCHMARK", "GBS",
				    "METRIC", "TARGET", "BEST", "HIT",
				    "EPOCHS", "TTT-S", "STATUS", "FILE");
			mllog_run_text(&r);
			footnote |= mllog_false_success(&r);
		}
		score_run_release(&r);
	}
	if (footnote)
		printf("* the log says success, but no evaluation met the "
		    "target\n");
	return rc;
}

/* Print one set as a JSON object on one line. */
static void
mllog_set_json(const char *dir, const struct score_run *r,
    const struct score_set *s)
{
	cJSON	*o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "dir", dir);
	mllog_add_string(o, "benchmark", r[0].benchmark);
	cJSON_AddStringToObject(o, "metric", r[0].metric);
	cJSON_AddStringToObject(o, "goal", mllog_goal(r[0].goal));
	mllog_add_number(o, "target", 1, r[0].target);
	cJSON_AddNumberToObject(o, "runs", (double)s->runs);
	cJSON_AddNumberToObject(o, "runs_required", (double)s->required);
	cJSON_AddNumberToObject(o, "converged", (double)s->converged);
	mllog_add_number(o, "olympic_mean_s", s->has_mean, s->mean_s);
	mllog_add_number(o, "olympic_mean_min", s->has_mean, s->mean_min);
	mllog_add_number(o, "mean_epochs_to_target", s->has_epochs,
	    s->mean_epochs);
	cJSON_AddStringToObject(o, "epoch_unit", r[0].epoch_unit);
	if (s->has_mean) {
		a = cJSON_AddArrayToObject(o, "dropped");
		cJSON_AddItemToArray(a, cJSON_CreateString(
		    r[s->fastest].file));
		cJSON_AddItemToArray(a, cJSON_CreateString(
		    r[s->slowest].file));
	} else
		cJSON_AddNullToObject(o, "dropped");
	cJSON_AddBoolToObject(o, "scores", s->scores);
	mllog_add_string(o, "reason", s->reason);
	mllog_print_json(o);
}

/* Print one set as a row of the table. */
static void
mllog_set_text(const char *dir, const struct score_run *r,
    const struct score_set *s)
{
	char	 mean_s[32], mean_min[32], epochs[32];

	snprintf(mean_s, sizeof(mean_s), s->has_mean ? "%.3f" : "-",
	    s->mean_s);
	snprintf(mean_min, sizeof(mean_min), s->has_mean ? "%.2f" : "-",
	    s->mean_min);
	snprintf(epochs, sizeof(epochs), s->has_epochs ? "%.6g" : "-",
	    s->mean_epochs);
	printf("%-10s %4zu %4zu %4zu %10s %8s %9s %-7s %-6s %s\n",
	    r[0].benchmark[0] ? r[0].benchmark : "-", s->runs, s->required,
	    s->converged, mean_s, mean_min, epochs, r[0].epoch_unit,
	    s->scores ? "yes" : "no", dir);
}

/* `hpoctl mllog --summary DIR...`. */
static int
mllog_sets(char **dirs, int n, const struct mllog_opts *o)
{
	struct score_run *runs;
	struct score_set *sets;
	size_t		 *nruns, j;
	char		  err[1024];
	int		  i, rc = 0, header = 0, *ok;

	/* Score every set first, so that the reasons follow the table. */
	sets = xcalloc((size_t)n, sizeof(*sets));
	nruns = xcalloc((size_t)n, sizeof(*nruns));
	ok = xcalloc((size_t)n, sizeof(*ok));
	for (i = 0; i < n; i++) {
		if (score_dir(dirs[i], &o->rule, &runs, &nruns[i], err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "hpoctl: %s\n", err);
			rc = 1;
			continue;
		}
		for (j = 0; j < nruns[i]; j++)
			score_warn(stderr, "hpoctl", &runs[j]);
		if (score_summary(runs, nruns[i], &sets[i], err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "hpoctl: %s: %s\n", dirs[i], err);
			rc = 1;
		} else {
			ok[i] = 1;
			if (o->json)
				mllog_set_json(dirs[i], runs, &sets[i]);
			else {
				if (!header++)
					printf("%-10s %4s %4s %4s %10s %8s "
					    "%9s %-7s %-6s %s\n", "BENCHMARK",
					    "RUNS", "NEED", "CONV", "MEAN-S",
					    "MEAN-MIN", "EPOCHS", "UNIT",
					    "SCORES", "SET");
				mllog_set_text(dirs[i], runs, &sets[i]);
			}
		}
		for (j = 0; j < nruns[i]; j++)
			score_run_release(&runs[j]);
		free(runs);
	}
	for (i = 0; i < n && !o->json; i++)
		if (ok[i] && !sets[i].scores)
			printf("%s: does not score: %s\n", dirs[i],
			    sets[i].reason);
	free(sets);
	free(nruns);
	free(ok);
	return rc;
}

/*
 * `hpoctl mllog --table DIR...`: the guideline table of each benchmark;
 * JSON is an array of tables, RCP one object of every entry, CSV one
 * header, text and Markdown the tables one after the other.
 */
static int
mllog_table(char **dirs, int n, const struct mllog_opts *o)
{
	struct guide	*g;
	cJSON		*all = NULL, *t, *e;
	char		 err[1024], *text, *body;
	size_t		 ng, i;

	if (guide_mllog(dirs, n, &o->rule, stderr, &g, &ng, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	if (o->format == REPORT_JSON)
		all = cJSON_CreateArray();
	else if (o->format == REPORT_RCP)
		all = cJSON_CreateObject();
	for (i = 0; i < ng; i++) {
		if (o->format == REPORT_JSON)
			cJSON_AddItemToArray(all, guide_table_json(&g[i]));
		else if (o->format == REPORT_RCP) {
			text = xneed(guide_table(&g[i], REPORT_RCP),
			    "hpoctl mllog: the table");
			t = cJSON_Parse(text);
			free(text);
			while (t != NULL && (e = t->child) != NULL) {
				cJSON_DetachItemViaPointer(t, e);
				cJSON_AddItemToObject(all, e->string, e);
			}
			cJSON_Delete(t);
		} else {
			text = xneed(guide_table(&g[i], o->format),
			    "hpoctl mllog: the table");
			body = text;
			/* One CSV header for all the tables. */
			if (o->format == REPORT_CSV && i > 0 &&
			    (body = strchr(text, '\n')) != NULL)
				body++;
			printf("%s%s", i > 0 && o->format != REPORT_CSV ?
			    "\n" : "", body != NULL ? body : "");
			free(text);
		}
		guide_release(&g[i]);
	}
	free(g);
	if (all != NULL) {
		text = xneed(cJSON_Print(all), "hpoctl mllog: the JSON text");
		printf("%s\n", text);
		cJSON_free(text);
		cJSON_Delete(all);
	}
	return 0;
}

/* `hpoctl mllog`. */
int
mllog_command(int argc, char **argv, char *err, size_t errlen)
{
	struct mllog_opts	 o;
	int			 i;

	if ((i = mllog_opts_parse(argc, argv, &o, err, errlen)) == -1)
		return 64;
	if (o.table)
		return mllog_table(argv + i, argc - i, &o);
	if (o.summary)
		return mllog_sets(argv + i, argc - i, &o);
	return mllog_files(argv + i, argc - i, &o);
}
