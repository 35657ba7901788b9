/*
 * report_html.c: the campaign report as one HTML page.  Its figures come
 * from the JSON trees of the report and of the guideline table, so the
 * page and `--format json` agree; each number carries its JSON path
 * (data-key) and exact value (data-value).  The curves of the best value
 * against the cost are computed from the ledger's attempts and metrics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "guide.h"
#include "report_html.h"
#include "report_html_trials.h"
#include "svg.h"

/* The page being written. */
struct page {
	FILE		*f;
	const struct ledger_campaign *c;
	const cJSON	*report;
	const cJSON	*table;
	const char	*unit;		/* "gpu_hours" or "cpu_hours" */
	const char	*unit_name;	/* "GPU-hours" or "CPU-hours" */
};

/* One curve of plot (a): the best value so far of a batch size. */
struct series {
	long		 batch;		/* 0: the whole campaign */
	double		*x, *y;
	size_t		 n;
	double		 cost;		/* cumulative */
	int		 has_best;
	double		 best;
};

/* An attempt's best value of the objective. */
struct attempt_best {
	int64_t		 id;
	double		 best;
};

static const char html_style[] =
	"body{font-family:system-ui,sans-serif;margin:2em auto;max-width:"
	"72em;color:#222;padding:0 1em}\n"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;"
	"border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;"
	"vertical-align:top}\n"
	"td.n{text-align:right;white-space:nowrap;"
	"font-variant-numeric:tabular-nums}\n"
	"table.kv th{background:#f4f4f4;width:14em}\n"
	".figs{display:flex;flex-wrap:wrap;gap:1em}\n"
	"figure{margin:0}figcaption{font-size:.9em;color:#555;max-width:"
	"40em}\n"
	".muted{color:#777}\n"
	".wide{overflow-x:auto}.wide table{font-size:.85em}\n";

/* The member of a JSON tree at a dotted path ("rows.0.epochs.min"). */
static const cJSON *
html_get(const cJSON *root, const char *path)
{
	const cJSON	*j = root;
	char		 buf[256], *k, *save = NULL, *end;
	long		 i;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return NULL;
	for (k = strtok_r(buf, ".", &save); k != NULL && j != NULL;
	    k = strtok_r(NULL, ".", &save)) {
		if (cJSON_IsArray(j)) {
			i = strtol(k, &end, 10);
			j = *end == '\0' ? cJSON_GetArrayItem(j, (int)i) : NULL;
		} else
			j = cJSON_GetObjectItemCaseSensitive(j, k);
	}
	return j;
}

/*
 * The number a JSON value holds, NAN if none: the report adds its numbers
 * raw, in their shortest exact form.
 */
static double
html_double(const cJSON *v)
{
	char	*end;
	double	 d;

	if (cJSON_IsNumber(v))
		return v->valuedouble;
	if (!cJSON_IsRaw(v) || v->valuestring == NULL)
		return NAN;
	d = strtod(v->valuestring, &end);
	return end != v->valuestring && *end == '\0' ? d : NAN;
}

/* Write a number marked with its key and exact value. */
static void
html_number(FILE *f, const char *key, double v)
{
	char	 num[32];

	svg_number(num, sizeof(num), v);
	fprintf(f, "<span data-key=\"");
	svg_escape(f, key);
	fprintf(f, "\" data-value=\"%.17g\">%s</span>", v, num);
}

/* Write a key as a label: "tuning_overhead" as "tuning overhead". */
static void
html_label(FILE *f, const char *k)
{
	char	 buf[128], *u;

	snprintf(buf, sizeof(buf), "%s", k);
	for (u = buf; (u = strchr(u, '_')) != NULL; u++)
		*u = ' ';
	svg_escape(f, buf);
}

/* Write any JSON value; numbers are marked with their key. */
static void
html_value(FILE *f, const char *key, const cJSON *v)
{
	const cJSON	*m;
	cJSON		*raw;
	char		 sub[256];
	int		 i = 0;

	if (isfinite(html_double(v)))
		html_number(f, key, html_double(v));
	else if (cJSON_IsRaw(v) && (raw = cJSON_Parse(v->valuestring)) !=
	    NULL) {
		html_value(f, key, raw);
		cJSON_Delete(raw);
	} else if (cJSON_IsString(v))
		svg_escape(f, v->valuestring);
	else if (cJSON_IsBool(v))
		fputs(cJSON_IsTrue(v) ? "yes" : "no", f);
	else if (cJSON_IsArray(v) &&
	    cJSON_IsObject(cJSON_GetArrayItem(v, 0))) {
		fputs("<ul>", f);
		cJSON_ArrayForEach(m, v) {
			snprintf(sub, sizeof(sub), "%s.%d", key, i++);
			fputs("<li>", f);
			html_value(f, sub, m);
			fputs("</li>", f);
		}
		fputs("</ul>", f);
	} else if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		cJSON_ArrayForEach(m, v) {
			if (i > 0)
				fputs(", ", f);
			if (cJSON_IsObject(v)) {
				snprintf(sub, sizeof(sub), "%s.%s", key,
				    m->string);
				html_label(f, m->string);
				fputs("&nbsp;", f);
			} else
				snprintf(sub, sizeof(sub), "%s.%d", key, i);
			html_value(f, sub, m);
			i++;
		}
		if (i == 0)
			fputs("<span class=\"muted\">none</span>", f);
	} else
		fputs("<span class=\"muted\">&ndash;</span>", f);
}

/* Write the value of the report (or table) at a path, marked. */
static void
html_at(FILE *f, const cJSON *root, const char *prefix, const char *path)
{
	char	 key[256];

	snprintf(key, sizeof(key), "%s%s", prefix, path);
	html_value(f, key, html_get(root, path));
}

/* Start a row of a key-value table. */
static void
html_row(FILE *f, const char *label)
{
	fprintf(f, "<tr><th>%s</th><td>", label);
}

/* The page's header: the campaign and its objective. */
static void
html_header(struct page *p)
{
	FILE		*f = p->f;
	const cJSON	*r = p->report;

	fprintf(f, "<h1>Campaign ");
	svg_escape(f, p->c->name);
	fprintf(f, " <span class=\"muted\">(id ");
	html_at(f, r, "", "campaign.id");
	fprintf(f, ")</span></h1>\n<p>Workload ");
	html_at(f, r, "", "campaign.workload");
	fprintf(f, ", ");
	html_at(f, r, "", "campaign.backend");
	fprintf(f, " backend, ");
	html_at(f, r, "", "campaign.state");
	fprintf(f, ". Objective: ");
	html_at(f, r, "", "objective.metric");
	fprintf(f, ", goal ");
	html_at(f, r, "", "objective.goal");
	fprintf(f, ", target ");
	html_at(f, r, "", "objective.target");
	fprintf(f, ".</p>\n");
}

/* Is this top-level key of the report shown by html_headline() itself? */
static int
html_known(const char *k)
{
	static const char *const known[] = {
		"campaign", "objective", "trials", "cost",
		"time_to_solution_s", "time_to_solution_trial", "best",
		"priors"
	};
	size_t	 i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(k, known[i]) == 0)
			return 1;
	return 0;
}

/* The headline numbers, and every other figure of the report. */
static void
html_headline(struct page *p)
{
	static const char *const states[] = {
		"pending", "running", "completed", "failed", "pruned",
		"cancelled"
	};
	FILE		*f = p->f;
	const cJSON	*r = p->report, *m;
	char		 path[128];
	size_t		 i;

	fprintf(f, "<h2 id=\"headline\">Headline</h2>\n<table class=\"kv\">\n");
	html_row(f, "Time to solution");
	if (isfinite(html_double(html_get(r, "time_to_solution_s")))) {
		html_at(f, r, "", "time_to_solution_s");
		fprintf(f, " s (trial ");
		html_at(f, r, "", "time_to_solution_trial");
		fprintf(f, ")");
	} else
		fprintf(f, "not reached");
	fprintf(f, "</td></tr>\n");
	html_row(f, "Cost");
	html_at(f, r, "", "cost.node_hours");
	fprintf(f, " node-hours, ");
	html_at(f, r, "", "cost.gpu_hours");
	fprintf(f, " GPU-hours, ");
	html_at(f, r, "", "cost.cpu_hours");
	fprintf(f, " CPU-hours over ");
	html_at(f, r, "", "cost.attempts");
	fprintf(f, " attempts (");
	html_at(f, r, "", "cost.retried_attempts");
	fprintf(f, " retried)</td></tr>\n");
	html_row(f, "Best");
	if (cJSON_IsObject(html_get(r, "best"))) {
		html_at(f, r, "", "objective.metric");
		fputs(" ", f);
		html_at(f, r, "", "best.value");
		fprintf(f, " (trial ");
		html_at(f, r, "", "best.trial");
		fprintf(f, "%s), ", cJSON_IsTrue(html_get(r, "best.reached")) ?
		    ", meets the target" : "");
		html_at(f, r, "", "best.params");
	} else
		fprintf(f, "none");
	fprintf(f, "</td></tr>\n");
	html_row(f, "Trials");
	html_at(f, r, "", "trials.total");
	fprintf(f, ":");
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		snprintf(path, sizeof(path), "trials.%s", states[i]);
		fprintf(f, " %s ", states[i]);
		html_at(f, r, "", path);
	}
	fprintf(f, "; ");
	html_at(f, r, "", "trials.reached_target");
	fprintf(f, " reached the target</td></tr>\n");
	if (html_double(html_get(r, "priors.count")) > 0) {
		html_row(f, "Priors");
		html_at(f, r, "", "priors.count");
		fprintf(f, " from ");
		html_at(f, r, "", "priors.source");
		fprintf(f, ": prior knowledge, not in the trials, cost or time "
		    "to solution of this campaign</td></tr>\n");
	}
	html_row(f, "Wall time");
	html_at(f, r, "", "campaign.wall_s");
	fprintf(f, " s</td></tr>\n");
	/* The rest of the cost, and what later reports add, as they come. */
	html_row(f, "Cost in detail");
	i = 0;
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(r, "cost")) {
		if (strcmp(m->string, "by_outcome") == 0)
			continue;
		snprintf(path, sizeof(path), "cost.%s", m->string);
		fprintf(f, "%s", i++ ? ", " : "");
		html_label(f, m->string);
		fputs("&nbsp;", f);
		html_value(f, path, m);
	}
	fprintf(f, "</td></tr>\n");
	cJSON_ArrayForEach(m, r) {
		if (m->string == NULL || html_known(m->string))
			continue;
		fprintf(f, "<tr><th>");
		html_label(f, m->string);
		fprintf(f, "</th><td>");
		html_value(f, m->string, m);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* Order attempt bests by attempt id. */
static int
html_best_cmp(const void *a, const void *b)
{
	const struct attempt_best *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Order attempts by their end. */
static int
html_ended_cmp(const void *a, const void *b)
{
	const struct ledger_attempt	*x, *y;

	x = *(const struct ledger_attempt *const *)a;
	y = *(const struct ledger_attempt *const *)b;

	if (x->ended != y->ended)
		return (x->ended > y->ended) - (x->ended < y->ended);
	return (x->id > y->id) - (x->id < y->id);
}

/* The batch size of a trial by number; 0 if unknown. */
static long
html_trial_batch(const struct ledger_trial *t, size_t n, int number)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (t[mid].number == number)
			return t[mid].batch_size;
		if (t[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The series of a batch size, added if new. */
static struct series *
html_series_of(struct series **ss, size_t *ns, long batch)
{
	size_t	 i;

	for (i = 0; i < *ns; i++)
		if ((*ss)[i].batch == batch)
			return &(*ss)[i];
	*ss = realloc(*ss, (*ns + 1) * sizeof(**ss));
	if (*ss == NULL)
		abort();
	memset(&(*ss)[*ns], 0, sizeof(**ss));
	(*ss)[*ns].batch = batch;
	return &(*ss)[(*ns)++];
}

/*
 * The best value so far against the cumulative cost of each batch size
 * (one series if the campaign has one batch size): ended attempts in the
 * order they ended, each adding its cost and its best value.
 */
static void
html_series(struct page *p, const struct guide *g, struct series **out,
    size_t *nout)
{
	const struct ledger_trial	*t = g->trials;
	const struct ledger_metric	*m = g->points;
	const struct ledger_attempt	**byend;
	struct attempt_best	*ab, key, *hit;
	struct series		*ss = NULL, *s;
	size_t			 nt = g->ntrials, na = g->nattempts;
	size_t			 nm = g->npoints, nab = 0, ne = 0;
	size_t			 i, nb;
	double			 v;
	int			 gpu = strcmp(p->unit, "gpu_hours") == 0;
	long			 first = 0;

	*out = NULL;
	*nout = 0;
	/* Each attempt's best value (the points come attempt by attempt). */
	ab = calloc(nm + 1, sizeof(*ab));
	for (i = 0; i < nm; i++) {
		if (nab == 0 || ab[nab - 1].id != m[i].attempt_id) {
			ab[nab].id = m[i].attempt_id;
			ab[nab++].best = m[i].value;
		} else if (p->c->maximize ? m[i].value > ab[nab - 1].best :
		    m[i].value < ab[nab - 1].best)
			ab[nab - 1].best = m[i].value;
	}
	qsort(ab, nab, sizeof(*ab), html_best_cmp);
	/* One series per batch size, or one for all. */
	for (i = nb = 0; i < nt; i++)
		if (t[i].batch_size != 0 && t[i].batch_size != first) {
			if (first == 0)
				first = t[i].batch_size;
			else
				nb = 2;
		}
	byend = calloc(na + 1, sizeof(*byend));
	for (i = 0; i < na; i++)
		if (g->attempts[i].ended > 0)
			byend[ne++] = &g->attempts[i];
	qsort(byend, ne, sizeof(*byend), html_ended_cmp);
	for (i = 0; i < ne; i++) {
		s = html_series_of(&ss, nout, nb > 1 ? html_trial_batch(t, nt,
		    byend[i]->trial_number) : 0);
		if (byend[i]->started > 0 &&
		    byend[i]->ended > byend[i]->started)
			s->cost += (byend[i]->ended - byend[i]->started) *
			    (gpu ? byend[i]->gpus : byend[i]->cpus) / 3600;
		key.id = byend[i]->id;
		hit = bsearch(&key, ab, nab, sizeof(*ab), html_best_cmp);
		if (hit != NULL) {
			v = hit->best;
			if (!s->has_best || (p->c->maximize ? v > s->best :
			    v < s->best))
				s->best = v;
			s->has_best = 1;
		}
		if (!s->has_best)
			continue;
		s->x = realloc(s->x, (s->n + 1) * sizeof(*s->x));
		s->y = realloc(s->y, (s->n + 1) * sizeof(*s->y));
		if (s->x == NULL || s->y == NULL)
			abort();
		s->x[s->n] = s->cost;
		s->y[s->n++] = s->best;
	}
	free(byend);
	free(ab);
	*out = ss;
}

/* Order series by batch size. */
static int
html_series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	return (x->batch > y->batch) - (x->batch < y->batch);
}

/* Plot (a): the best value so far against the cost. */
static void
html_plot_progress(struct page *p, const struct guide *g)
{
	struct series	*ss;
	struct svg_plot	 pl;
	size_t		 ns, i, j;
	double		 x1 = 0, y0 = INFINITY, y1 = -INFINITY, pad;
	char		 label[256], title[256];

	html_series(p, g, &ss, &ns);
	qsort(ss, ns, sizeof(*ss), html_series_cmp);
	fprintf(p->f, "<h2 id=\"progress\">Best value against cost</h2>\n");
	for (i = 0; i < ns; i++)
		for (j = 0; j < ss[i].n; j++) {
			x1 = fmax(x1, ss[i].x[j]);
			y0 = fmin(y0, ss[i].y[j]);
			y1 = fmax(y1, ss[i].y[j]);
		}
	if (!isfinite(y0)) {
		fprintf(p->f, "<p class=\"muted\">No attempt has ended with a "
		    "value of the objective yet.</p>\n");
		free(ss);
		return;
	}
	pad = (y1 - y0) * 0.05;
	snprintf(title, sizeof(title), "best %s so far against cumulative %s",
	    p->c->metric, p->unit_name);
	fprintf(p->f, "<figure id=\"plot-progress\">\n");
	svg_begin(&pl, p->f, 640, 360, 0, x1 * 1.02, y0 - pad, y1 + pad,
	    title);
	snprintf(label, sizeof(label), "cumulative %s%s%s", p->unit_name,
	    ns > 1 || ss[0].batch != 0 ? " of the batch size" : "",
	    strcmp(p->unit, "cpu_hours") == 0 ? " (no GPUs used)" : "");
	snprintf(title, sizeof(title), "best %s so far", p->c->metric);
	svg_axes(&pl, label, title, 1);
	for (i = 0; i < ns; i++) {
		svg_line(&pl, ss[i].x, ss[i].y, ss[i].n, 1, svg_color(i));
		if (ss[i].batch != 0)
			snprintf(label, sizeof(label), "batch %ld",
			    ss[i].batch);
		else
			snprintf(label, sizeof(label), "all trials");
		svg_legend(&pl, i, svg_color(i), label);
	}
	svg_end(&pl);
	fprintf(p->f, "<figcaption>Attempts in the order they ended; each "
	    "adds its %s and may improve the best value so far.</figcaption>"
	    "\n</figure>\n", p->unit_name);
	for (i = 0; i < ns; i++) {
		free(ss[i].x);
		free(ss[i].y);
	}
	free(ss);
}

/* Plot (c) and its table: the cost by outcome. */
static void
html_outcomes(struct page *p)
{
	static const char *const units[] = {
		"attempts", "node_hours", "gpu_hours", "cpu_hours"
	};
	const cJSON	*bo = html_get(p->report, "cost.by_outcome"), *m;
	struct svg_plot	 pl;
	FILE		*f = p->f;
	char		 key[256], title[128];
	double		 y1 = 0, v;
	size_t		 i, n;

	fprintf(f, "<h2 id=\"outcomes\">Cost by outcome</h2>\n");
	if (!cJSON_IsObject(bo) || (n = cJSON_GetArraySize(bo)) == 0) {
		fprintf(f, "<p class=\"muted\">This report has no breakdown "
		    "of the cost by outcome.</p>\n");
		return;
	}
	cJSON_ArrayForEach(m, bo)
		y1 = fmax(y1, html_double(cJSON_GetObjectItem(m, p->unit)));
	snprintf(title, sizeof(title), "%s by outcome", p->unit_name);
	fprintf(f, "<div class=\"figs\"><figure id=\"plot-outcomes\">\n");
	svg_begin(&pl, f, 480, 300, -0.5, n - 0.5, 0, y1 > 0 ? y1 * 1.15 : 1,
	    title);
	svg_axes(&pl, "outcome", p->unit_name, 0);
	i = 0;
	cJSON_ArrayForEach(m, bo) {
		svg_xlabel(&pl, i, m->string);
		v = html_double(cJSON_GetObjectItem(m, p->unit));
		snprintf(key, sizeof(key), "cost.by_outcome.%s.%s", m->string,
		    p->unit);
		if (isfinite(v))
			svg_bar(&pl, i, 300.0 / n, v, svg_color(i), key);
		i++;
	}
	svg_end(&pl);
	fprintf(f, "</figure>\n<table><tr><th>outcome</th>");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		fprintf(f, "<th>%s</th>", units[i]);
	fprintf(f, "</tr>\n");
	cJSON_ArrayForEach(m, bo) {
		fprintf(f, "<tr><td>");
		svg_escape(f, m->string);
		fprintf(f, "</td>");
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			snprintf(key, sizeof(key), "cost.by_outcome.%s.%s",
			    m->string, units[i]);
			fprintf(f, "<td class=\"n\">");
			html_value(f, key, cJSON_GetObjectItem(m, units[i]));
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table></div>\n");
}

/* One plot of (b): a figure of the rows against batch size. */
static void
html_plot_scaling(struct page *p, const char *member, const char *ylabel)
{
	const cJSON	*rows = cJSON_GetObjectItem(p->table, "rows"), *r, *m;
	struct svg_plot	 pl;
	char		 key[256], num[32];
	double		 y1 = 0, lo, hi, mean;
	int		 i, n = cJSON_GetArraySize(rows);

	cJSON_ArrayForEach(r, rows) {
		m = cJSON_GetObjectItem(r, member);
		y1 = fmax(y1, html_double(cJSON_GetObjectItem(m, "max")));
		y1 = fmax(y1, html_double(cJSON_GetObjectItem(m,
		    "olympic_mean")));
	}
	fprintf(p->f, "<figure id=\"plot-%s\">\n", member);
	svg_begin(&pl, p->f, 420, 300, -0.5, n - 0.5, 0,
	    y1 > 0 ? y1 * 1.1 : 1, ylabel);
	svg_axes(&pl, "global batch size", ylabel, 0);
	for (i = 0; i < n; i++) {
		r = cJSON_GetArrayItem(rows, i);
		m = cJSON_GetObjectItem(r, member);
		svg_number(num, sizeof(num), html_double(cJSON_GetObjectItem(r,
		    "batch_size")));
		svg_xlabel(&pl, i, num);
		lo = html_double(cJSON_GetObjectItem(m, "min"));
		hi = html_double(cJSON_GetObjectItem(m, "max"));
		mean = html_double(cJSON_GetObjectItem(m, "olympic_mean"));
		if (isfinite(lo) && isfinite(hi))
			svg_range(&pl, i, lo, hi, svg_color(0));
		snprintf(key, sizeof(key), "table.rows.%d.%s.olympic_mean", i,
		    member);
		if (isfinite(mean))
			svg_point(&pl, i, mean, svg_color(1), key);
	}
	svg_legend(&pl, 0, svg_color(0), "min-max over seeds");
	svg_legend(&pl, 1, svg_color(1), "olympic mean");
	svg_end(&pl);
	fprintf(p->f, "</figure>\n");
}

/* Plots (b) and the guideline table. */
static void
html_guideline(struct page *p)
{
	/* A cell shows path, or "path–path2". */
	static const struct {
		const char	*head, *path, *path2;
	} cols[] = {
		{ "batch size", "batch_size", NULL },
		{ "ranks", "ranks", NULL },
		{ "local batch", "local_batch", NULL },
		{ "parameters", "params", NULL },
		{ "confirmed", "confirmed", NULL },
		{ "successes / runs", "successes", "runs" },
		{ "success rate", "success_rate", NULL },
		{ "95% Wilson", "success_rate_ci_low",
		    "success_rate_ci_high" },
		{ "epochs: olympic mean", "epochs.olympic_mean", NULL },
		{ "min&ndash;max", "epochs.min", "epochs.max" },
		{ "mean", "epochs.mean", NULL },
		{ "std", "epochs.std", NULL },
		{ "95% t", "epochs.ci_low", "epochs.ci_high" },
		{ "time to target, s: olympic mean",
		    "time_to_target_s.olympic_mean", NULL },
		{ "min&ndash;max", "time_to_target_s.min",
		    "time_to_target_s.max" },
		{ "95% t", "time_to_target_s.ci_low",
		    "time_to_target_s.ci_high" },
		{ "samples/s", "samples_per_s", NULL },
		{ "trials: tuning", "trials.tuning", NULL },
		{ "confirm", "trials.confirm", NULL },
		{ "node-hours", "cost.total.node_hours", NULL },
		{ "GPU-hours", "cost.total.gpu_hours", NULL },
		{ "CPU-hours", "cost.total.cpu_hours", NULL }
	};
	const cJSON	*rows = cJSON_GetObjectItem(p->table, "rows");
	FILE		*f = p->f;
	char		 prefix[64];
	size_t		 i;
	int		 r, n = cJSON_GetArraySize(rows);

	fprintf(f, "<h2 id=\"scaling\">Batch-size scaling</h2>\n");
	if (!cJSON_IsArray(rows) || n == 0) {
		fprintf(f, "<p class=\"muted\">No guideline table: the "
		    "campaign has no batch size that reached the target, or "
		    "this report has none.</p>\n");
		return;
	}
	fprintf(f, "<div class=\"figs\">\n");
	html_plot_scaling(p, "epochs", "epochs to target");
	html_plot_scaling(p, "time_to_target_s", "time to target, s");
	fprintf(f, "</div>\n<p>");
	if (cJSON_IsString(cJSON_GetObjectItem(p->table, "lr_rule"))) {
		fprintf(f, "Learning-rate rule ");
		html_at(f, p->table, "table.", "lr_rule");
		fprintf(f, " on ");
		html_at(f, p->table, "table.", "lr_param");
		fprintf(f, "; ");
		html_at(f, p->table, "table.", "seeds");
		fprintf(f, " seeds per batch size, ");
		html_at(f, p->table, "table.", "min_successes");
		fprintf(f, " of them on target to confirm it. ");
	}
	fprintf(f, "Total: ");
	html_at(f, p->table, "table.", "total.trials");
	fprintf(f, " trials, ");
	html_at(f, p->table, "table.", "total.node_hours");
	fprintf(f, " node-hours, ");
	html_at(f, p->table, "table.", "total.gpu_hours");
	fprintf(f, " GPU-hours, ");
	html_at(f, p->table, "table.", "total.cpu_hours");
	fprintf(f, " CPU-hours.</p>\n<div class=\"wide\">"
	    "<table id=\"guideline\"><tr>");
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		fprintf(f, "<th>%s</th>", cols[i].head);
	fprintf(f, "</tr>\n");
	for (r = 0; r < n; r++) {
		snprintf(prefix, sizeof(prefix), "table.rows.%d.", r);
		fprintf(f, "<tr>");
		for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			fprintf(f, "<td class=\"n\">");
			html_at(f, cJSON_GetArrayItem(rows, r), prefix,
			    cols[i].path);
			if (cols[i].path2 != NULL && isfinite(html_double(
			    html_get(cJSON_GetArrayItem(rows, r),
			    cols[i].path)))) {
				fputs(strcmp(cols[i].path, "successes") == 0 ?
				    " / " : "&ndash;", f);
				html_at(f, cJSON_GetArrayItem(rows, r), prefix,
				    cols[i].path2);
			}
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table></div>\n");
}

/* Render the page from the report and the table. */
static void
html_page(const struct guide *g, const cJSON *report, const cJSON *table,
    char **out)
{
	const struct ledger_campaign *c = &g->c;
	struct page	 p;
	char		*buf = NULL, when[64];
	size_t		 len = 0;
	time_t		 now = time(NULL);
	struct tm	 tm;

	memset(&p, 0, sizeof(p));
	p.c = c;
	p.report = report;
	p.table = table;
	if (html_double(html_get(report, "cost.gpu_hours")) > 0) {
		p.unit = "gpu_hours";
		p.unit_name = "GPU-hours";
	} else {
		p.unit = "cpu_hours";
		p.unit_name = "CPU-hours";
	}
	p.f = open_memstream(&buf, &len);
	if (p.f == NULL)
		abort();
	fprintf(p.f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>hpod report: ");
	svg_escape(p.f, c->name);
	fprintf(p.f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
	    html_style);
	html_header(&p);
	html_headline(&p);
	html_plot_progress(&p, g);
	html_trials_plots(p.f, g);
	html_params_plots(p.f, g);
	html_outcomes(&p);
	html_cost_plot(p.f, g);
	if (table != NULL)
		html_guideline(&p);
	html_trials_table(p.f, g);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(p.f, "<p class=\"muted\">Written by hpoctl from the ledger, "
	    "%s.</p>\n</body>\n</html>\n", when);
	fclose(p.f);
	*out = buf;
}

/* Render the report page, with the guideline table of the guide. */
char *
report_html(const struct guide *g, const cJSON *report)
{
	cJSON	*table = guide_table_json(g);
	char	*out;

	html_page(g, report, table, &out);
	cJSON_Delete(table);
	return out;
}
