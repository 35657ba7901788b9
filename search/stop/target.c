/*
 * target.c: the target-aware stopper ("target"), which stops a trial only
 * when it is unlikely to reach the campaign's target before its last step
 * (max_resource).
 *
 * A trial that reported at step s, s >= warmup_steps (the grace period),
 * without meeting the target, stops when any rule says it cannot get
 * there:
 *
 * - extrapolation, always: its best value so far, moved on to the last
 *   step at its fastest rate of improvement yet (the larger of the mean
 *   rate since its first point and the mean rate over its last
 *   TARGET_WINDOW steps), times (1 + slack), still misses the target.
 *   Learning curves flatten, so a straight line at the rate seen so far
 *   promises more than the run will deliver: the rule errs on the side of
 *   going on.  A run that has not improved at all since its first point
 *   (one stuck at chance level) stops at the end of the grace period;
 * - behind at its rung, once TARGET_PEERS other curves (running ones
 *   included) reached its step: its best so far is worse than the median
 *   of theirs at that step, and moved on to the last step at its mean
 *   rate over the second half of its curve so far, times (1 + slack), it
 *   still misses the target.  The rate since the first point includes
 *   the fall from chance level of the first epochs and keeps a run that
 *   has flattened going for tens of epochs; for a run that the campaign's
 *   own curves already rank in the bad half, the recent half is the
 *   plausible rate (BOHB's model on rung results, as a stopper that
 *   still stops only when the target is out of reach);
 * - reference curves, once warmup_trials other trials reached the
 *   target: its best value so far is worse than every one of theirs at
 *   the same step (theirs at their last point when they ended before it),
 *   by more than slack times that worst one's distance to the target.
 *
 * Pure code; the verdict is a function of the parameters and the history.
 */
#include <math.h>
#include <stdlib.h>

#include "search_impl.h"
#include "stop_impl.h"

#define TARGET_WINDOW	10	/* steps of the recent rate */
#define TARGET_PEERS	5	/* curves at a step before a median */

/* 1 if v is at least as good as the target. */
static int
target_met(const struct stopper *s, int maximize, double v)
{
	return maximize ? v >= s->p.target : v <= s->p.target;
}

/* Best value of o at steps up to step (NaN if none); better: a > b. */
static double
target_best_upto(const struct observation *o, int maximize, double step)
{
	double best = NAN;
	size_t i;

	for (i = 0; i < o->npoints && o->steps[i] <= step; i++) {
		if (isnan(o->values[i]))
			continue;
		if (isnan(best) || (maximize ? o->values[i] > best :
		    o->values[i] < best))
			best = o->values[i];
	}
	return best;
}

/* 1 if o's curve meets the target at some point. */
static int
target_reached(const struct stopper *s, const struct observation *o,
    int maximize)
{
	size_t i;

	for (i = 0; i < o->npoints; i++)
		if (!isnan(o->values[i]) && target_met(s, maximize,
		    o->values[i]))
			return 1;
	return 0;
}

/*
 * Extrapolation: the best value o could have at max_resource if it kept
 * improving at its fastest mean rate yet (per step, in the good direction,
 * never negative), times 1 + slack.  NaN when o has a single point.
 */
static double
target_extrapolate(const struct stopper *s, const struct observation *o,
    int maximize, double step)
{
	double first, now, past, rate, r, sign = maximize ? 1 : -1;
	size_t i, last = 0;

	for (i = 0; i < o->npoints && o->steps[i] <= step; i++)
		last = i;
	if (o->npoints == 0 || last == 0 || !(o->steps[last] > o->steps[0]))
		return NAN;
	now = target_best_upto(o, maximize, o->steps[last]);
	first = o->values[0];
	if (isnan(now) || isnan(first))
		return NAN;
	rate = sign * (now - first) / (o->steps[last] - o->steps[0]);
	/* The recent rate, from TARGET_WINDOW steps back. */
	for (i = last; i > 0 && o->steps[i] > o->steps[last] - TARGET_WINDOW;
	    i--)
		;
	past = target_best_upto(o, maximize, o->steps[i]);
	if (i < last && !isnan(past)) {
		r = sign * (now - past) / (o->steps[last] - o->steps[i]);
		if (r > rate)
			rate = r;
	}
	if (rate < 0)
		rate = 0;
	return now + sign * rate * (1 + s->p.slack) *
	    (s->p.max_resource - o->steps[last]);
}

/*
 * Reference curves: the worst best-so-far at step of the other trials
 * that reached the target, or NaN when fewer than warmup_trials did.
 */
static double
target_reference(const struct stopper *s, const struct history *h,
    size_t trial, double step)
{
	double worst = NAN, v;
	size_t i, n = 0;

	for (i = 0; i < h->n; i++) {
		if (i == trial || !target_reached(s, &h->obs[i], h->maximize))
			continue;
		v = target_best_upto(&h->obs[i], h->maximize, step);
		if (isnan(v))
			continue;
		n++;
		if (isnan(worst) || (h->maximize ? v < worst : v > worst))
			worst = v;
	}
	if (n == 0 || n < (size_t)s->p.warmup_trials)
		return NAN;
	return worst;
}

/* Compare doubles for qsort. */
static int
target_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * 1 if o's best up to step is worse than the median best up to step of
 * the other trials whose curves reached step (failed ones left out),
 * once at least TARGET_PEERS did: o is in the bad half at its rung.
 */
static int
target_behind(const struct history *h, size_t trial, double step)
{
	const struct observation *o;
	double *v, mine, med;
	size_t i, n = 0;
	int behind = 0;

	if ((v = calloc(h->n + 1, sizeof(*v))) == NULL)
		return 0;
	for (i = 0; i < h->n; i++) {
		o = &h->obs[i];
		if (i == trial || o->state == OBS_FAILED || o->npoints == 0 ||
		    o->steps[o->npoints - 1] < step)
			continue;
		/* Sorted as smaller is better, whatever the goal. */
		v[n] = target_best_upto(o, h->maximize, step);
		if (!isnan(v[n]))
			v[n++] *= h->maximize ? -1 : 1;
	}
	mine = target_best_upto(&h->obs[trial], h->maximize, step);
	if (n >= TARGET_PEERS && !isnan(mine)) {
		qsort(v, n, sizeof(*v), target_cmp);
		med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
		behind = (h->maximize ? -mine : mine) > med;
	}
	free(v);
	return behind;
}

/*
 * The best value o could have at max_resource going on at its mean rate
 * over the second half of its curve so far, times 1 + slack (NaN with
 * fewer than two points there).
 */
static double
target_recent(const struct stopper *s, const struct observation *o,
    int maximize, double step)
{
	double now, past, rate, sign = maximize ? 1 : -1;

	if (o->npoints < 2 || !(step > o->steps[0]))
		return NAN;
	now = target_best_upto(o, maximize, step);
	past = target_best_upto(o, maximize, step / 2);
	if (isnan(past))
		past = o->values[0];
	if (isnan(now) || isnan(past) || !(step / 2 > 0))
		return NAN;
	rate = sign * (now - past) / (step - fmax(step / 2, o->steps[0]));
	if (!(rate > 0))
		rate = 0;
	return now + sign * rate * (1 + s->p.slack) * (s->p.max_resource -
	    step);
}

/* Stop the trial when no rule leaves it a chance. */
static enum stop_verdict
target_decide(const struct stopper *s, const struct history *h, size_t trial,
    double step, double value)
{
	const struct observation *o = &h->obs[trial];
	double best, bound, ref, margin;

	if (step < s->p.warmup_steps || step >= s->p.max_resource)
		return STOP_CONTINUE;
	best = target_best_upto(o, h->maximize, step);
	if (isnan(best) || target_met(s, h->maximize, best))
		return STOP_CONTINUE;
	bound = target_extrapolate(s, o, h->maximize, step);
	if (!isnan(bound) && !target_met(s, h->maximize, bound))
		return STOP_PRUNE;
	if (target_behind(h, trial, step)) {
		bound = target_recent(s, o, h->maximize, step);
		if (!isnan(bound) && !target_met(s, h->maximize, bound))
			return STOP_PRUNE;
	}
	ref = target_reference(s, h, trial, step);
	if (isnan(ref))
		return STOP_CONTINUE;
	margin = s->p.slack * fabs(ref - s->p.target);
	if (h->maximize ? best < ref - margin : best > ref + margin)
		return STOP_PRUNE;
	return STOP_CONTINUE;
}

/* A target and a last step are required. */
static int
target_init(struct stopper *s, char *err, size_t errlen)
{
	if (!s->p.has_target)
		return search_error(err, errlen, "target: needs the "
		    "campaign's target (objective.target)");
	if (!(s->p.max_resource > 0))
		return search_error(err, errlen, "target: max_resource (the "
		    "step a trial ends at) must be > 0");
	if (!(s->p.slack >= 0) || !isfinite(s->p.slack))
		return search_error(err, errlen, "target: slack must be >= 0");
	if (s->p.warmup_trials < 1)
		return search_error(err, errlen, "target: warmup_trials must "
		    "be >= 1");
	return 0;
}

const struct stop_ops target_ops = {
	.name = "target",
	.init = target_init,
	.decide = target_decide,
};
