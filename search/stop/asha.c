/*
 * asha.c: asynchronous successive halving (Li et al. 2018) and Hyperband
 * brackets over it (Li et al. 2017), as stoppers.
 *
 * Rung k of bracket b is at step min_resource * eta^(b + k), below
 * max_resource.  When a trial first reports at or past a rung, its value
 * there is ranked among the rung values of every trial of its bracket
 * that got that far (its first point at or past the rung), itself
 * included; with n of them it goes on only if it is at least as good as
 * the one ranked max(floor(n / eta), 1).  This is the asynchronous
 * promotion rule as Optuna's SuccessiveHalvingPruner applies it: no trial
 * waits for a rung to fill, and the first to arrive goes on.
 *
 * Hyperband runs one such bracket per early-stopping rate b = 0 ..
 * nbrackets - 1, nbrackets = floor(log_eta(max_resource / min_resource))
 * + 1, bracket b getting a share ceil(nbrackets * eta^s / (s + 1)) of the
 * trials, s = nbrackets - 1 - b (the most aggressive bracket gets most).
 * A trial's bracket is drawn from (seed, trial number) alone.
 */
#include <math.h>
#include <stdlib.h>

#include "rng.h"
#include "search_impl.h"
#include "stop_impl.h"

/* Return 1 if a is at least as good as b. */
static int
asha_as_good(double a, double b, int maximize)
{
	return maximize ? a >= b : a <= b;
}

/* Order doubles for qsort. */
static int
asha_double_cmp(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

/* Return the bracket of a trial. */
int
stop_bracket(const struct stopper *s, size_t trial)
{
	struct rng r;
	long n;
	int b;

	if (s->nbrackets <= 1 || s->total <= 0)
		return 0;
	rng_seed(&r, s->p.seed ^ UINT64_C(0x4b7d), (uint64_t)trial);
	n = (long)(rng_next(&r) % (uint64_t)s->total);
	for (b = 0; b < s->nbrackets; b++) {
		n -= s->budget[b];
		if (n < 0)
			return b;
	}
	return s->nbrackets - 1;
}

/*
 * Is trial's value at rung step r good enough among the trials of its
 * bracket that reached r?
 */
static int
asha_promotable(const struct stopper *s, const struct history *h,
    size_t trial, int bracket, double r, double value)
{
	double *vals, v;
	size_t i, n = 0, idx;
	int ok;

	if (isnan(value))
		return 0;
	if ((vals = calloc(h->n + 1, sizeof(double))) == NULL)
		return 1;
	for (i = 0; i < h->n; i++) {
		if (i == trial || stop_bracket(s, i) != bracket)
			continue;
		v = stop_value_at(&h->obs[i], r, NULL);
		if (!isnan(v))
			vals[n++] = v;
	}
	vals[n++] = value;
	qsort(vals, n, sizeof(double), asha_double_cmp);
	idx = n / (size_t)s->p.eta;
	idx = idx > 0 ? idx - 1 : 0;
	ok = h->maximize ? asha_as_good(value, vals[n - 1 - idx], 1) :
	    asha_as_good(value, vals[idx], 0);
	free(vals);
	return ok;
}

/*
 * Check every rung the trial crossed with this point (after its previous
 * point, at or before step), lowest first.
 */
static enum stop_verdict
asha_decide(const struct stopper *s, const struct history *h, size_t trial,
    double step, double value, const char **rule)
{
	const struct observation *o = &h->obs[trial];
	double prev = -INFINITY, r;
	size_t i;
	int b, k;

	for (i = 0; i < o->npoints; i++)
		if (o->steps[i] < step)
			prev = o->steps[i];
	b = stop_bracket(s, trial);
	for (k = 0; (r = stop_rung(s, b, k)) > 0 && r <= step; k++) {
		if (r <= prev)
			continue;
		if (!asha_promotable(s, h, trial, b, r, value))
			return STOP_PRUNE;
	}
	return STOP_CONTINUE;
}

/* One bracket: plain asynchronous successive halving. */
static int
asha_init(struct stopper *s, char *err, size_t errlen)
{
	return 0;
}

/* Count the brackets and their shares of the trials. */
static int
hyperband_init(struct stopper *s, char *err, size_t errlen)
{
	double r = s->p.min_resource;
	long share;
	int b, j, sx;

	if (s->p.max_resource <= 0)
		return search_error(err, errlen, "hyperband: max_resource is "
		    "required");
	if (s->p.max_resource < s->p.min_resource)
		return search_error(err, errlen, "hyperband: max_resource "
		    "must be >= min_resource");
	s->nbrackets = 0;
	while (r <= s->p.max_resource * (1 + 1e-9) && s->nbrackets < 64) {
		s->nbrackets++;
		r *= s->p.eta;
	}
	s->total = 0;
	for (b = 0; b < s->nbrackets; b++) {
		sx = s->nbrackets - 1 - b;
		share = 1;
		for (j = 0; j < sx && share < 1000000000L / s->p.eta; j++)
			share *= s->p.eta;
		share = (long)ceil((double)s->nbrackets * (double)share /
		    (double)(sx + 1));
		s->budget[b] = share;
		s->total += share;
	}
	return 0;
}

/* Both read the rungs' keys only. */
static const char *const asha_keys[] = { "min_resource", "max_resource",
	"eta", NULL };

const struct stop_ops asha_ops = {
	.name = "asha",
	.keys = asha_keys,
	.init = asha_init,
	.decide = asha_decide,
};

const struct stop_ops hyperband_ops = {
	.name = "hyperband",
	.keys = asha_keys,
	.init = hyperband_init,
	.decide = asha_decide,
};
