/*
 * parzen.c: the exact Parzen estimator of one parameter, as TPE (tpe.c)
 * and its multivariate variant (mtpe.c) fit it to a group of trials: one
 * truncated Gaussian per trial (for a choice, one categorical) plus the
 * prior, each weighted as tpe_weights() says; drawn from, and scored
 * as a log density, in the parameter's internal coordinates.  A large
 * group's is binned instead (parzen_bin.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define PARZEN_TRIES	1000	/* rejection draws of a truncated normal */
#define PARZEN_TINY	1e-300
#define PARZEN_EXP_ZERO	-746.0	/* exp(x) == 0 below */

/* Mass of the standard normal between a and b (a <= b), kept positive. */
static double
parzen_mass(double a, double b)
{
	double m;

	if (a >= 0)
		m = 0.5 * (erfc(a / M_SQRT2) - erfc(b / M_SQRT2));
	else if (b <= 0)
		m = 0.5 * (erfc(-b / M_SQRT2) - erfc(-a / M_SQRT2));
	else
		m = 1 - 0.5 * erfc(-a / M_SQRT2) - 0.5 * erfc(b / M_SQRT2);
	return fmax(m, PARZEN_TINY);
}

/* Free an estimator's arrays. */
void
parzen_release(struct parzen *pz)
{
	free(pz->w);
	free(pz->mu);
	free(pz->sigma);
	free(pz->p);
	free(pz->logw);
	free(pz->lognorm);
	free(pz->logmass);
	free(pz->t);
	memset(pz, 0, sizeof(*pz));
}

/*
 * Widths of the numeric components: each the larger distance to its
 * neighbours among the sorted centres and the bounds, the outermost ones
 * the distance to their inner neighbour, clipped, the prior's the range.
 * The centres are sorted in n log n: a long campaign has thousands; a
 * multivariate estimator (mvsigma) gives every trial one width, unsorted.
 */
static int
parzen_sigmas(struct parzen *pz, double mvsigma)
{
	struct tpe_rank *s;	/* a: the centre, b: 0 */
	double range = pz->high - pz->low, lo, hi, left, right, sg;
	size_t n = pz->n, k;

	lo = range / fmin(100.0, 1.0 + (double)n);
	hi = range;
	if (mvsigma > 0) {
		/* One width for all: nothing to sort. */
		for (k = 0; k + 1 < n; k++)
			pz->sigma[k] = fmin(fmax(mvsigma * range, lo), hi);
		pz->sigma[n - 1] = range;
		return 0;
	}
	if ((s = calloc(n, sizeof(*s))) == NULL)
		return -1;
	for (k = 0; k < n; k++) {
		s[k].a = pz->mu[k];
		s[k].b = 0;
		s[k].i = k;
	}
	qsort(s, n, sizeof(*s), tpe_rank_cmp);
	for (k = 0; k < n; k++) {
		left = s[k].a - (k == 0 ? pz->low : s[k - 1].a);
		right = (k == n - 1 ? pz->high : s[k + 1].a) - s[k].a;
		sg = fmax(left, right);
		if (n >= 2 && k == 0)
			sg = right;
		else if (n >= 2 && k == n - 1)
			sg = left;
		pz->sigma[s[k].i] = fmin(fmax(sg, lo), hi);
	}
	pz->sigma[n - 1] = range;
	free(s);
	return 0;
}

/*
 * What parzen_logpdf() adds to every candidate's term of a component,
 * computed once per estimator rather than per candidate: log w, log
 * sigma and the log of the truncated normal's mass within the bounds.
 */
int
parzen_norms(struct parzen *pz)
{
	double a, b;
	size_t k;

	if ((pz->logw = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->lognorm = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->logmass = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->t = calloc(pz->n, sizeof(double))) == NULL)
		return -1;
	for (k = 0; k < pz->n; k++) {
		a = (pz->low - pz->mu[k]) / pz->sigma[k];
		b = (pz->high - pz->mu[k]) / pz->sigma[k];
		pz->logw[k] = log(pz->w[k]);
		pz->lognorm[k] = log(pz->sigma[k]);
		pz->logmass[k] = log(parzen_mass(a, b));
	}
	return 0;
}

/* The bounds of p's estimator in internal space; integers are quantized. */
void
parzen_bounds(struct parzen *pz, const struct param_def *p)
{
	if (p->type == PARAM_INT && p->scale == SCALE_LINEAR) {
		pz->quantized = 1;
		pz->low = p->min - 0.5;
		pz->high = p->max + 0.5;
	} else if (p->type == PARAM_INT) {
		pz->low = log(p->min - 0.5);
		pz->high = log(p->max + 0.5);
	} else {
		pz->low = tpe_to_internal(p, p->min);
		pz->high = tpe_to_internal(p, p->max);
	}
}

/* Build the estimator of parameter p from m trials (see tpe_int.h). */
int
parzen_init(struct parzen *pz, const struct param_def *p, const double *xs,
    size_t m, double mvsigma)
{
	double total = 0, fill;
	size_t k, c;

	memset(pz, 0, sizeof(*pz));
	pz->n = m + 1;
	if ((pz->w = calloc(pz->n, sizeof(double))) == NULL)
		return -1;
	tpe_weights(pz->w, m);
	pz->w[m] = PARZEN_PRIOR;
	for (k = 0; k < pz->n; k++)
		total += pz->w[k];
	for (k = 0; k < pz->n; k++)
		pz->w[k] /= total;
	if (p->type == PARAM_CHOICE) {
		pz->nchoices = p->nchoices;
		if ((pz->p = calloc(pz->n * pz->nchoices, sizeof(double))) ==
		    NULL)
			return -1;
		fill = PARZEN_PRIOR / (double)(m + 1);
		for (k = 0; k < pz->n; k++) {
			total = fill * (double)pz->nchoices;
			for (c = 0; c < pz->nchoices; c++)
				pz->p[k * pz->nchoices + c] = fill;
			if (k < m) {
				pz->p[k * pz->nchoices + (size_t)xs[k]] += 1;
				total += 1;
			}
			for (c = 0; c < pz->nchoices; c++)
				pz->p[k * pz->nchoices + c] /= total;
		}
		return 0;
	}
	parzen_bounds(pz, p);
	if ((pz->mu = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->sigma = calloc(pz->n, sizeof(double))) == NULL)
		return -1;
	for (k = 0; k < m; k++)
		pz->mu[k] = xs[k];
	pz->mu[m] = 0.5 * (pz->low + pz->high);
	if (parzen_sigmas(pz, mvsigma) == -1)
		return -1;
	return parzen_norms(pz);
}

/* Draw a component index by weight. */
size_t
parzen_component(const struct parzen *pz, struct rng *r)
{
	double u = rng_uniform(r), acc = 0;
	size_t k;

	for (k = 0; k + 1 < pz->n; k++) {
		acc += pz->w[k];
		if (u < acc)
			return k;
	}
	return pz->n - 1;
}

/* Draw one internal coordinate from component k of the estimator. */
double
parzen_draw(const struct parzen *pz, size_t k, struct rng *r)
{
	double u, acc = 0, y;
	size_t c;
	int i;

	if (pz->nchoices > 0) {
		u = rng_uniform(r);
		for (c = 0; c + 1 < pz->nchoices; c++) {
			acc += pz->p[k * pz->nchoices + c];
			if (u < acc)
				break;
		}
		return (double)c;
	}
	for (i = 0; i < PARZEN_TRIES; i++) {
		y = pz->mu[k] + pz->sigma[k] * rng_normal(r);
		if (y >= pz->low && y <= pz->high)
			return y;
	}
	return fmin(fmax(pz->mu[k], pz->low), pz->high);
}

/* Draw one internal coordinate from the estimator. */
double
parzen_sample(const struct parzen *pz, struct rng *r)
{
	return parzen_draw(pz, parzen_component(pz, r), r);
}

/*
 * Log density (or log mass, for integers and choices) of numeric
 * component k at y, its weight left out: the candidate's own term less
 * what parzen_norms() kept.  For a choice, the log of its probability.
 */
double
parzen_term(const struct parzen *pz, size_t k, double y)
{
	double lp, z;

	if (pz->nchoices > 0)
		return log(fmax(pz->p[k * pz->nchoices + (size_t)y],
		    PARZEN_TINY));
	if (pz->quantized)
		lp = log(parzen_mass((fmax(y - 0.5, pz->low) - pz->mu[k]) /
		    pz->sigma[k], (fmin(y + 0.5, pz->high) - pz->mu[k]) /
		    pz->sigma[k]));
	else {
		z = (y - pz->mu[k]) / pz->sigma[k];
		lp = -0.5 * z * z - 0.5 * log(2 * M_PI) - pz->lognorm[k];
	}
	return lp - pz->logmass[k];
}

/*
 * Log density (or log mass, for integers and choices) of the estimator:
 * per component, the candidate's own term plus its log weight.
 */
double
parzen_logpdf(struct parzen *pz, double y)
{
	double mx = -INFINITY, sum = 0, *t = pz->t;
	size_t k;

	if (pz->nchoices > 0) {
		for (k = 0; k < pz->n; k++)
			sum += pz->w[k] * pz->p[k * pz->nchoices + (size_t)y];
		return log(fmax(sum, PARZEN_TINY));
	}
	for (k = 0; k < pz->n; k++) {
		t[k] = parzen_term(pz, k, y) + pz->logw[k];
		if (t[k] > mx)
			mx = t[k];
	}
	/* exp() of less than PARZEN_EXP_ZERO is exactly 0: skip it. */
	for (k = 0; k < pz->n; k++)
		if (t[k] - mx >= PARZEN_EXP_ZERO)
			sum += exp(t[k] - mx);
	return mx + log(sum);
}

/*
 * Build the estimator of parameter i of s's space over the m trials of h
 * at idx, xs a scratch of m + 1 coordinates (see parzen_init()).
 */
int
parzen_fit(struct parzen *pz, const struct search *s, const struct history *h,
    size_t i, const size_t *idx, size_t m, double *xs, double mvsigma)
{
	const struct param_def *p = &s->space->params[i];
	size_t k;

	for (k = 0; k < m; k++)
		xs[k] = p->type == PARAM_CHOICE ? h->obs[idx[k]].x[i] :
		    tpe_to_internal(p, h->obs[idx[k]].x[i]);
	if (mvsigma == 0 && m > PARZEN_EXACT_MAX)
		return parzen_init_binned(pz, p, xs, m, PARZEN_BINS);
	return parzen_init(pz, p, xs, m, mvsigma);
}
