/*
 * report_html.c: the campaign report as one HTML page.  Its figures come
 * from the structures the JSON report is built from (the guide and its
 * account), never from the JSON text, so a key renamed in the JSON cannot
 * blank a cell; each number carries the path of its JSON member (data-key)
 * and its exact value (data-value), which tests/t/html.sh compares with
 * `--format json`.  The curves of the best value against the cost are
 * computed from the ledger's attempts and metrics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "guide.h"
#include "report_alloc.h"
#include "report_html.h"
#include "report_html_trials.h"
#include "svg.h"

/* One curve of the progress plot: the best value so far of a batch size. */
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

/* The page being written, for the progress plot. */
struct page {
	FILE		*f;
	const struct ledger_campaign *c;
	const char	*unit;		/* "gpu_hours" or "cpu_hours" */
	const char	*unit_name;	/* "GPU-hours" or "CPU-hours" */
	struct html_shown shown;	/* the trials drawn one by one */
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
	"h3{font-size:1em;margin:1.2em 0 .3em}\n"
	".figs{display:flex;flex-wrap:wrap;gap:1em}\n"
	"figure{margin:0;max-width:100%}figcaption{font-size:.9em;color:#555;"
	"max-width:40em}\n"
	"svg{max-width:100%;height:auto}\n"
	".muted{color:#777}\n"
	".wide{overflow-x:auto;max-width:100%}.wide table{font-size:.85em}\n";

/* Write a number marked with its key and exact value, or a dash. */
void
html_num(FILE *f, const char *key, int has, double v)
{
	char	 num[32];

	if (!has || !isfinite(v)) {
		fputs("<span class=\"muted\">&ndash;</span>", f);
		return;
	}
	svg_number(num, sizeof(num), v);
	fprintf(f, "<span data-key=\"");
	svg_escape(f, key);
	fprintf(f, "\" data-value=\"%.17g\">%s</span>", v, num);
}

/* Write the cost c as node-, GPU- and CPU-hours marked under prefix. */
void
html_cost_cells(FILE *f, const char *prefix, const struct account_cost *c)
{
	static const char *const units[] = { "node_hours", "gpu_hours",
	    "cpu_hours" };
	double	 v[3];
	char	 key[256];
	size_t	 i;

	v[0] = c->node_seconds / 3600;
	v[1] = c->gpu_seconds / 3600;
	v[2] = c->cpu_seconds / 3600;
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s.%s", prefix, units[i]);
		fprintf(f, "<td class=\"n\">");
		html_num(f, key, 1, v[i]);
		fprintf(f, "</td>");
	}
}

/* Write a trial's parameters, numbers marked under prefix. */
void
html_params(FILE *f, const char *prefix, const char *json)
{
	cJSON		*p = json ? cJSON_Parse(json) : NULL;
	const cJSON	*m;
	char		 key[256];
	int		 i = 0;

	cJSON_ArrayForEach(m, p) {
		fprintf(f, "%s", i++ ? ", " : "");
		svg_escape(f, m->string);
		fputs("&nbsp;", f);
		snprintf(key, sizeof(key), "%s.%s", prefix, m->string);
		if (cJSON_IsNumber(m))
			html_num(f, key, 1, m->valuedouble);
		else if (cJSON_IsString(m))
			svg_escape(f, m->valuestring);
	}
	if (i == 0)
		fputs("<span class=\"muted\">none</span>", f);
	cJSON_Delete(p);
}

/* The page's header: the campaign and its objective. */
static void
html_header(FILE *f, const struct guide *g)
{
	fprintf(f, "<h1>Campaign ");
	svg_escape(f, g->c.name);
	fprintf(f, " <span class=\"muted\">(id ");
	html_num(f, "campaign.id", 1, (double)g->c.id);
	fprintf(f, ")</span></h1>\n<p>Workload ");
	svg_escape(f, g->c.workload);
	fprintf(f, ", ");
	svg_escape(f, g->c.backend);
	fprintf(f, " backend, ");
	svg_escape(f, g->c.state);
	fprintf(f, ". Objective: ");
	svg_escape(f, g->c.metric);
	fprintf(f, ", goal %s, target ", g->c.maximize ? "max" : "min");
	html_num(f, "objective.target", g->c.has_target, g->c.target);
	fprintf(f, ".</p>\n");
}

/* The headline numbers: time to solution, cost, best, trials, priors. */
static void
html_headline(FILE *f, const struct guide *g)
{
	const struct account	*a = &g->acct;
	char			 key[64];
	size_t			 i;

	fprintf(f, "<h2 id=\"headline\">Headline</h2>\n<table class=\"kv\">\n"
	    "<tr><th>Time to solution</th><td>");
	if (a->has_tts) {
		html_num(f, "time_to_solution_s", 1, a->tts_seconds);
		fprintf(f, " s (trial ");
		html_num(f, "time_to_solution_trial", 1, a->tts_trial);
		fprintf(f, ")");
	} else
		fprintf(f, "not reached");
	fprintf(f, "</td></tr>\n<tr><th>Cost</th><td>");
	html_num(f, "cost.node_hours", 1, a->node_seconds / 3600);
	fprintf(f, " node-hours, ");
	html_num(f, "cost.gpu_hours", 1, a->gpu_seconds / 3600);
	fprintf(f, " GPU-hours, ");
	html_num(f, "cost.cpu_hours", 1, a->cpu_seconds / 3600);
	fprintf(f, " CPU-hours over ");
	html_num(f, "cost.attempts", 1, a->attempts);
	fprintf(f, " attempts (");
	html_num(f, "cost.retried_attempts", 1, a->attempts_retried);
	fprintf(f, " retried)</td></tr>\n<tr><th>Best</th><td>");
	if (a->has_best) {
		svg_escape(f, g->c.metric);
		fputs(" ", f);
		html_num(f, "best.value", 1, a->best_value);
		fprintf(f, " (trial ");
		html_num(f, "best.trial", 1, a->best_trial);
		fprintf(f, "%s), ", a->best_reached ? ", meets the target" :
		    "");
		html_params(f, "best.params", a->best_params_json);
	} else
		fprintf(f, "none");
	fprintf(f, "</td></tr>\n<tr><th>Trials</th><td>");
	html_num(f, "trials.total", 1, a->trials_total);
	fprintf(f, ":");
	for (i = 0; i < TRIAL_NSTATES; i++) {
		snprintf(key, sizeof(key), "trials.%s", trial_state_name(i));
		fprintf(f, " %s ", trial_state_name(i));
		html_num(f, key, 1, a->trials[i]);
	}
	fprintf(f, "; ");
	html_num(f, "trials.reached_target", 1, a->reached);
	fprintf(f, " reached the target</td></tr>\n");
	if (a->priors > 0) {
		fprintf(f, "<tr><th>Priors</th><td>");
		html_num(f, "priors.count", 1, a->priors);
		fprintf(f, " from ");
		svg_escape(f, a->prior_source ? a->prior_source : "?");
		fprintf(f, ": prior knowledge, not in the trials, cost or time "
		    "to solution of this campaign</td></tr>\n");
	}
	fprintf(f, "<tr><th>Wall time</th><td>");
	html_num(f, "campaign.wall_s", 1, a->wall_seconds);
	fprintf(f, " s</td></tr>\n</table>\n");
	html_details(f, g);
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

/* The series of a batch size, added if new; NULL if memory ran out. */
static struct series *
html_series_of(struct series **ss, size_t *ns, long batch)
{
	struct series	*grown;
	size_t		 i;

	for (i = 0; i < *ns; i++)
		if ((*ss)[i].batch == batch)
			return &(*ss)[i];
	if ((grown = report_reallocarray(*ss, *ns + 1, sizeof(**ss))) == NULL)
		return NULL;
	*ss = grown;
	memset(&(*ss)[*ns], 0, sizeof(**ss));
	(*ss)[*ns].batch = batch;
	return &(*ss)[(*ns)++];
}

/* Free n series. */
static void
html_series_free(struct series *ss, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(ss[i].x);
		free(ss[i].y);
	}
	free(ss);
}

/*
 * The best value so far against the cumulative cost of each batch size
 * (one series if the campaign has one batch size): ended attempts in the
 * order they ended, each adding its cost and its best value.  -1 if
 * memory ran out (nothing to free then).
 */
static int
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
	double			 v, *grown;
	int			 gpu = strcmp(p->unit, "gpu_hours") == 0;
	long			 first = 0;

	*out = NULL;
	*nout = 0;
	/* Each attempt's best value (the points come attempt by attempt). */
	byend = NULL;
	if ((ab = report_calloc(nm + 1, sizeof(*ab))) == NULL)
		goto fail;
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
	if ((byend = report_calloc(na + 1, sizeof(*byend))) == NULL)
		goto fail;
	for (i = 0; i < na; i++)
		if (g->attempts[i].ended > 0)
			byend[ne++] = &g->attempts[i];
	qsort(byend, ne, sizeof(*byend), html_ended_cmp);
	for (i = 0; i < ne; i++) {
		if ((s = html_series_of(&ss, nout, nb > 1 ?
		    html_trial_batch(t, nt, byend[i]->trial_number) : 0)) ==
		    NULL)
			goto fail;
		s->cost += account_attempt_elapsed(byend[i], g->now) *
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
		if ((grown = report_reallocarray(s->x, s->n + 1,
		    sizeof(*s->x))) == NULL)
			goto fail;
		s->x = grown;
		if ((grown = report_reallocarray(s->y, s->n + 1,
		    sizeof(*s->y))) == NULL)
			goto fail;
		s->y = grown;
		s->x[s->n] = s->cost;
		s->y[s->n++] = s->best;
	}
	free(byend);
	free(ab);
	*out = ss;
	return 0;
 fail:
	html_series_free(ss, *nout);
	*nout = 0;
	free(byend);
	free(ab);
	return -1;
}

/*
 * Leave out of a series the points inside a run of equal values: the
 * line through them is the same horizontal segment, drawn from its ends.
 */
static void
html_series_thin(struct series *s)
{
	size_t	 i, n = 0;

	for (i = 0; i < s->n; i++)
		if (i == 0 || i + 1 == s->n || s->y[i] != s->y[i - 1] ||
		    s->y[i] != s->y[i + 1]) {
			s->x[n] = s->x[i];
			s->y[n++] = s->y[i];
		}
	s->n = n;
}

/* Order series by batch size. */
static int
html_series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	return (x->batch > y->batch) - (x->batch < y->batch);
}

/* Plot (a): the best value so far against the cost; -1 if out of memory. */
static int
html_plot_progress(struct page *p, const struct guide *g)
{
	struct series	*ss;
	struct svg_plot	 pl;
	size_t		 ns, i, j;
	double		 x1 = 0, y0 = INFINITY, y1 = -INFINITY, pad;
	char		 label[256], title[256];

	if (html_series(p, g, &ss, &ns) == -1)
		return -1;
	qsort(ss, ns, sizeof(*ss), html_series_cmp);
	for (i = 0; p->shown.limited && i < ns; i++)
		html_series_thin(&ss[i]);
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
		html_series_free(ss, ns);
		return 0;
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
	html_series_free(ss, ns);
	return 0;
}

/* Render the page of the guide's campaign; NULL if memory ran out. */
char *
report_html(const struct guide *g)
{
	struct page	 p;
	char		*buf, when[64];
	size_t		 len;
	time_t		 now = time(NULL);
	struct tm	 tm;
	int		 rc;

	memset(&p, 0, sizeof(p));
	p.c = &g->c;
	p.unit = html_gpu(g) ? "gpu_hours" : "cpu_hours";
	p.unit_name = html_gpu(g) ? "GPU-hours" : "CPU-hours";
	if ((p.f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	fprintf(p.f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>hpod report: ");
	svg_escape(p.f, g->c.name);
	fprintf(p.f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
	    html_style);
	html_header(p.f, g);
	if (html_shown_pick(g, &p.shown) == -1) {
		fclose(p.f);
		free(buf);
		return NULL;
	}
	if (p.shown.limited)
		fprintf(p.f, "<p id=\"shown\">This campaign has %zu trials: "
		    "the page draws the %zu best one by one and the others as "
		    "densities and bands; every trial is in <code>hpoctl "
		    "trials</code> and the JSON report.</p>\n", p.shown.total,
		    p.shown.n);
	html_headline(p.f, g);
	/* The parts in order, up to one that ran out of memory. */
	if ((rc = html_plot_progress(&p, g)) == 0 &&
	    (rc = html_trials_plots(p.f, g, &p.shown)) == 0 &&
	    (rc = html_params_plots(p.f, g, &p.shown)) == 0) {
		html_outcomes(p.f, g);
		rc = html_cost_plot(p.f, g);
	}
	if (rc == 0) {
		if (!g->published)
			html_guideline(p.f, g);
		rc = html_trials_table(p.f, g, &p.shown);
	}
	html_shown_release(&p.shown);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(p.f, "<p class=\"muted\">Written by hpoctl from the ledger, "
	    "%s.</p>\n</body>\n</html>\n", when);
	if (report_memstream_close(p.f, &buf) == 0 && rc == -1) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* Whether the campaign's cost is counted in GPU-hours. */
int
html_gpu(const struct guide *g)
{
	return g->acct.gpu_seconds > 0;
}
