/*
 * report_html_params.c: the parameters of the HTML report: value against
 * each parameter (slices), parallel coordinates, and a parameter
 * importance estimate.
 *
 * The importance and why it is honest: importance.h; the same numbers
 * are the report's JSON member "importance".
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importance.h"
#include "report_html_trials.h"
#include "spec.h"
#include "svg.h"
#include "report_alloc.h"

/* A parameter's axis. */
struct hp_axis {
	const char	*name;
	int		 categorical;
	int		 log;
	double		 lo, hi;	/* numeric: data range */
	cJSON		*cats;		/* categorical: the values seen */
};

struct hp {
	FILE		*f;
	const struct guide *g;
	const struct html_shown *sh;
	cJSON		**params;	/* per trial */
	struct hp_axis	*ax;
	size_t		 nax;
	double		 vlo, vhi;	/* the values' range */
};

/* The position of a trial's parameter on axis a in [0, 1]; NAN if none. */
static double
hp_pos(const struct hp_axis *a, const cJSON *v)
{
	const cJSON	*c;
	int		 i = 0, n = cJSON_GetArraySize(a->cats);
	double		 x;

	if (v == NULL)
		return NAN;
	if (a->categorical) {
		cJSON_ArrayForEach(c, a->cats) {
			if (cJSON_Compare(c, v, 1))
				return n > 1 ? (double)i / (n - 1) : 0.5;
			i++;
		}
		return NAN;
	}
	if (!cJSON_IsNumber(v))
		return NAN;
	x = v->valuedouble;
	if (!(a->hi > a->lo))
		return 0.5;
	if (a->log && a->lo > 0 && x > 0)
		return (log(x) - log(a->lo)) / (log(a->hi) - log(a->lo));
	return (x - a->lo) / (a->hi - a->lo);
}

/*
 * The axes: the first trial's parameters, typed by the spec's space; -1
 * if memory ran out.
 */
static int
hp_axes(struct hp *h)
{
	const struct space	*sp = h->g->spec ? h->g->spec->space : NULL;
	const cJSON		*names = NULL, *n, *v;
	struct hp_axis		*a;
	size_t			 i;
	int			 k;

	for (i = 0; i < h->g->ntrials && names == NULL; i++)
		if (cJSON_GetArraySize(h->params[i]) > 0)
			names = h->params[i];
	if ((h->ax = report_calloc((size_t)cJSON_GetArraySize(names) + 1,
	    sizeof(*h->ax))) == NULL)
		return -1;
	cJSON_ArrayForEach(n, names) {
		a = &h->ax[h->nax++];
		a->name = n->string;
		k = sp != NULL ? space_find(sp, n->string) : -1;
		a->categorical = k >= 0 && sp->params[k].type == PARAM_CHOICE;
		a->log = k >= 0 && sp->params[k].scale == SCALE_LOG;
		if ((a->cats = cJSON_CreateArray()) == NULL)
			return -1;
		for (i = 0; a->categorical && i < sp->params[k].nchoices; i++)
			if (report_json_add(a->cats, NULL,
			    sp->params[k].choices[i].is_string ?
			    cJSON_CreateString(sp->params[k].choices[i].str) :
			    cJSON_CreateNumber(sp->params[k].choices[i].num)) ==
			    -1)
				return -1;
		a->lo = INFINITY;
		a->hi = -INFINITY;
		for (i = 0; i < h->g->ntrials; i++) {
			v = cJSON_GetObjectItemCaseSensitive(h->params[i],
			    a->name);
			if (v == NULL)
				continue;
			if (!cJSON_IsNumber(v))
				a->categorical = 1;
			else {
				a->lo = fmin(a->lo, v->valuedouble);
				a->hi = fmax(a->hi, v->valuedouble);
			}
			if (a->categorical && isnan(hp_pos(a, v)) &&
			    report_json_add(a->cats, NULL,
			    cJSON_Duplicate(v, 1)) == -1)
				return -1;
		}
	}
	return 0;
}

/* A value's colour: dark blue for the best, pale for the worst. */
static void
hp_value_color(const struct hp *h, double v, char *buf, size_t len)
{
	double	 q = h->vhi > h->vlo ? (v - h->vlo) / (h->vhi - h->vlo) : 0;

	if (h->g->c.maximize)
		q = 1 - q;
	snprintf(buf, len, "rgb(%d,%d,%d)", (int)(20 + 200 * q),
	    (int)(60 + 160 * q), (int)(140 + 100 * q));
}

/* The x of a trial on a slice: the value, its log10, or the index. */
static double
hp_slice_x(const struct hp_axis *a, const cJSON *v)
{
	int	 n = cJSON_GetArraySize(a->cats);

	if (a->categorical)
		return hp_pos(a, v) * (n > 1 ? n - 1 : 0);
	if (!cJSON_IsNumber(v))
		return NAN;
	return a->log && v->valuedouble > 0 ? log10(v->valuedouble) :
	    v->valuedouble;
}

/* The density of every trial's value against parameter a (-1: out). */
static int
hp_slice_density(struct hp *h, const struct hp_axis *a, struct svg_plot *pl)
{
	double	*x, *y;
	size_t	 i;
	int	 rc = -1;

	x = report_calloc(h->g->ntrials + 1, sizeof(*x));
	y = report_calloc(h->g->ntrials + 1, sizeof(*y));
	for (i = 0; x != NULL && y != NULL && i < h->g->ntrials; i++) {
		x[i] = hp_slice_x(a, cJSON_GetObjectItemCaseSensitive(
		    h->params[i], a->name));
		y[i] = h->g->trials[i].has_best ? h->g->trials[i].best : NAN;
	}
	if (x != NULL && y != NULL)
		rc = svg_density(pl, x, y, h->g->ntrials, "#888");
	free(x);
	free(y);
	return rc;
}

/* One slice: the trials' values against parameter a; -1 if out. */
static int
hp_slice(struct hp *h, const struct hp_axis *a)
{
	const struct ledger_trial *t;
	struct svg_plot	 pl;
	const cJSON	*c;
	double		 x0, x1, x;
	size_t		 i;
	int		 j = 0, n = cJSON_GetArraySize(a->cats);
	char		 title[256], label[256], buf[64];

	x0 = a->categorical ? -0.5 : a->log ? log10(a->lo) : a->lo;
	x1 = a->categorical ? n - 0.5 : a->log ? log10(a->hi) : a->hi;
	if (!a->categorical) {
		x = (x1 - x0) * 0.05;
		x0 -= x;
		x1 += x;
	}
	snprintf(title, sizeof(title), "%s against %s", h->g->c.metric,
	    a->name);
	snprintf(label, sizeof(label), "%s%s%s", a->log ? "log10(" : "",
	    a->name, a->log ? ")" : "");
	fprintf(h->f, "<figure class=\"plot-slice\">\n");
	svg_begin(&pl, h->f, 320, 240, x0, x1, h->vlo, h->vhi, title);
	svg_axes(&pl, label, h->g->c.metric, !a->categorical);
	cJSON_ArrayForEach(c, a->cats) {
		svg_number(buf, sizeof(buf), c->valuedouble);
		svg_xlabel(&pl, j++, cJSON_IsString(c) ? c->valuestring : buf);
	}
	if (h->sh->limited && hp_slice_density(h, a, &pl) == -1)
		return -1;
	for (i = 0; i < h->g->ntrials; i++) {
		t = &h->g->trials[i];
		if (!h->sh->is[i])
			continue;
		x = hp_slice_x(a, cJSON_GetObjectItemCaseSensitive(
		    h->params[i], a->name));
		if (!t->has_best || !isfinite(t->best) || !isfinite(x))
			continue;
		fprintf(h->f, "<circle class=\"slice\" cx=\"%.1f\" "
		    "cy=\"%.1f\" r=\"3.5\" fill=\"%s\" fill-opacity=\"0.8\"/>"
		    "\n", svg_x(&pl, x), svg_y(&pl, t->best),
		    html_state_color(t->state));
	}
	svg_end(&pl);
	fprintf(h->f, "</figure>\n");
	return 0;
}

/* Parallel coordinates: an axis per parameter and one for the value. */
static void
hp_parallel(struct hp *h)
{
	const struct ledger_trial *t;
	struct svg_plot	 pl;
	size_t		 i, k;
	double		 y;
	char		 color[32];

	fprintf(h->f, "<figure id=\"plot-parallel\">\n");
	svg_begin(&pl, h->f, 900, 320, -0.1, h->nax + 0.3, 0, 1,
	    "parallel coordinates of the parameters and the value");
	for (k = 0; k <= h->nax; k++) {
		fprintf(h->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#444\"/>\n", svg_x(&pl, k),
		    svg_y(&pl, 0), svg_x(&pl, k), svg_y(&pl, 1));
		svg_xlabel(&pl, k, k < h->nax ? h->ax[k].name :
		    h->g->c.metric);
	}
	for (i = 0; i < h->g->ntrials; i++) {
		t = &h->g->trials[i];
		if (!h->sh->is[i] || !t->has_best || !isfinite(t->best))
			continue;
		hp_value_color(h, t->best, color, sizeof(color));
		fprintf(h->f, "<polyline class=\"parallel\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"1.5\"%s points=\"", color,
		    strcmp(t->state, "completed") ? " stroke-dasharray=\"4 3\""
		    : "");
		for (k = 0; k < h->nax; k++) {
			y = hp_pos(&h->ax[k], cJSON_GetObjectItemCaseSensitive(
			    h->params[i], h->ax[k].name));
			if (isfinite(y))
				fprintf(h->f, "%.1f,%.1f ", svg_x(&pl, k),
				    svg_y(&pl, y));
		}
		y = h->vhi > h->vlo ? (t->best - h->vlo) / (h->vhi - h->vlo) :
		    0.5;
		fprintf(h->f, "%.1f,%.1f\"/>\n", svg_x(&pl, (double)h->nax),
		    svg_y(&pl, y));
	}
	svg_end(&pl);
	if (h->sh->limited)
		fprintf(h->f, "<figcaption>Each of the %zu best trials is a "
		    "line through its parameters (each axis from the lowest to "
		    "the highest value tried by all %zu trials, log axes for "
		    "log-scale parameters) to its value; darker is better, "
		    "dashed lines are trials that did not complete."
		    "</figcaption>\n</figure>\n", h->sh->n, h->sh->total);
	else
		fprintf(h->f, "<figcaption>Each trial with a value is a line "
		    "through its parameters (each axis from the lowest to the "
		    "highest value tried, log axes for log-scale parameters) "
		    "to its value; darker is better, dashed lines are trials "
		    "that did not complete.</figcaption>\n</figure>\n");
}

/*
 * The importance bars, from IMPORTANCE_MIN_TRIALS completed trials on;
 * -1 if memory ran out.
 */
static int
hp_importance(struct hp *h)
{
	struct importance imp;
	struct svg_plot	 pl;
	char		 key[256];
	size_t		 k;

	if (importance_compute(h->g, &imp) == -1)
		return -1;
	if (imp.trials < IMPORTANCE_MIN_TRIALS) {
		fprintf(h->f, "<p class=\"muted\">Parameter importance needs "
		    "at least %d completed trials with a value; there are %zu."
		    "</p>\n", IMPORTANCE_MIN_TRIALS, imp.trials);
		importance_release(&imp);
		return 0;
	}
	fprintf(h->f, "<figure id=\"plot-importance\">\n");
	svg_begin(&pl, h->f, 320 + 40 * imp.n, 240, -0.5, imp.n - 0.5, 0, 1,
	    "parameter importance: first-order variance share");
	svg_axes(&pl, "parameter", "share of the value's variance", 0);
	for (k = 0; k < imp.n; k++) {
		svg_xlabel(&pl, k, imp.names[k]);
		snprintf(key, sizeof(key), "importance.params.%s",
		    imp.names[k]);
		if (isfinite(imp.share[k]))
			svg_bar(&pl, k, 30, imp.share[k], svg_color(k), key);
	}
	svg_end(&pl);
	fprintf(h->f, "<table id=\"importance\"><tr><th>parameter</th>"
	    "<th>share</th></tr>\n");
	for (k = 0; k < imp.n; k++) {
		fprintf(h->f, "<tr><td>");
		svg_escape(h->f, imp.names[k]);
		fprintf(h->f, "</td><td class=\"n\">");
		snprintf(key, sizeof(key), "importance.params.%s",
		    imp.names[k]);
		html_num(h->f, key, 1, imp.share[k]);
		fprintf(h->f, "</td></tr>\n");
	}
	fprintf(h->f, "</table>\n<figcaption>The share of the variance of "
	    "the value over ");
	html_num(h->f, "importance.trials", 1, (double)imp.trials);
	fprintf(h->f, " completed trials explained by each parameter alone "
	    "(eta squared: the variance of the value's mean per choice, or "
	    "per quarter of the trials for a number, over the value's "
	    "variance).  Main effects only, no interactions, not normalised; "
	    "with few trials it is noisy and biased upward.</figcaption>\n"
	    "</figure>\n");
	importance_release(&imp);
	return 0;
}

/*
 * Write the slices, the parallel coordinates and the importance; -1 if
 * memory ran out.
 */
int
html_params_plots(FILE *f, const struct guide *g, const struct html_shown *sh)
{
	struct hp	 h;
	size_t		 i;
	int		 rc = -1;

	memset(&h, 0, sizeof(h));
	h.f = f;
	h.g = g;
	h.sh = sh;
	h.vlo = INFINITY;
	h.vhi = -INFINITY;
	if ((h.params = report_calloc(g->ntrials + 1, sizeof(*h.params))) ==
	    NULL)
		return -1;
	for (i = 0; i < g->ntrials; i++) {
		h.params[i] = cJSON_Parse(g->trials[i].params_json);
		if (g->trials[i].has_best && isfinite(g->trials[i].best)) {
			h.vlo = fmin(h.vlo, g->trials[i].best);
			h.vhi = fmax(h.vhi, g->trials[i].best);
		}
	}
	if (hp_axes(&h) == -1)
		goto out;
	fprintf(f, "<h2 id=\"parameters\">Parameters</h2>\n");
	if (h.nax == 0 || !isfinite(h.vlo))
		fprintf(f, "<p class=\"muted\">No trial with parameters and "
		    "a value yet.</p>\n");
	else {
		fprintf(f, "<div class=\"figs\">\n");
		for (i = 0; i < h.nax; i++)
			if (hp_slice(&h, &h.ax[i]) == -1)
				goto out;
		fprintf(f, "</div>\n");
		if (sh->limited)
			fprintf(f, "<p class=\"muted\">Each slice shows the "
			    "values of the %zu best trials as points over the "
			    "density of all %zu (grey).</p>\n", sh->n,
			    sh->total);
		hp_parallel(&h);
		if (hp_importance(&h) == -1)
			goto out;
	}
	rc = 0;
 out:
	for (i = 0; h.ax != NULL && i < h.nax; i++)
		cJSON_Delete(h.ax[i].cats);
	free(h.ax);
	for (i = 0; i < g->ntrials; i++)
		cJSON_Delete(h.params[i]);
	free(h.params);
	return rc;
}
