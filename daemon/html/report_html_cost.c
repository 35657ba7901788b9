/*
 * report_html_cost.c: the cost of the campaign in the HTML report: by
 * outcome (a bar chart and a table), and over wall time: cumulative
 * GPU-hours (CPU-hours without GPUs) by how the attempts ended, their
 * total, and the time to solution marked.
 *
 * An attempt adds its allocation for every second it runs, so the curves
 * are piecewise linear between the attempts' starts and ends; they are
 * drawn exactly through those instants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "report_html_trials.h"
#include "svg.h"
#include "report_alloc.h"

#define HC_GROUPS	5
/*
 * Above HC_INSTANTS starts and ends, the lines are drawn through
 * HC_SAMPLES evenly spaced instants instead (two a pixel of the plot).
 */
#define HC_INSTANTS	4001
#define HC_SAMPLES	1281

static const char *const hc_groups[HC_GROUPS] = {
	"completed", "pruned", "failed", "cancelled", "running"
};

/* The group of an attempt state. */
static int
hc_group(const char *state)
{
	if (strcmp(state, "completed") == 0)
		return 0;
	if (strcmp(state, "pruned") == 0)
		return 1;
	if (strcmp(state, "failed") == 0 || strcmp(state, "timeout") == 0 ||
	    strcmp(state, "node_fail") == 0 || strcmp(state, "lost") == 0)
		return 2;
	if (strcmp(state, "cancelled") == 0 || strcmp(state, "preempted") == 0)
		return 3;
	return 4;
}

/*
 * Cost of group k (-1: all) in unit-hours by time t (epoch seconds).  An
 * attempt whose job was suspended is charged its run time by its end,
 * spread over its span (when it was suspended is not recorded).
 */
static double
hc_cost_at(const struct guide *g, int k, double t, int gpu)
{
	const struct ledger_attempt	*a;
	double				 s = 0, end, span;
	size_t				 i;

	for (i = 0; i < g->nattempts; i++) {
		a = &g->attempts[i];
		if (!(a->started > 0) || (k >= 0 && hc_group(a->state) != k))
			continue;
		span = (a->ended > 0 ? a->ended : g->now) - a->started;
		end = fmin(a->started + span, t);
		if (end > a->started)
			s += (end - a->started) / span *
			    account_attempt_elapsed(a, g->now) *
			    (gpu ? a->gpus : a->cpus);
	}
	return s / 3600;
}

/* Order doubles. */
static int
hc_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The instants where a slope changes: starts and ends, sorted. */
static size_t
hc_instants(const struct guide *g, double *t)
{
	size_t	 i, n = 0;

	t[n++] = g->c.started;
	for (i = 0; i < g->nattempts; i++) {
		if (!(g->attempts[i].started > 0))
			continue;
		t[n++] = g->attempts[i].started;
		t[n++] = g->attempts[i].ended > 0 ? g->attempts[i].ended :
		    g->now;
	}
	qsort(t, n, sizeof(*t), hc_cmp);
	return n;
}

/* A change of slope: an attempt of allocation dw starts (+) or ends (-). */
struct hc_step {
	double	 t, dw;
};

/* Order slope changes by time. */
static int
hc_step_cmp(const void *a, const void *b)
{
	const struct hc_step *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

/*
 * Cost of group k (-1: all) in unit-hours at each of the n sorted instants
 * t, into v: one sweep over the attempts' starts and ends in time order,
 * the cost growing by the running allocations between them (what
 * hc_cost_at() gives at one instant, without going over every attempt for
 * each instant).  -1 if memory ran out.
 */
static int
hc_sweep(const struct guide *g, int k, int gpu, const double *t, size_t n,
    double *v)
{
	const struct ledger_attempt	*a;
	struct hc_step			*st;
	double				 end, cost = 0, slope = 0, at;
	size_t				 i, j, ns = 0;

	if ((st = report_calloc(2 * g->nattempts + 1, sizeof(*st))) == NULL)
		return -1;
	for (i = 0; i < g->nattempts; i++) {
		a = &g->attempts[i];
		if (!(a->started > 0) || (k >= 0 && hc_group(a->state) != k))
			continue;
		end = a->ended > 0 ? a->ended : g->now;
		if (!(end > a->started))
			continue;
		st[ns].t = a->started;
		st[ns++].dw = gpu ? a->gpus : a->cpus;
		st[ns].t = end;
		st[ns++].dw = -(double)(gpu ? a->gpus : a->cpus);
	}
	qsort(st, ns, sizeof(*st), hc_step_cmp);
	at = ns > 0 ? st[0].t : 0;
	for (i = j = 0; i < n; i++) {
		for (; j < ns && st[j].t <= t[i]; j++) {
			cost += slope * (st[j].t - at);
			at = st[j].t;
			slope += st[j].dw;
		}
		v[i] = t[i] > at ? (cost + slope * (t[i] - at)) / 3600 :
		    cost / 3600;
	}
	free(st);
	return 0;
}

/* One cumulative line (k: group, -1: total); -1 if out of memory. */
static int
hc_line(struct svg_plot *pl, const struct guide *g, const double *t,
    size_t n, int k, int gpu)
{
	double	*v;
	size_t	 i;

	if ((v = report_calloc(n, sizeof(*v))) == NULL ||
	    hc_sweep(g, k, gpu, t, n, v) == -1) {
		free(v);
		return -1;
	}
	fprintf(pl->f, "<polyline class=\"cost-%s\" fill=\"none\" stroke=\"%s\""
	    " stroke-width=\"%s\" points=\"", k < 0 ? "total" : hc_groups[k],
	    k < 0 ? "#222" : html_state_color(hc_groups[k]), k < 0 ? "2.5" :
	    "1.5");
	for (i = 0; i < n; i++)
		fprintf(pl->f, "%s%.1f,%.1f", i ? " " : "",
		    svg_x(pl, (t[i] - g->c.started) / 3600),
		    svg_y(pl, v[i]));
	fprintf(pl->f, "\"/>\n");
	free(v);
	return 0;
}

/* The time to solution as a vertical line, its number marked. */
static void
hc_tts(struct svg_plot *pl, const struct guide *g)
{
	char	 num[32];
	double	 x;

	if (!g->has_tts)
		return;
	x = svg_x(pl, g->tts_s / 3600);
	svg_number(num, sizeof(num), g->tts_s);
	fprintf(pl->f, "<line class=\"tts\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
	    "y2=\"%d\" stroke=\"#2ca02c\" stroke-dasharray=\"6 4\"/>"
	    "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#2ca02c\" "
	    "text-anchor=\"%s\">time to solution <tspan "
	    "data-key=\"time_to_solution_s\" data-value=\"%.17g\">%s</tspan> "
	    "s</text>\n", x, pl->top, x, pl->h - pl->bottom, x > pl->w / 2 ?
	    x - 4 : x + 4, pl->top + 10, x > pl->w / 2 ? "end" : "start",
	    g->tts_s, num);
}

/* Write the cost over wall time; -1 if memory ran out. */
int
html_cost_plot(FILE *f, const struct guide *g)
{
	struct svg_plot	 pl;
	double		*t, total, last;
	size_t		 n, k;
	int		 gpu = 0, sampled;
	char		 label[128];

	for (k = 0; k < g->nattempts; k++)
		gpu |= g->attempts[k].gpus > 0;
	if ((t = report_calloc(2 * g->nattempts + 2, sizeof(*t))) == NULL)
		return -1;
	n = hc_instants(g, t);
	sampled = n > HC_INSTANTS;
	if (sampled) {
		last = t[n - 1];
		for (k = 0; k < HC_SAMPLES; k++)
			t[k] = k + 1 < HC_SAMPLES ? t[0] + (last - t[0]) * k /
			    (HC_SAMPLES - 1) : last;
		n = HC_SAMPLES;
	}
	total = hc_cost_at(g, -1, t[n - 1], gpu);
	fprintf(f, "<figure id=\"plot-cost-time\">\n");
	svg_begin(&pl, f, 640, 360, 0, (t[n - 1] - g->c.started) / 3600 * 1.02,
	    0, total * 1.05, "cumulative cost over wall time by outcome");
	snprintf(label, sizeof(label), "cumulative %s", gpu ? "GPU-hours" :
	    "CPU-hours (no GPUs used)");
	svg_axes(&pl, "hours since the campaign started", label, 1);
	for (k = 0; k < HC_GROUPS; k++)
		if (hc_line(&pl, g, t, n, (int)k, gpu) == -1)
			break;
	if (k < HC_GROUPS || hc_line(&pl, g, t, n, -1, gpu) == -1) {
		free(t);
		return -1;
	}
	hc_tts(&pl, g);
	svg_end(&pl);
	fprintf(f, "<p class=\"legend\"><span style=\"color:#222\">&#9644;"
	    "</span> total");
	for (k = 0; k < HC_GROUPS; k++)
		fprintf(f, " <span style=\"color:%s\">&#9644;</span> %s",
		    html_state_color(hc_groups[k]), hc_groups[k]);
	fprintf(f, "</p>\n<figcaption>Every attempt's %s as it runs, by how "
	    "it ended (failed: also timeout, node failure, lost; cancelled: "
	    "also preempted); the dashed line is the time to solution%s."
	    "</figcaption>\n</figure>\n", gpu ? "GPU-hours" : "CPU-hours",
	    sampled ? "; the lines go through evenly spaced instants, two a "
	    "pixel, not through every start and end" : "");
	free(t);
	return 0;
}

/* The cost by outcome: a bar each in the campaign's unit, and a table. */
void
html_outcomes(FILE *f, const struct guide *g)
{
	static const char *const units[] = { "node_hours", "gpu_hours",
	    "cpu_hours" };
	const struct account_cost *bo = g->acct.by_outcome;
	struct svg_plot	 pl;
	const char	*unit = html_gpu(g) ? "GPU-hours" : "CPU-hours";
	char		 key[256], title[128];
	double		 y1 = 0, v;
	size_t		 i;
	int		 u = html_gpu(g) ? 1 : 2;

	for (i = 0; i < ACCT_NOUTCOMES; i++)
		y1 = fmax(y1, (u == 1 ? bo[i].gpu_seconds : bo[i].cpu_seconds) /
		    3600);
	fprintf(f, "<h2 id=\"outcomes\">Cost by outcome</h2>\n");
	snprintf(title, sizeof(title), "%s by outcome", unit);
	fprintf(f, "<div class=\"figs\"><figure id=\"plot-outcomes\">\n");
	svg_begin(&pl, f, 480, 300, -0.5, ACCT_NOUTCOMES - 0.5, 0,
	    y1 > 0 ? y1 * 1.15 : 1, title);
	svg_axes(&pl, "outcome", unit, 0);
	for (i = 0; i < ACCT_NOUTCOMES; i++) {
		svg_xlabel(&pl, i, account_outcome_names[i]);
		v = (u == 1 ? bo[i].gpu_seconds : bo[i].cpu_seconds) / 3600;
		snprintf(key, sizeof(key), "cost.by_outcome.%s.%s",
		    account_outcome_names[i], units[u]);
		svg_bar(&pl, i, 300.0 / ACCT_NOUTCOMES, v, svg_color(i), key);
	}
	svg_end(&pl);
	fprintf(f, "</figure>\n<table><tr><th>outcome</th><th>attempts</th>"
	    "<th>node-hours</th><th>GPU-hours</th><th>CPU-hours</th></tr>\n");
	for (i = 0; i < ACCT_NOUTCOMES; i++) {
		fprintf(f, "<tr><td>%s</td><td class=\"n\">",
		    account_outcome_names[i]);
		snprintf(key, sizeof(key), "cost.by_outcome.%s.attempts",
		    account_outcome_names[i]);
		html_num(f, key, 1, bo[i].attempts);
		fprintf(f, "</td>");
		snprintf(key, sizeof(key), "cost.by_outcome.%s",
		    account_outcome_names[i]);
		html_cost_cells(f, key, &bo[i]);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table></div>\n");
}
