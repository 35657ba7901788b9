/*
 * parzen_bin.c: the Parzen estimator of a large group of trials, binned,
 * so that its cost per candidate does not grow with the history.
 *
 * The exact estimator (tpe.c, parzen_init()) has one truncated Gaussian
 * per trial, each as wide as the larger distance to its sorted
 * neighbours, clipped to [lo, range] with lo = range / 100 beyond 99
 * trials; every candidate is scored against all of them.  Above
 * PARZEN_EXACT_MAX trials the same kernels are merged instead:
 *
 * - the range is cut into nbins equal bins (PARZEN_BINS = 1024, each a
 *   tenth of lo wide); one pass finds each bin's first and last centre
 *   in the exact estimator's order (value, then trial), which are the
 *   only ones whose neighbours may lie outside the bin, so every width
 *   is the exact one without sorting: inside a bin both neighbours are
 *   closer than lo, and the width is lo;
 * - the kernels of a bin whose width is lo become one component, its
 *   weight their summed weight, its centre their weighted mean and its
 *   variance lo^2 plus their weighted spread (moment matching: a bin is
 *   a tenth of the width, so the merged density differs from the sum of
 *   its kernels by about (h / lo)^4 / 100, 1e-6 relative); the at most
 *   two kernels of a bin with another width stay as they are, as does
 *   the prior;
 * - a choice parameter's kernels of the same value have the same
 *   probabilities and merge exactly: one component per value.
 *
 * Why bins and not truncated kernels found by binary search: no kernel
 * is narrower than lo, a hundredth of the range, so the kernels within
 * reach of a candidate (some 30 widths, before exp() of their term is
 * negligible) are a fixed fraction of all of them, and truncation would
 * stay linear in the history.
 *
 * The result has at most 3 nbins + 1 components whatever the history,
 * and is built in one pass over the trials with no sort and no
 * logarithm or erfc per trial.  test_search_tpe_bin.c bounds its log
 * density against the exact one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

/* Per bin: the first and last centre in (value, trial) order, the count. */
struct pbin {
	size_t		 count;
	size_t		 first, last;	/* item indices */
	double		 sfirst, slast;	/* their widths */
	double		 w, s1, s2;	/* merged kernels: sum of w, w d, w d^2 */
};

/* Trial weights as tpe_weights() gives them, one at a time. */
struct pbin_ramp {
	size_t		 nramp;		/* older trials, ramped */
	double		 a, slope;	/* weight a + slope i of the i-th */
};

/* The ramp of m trials (PARZEN_FLAT newest weighted 1). */
static void
pbin_ramp_init(struct pbin_ramp *r, size_t m)
{
	r->nramp = m > PARZEN_FLAT ? m - PARZEN_FLAT : 0;
	r->a = 1.0 / (double)m;
	r->slope = r->nramp > 1 ? (1 - r->a) / (double)(r->nramp - 1) : 0;
}

/* The weight of trial j (chronological). */
static double
pbin_weight(const struct pbin_ramp *r, size_t j)
{
	return j >= r->nramp ? 1 : r->a + r->slope * (double)j;
}

/* The bin of internal coordinate v, scale being nbins / range. */
static size_t
pbin_of(const struct parzen *pz, size_t nbins, double scale, double v)
{
	double f = (v - pz->low) * scale;

	if (!(f > 0))
		return 0;
	return f >= (double)nbins ? nbins - 1 : (size_t)f;
}

/* A choice parameter: one component per value, then the prior. */
static int
pbin_choices(struct parzen *pz, const struct param_def *p, const double *xs,
    const struct pbin_ramp *r, size_t m)
{
	double fill = PARZEN_PRIOR / (double)(m + 1), norm, total;
	size_t nc = p->nchoices, k, c;

	pz->nchoices = nc;
	pz->n = nc + 1;
	if ((pz->w = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->p = calloc(pz->n * nc, sizeof(double))) == NULL)
		return -1;
	for (k = 0; k < m; k++)
		pz->w[(size_t)xs[k]] += pbin_weight(r, k);
	pz->w[nc] = PARZEN_PRIOR;
	for (total = 0, k = 0; k <= nc; k++)
		total += pz->w[k];
	for (k = 0; k <= nc; k++)
		pz->w[k] /= total;
	norm = fill * (double)nc + 1;
	for (k = 0; k < nc; k++)
		for (c = 0; c < nc; c++)
			pz->p[k * nc + c] = (fill + (c == k)) / norm;
	for (c = 0; c < nc; c++)
		pz->p[nc * nc + c] = 1.0 / (double)nc;
	return 0;
}

/*
 * The first and last items of every bin, in (value, item) order; item m
 * is the prior's centre.
 */
static void
pbin_ends(struct pbin *b, const struct parzen *pz, size_t nbins,
    const double *xs, size_t m)
{
	double v, mid = 0.5 * (pz->low + pz->high);
	double scale = (double)nbins / (pz->high - pz->low);
	size_t j, k;

	for (j = 0; j <= m; j++) {
		v = j < m ? xs[j] : mid;
		k = pbin_of(pz, nbins, scale, v);
		if (b[k].count++ == 0) {
			b[k].first = b[k].last = j;
			continue;
		}
		/* Items come in order: a tie goes first to the earlier. */
		if (v < (b[k].first < m ? xs[b[k].first] : mid))
			b[k].first = j;
		if (v >= (b[k].last < m ? xs[b[k].last] : mid))
			b[k].last = j;
	}
}

/*
 * The widths of each bin's first and last items, as parzen_sigmas()
 * gives them: the larger distance to the neighbours (the outermost
 * items: to the inner one), clipped to [lo, hi].  Inside a bin every
 * distance is below lo, so only the one across the bin's edge counts.
 */
static void
pbin_widths(struct pbin *b, const struct parzen *pz, size_t nbins,
    const double *xs, size_t m, double lo, double hi)
{
	double mid = 0.5 * (pz->low + pz->high), vf, vl, left, right, prev;
	size_t k, next, nk;
	int first = 1;

	prev = pz->low;
	for (k = 0; k < nbins; k = next) {
		for (next = k + 1; next < nbins && b[next].count == 0; next++)
			;
		if (b[k].count == 0)
			continue;
		nk = next < nbins ? b[next].first : m + 1;
		vf = b[k].first < m ? xs[b[k].first] : mid;
		vl = b[k].last < m ? xs[b[k].last] : mid;
		left = vf - prev;
		right = nk <= m ? (nk < m ? xs[nk] : mid) - vl : pz->high - vl;
		if (b[k].count == 1) {
			/* One item: both neighbours lie outside the bin. */
			b[k].sfirst = first ? right : nk > m ? left :
			    fmax(left, right);
		} else {
			b[k].sfirst = first ? 0 : left;
			b[k].slast = nk > m ? 0 : right;
		}
		b[k].sfirst = fmin(fmax(b[k].sfirst, lo), hi);
		b[k].slast = fmin(fmax(b[k].slast, lo), hi);
		prev = vl;
		first = 0;
	}
}

/* Append component (w, mu, sigma) to pz. */
static void
pbin_push(struct parzen *pz, double w, double mu, double sigma)
{
	pz->w[pz->n] = w;
	pz->mu[pz->n] = mu;
	pz->sigma[pz->n] = sigma;
	pz->n++;
}

/* Build the binned estimator of parameter p (see tpe_int.h). */
int
parzen_init_binned(struct parzen *pz, const struct param_def *p,
    const double *xs, size_t m, size_t nbins)
{
	struct pbin *b = NULL;
	struct pbin_ramp r;
	double total = PARZEN_PRIOR, range, lo, hi, h, scale, d, s, w, mu, var;
	size_t j, k;

	/* Bins must be narrower than the narrowest kernel. */
	if (nbins <= 100)
		return parzen_init(pz, p, xs, m, 0);
	memset(pz, 0, sizeof(*pz));
	pbin_ramp_init(&r, m);
	if (p->type == PARAM_CHOICE)
		return pbin_choices(pz, p, xs, &r, m);
	parzen_bounds(pz, p);
	range = pz->high - pz->low;
	lo = range / fmin(100.0, 2.0 + (double)m);
	hi = range;
	h = range / (double)nbins;
	scale = (double)nbins / range;
	if ((b = calloc(nbins, sizeof(*b))) == NULL ||
	    (pz->w = calloc(3 * nbins + 1, sizeof(double))) == NULL ||
	    (pz->mu = calloc(3 * nbins + 1, sizeof(double))) == NULL ||
	    (pz->sigma = calloc(3 * nbins + 1, sizeof(double))) == NULL) {
		free(b);
		return -1;
	}
	pbin_ends(b, pz, nbins, xs, m);
	pbin_widths(b, pz, nbins, xs, m, lo, hi);
	/* Kernels of width lo merge per bin; the others stay apart. */
	for (j = 0; j < m; j++) {
		k = pbin_of(pz, nbins, scale, xs[j]);
		w = pbin_weight(&r, j);
		total += w;
		s = j == b[k].first ? b[k].sfirst : j == b[k].last ?
		    b[k].slast : lo;
		if (s != lo) {
			pbin_push(pz, w, xs[j], s);
			continue;
		}
		d = xs[j] - (pz->low + ((double)k + 0.5) * h);
		b[k].w += w;
		b[k].s1 += w * d;
		b[k].s2 += w * d * d;
	}
	for (k = 0; k < nbins; k++) {
		if (b[k].w <= 0)
			continue;
		mu = b[k].s1 / b[k].w;
		var = fmax(b[k].s2 / b[k].w - mu * mu, 0);
		pbin_push(pz, b[k].w, pz->low + ((double)k + 0.5) * h + mu,
		    sqrt(lo * lo + var));
	}
	pbin_push(pz, PARZEN_PRIOR, 0.5 * (pz->low + pz->high), range);
	free(b);
	for (k = 0; k < pz->n; k++)
		pz->w[k] /= total;
	return parzen_norms(pz);
}
