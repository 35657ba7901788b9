/*
 * grid.c: grid search, the cartesian product of per-parameter value lists
 * with the last parameter varying fastest.  Point k of the product is the
 * k-th suggestion, k being the number of trials already made.
 */
#include <math.h>
#include <stdlib.h>

#include "search_impl.h"

#define GRID_MAX_INT_VALUES	1000
#define GRID_MAX_POINTS		10000000
#define GRID_FLOAT_STEPS	5

struct grid_axis {
	size_t		 n;
	double		*values;
};

struct grid {
	size_t		 n;		/* axes, one per parameter */
	struct grid_axis *axes;
};

/*
 * Return the point at fraction t of [min, max], log-spaced if asked, and
 * rounded to 12 significant digits so that a grid over [1e-3, 1] says 0.01
 * rather than 0.009999999999999995.
 */
static double
grid_lerp(const struct param_def *p, double t)
{
	double	 v, scale;

	v = space_lerp(p, p->min, p->max, t);
	if (v != 0 && isfinite(v)) {
		scale = pow(10, 11 - floor(log10(fabs(v))));
		if (isfinite(scale) && isfinite(v * scale))
			v = round(v * scale) / scale;
	}
	return fmin(fmax(v, p->min), p->max);
}

/*
 * Fill an axis with `steps` values spaced from min to max inclusive,
 * rounded for ints, dropping repeats.  One step gives min alone.
 */
static int
grid_axis_spaced(struct grid_axis *a, const struct param_def *p, int steps)
{
	double v;
	int i;

	if ((a->values = calloc(steps, sizeof(double))) == NULL)
		return -1;
	for (i = 0; i < steps; i++) {
		if (i == 0)
			v = p->min;
		else if (i == steps - 1)
			v = p->max;
		else
			v = grid_lerp(p, (double)i / (steps - 1));
		if (p->type == PARAM_INT)
			v = round(v);
		if (a->n == 0 || a->values[a->n - 1] != v)
			a->values[a->n++] = v;
	}
	return 0;
}

/* Fill an int axis with every integer of [min, max]. */
static int
grid_axis_every(struct grid_axis *a, const struct param_def *p)
{
	size_t i, n;

	n = (size_t)(p->max - p->min) + 1;
	if ((a->values = calloc(n, sizeof(double))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		a->values[i] = p->min + (double)i;
	a->n = n;
	return 0;
}

/* Fill a choice axis with the index of every value. */
static int
grid_axis_choice(struct grid_axis *a, const struct param_def *p)
{
	size_t i;

	if ((a->values = calloc(p->nchoices, sizeof(double))) == NULL)
		return -1;
	for (i = 0; i < p->nchoices; i++)
		a->values[i] = (double)i;
	a->n = p->nchoices;
	return 0;
}

/* Build the axis of parameter p; return 0, or -1 with err set. */
static int
grid_axis_init(struct grid_axis *a, const struct param_def *p, char *err,
    size_t errlen)
{
	int rc;

	if (p->type == PARAM_CHOICE)
		rc = grid_axis_choice(a, p);
	else if (p->steps > GRID_MAX_POINTS)
		return search_error(err, errlen, "grid: parameter '%s' has "
		    "%d steps; the grid is limited to %d points", p->name,
		    p->steps, GRID_MAX_POINTS);
	else if (p->type == PARAM_FLOAT)
		rc = grid_axis_spaced(a, p,
		    p->steps > 0 ? p->steps : GRID_FLOAT_STEPS);
	else if (p->steps > 0)
		rc = grid_axis_spaced(a, p, p->steps);
	else if (p->max - p->min + 1 > GRID_MAX_INT_VALUES)
		return search_error(err, errlen, "grid: parameter '%s' has "
		    "%.0f integer values; set steps", p->name,
		    p->max - p->min + 1);
	else
		rc = grid_axis_every(a, p);
	if (rc == -1)
		return search_error(err, errlen, "grid: out of memory");
	return 0;
}

/* Free the grid state. */
static void
grid_free(struct search *s)
{
	struct grid *g = s->state;
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->n; i++)
		free(g->axes[i].values);
	free(g->axes);
	free(g);
}

/* Build every axis and the size of the product. */
static int
grid_init(struct search *s, char *err, size_t errlen)
{
	const struct space *sp = s->space;
	struct grid *g;
	size_t i, size;

	if ((g = calloc(1, sizeof(*g))) == NULL ||
	    (g->axes = calloc(sp->n, sizeof(*g->axes))) == NULL) {
		free(g);
		return search_error(err, errlen, "grid: out of memory");
	}
	s->state = g;
	g->n = sp->n;
	size = 1;
	for (i = 0; i < sp->n; i++) {
		if (grid_axis_init(&g->axes[i], &sp->params[i], err,
		    errlen) == -1)
			return -1;
		if (g->axes[i].n > GRID_MAX_POINTS / size)
			return search_error(err, errlen, "grid: the space has "
			    "more than %d points", GRID_MAX_POINTS);
		size *= g->axes[i].n;
	}
	s->size = size;
	return 0;
}

/* Write point number history->n of the product, or return 1 past the end. */
static int
grid_suggest(struct search *s, const struct history *h, double *x)
{
	const struct grid *g = s->state;
	size_t i, k;

	k = h != NULL ? h->n : 0;
	if (k >= s->size)
		return 1;
	for (i = g->n; i-- > 0; ) {
		x[i] = g->axes[i].values[k % g->axes[i].n];
		k /= g->axes[i].n;
	}
	return 0;
}

const struct search_ops grid_ops = {
	.name = "grid",
	.init = grid_init,
	.free = grid_free,
	.suggest = grid_suggest,
};
