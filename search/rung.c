/*
 * rung.c: the history as mtpe's model sees it, at one fidelity (BOHB,
 * Falkner et al. 2018): the highest step b at which at least `min`
 * trials have a value, every trial that has one ranked by its best
 * value up to b, running trials included.
 *
 * Why: mtpe's model acts after `min` finished trials.  At max_parallel
 * 8 the first results come long after the first wave starts, and every
 * slot that frees up is refilled at once, so the next suggestions were
 * Sobol' start-up points made while eight learning curves already
 * showed which of the first wave's regions learn and which do not.
 * BOHB fits its model on the largest budget with enough observations;
 * here the budget is the step of the trials' learning curves, and a
 * running trial's curve up to b is as much an observation at b as a
 * finished one's.  Once `min` trials finished on their last step, b is
 * that step and the view is the plain history (a complete trial's best
 * value is its best up to its last step), so the model changes only
 * while few trials have gone far.
 *
 * At b, a trial whose curve reached b (its last point at or beyond b)
 * becomes complete with its best value up to b; failed trials stay
 * failed (the worst); a trial that stopped or is still running before b
 * stays as it is (pruned ones rank behind every value at b, running ones
 * are the liar); a complete trial without a curve (a prior) keeps its
 * value; under time-to-target ranking a trial whose curve met the target
 * keeps its rank ahead of all others; of another bracket stay as they
 * are (mtpe leaves them out).
 *
 * Pure code; the view is a function of the history alone.
 */
#include <math.h>
#include <stdlib.h>

#include "tpe_int.h"

/* The last step of o's curve at which it has a value, 0 if none. */
static double
rung_reach(const struct observation *o)
{
	size_t i;

	for (i = o->npoints; i > 0; i--)
		if (!isnan(o->values[i - 1]))
			return o->steps[i - 1];
	return 0;
}

/* The best value of o's curve at steps up to b (NaN if none). */
static double
rung_best(const struct observation *o, int maximize, double b)
{
	double best = NAN, v;
	size_t i;

	for (i = 0; i < o->npoints && o->steps[i] <= b; i++) {
		v = o->values[i];
		if (!isnan(v) && (isnan(best) || (maximize ? v > best :
		    v < best)))
			best = v;
	}
	return best;
}

/* 1 if s ranks by time to target and o's curve met the target. */
static int
rung_ahead(const struct search *s, const struct observation *o, int maximize)
{
	double v;

	if (s->rank != SEARCH_RANK_TIME_TO_TARGET)
		return 0;
	v = rung_best(o, maximize, INFINITY);
	return !isnan(v) && (maximize ? v >= s->target : v <= s->target);
}

/* 1 if o counts at b with its curve (see the file's comment). */
static int
rung_counts(const struct observation *o)
{
	return !o->other_bracket && o->state != OBS_FAILED &&
	    o->npoints > 0;
}

/* See tpe_int.h. */
double
rung_trial_reach(const struct observation *o, int *curve)
{
	*curve = 0;
	if (rung_counts(o) && rung_reach(o) > 0) {
		*curve = 1;
		return rung_reach(o);
	}
	if (!o->other_bracket && o->state == OBS_COMPLETE &&
	    o->npoints == 0 && o->has_value)
		return INFINITY;
	return -1;
}

/* Compare doubles for qsort, larger first. */
static int
rung_cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * The step b: the min-th largest reach among the trials that count (a
 * complete trial without a curve reaches every step), 0 when fewer than
 * min count or no curve has a point.  -1 when memory runs out.
 */
static double
rung_step(const struct history *h, size_t min)
{
	double *reach, b;
	size_t i, n = 0, curves = 0;

	double r;
	int curve;

	if ((reach = calloc(h->n + 1, sizeof(*reach))) == NULL)
		return -1;
	for (i = 0; i < h->n; i++) {
		if ((r = rung_trial_reach(&h->obs[i], &curve)) < 0)
			continue;
		reach[n++] = r;
		curves += curve;
	}
	b = 0;
	if (min > 0 && n >= min && curves > 0) {
		qsort(reach, n, sizeof(*reach), rung_cmp_desc);
		b = reach[min - 1];
	}
	free(reach);
	return isfinite(b) ? b : 0;
}

/* See tpe_int.h. */
const struct observation *
rung_view_one(const struct search *s, const struct observation *o,
    int maximize, double b, struct observation *tmp)
{
	double v;

	if (b <= 0 || !rung_counts(o) || rung_reach(o) < b ||
	    rung_ahead(s, o, maximize))
		return o;
	v = rung_best(o, maximize, b);
	if (isnan(v))
		return o;
	*tmp = *o;
	tmp->state = OBS_COMPLETE;
	tmp->has_value = 1;
	tmp->value = v;
	return tmp;
}

/* See tpe_int.h. */
double
rung_view(const struct search *s, const struct history *h, size_t min,
    struct observation *out)
{
	double b;
	size_t i;

	for (i = 0; i < h->n; i++)
		out[i] = h->obs[i];
	if ((b = rung_step(h, min)) <= 0)
		return b;
	for (i = 0; i < h->n; i++)
		out[i] = *rung_view_one(s, &h->obs[i], h->maximize, b,
		    &out[i]);
	return b;
}
