/*
 * report_html_trials.c: the optimization history, the learning curves and
 * the sortable table of trials of the HTML report.
 *
 * The history shows each trial's value (its best evaluation) by trial
 * number, coloured by state, the best value so far of the completed
 * trials as a step line (as Optuna's history plot does) and the target as
 * a dashed line.  The learning curves draw every attempt's evaluations of
 * the objective, one figure per batch size; a pruned attempt's curve ends
 * in a cross, a confirmation run is dashed.  The table sorts without a
 * script: each row carries its rank in every column as a CSS custom
 * property, and the checked radio button of a column orders the cells of
 * a grid by it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_html_trials.h"
#include "svg.h"
#include "report_alloc.h"

/* The colour of a trial or attempt state. */
const char *
html_state_color(const char *state)
{
	static const struct { const char *state, *color; } c[] = {
		{ "completed", "#1f77b4" }, { "pruned", "#ff7f0e" },
		{ "failed", "#d62728" }, { "timeout", "#d62728" },
		{ "node_fail", "#d62728" }, { "lost", "#d62728" },
		{ "cancelled", "#7f7f7f" }, { "preempted", "#7f7f7f" },
		{ "running", "#2ca02c" },
	};
	size_t	 i;

	for (i = 0; state != NULL && i < sizeof(c) / sizeof(c[0]); i++)
		if (strcmp(c[i].state, state) == 0)
			return c[i].color;
	return "#bcbd22";
}

/* Whether a is better than b for the campaign's goal. */
static int
ht_better(const struct guide *g, double a, double b)
{
	return g->c.maximize ? a > b : a < b;
}

/* The target as a dashed line across the plot, labelled. */
static void
ht_target(struct svg_plot *pl, const struct guide *g)
{
	char	 num[32];
	double	 y;

	if (!g->c.has_target || g->c.target < pl->y0 || g->c.target > pl->y1)
		return;
	y = svg_y(pl, g->c.target);
	svg_number(num, sizeof(num), g->c.target);
	fprintf(pl->f, "<line class=\"target\" x1=\"%d\" y1=\"%.1f\" "
	    "x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"6 4\""
	    "/><text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#d62728\" "
	    "text-anchor=\"end\">target %s</text>\n", pl->left, y,
	    pl->w - pl->right, y, pl->w - pl->right - 2, y - 4, num);
}

/* A legend of the states under a plot, outside the data. */
static void
ht_state_legend(FILE *f)
{
	static const char *const states[] = { "completed", "pruned",
	    "failed", "cancelled", "running" };
	size_t	 i;

	fprintf(f, "<p class=\"legend\">");
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		fprintf(f, "<span style=\"color:%s\">&#9679;</span> %s ",
		    html_state_color(states[i]), states[i]);
	fprintf(f, "</p>\n");
}

/* The value range of the trials' values and the target. */
static int
ht_value_range(const struct guide *g, double *y0, double *y1)
{
	size_t	 i;

	*y0 = INFINITY;
	*y1 = -INFINITY;
	for (i = 0; i < g->npoints; i++)
		if (isfinite(g->points[i].value)) {
			*y0 = fmin(*y0, g->points[i].value);
			*y1 = fmax(*y1, g->points[i].value);
		}
	if (!isfinite(*y0))
		return -1;
	if (g->c.has_target) {
		*y0 = fmin(*y0, g->c.target);
		*y1 = fmax(*y1, g->c.target);
	}
	*y0 -= (*y1 - *y0) * 0.05;
	*y1 += (*y1 - *y0) * 0.05;
	return 0;
}

/*
 * The density of the trials' values by trial number, under the points of
 * the trials shown, when not every trial is.  -1 if memory ran out.
 */
static int
ht_history_density(struct svg_plot *pl, const struct guide *g,
    const struct html_shown *sh)
{
	double	*x, *y;
	size_t	 i;
	int	 rc = -1;

	if (!sh->limited)
		return 0;
	x = report_calloc(g->ntrials + 1, sizeof(*x));
	y = report_calloc(g->ntrials + 1, sizeof(*y));
	for (i = 0; x != NULL && y != NULL && i < g->ntrials; i++) {
		x[i] = g->trials[i].number;
		y[i] = g->trials[i].has_best ? g->trials[i].best : NAN;
	}
	if (x != NULL && y != NULL)
		rc = svg_density(pl, x, y, g->ntrials, "#888");
	free(x);
	free(y);
	return rc;
}

/*
 * The optimization history: value by trial, best so far, target; -1 if
 * memory ran out.
 */
static int
ht_history(FILE *f, const struct guide *g, const struct html_shown *sh,
    double y0, double y1)
{
	struct svg_plot	 pl;
	const struct ledger_trial *t;
	double		*bx, *by, best = NAN;
	size_t		 i, nb = 0;
	char		 title[256];

	bx = report_calloc(g->ntrials + 1, sizeof(*bx));
	by = report_calloc(g->ntrials + 1, sizeof(*by));
	if (bx == NULL || by == NULL)
		goto fail;
	snprintf(title, sizeof(title), "%s of each trial by trial number",
	    g->c.metric);
	fprintf(f, "<figure id=\"plot-history\">\n");
	svg_begin(&pl, f, 640, 360, -0.5, g->ntrials > 0 ?
	    g->trials[g->ntrials - 1].number + 0.5 : 0.5, y0, y1, title);
	svg_axes(&pl, "trial", g->c.metric, 1);
	ht_target(&pl, g);
	if (ht_history_density(&pl, g, sh) == -1)
		goto fail;
	for (i = 0; i < g->ntrials; i++) {
		t = &g->trials[i];
		if (!t->has_best || !isfinite(t->best))
			continue;
		if (sh->is[i])
			fprintf(f, "<circle class=\"trial\" cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n",
			    svg_x(&pl, t->number), svg_y(&pl, t->best),
			    html_state_color(t->state));
		if (strcmp(t->state, "completed") != 0)
			continue;
		if (isnan(best) || ht_better(g, t->best, best))
			best = t->best;
		else if (sh->limited && nb > 0)
			continue;	/* the step line goes on unchanged */
		bx[nb] = t->number;
		by[nb++] = best;
	}
	for (i = 0; i < nb; i++)
		fprintf(f, "%s%.1f,%.1f %.1f,%.1f%s", i == 0 ?
		    "<polyline class=\"best-so-far\" fill=\"none\" stroke=\"#222\""
		    " stroke-width=\"1.5\" points=\"" : " ", svg_x(&pl, bx[i]),
		    svg_y(&pl, by[i]), svg_x(&pl, i + 1 < nb ? bx[i + 1] :
		    pl.x1), svg_y(&pl, by[i]), i + 1 == nb ? "\"/>\n" : "");
	svg_end(&pl);
	ht_state_legend(f);
	if (sh->limited)
		fprintf(f, "<figcaption>The value (best evaluation) of each of "
		    "the %zu best trials, coloured by state, over the density "
		    "of all %zu (grey, darker where more trials fall); the "
		    "black step line is the best value so far of the completed "
		    "trials, the dashed line the target.</figcaption>\n"
		    "</figure>\n", sh->n, sh->total);
	else
		fprintf(f, "<figcaption>Each trial's value (its best "
		    "evaluation), coloured by state; the black step line is "
		    "the best value so far of the completed trials, the dashed "
		    "line the target.</figcaption>\n</figure>\n");
	free(bx);
	free(by);
	return 0;
 fail:
	free(bx);
	free(by);
	return -1;
}

/*
 * The trial of a number, or NULL: g->trials is in the order of their
 * numbers (ledger_trial_list()), so a binary search finds it.
 */
static const struct ledger_trial *
ht_trial_of(const struct guide *g, int number)
{
	size_t	 lo = 0, hi = g->ntrials, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->trials[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->ntrials && g->trials[lo].number == number ?
	    &g->trials[lo] : NULL;
}

/*
 * The attempt of an id, of trial number `trial`, or NULL: g->attempts is
 * in the order of their trials' numbers (ledger_attempt_list()), so a
 * binary search finds the trial's first attempt.
 */
static const struct ledger_attempt *
ht_attempt_of(const struct guide *g, int trial, int64_t id)
{
	size_t	 lo = 0, hi = g->nattempts, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->attempts[mid].trial_number < trial)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < g->nattempts && g->attempts[lo].trial_number == trial;
	    lo++)
		if (g->attempts[lo].id == id)
			return &g->attempts[lo];
	return NULL;
}

/* The points [p0, p1) of g->points that are numbers, as a polyline's. */
static void
ht_points(struct svg_plot *pl, const struct guide *g, size_t p0, size_t p1)
{
	size_t	 i;

	for (i = p0; i < p1; i++)
		if (isfinite(g->points[i].value))
			fprintf(pl->f, "%s%.1f,%.1f", i > p0 ? " " : "",
			    svg_x(pl, g->points[i].step),
			    svg_y(pl, g->points[i].value));
}

/*
 * One attempt's curve: points [p0, p1) of g->points; those logged late,
 * past its prune (after the cross), dotted.
 */
static void
ht_curve(struct svg_plot *pl, const struct guide *g, size_t p0, size_t p1)
{
	const struct ledger_trial	*t;
	const struct ledger_attempt	*a;
	const char			*color;
	double				 x, y;
	size_t				 on;
	int				 confirm;

	t = ht_trial_of(g, g->points[p0].trial_number);
	a = ht_attempt_of(g, g->points[p0].trial_number,
	    g->points[p0].attempt_id);
	confirm = t != NULL && t->role != NULL &&
	    strcmp(t->role, "confirm") == 0;
	color = html_state_color(a != NULL ? a->state : NULL);
	for (on = p0; on < p1 && !g->points[on].late; on++)
		;
	fprintf(pl->f, "<polyline class=\"curve\" data-trial=\"%d\" "
	    "fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
	    g->points[p0].trial_number, color, confirm ?
	    " stroke-dasharray=\"5 3\"" : "");
	ht_points(pl, g, p0, on);
	fprintf(pl->f, "\"/>\n");
	if (on < p1 && on > p0) {
		fprintf(pl->f, "<polyline class=\"late\" data-trial=\"%d\" "
		    "fill=\"none\" stroke=\"%s\" stroke-width=\"1\" "
		    "stroke-dasharray=\"1 3\" points=\"",
		    g->points[p0].trial_number, color);
		ht_points(pl, g, on - 1, p1);
		fprintf(pl->f, "\"/>\n");
	}
	if (a == NULL || strcmp(a->state, "pruned") != 0 || on == p0 ||
	    !isfinite(g->points[on - 1].value))
		return;
	x = svg_x(pl, g->points[on - 1].step);
	y = svg_y(pl, g->points[on - 1].value);
	fprintf(pl->f, "<path class=\"cut\" stroke=\"%s\" stroke-width=\"2\" "
	    "d=\"M%.1f %.1f l8 8 m0 -8 l-8 8\"/>\n", color, x - 4, y - 4);
}

/* The batch size a point's trial ran at (0 if none). */
static long
ht_batch(const struct guide *g, size_t i)
{
	const struct ledger_trial *t = ht_trial_of(g, g->points[i].trial_number);

	return t != NULL ? t->batch_size : 0;
}

/* Swap v[i] and v[j]. */
static void
ht_swap(double *v, size_t i, size_t j)
{
	double	 t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/*
 * Put in v[k] the value a sort of v[0..n) would put there, the smaller
 * values before it and the larger after (a selection with a three-way
 * partition, so that many equal values cost no more than distinct ones):
 * a band needs five ranks of each column, not the column sorted.
 */
static void
ht_select(double *v, size_t n, size_t k)
{
	size_t	 lo = 0, hi = n, lt, gt, i;
	double	 p;

	while (hi - lo > 1) {
		p = v[lo + (hi - lo) / 2];
		lt = lo;
		gt = hi;
		i = lo;
		while (i < gt) {
			if (v[i] < p)
				ht_swap(v, lt++, i++);
			else if (v[i] > p)
				ht_swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* The rank of quantile q among n values (the nearest rank). */
static size_t
ht_rank(size_t n, double q)
{
	return (size_t)floor(q * (double)(n - 1) + 0.5);
}

/* One side of a band: a path through its n points, or back through them. */
static void
ht_band_side(FILE *f, const double *x, const double *y, size_t n, int back)
{
	size_t	 i, k;

	for (i = 0; i < n; i++) {
		k = back ? n - 1 - i : i;
		fprintf(f, "%s%.1f %.1f", i == 0 && !back ? "M" : " L", x[k],
		    y[k]);
	}
}

/*
 * Every attempt's curve at one batch size (all: -1) as bands, for a page
 * that draws the curves of the shown trials only: at each epoch (each
 * 2-pixel column of the plot) the lowest to highest value, the 10th to
 * 90th percentile and the median.  -1 if memory ran out.
 */
static int
ht_bands(struct svg_plot *pl, const struct guide *g, long batch)
{
	static const double qs[5] = { 0, 0.1, 0.5, 0.9, 1 };
	double		*v, *x, *q[5];
	size_t		*first, *at, ncol, n, c, nc = 0, i, k, lo, r;
	int		*col, rc = -1;

	/* The values in 2-pixel columns, counted, placed, then ranked. */
	ncol = (size_t)pl->w / 2 + 1;
	col = report_calloc(g->npoints + 1, sizeof(*col));
	v = report_calloc(g->npoints + 1, sizeof(*v));
	first = report_calloc(ncol + 1, sizeof(*first));
	at = report_calloc(ncol + 1, sizeof(*at));
	x = report_calloc(ncol, sizeof(*x));
	for (k = 0; k < 5; k++)
		q[k] = report_calloc(ncol, sizeof(double));
	if (col == NULL || v == NULL || first == NULL || at == NULL ||
	    x == NULL || q[0] == NULL || q[1] == NULL || q[2] == NULL ||
	    q[3] == NULL || q[4] == NULL)
		goto out;
	for (i = 0; i < g->npoints; i++) {
		col[i] = -1;
		if (isfinite(g->points[i].value) && !g->points[i].late &&
		    (batch < 0 || ht_batch(g, i) == batch))
			col[i] = (int)floor(svg_x(pl, g->points[i].step) / 2);
		if (col[i] >= 0 && (size_t)col[i] < ncol)
			first[col[i] + 1]++;
		else
			col[i] = -1;
	}
	for (c = 0; c < ncol; c++)
		first[c + 1] += first[c];
	memcpy(at, first, (ncol + 1) * sizeof(*at));
	for (i = 0; i < g->npoints; i++)
		if (col[i] >= 0)
			v[at[col[i]]++] = g->points[i].value;
	for (c = 0; c < ncol; c++) {
		if ((n = first[c + 1] - first[c]) == 0)
			continue;
		x[nc] = (double)c * 2 + 1;
		/* The ranks ascend: each is sought above the last. */
		for (k = 0, lo = 0; k < 5; k++) {
			r = ht_rank(n, qs[k]);
			ht_select(v + first[c] + lo, n - lo, r - lo);
			q[k][nc] = svg_y(pl, v[first[c] + r]);
			lo = r;
		}
		nc++;
	}
	for (k = 0; k < 2 && nc > 0; k++) {
		fprintf(pl->f, "<path class=\"band\" fill=\"#1f77b4\" "
		    "fill-opacity=\"%s\" stroke=\"none\" d=\"",
		    k == 0 ? "0.12" : "0.25");
		ht_band_side(pl->f, x, q[k], nc, 0);
		ht_band_side(pl->f, x, q[4 - k], nc, 1);
		fprintf(pl->f, " Z\"/>\n");
	}
	if (nc > 0) {
		fprintf(pl->f, "<path class=\"band-median\" fill=\"none\" "
		    "stroke=\"#1f77b4\" stroke-width=\"1\" d=\"");
		ht_band_side(pl->f, x, q[2], nc, 0);
		fprintf(pl->f, "\"/>\n");
	}
	rc = 0;
 out:
	for (k = 0; k < 5; k++)
		free(q[k]);
	free(x);
	free(at);
	free(first);
	free(v);
	free(col);
	return rc;
}

/* Whether the point i's trial is one the page shows. */
static int
ht_shown(const struct guide *g, const struct html_shown *sh, size_t i)
{
	const struct ledger_trial *t = ht_trial_of(g, g->points[i].trial_number);

	return !sh->limited || (t != NULL && sh->is[t - g->trials]);
}

/*
 * The learning curves of the attempts at one batch size (all: batch -1);
 * -1 if memory ran out.
 */
static int
ht_curves(FILE *f, const struct guide *g, const struct html_shown *sh,
    long batch, double y0, double y1)
{
	struct svg_plot	 pl;
	size_t		 i, j;
	double		 x1 = 1;
	char		 title[256];

	for (i = 0; i < g->npoints; i++)
		if (batch < 0 || ht_batch(g, i) == batch)
			x1 = fmax(x1, g->points[i].step);
	if (batch < 0)
		snprintf(title, sizeof(title), "learning curves of %s",
		    g->c.metric);
	else
		snprintf(title, sizeof(title), "learning curves of %s, batch "
		    "size %ld", g->c.metric, batch);
	fprintf(f, "<figure class=\"plot-curves\">\n");
	svg_begin(&pl, f, 640, 360, 0, x1 * 1.02, y0, y1, title);
	/* A workload whose steps count something else says what. */
	svg_axes(&pl, g->epoch_unit == NULL || strcmp(g->epoch_unit,
	    "epochs") == 0 ? "epoch (step)" : g->epoch_unit, g->c.metric, 1);
	ht_target(&pl, g);
	if (sh->limited && ht_bands(&pl, g, batch) == -1)
		return -1;
	for (i = 0; i < g->npoints; i = j) {
		for (j = i + 1; j < g->npoints &&
		    g->points[j].attempt_id == g->points[i].attempt_id; j++)
			;
		if ((batch < 0 || ht_batch(g, i) == batch) &&
		    ht_shown(g, sh, i))
			ht_curve(&pl, g, i, j);
	}
	svg_end(&pl);
	ht_state_legend(f);
	fprintf(f, "<figcaption>");
	svg_escape(f, title);
	if (sh->limited)
		fprintf(f, ": the attempts of the %zu best trials, coloured "
		    "by how they ended (a cross marks where early stopping cut "
		    "a pruned one, the points it logged after are dotted, "
		    "confirmation runs are dashed), over bands "
		    "that hold every attempt of all %zu trials: at each epoch "
		    "the lowest to the highest value (pale), the 10th to the "
		    "90th percentile (darker) and the median (line)."
		    "</figcaption>\n</figure>\n", sh->n, sh->total);
	else
		fprintf(f, ": every attempt, coloured by how it ended; a cross "
		    "marks where early stopping cut a pruned one, the points "
		    "it logged after are dotted, confirmation runs are "
		    "dashed.</figcaption>\n</figure>\n");
	return 0;
}

/* Order batch sizes. */
static int
ht_long_cmp(const void *a, const void *b)
{
	long	 x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Write the history and the learning curves; -1 if memory ran out. */
int
html_trials_plots(FILE *f, const struct guide *g, const struct html_shown *sh)
{
	long	*sizes;
	size_t	 i, j, n = 0;
	double	 y0, y1;
	int	 rc = 0;

	fprintf(f, "<h2 id=\"history\">Optimization history and learning "
	    "curves</h2>\n");
	if (ht_value_range(g, &y0, &y1) == -1) {
		fprintf(f, "<p class=\"muted\">No evaluation of the objective "
		    "has been recorded yet.</p>\n");
		return 0;
	}
	fprintf(f, "<div class=\"figs\">\n");
	if (ht_history(f, g, sh, y0, y1) == -1 ||
	    (sizes = report_calloc(g->ntrials + 1, sizeof(*sizes))) == NULL)
		return -1;
	for (i = 0; i < g->ntrials; i++) {
		for (j = 0; j < n && sizes[j] != g->trials[i].batch_size; j++)
			;
		if (j == n)
			sizes[n++] = g->trials[i].batch_size;
	}
	qsort(sizes, n, sizeof(*sizes), ht_long_cmp);
	if (g->scaling && n > 1)
		for (i = 0; i < n && rc == 0; i++)
			rc = ht_curves(f, g, sh, sizes[i], y0, y1);
	else
		rc = ht_curves(f, g, sh, -1, y0, y1);
	free(sizes);
	fprintf(f, "</div>\n");
	return rc;
}
