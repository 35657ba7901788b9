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
 * The build is one pass over the group per B tried; it is still linear
 * in the history, as are the split and the view that precede it (what is
 * left: keeping the cells between suggestions with the obsbook log, as
 * tpe_fold.c keeps tpe's bins).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define MTPE_GRID_BINS	64	/* bins per numeric parameter at first */

/* One cell: its summed weight and, per parameter, sums of offsets. */
struct mgrid {
	size_t		 d, maxcells, ncells, nslots;
	uint32_t	*keys;		/* nslots x d bin indices */
	size_t		*slot;		/* nslots: cell + 1, 0 when empty */
	double		*wsum;		/* ncells weights */
	double		*ref;		/* ncells x d: first trial's y */
	double		*s1, *s2;	/* ncells x d: sums of w dy, w dy^2 */
};

/* Free the grid's arrays. */
static void
mgrid_release(struct mgrid *g)
{
	free(g->keys);
	free(g->slot);
	free(g->wsum);
	free(g->ref);
	free(g->s1);
	free(g->s2);
}

/* Allocate a grid of at most maxcells cells of d parameters; 0 or -1. */
static int
mgrid_init(struct mgrid *g, size_t d, size_t maxcells)
{
	memset(g, 0, sizeof(*g));
	g->d = d;
	g->maxcells = maxcells;
	for (g->nslots = 16; g->nslots < 2 * maxcells; g->nslots *= 2)
		;
	g->keys = calloc(g->nslots * d, sizeof(*g->keys));
	g->slot = calloc(g->nslots, sizeof(*g->slot));
	g->wsum = calloc(maxcells, sizeof(*g->wsum));
	g->ref = calloc(maxcells * d, sizeof(*g->ref));
	g->s1 = calloc(maxcells * d, sizeof(*g->s1));
	g->s2 = calloc(maxcells * d, sizeof(*g->s2));
	if (g->keys == NULL || g->slot == NULL || g->wsum == NULL ||
	    g->ref == NULL || g->s1 == NULL || g->s2 == NULL) {
		mgrid_release(g);
		return -1;
	}
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

/*
 * Sum the m trials at ys (m x d internal coordinates, weights w) into
 * cells of nbins[i] bins of each numeric parameter i.  Return 0, or 1 when more
 * than maxcells cells are occupied (g is then emptied).
 */
static int
mgrid_fill(struct mgrid *g, const struct parzen *pz, const double *ys,
    const double *w, size_t m, const uint32_t *nbins, uint32_t *key)
{
	const double *y;
	double dy;
	size_t j, i;
	long c;

	for (j = 0; j < m; j++) {
		y = &ys[j * g->d];
		for (i = 0; i < g->d; i++)
			key[i] = pz[i].nchoices > 0 ? (uint32_t)y[i] :
			    (uint32_t)fmin(fmax((y[i] - pz[i].low) /
			    (pz[i].high - pz[i].low) * nbins[i], 0),
			    nbins[i] - 1);
		if ((c = mgrid_cell(g, key)) < 0) {
			memset(g->slot, 0, g->nslots * sizeof(*g->slot));
			memset(g->wsum, 0, g->maxcells * sizeof(*g->wsum));
			memset(g->s1, 0, g->maxcells * g->d * sizeof(*g->s1));
			memset(g->s2, 0, g->maxcells * g->d * sizeof(*g->s2));
			g->ncells = 0;
			return 1;
		}
		if (g->wsum[c] == 0)
			memcpy(&g->ref[(size_t)c * g->d], y,
			    g->d * sizeof(*y));
		g->wsum[c] += w[j];
		for (i = 0; i < g->d; i++) {
			dy = y[i] - g->ref[(size_t)c * g->d + i];
			g->s1[(size_t)c * g->d + i] += w[j] * dy;
			g->s2[(size_t)c * g->d + i] += w[j] * dy * dy;
		}
	}
	return 0;
}

/*
 * Turn the cells into the components of pz[0..d-1] (bounds set, the
 * kernels' width per numeric parameter in sigma0[], total the weights'
 * sum with the prior's).  Return 0 or -1 (memory).
 */
static int
mgrid_components(const struct mgrid *g, struct parzen *pz,
    const double *sigma0, double total, size_t m)
{
	double mean, var, fill;
	size_t n = g->ncells + 1, i, c, v, nc;

	for (i = 0; i < g->d; i++) {
		pz[i].n = n;
		if ((pz[i].w = calloc(n, sizeof(double))) == NULL)
			return -1;
		for (c = 0; c < g->ncells; c++)
			pz[i].w[c] = g->wsum[c] / total;
		pz[i].w[n - 1] = PARZEN_PRIOR / total;
		if ((nc = pz[i].nchoices) > 0) {
			if ((pz[i].p = calloc(n * nc, sizeof(double))) == NULL)
				return -1;
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
		if ((pz[i].mu = calloc(n, sizeof(double))) == NULL ||
		    (pz[i].sigma = calloc(n, sizeof(double))) == NULL)
			return -1;
		for (c = 0; c < g->ncells; c++) {
			mean = g->s1[c * g->d + i] / g->wsum[c];
			var = fmax(g->s2[c * g->d + i] / g->wsum[c] -
			    mean * mean, 0);
			pz[i].mu[c] = g->ref[c * g->d + i] + mean;
			pz[i].sigma[c] = sqrt(sigma0[i] * sigma0[i] + var);
		}
		pz[i].mu[n - 1] = 0.5 * (pz[i].low + pz[i].high);
		pz[i].sigma[n - 1] = pz[i].high - pz[i].low;
		if (parzen_norms(&pz[i]) == -1)
			return -1;
	}
	return 0;
}

/* The weights of m trials in history order (tpe.c's), w[m] the prior. */
static double
mgrid_weights(double *w, size_t m)
{
	double total = PARZEN_PRIOR;
	size_t j;

	tpe_weights(w, m);
	for (j = 0; j < m; j++)
		total += w[j];
	return total;
}

/* See tpe_int.h. */
int
mtpe_grid(const struct search *s, const struct history *h,
    const size_t *idx, size_t m, double bw, size_t maxcells,
    struct parzen *pz)
{
	const struct param_def *p;
	struct mgrid g;
	double *ys = NULL, *w = NULL, *sigma0 = NULL, range, lo, total;
	uint32_t *key = NULL, *nbins = NULL;
	size_t d = s->space->n, i, j, wide;
	int rc = -1;

	memset(pz, 0, d * sizeof(*pz));
	if (mgrid_init(&g, d, maxcells) == -1)
		return -1;
	ys = calloc(m * d + 1, sizeof(*ys));
	w = calloc(m + 1, sizeof(*w));
	sigma0 = calloc(d, sizeof(*sigma0));
	key = calloc(d, sizeof(*key));
	nbins = calloc(d, sizeof(*nbins));
	if (ys == NULL || w == NULL || sigma0 == NULL || key == NULL ||
	    nbins == NULL)
		goto out;
	for (i = 0; i < d; i++) {
		p = &s->space->params[i];
		nbins[i] = 1;
		if (p->type == PARAM_CHOICE) {
			pz[i].nchoices = p->nchoices;
			continue;
		}
		nbins[i] = MTPE_GRID_BINS;
		parzen_bounds(&pz[i], p);
		/* The exact estimator's width (parzen_sigmas(), mvsigma). */
		range = pz[i].high - pz[i].low;
		lo = range / fmin(100.0, 2.0 + (double)m);
		sigma0[i] = fmin(fmax(bw * range, lo), range);
	}
	for (j = 0; j < m; j++)
		for (i = 0; i < d; i++) {
			p = &s->space->params[i];
			ys[j * d + i] = p->type == PARAM_CHOICE ?
			    h->obs[idx[j]].x[i] :
			    tpe_to_internal(p, h->obs[idx[j]].x[i]);
		}
	total = mgrid_weights(w, m);
	/* Too many cells: halve the bins of the finest parameter. */
	while (mgrid_fill(&g, pz, ys, w, m, nbins, key) == 1) {
		for (wide = 0, i = 1; i < d; i++)
			if (nbins[i] > nbins[wide])
				wide = i;
		if (nbins[wide] == 1) {
			/* Choices alone fill more cells: no cap. */
			mgrid_release(&g);
			if (mgrid_init(&g, d, m) == -1)
				goto out;
			(void)mgrid_fill(&g, pz, ys, w, m, nbins, key);
			break;
		}
		nbins[wide] /= 2;
	}
	rc = mgrid_components(&g, pz, sigma0, total, m);
out:
	if (rc != 0)
		for (i = 0; i < d; i++)
			parzen_release(&pz[i]);
	mgrid_release(&g);
	free(ys);
	free(w);
	free(sigma0);
	free(key);
	free(nbins);
	return rc;
}
