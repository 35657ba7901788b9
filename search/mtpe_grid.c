/*
 * mtpe_grid.c: mtpe's joint estimator of a large group of trials merged
 * into the occupied cells of a grid, so that scoring a candidate costs
 * at most MTPE_CELLS components whatever the history.
 *
 * The exact joint estimator (mtpe.c) has one product kernel per trial
 * and scores each candidate against all of them: 24 candidates times n
 * trials times d parameters per suggestion, 579 ms at 10^6 trials.  Its
 * kernels have one width per parameter, the same for every trial
 * (0.2 x range x n^(-1/(d+4)), clipped), which is what makes merging
 * them simple: above MTPE_EXACT_MAX trials in the group,
 *
 * - each numeric parameter's range is cut into B equal bins, B = 64 at
 *   first, and a choice has one bin per value; a trial's cell is the
 *   tuple of its bins (found with a hash of the tuple);
 * - the kernels of a cell become one component: its weight their summed
 *   weight, per numeric parameter its centre their weighted mean and its
 *   variance the kernel's plus their weighted spread (moment matching
 *   per parameter, as parzen_bin.c does in one dimension); a choice's
 *   probabilities are those of the cell's value, exactly the kernels';
 * - when more than maxcells cells are occupied, the B of the parameter
 *   with the most bins halves and the pass starts over, so the component
 *   count is bounded.  A cell is at most range / B wide; the merged
 *   density is close to the sum of its kernels while the cell is
 *   narrower than a kernel (about a twentieth of the range at 10^4
 *   trials in three parameters: log l/g within 3e-3 of the exact one)
 *   and further when the cap makes cells wider (five parameters at 10^4
 *   trials: cells of an eighth of a range, within 0.64);
 *   test_search_mtpe_grid.c states the tolerances;
 * - the prior stays the last component, as in the exact estimator.
 *
 * Why a grid of the joint space and not parzen_bin.c's bins per
 * parameter: mtpe's density is a sum of products, and per-parameter
 * sums would lose which coordinates came together (a diverged corner
 * would be blamed on every parameter, what mtpe exists to avoid).  Why
 * cells in order of first occupation: the components, and so the sums
 * in mtpe_logpdf(), come in an order fixed by the history, so a
 * suggestion stays a pure function of it.  Only the bad group is merged:
 * the good one has at most TPE_GAMMA_MAX trials and candidates are drawn
 * from it, so the draws are those of the exact estimator.
 *
 * A trial's weight depends on the group's size m (a + slope pos for the
 * older ones, 1 for the PARZEN_FLAT newest, as parzen_bin.c's bins), so
 * a cell keeps the sums of f and of pos f of its ramped trials and of f
 * of its flat ones, f in {1, dy, dy^2} per parameter, and the weights
 * are applied when the components are built: the cells of the trials
 * settled for good can then be kept from one suggestion to the next
 * (tpe_fold.c, struct mgrid's users), and sums added in position order
 * give the same bits whichever way they are built.  A build from
 * nothing is one pass over the group per B tried.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define MTPE_GRID_BINS	64	/* bins per numeric parameter at first */

/*
 * The cells: per cell its first trial's y and, in K = 1 + 2 d sums (the
 * trial count, then dy and dy^2 per parameter), those of its ramped
 * trials' f (r0) and pos f (r1) and of its flat trials' f (fl).
 */
struct mgrid {
	size_t		 d, k, maxcells, ncells, nslots;
	uint32_t	*nbins;		/* d: bins per parameter */
	double		*low, *high;	/* d: bounds, internal space */
	size_t		*nchoices;	/* d: 0 for numeric parameters */
	int		*quantized;	/* d: integers on a linear scale */
	uint32_t	*keys;		/* nslots x d bin indices */
	size_t		*slot;		/* nslots: cell + 1, 0 when empty */
	double		*ref;		/* maxcells x d */
	double		*r0, *r1, *fl;	/* maxcells x k */
};

/* See tpe_int.h. */
void
mgrid_free(struct mgrid *g)
{
	if (g == NULL)
		return;
	free(g->nbins);
	free(g->low);
	free(g->high);
	free(g->nchoices);
	free(g->quantized);
	free(g->keys);
	free(g->slot);
	free(g->ref);
	free(g->r0);
	free(g->r1);
	free(g->fl);
	free(g);
}

/* See tpe_int.h. */
struct mgrid *
mgrid_new(const struct search *s, size_t maxcells)
{
	const struct param_def *p;
	struct mgrid *g;
	struct parzen pz;
	size_t d = s->space->n, i;

	if ((g = calloc(1, sizeof(*g))) == NULL)
		return NULL;
	g->d = d;
	g->k = 1 + 2 * d;
	g->maxcells = maxcells;
	for (g->nslots = 16; g->nslots < 2 * maxcells; g->nslots *= 2)
		;
	g->nbins = calloc(d + 1, sizeof(*g->nbins));
	g->low = calloc(d + 1, sizeof(*g->low));
	g->high = calloc(d + 1, sizeof(*g->high));
	g->nchoices = calloc(d + 1, sizeof(*g->nchoices));
	g->quantized = calloc(d + 1, sizeof(*g->quantized));
	g->keys = calloc(g->nslots * d + 1, sizeof(*g->keys));
	g->slot = calloc(g->nslots, sizeof(*g->slot));
	g->ref = calloc(maxcells * d + 1, sizeof(*g->ref));
	g->r0 = calloc(maxcells * g->k, sizeof(*g->r0));
	g->r1 = calloc(maxcells * g->k, sizeof(*g->r1));
	g->fl = calloc(maxcells * g->k, sizeof(*g->fl));
	if (g->nbins == NULL || g->low == NULL || g->high == NULL ||
	    g->nchoices == NULL || g->quantized == NULL || g->keys == NULL ||
	    g->slot == NULL || g->ref == NULL || g->r0 == NULL ||
	    g->r1 == NULL || g->fl == NULL) {
		mgrid_free(g);
		return NULL;
	}
	for (i = 0; i < d; i++) {
		p = &s->space->params[i];
		if (p->type == PARAM_CHOICE) {
			g->nchoices[i] = p->nchoices;
			continue;
		}
		memset(&pz, 0, sizeof(pz));
		parzen_bounds(&pz, p);
		g->low[i] = pz.low;
		g->high[i] = pz.high;
		g->quantized[i] = pz.quantized;
	}
	mgrid_clear(g, 1);
	return g;
}

/* See tpe_int.h. */
void
mgrid_clear(struct mgrid *g, int fine)
{
	size_t i;

	for (i = 0; fine && i < g->d; i++)
		g->nbins[i] = g->nchoices[i] > 0 ? 1 : MTPE_GRID_BINS;
	memset(g->slot, 0, g->nslots * sizeof(*g->slot));
	memset(g->r0, 0, g->ncells * g->k * sizeof(*g->r0));
	memset(g->r1, 0, g->ncells * g->k * sizeof(*g->r1));
	memset(g->fl, 0, g->ncells * g->k * sizeof(*g->fl));
	g->ncells = 0;
}

/* See tpe_int.h. */
int
mgrid_coarsen(struct mgrid *g)
{
	size_t i, wide;

	/* Halve the bins of the finest parameter. */
	for (wide = 0, i = 1; i < g->d; i++)
		if (g->nbins[i] > g->nbins[wide])
			wide = i;
	if (g->d == 0 || g->nbins[wide] == 1)
		return -1;
	g->nbins[wide] /= 2;
	mgrid_clear(g, 0);
	return 0;
}

/* See tpe_int.h. */
int
mgrid_copy(struct mgrid *dst, const struct mgrid *src)
{
	if (dst->d != src->d || dst->maxcells != src->maxcells)
		return -1;
	memcpy(dst->nbins, src->nbins, src->d * sizeof(*dst->nbins));
	memcpy(dst->keys, src->keys, src->nslots * src->d *
	    sizeof(*dst->keys));
	memcpy(dst->slot, src->slot, src->nslots * sizeof(*dst->slot));
	memcpy(dst->ref, src->ref, src->ncells * src->d * sizeof(*dst->ref));
	/* Beyond its cells dst's sums must be zero, as src's are. */
	if (dst->ncells > src->ncells) {
		memset(dst->r0, 0, dst->ncells * dst->k * sizeof(*dst->r0));
		memset(dst->r1, 0, dst->ncells * dst->k * sizeof(*dst->r1));
		memset(dst->fl, 0, dst->ncells * dst->k * sizeof(*dst->fl));
	}
	memcpy(dst->r0, src->r0, src->ncells * src->k * sizeof(*dst->r0));
	memcpy(dst->r1, src->r1, src->ncells * src->k * sizeof(*dst->r1));
	memcpy(dst->fl, src->fl, src->ncells * src->k * sizeof(*dst->fl));
	dst->ncells = src->ncells;
	return 0;
}

/* The cell of key (d bins), added when new: its index, or -1 when full. */
static long
mgrid_cell(struct mgrid *g, const uint32_t *key)
{
	uint64_t hsh = UINT64_C(1469598103934665603);
	size_t i, at, c;

	for (i = 0; i < g->d; i++)
		hsh = (hsh ^ key[i]) * UINT64_C(1099511628211);
	for (at = (size_t)(hsh ^ hsh >> 29) & (g->nslots - 1);;
	    at = (at + 1) & (g->nslots - 1)) {
		if (g->slot[at] == 0)
			break;
		if (memcmp(&g->keys[at * g->d], key, g->d * sizeof(*key)) == 0)
			return (long)(g->slot[at] - 1);
	}
	if (g->ncells == g->maxcells)
		return -1;
	c = g->ncells++;
	memcpy(&g->keys[at * g->d], key, g->d * sizeof(*key));
	g->slot[at] = c + 1;
	return (long)c;
}

/* See tpe_int.h. */
int
mgrid_add(struct mgrid *g, const double *y, size_t pos, int flat,
    uint32_t *key)
{
	double dy, *r0, *r1, *fl, p = (double)pos;
	size_t i, before = g->ncells;
	long c;

	for (i = 0; i < g->d; i++)
		key[i] = g->nchoices[i] > 0 ? (uint32_t)y[i] :
		    (uint32_t)fmin(fmax((y[i] - g->low[i]) /
		    (g->high[i] - g->low[i]) * g->nbins[i], 0),
		    g->nbins[i] - 1);
	if ((c = mgrid_cell(g, key)) < 0)
		return 1;
	if (g->ncells > before)
		memcpy(&g->ref[(size_t)c * g->d], y, g->d * sizeof(*y));
	r0 = &g->r0[(size_t)c * g->k];
	r1 = &g->r1[(size_t)c * g->k];
	fl = &g->fl[(size_t)c * g->k];
	if (flat)
		fl[0] += 1;
	else {
		r0[0] += 1;
		r1[0] += p;
	}
	for (i = 0; i < g->d; i++) {
		dy = y[i] - g->ref[(size_t)c * g->d + i];
		if (flat) {
			fl[1 + 2 * i] += dy;
			fl[2 + 2 * i] += dy * dy;
		} else {
			r0[1 + 2 * i] += dy;
			r0[2 + 2 * i] += dy * dy;
			r1[1 + 2 * i] += p * dy;
			r1[2 + 2 * i] += p * dy * dy;
		}
	}
	return 0;
}

/* Sum number j of cell c with the weights a + slope pos (ramped), 1. */
static double
mgrid_sum(const struct mgrid *g, size_t c, size_t j, double a, double slope)
{
	return a * g->r0[c * g->k + j] + slope * g->r1[c * g->k + j] +
	    g->fl[c * g->k + j];
}

/* See tpe_int.h. */
int
mgrid_estimator(const struct mgrid *g, size_t m, double bw,
    struct parzen *pz)
{
	double mean, var, fill, range, lo, sigma0, a, slope, total, *wsum;
	size_t n = g->ncells + 1, nramp, i, c, v, nc;

	memset(pz, 0, g->d * sizeof(*pz));
	if ((wsum = calloc(n, sizeof(*wsum))) == NULL)
		return -1;
	/* The weights of tpe_weights(): PARZEN_FLAT newest 1, a ramp. */
	nramp = m > PARZEN_FLAT ? m - PARZEN_FLAT : 0;
	a = 1.0 / (double)m;
	slope = nramp > 1 ? (1 - a) / (double)(nramp - 1) : 0;
	total = PARZEN_PRIOR;
	for (c = 0; c < g->ncells; c++)
		total += (wsum[c] = mgrid_sum(g, c, 0, a, slope));
	for (i = 0; i < g->d; i++) {
		pz[i].n = n;
		pz[i].nchoices = g->nchoices[i];
		if ((pz[i].w = calloc(n, sizeof(double))) == NULL)
			goto fail;
		for (c = 0; c < g->ncells; c++)
			pz[i].w[c] = wsum[c] / total;
		pz[i].w[n - 1] = PARZEN_PRIOR / total;
		if ((nc = pz[i].nchoices) > 0) {
			if ((pz[i].p = calloc(n * nc, sizeof(double))) == NULL)
				goto fail;
			fill = PARZEN_PRIOR / (double)(m + 1);
			for (c = 0; c < n; c++) {
				for (v = 0; v < nc; v++)
					pz[i].p[c * nc + v] = fill;
				if (c + 1 < n)
					pz[i].p[c * nc +
					    (size_t)g->ref[c * g->d + i]] += 1;
				for (v = 0; v < nc; v++)
					pz[i].p[c * nc + v] /= fill *
					    (double)nc + (c + 1 < n);
			}
			continue;
		}
		pz[i].low = g->low[i];
		pz[i].high = g->high[i];
		pz[i].quantized = g->quantized[i];
		if ((pz[i].mu = calloc(n, sizeof(double))) == NULL ||
		    (pz[i].sigma = calloc(n, sizeof(double))) == NULL)
			goto fail;
		/* The exact estimator's width (parzen_sigmas(), mvsigma). */
		range = g->high[i] - g->low[i];
		lo = range / fmin(100.0, 2.0 + (double)m);
		sigma0 = fmin(fmax(bw * range, lo), range);
		for (c = 0; c < g->ncells; c++) {
			mean = mgrid_sum(g, c, 1 + 2 * i, a, slope) / wsum[c];
			var = fmax(mgrid_sum(g, c, 2 + 2 * i, a, slope) /
			    wsum[c] - mean * mean, 0);
			pz[i].mu[c] = g->ref[c * g->d + i] + mean;
			pz[i].sigma[c] = sqrt(sigma0 * sigma0 + var);
		}
		pz[i].mu[n - 1] = 0.5 * (pz[i].low + pz[i].high);
		pz[i].sigma[n - 1] = range;
		if (parzen_norms(&pz[i]) == -1)
			goto fail;
	}
	free(wsum);
	return 0;
fail:
	for (i = 0; i < g->d; i++)
		parzen_release(&pz[i]);
	free(wsum);
	return -1;
}

/* See tpe_int.h. */
int
mtpe_grid(const struct search *s, const struct history *h,
    const size_t *idx, size_t m, double bw, size_t maxcells,
    struct parzen *pz)
{
	const struct param_def *p;
	struct mgrid *g, *nocap;
	double *y;
	uint32_t *key;
	size_t d = s->space->n, nramp, i, j;
	int rc = -1, full;

	memset(pz, 0, d * sizeof(*pz));
	nramp = m > PARZEN_FLAT ? m - PARZEN_FLAT : 0;
	g = mgrid_new(s, maxcells);
	y = calloc(d + 1, sizeof(*y));
	key = calloc(d + 1, sizeof(*key));
	if (g == NULL || y == NULL || key == NULL)
		goto out;
	for (;;) {
		for (full = 0, j = 0; j < m && !full; j++) {
			for (i = 0; i < d; i++) {
				p = &s->space->params[i];
				y[i] = p->type == PARAM_CHOICE ?
				    h->obs[idx[j]].x[i] :
				    tpe_to_internal(p, h->obs[idx[j]].x[i]);
			}
			full = mgrid_add(g, y, j, j >= nramp, key);
		}
		if (!full)
			break;
		if (mgrid_coarsen(g) == -1) {
			/* Choices alone fill more cells: no cap. */
			if ((nocap = mgrid_new(s, m)) == NULL)
				goto out;
			memcpy(nocap->nbins, g->nbins, d * sizeof(*g->nbins));
			mgrid_free(g);
			g = nocap;
		}
	}
	rc = mgrid_estimator(g, m, bw, pz);
out:
	mgrid_free(g);
	free(y);
	free(key);
	return rc;
}
