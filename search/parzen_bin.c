/*
 * parzen_bin.c: the Parzen estimator of a large group of trials, binned,
 * so that its cost per candidate does not grow with the history.
 *
 * The exact estimator (parzen.c, parzen_init()) has one truncated Gaussian
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
 *
 * The pass is split so that tpe_fold.c can keep it between suggestions
 * (struct pbins, tpe_int.h): pbins_add() sums one trial into its bin,
 * pbins_estimator() turns the sums into components.  A trial's weight
 * depends on the group's size m, which grows (a + slope pos for the
 * older ones, a = 1 / m, slope = (1 - a) / (m - PARZEN_FLAT - 1), 1 for
 * the PARZEN_FLAT newest), but it is linear in the trial's position pos:
 * a bin keeps the sums of f and of pos f for f in {1, d, d^2} of its
 * ramped trials and of f of its flat ones, and the weights are applied
 * when the estimator is built.  Each bin also keeps its first and last
 * trial in (value, position) order; the kernels that stay apart are
 * taken back out of their bin's sums then.  The sums are added in the
 * order of the positions, whichever way they are built, so the same
 * group gives the same bits.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

/* The trial weights of a group of m, as tpe.c's tpe_weights(). */
struct pbin_ramp {
	size_t		 nramp;		/* older trials, ramped */
	double		 a, slope;	/* weight a + slope pos of the pos-th */
};

/* The ramp of m trials (PARZEN_FLAT newest weighted 1). */
static void
pbin_ramp_init(struct pbin_ramp *r, size_t m)
{
	r->nramp = m > PARZEN_FLAT ? m - PARZEN_FLAT : 0;
	r->a = 1.0 / (double)m;
	r->slope = r->nramp > 1 ? (1 - r->a) / (double)(r->nramp - 1) : 0;
}

/* The weight of the trial at position pos. */
static double
pbin_weight(const struct pbin_ramp *r, size_t pos)
{
	return pos >= r->nramp ? 1 : r->a + r->slope * (double)pos;
}

/* Bins over parameter p (see tpe_int.h). */
int
pbins_init(struct pbins *b, const struct param_def *p, size_t nbins)
{
	struct parzen pz;

	memset(b, 0, sizeof(*b));
	if (p->type == PARAM_CHOICE) {
		b->choice = 1;
		nbins = p->nchoices;
	} else {
		memset(&pz, 0, sizeof(pz));
		parzen_bounds(&pz, p);
		b->low = pz.low;
		b->high = pz.high;
	}
	if ((b->b = calloc(nbins, sizeof(*b->b))) == NULL)
		return -1;
	b->nbins = nbins;
	return 0;
}

/* Free the bins. */
void
pbins_release(struct pbins *b)
{
	free(b->b);
	memset(b, 0, sizeof(*b));
}

/* Copy src into dst (same parameter). */
void
pbins_copy(struct pbins *dst, const struct pbins *src)
{
	memcpy(dst->b, src->b, src->nbins * sizeof(*src->b));
}

/* The bin of internal coordinate v. */
static size_t
pbin_of(const struct pbins *b, double v)
{
	double f;

	if (b->choice)
		return (size_t)v < b->nbins ? (size_t)v : b->nbins - 1;
	f = (v - b->low) * ((double)b->nbins / (b->high - b->low));
	if (!(f > 0))
		return 0;
	return f >= (double)b->nbins ? b->nbins - 1 : (size_t)f;
}

/* The centre of bin k. */
static double
pbin_centre(const struct pbins *b, size_t k)
{
	return b->low + ((double)k + 0.5) * ((b->high - b->low) /
	    (double)b->nbins);
}

/* Note item pos at v among bin k's first and last (items in order). */
static void
pbin_ends(struct pbin *k, double v, size_t pos)
{
	if (k->count++ == 0) {
		k->first = k->last = pos;
		k->vfirst = k->vlast = v;
		return;
	}
	/* Items come in order: a tie goes first to the earlier. */
	if (v < k->vfirst) {
		k->first = pos;
		k->vfirst = v;
	}
	if (v >= k->vlast) {
		k->last = pos;
		k->vlast = v;
	}
}

/* Add a trial (see tpe_int.h). */
void
pbins_add(struct pbins *b, double v, size_t pos, int flat)
{
	struct pbin *k = &b->b[pbin_of(b, v)];
	double d = b->choice ? 0 : v - pbin_centre(b, (size_t)(k - b->b)),
	    f[3], p = (double)pos;
	int i;

	pbin_ends(k, v, pos);
	f[0] = 1;
	f[1] = d;
	f[2] = d * d;
	for (i = 0; i < 3; i++)
		if (flat)
			k->f[i] += f[i];
		else {
			k->r0[i] += f[i];
			k->r1[i] += p * f[i];
		}
}

/* Bin k's weighted sum of f[i] under ramp r. */
static double
pbin_sum(const struct pbin *k, const struct pbin_ramp *r, int i)
{
	return r->a * k->r0[i] + r->slope * k->r1[i] + k->f[i];
}

/* A choice parameter: one component per value, then the prior. */
static int
pbin_choices(struct parzen *pz, const struct param_def *p,
    const struct pbins *b, const struct pbin_ramp *r, size_t m)
{
	double fill = PARZEN_PRIOR / (double)(m + 1), norm, total;
	size_t nc = p->nchoices, k, c;

	pz->nchoices = nc;
	pz->n = nc + 1;
	if ((pz->w = calloc(pz->n, sizeof(double))) == NULL ||
	    (pz->p = calloc(pz->n * nc, sizeof(double))) == NULL)
		return -1;
	for (k = 0; k < nc; k++)
		pz->w[k] = pbin_sum(&b->b[k], r, 0);
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
 * The widths of each bin's first and last items (sf, sl), as
 * parzen_sigmas() gives them: the larger distance to the neighbours (the
 * outermost items: to the inner one), clipped to [lo, hi].  Inside a bin
 * every distance is below lo, so only the one across the bin's edge
 * counts.
 */
static void
pbin_widths(const struct pbins *b, double *sf, double *sl, double lo,
    double hi)
{
	const struct pbin *bk;
	double left, right, prev = b->low;
	size_t k, next, nbins = b->nbins;
	int first = 1;

	for (k = 0; k < nbins; k = next) {
		for (next = k + 1; next < nbins && b->b[next].count == 0;
		    next++)
			;
		bk = &b->b[k];
		if (bk->count == 0)
			continue;
		left = bk->vfirst - prev;
		right = (next < nbins ? b->b[next].vfirst : b->high) -
		    bk->vlast;
		if (bk->count == 1) {
			/* One item: both neighbours lie outside the bin. */
			sf[k] = first ? right : next >= nbins ? left :
			    fmax(left, right);
			sl[k] = 0;
		} else {
			sf[k] = first ? 0 : left;
			sl[k] = next >= nbins ? 0 : right;
		}
		sf[k] = fmin(fmax(sf[k], lo), hi);
		sl[k] = fmin(fmax(sl[k], lo), hi);
		prev = bk->vlast;
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

/*
 * Push item pos at v of bin k (centre c) as its own kernel of width s
 * and take it out of the merged sums sum[] (w, w d, w d^2); the prior's
 * centre (pos SIZE_MAX) has no sums and is pushed last.
 */
static int
pbin_apart(struct parzen *pz, const struct pbin_ramp *r, size_t pos,
    double v, double c, double s, double *sum)
{
	double w, d = v - c;

	if (pos == SIZE_MAX)
		return 0;
	w = pbin_weight(r, pos);
	pbin_push(pz, w, v, s);
	sum[0] -= w;
	sum[1] -= w * d;
	sum[2] -= w * d * d;
	return 1;
}

/* The estimator of the m trials added to b (see tpe_int.h). */
int
pbins_estimator(struct parzen *pz, const struct param_def *p,
    struct pbins *b, size_t m)
{
	struct pbin_ramp r;
	struct pbin *bk;
	double total = PARZEN_PRIOR, range, lo, hi, c, mu, var, sum[3];
	double *sf = NULL, *sl = NULL, mid;
	size_t k, n, nbins = b->nbins, pk;
	int i;

	memset(pz, 0, sizeof(*pz));
	pbin_ramp_init(&r, m);
	if (b->choice)
		return pbin_choices(pz, p, b, &r, m);
	parzen_bounds(pz, p);
	range = pz->high - pz->low;
	lo = range / fmin(100.0, 2.0 + (double)m);
	hi = range;
	/* The prior's centre is the last item: it shapes the widths. */
	mid = 0.5 * (pz->low + pz->high);
	pk = pbin_of(b, mid);
	pbin_ends(&b->b[pk], mid, SIZE_MAX);
	if ((sf = calloc(nbins, sizeof(double))) == NULL ||
	    (sl = calloc(nbins, sizeof(double))) == NULL ||
	    (pz->w = calloc(3 * nbins + 1, sizeof(double))) == NULL ||
	    (pz->mu = calloc(3 * nbins + 1, sizeof(double))) == NULL ||
	    (pz->sigma = calloc(3 * nbins + 1, sizeof(double))) == NULL) {
		free(sf);
		free(sl);
		return -1;
	}
	pbin_widths(b, sf, sl, lo, hi);
	for (k = 0; k < nbins; k++) {
		bk = &b->b[k];
		/* Its trials, the prior's centre left out. */
		n = bk->count - (k == pk);
		if (n == 0)
			continue;
		for (i = 0; i < 3; i++)
			sum[i] = pbin_sum(bk, &r, i);
		total += sum[0];
		c = pbin_centre(b, k);
		/* Kernels of width lo merge; the ends of another stay apart. */
		if (sf[k] != lo)
			n -= (size_t)pbin_apart(pz, &r, bk->first, bk->vfirst,
			    c, sf[k], sum);
		if (bk->count > 1 && sl[k] != lo)
			n -= (size_t)pbin_apart(pz, &r, bk->last, bk->vlast, c,
			    sl[k], sum);
		if (n == 0 || sum[0] <= 0)
			continue;
		mu = sum[1] / sum[0];
		var = fmax(sum[2] / sum[0] - mu * mu, 0);
		pbin_push(pz, sum[0], c + mu, sqrt(lo * lo + var));
	}
	pbin_push(pz, PARZEN_PRIOR, mid, range);
	free(sf);
	free(sl);
	for (k = 0; k < pz->n; k++)
		pz->w[k] /= total;
	return parzen_norms(pz);
}

/* Build the binned estimator of parameter p (see tpe_int.h). */
int
parzen_init_binned(struct parzen *pz, const struct param_def *p,
    const double *xs, size_t m, size_t nbins)
{
	struct pbins b;
	size_t j, nramp = m > PARZEN_FLAT ? m - PARZEN_FLAT : 0;
	int rc;

	/* Bins must be narrower than the narrowest kernel. */
	if (nbins <= 100)
		return parzen_init(pz, p, xs, m, 0);
	memset(pz, 0, sizeof(*pz));
	if (pbins_init(&b, p, nbins) == -1)
		return -1;
	for (j = 0; j < m; j++)
		pbins_add(&b, xs[j], j, j >= nramp);
	rc = pbins_estimator(pz, p, &b, m);
	pbins_release(&b);
	return rc;
}
