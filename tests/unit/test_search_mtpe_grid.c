/*
 * test_search_mtpe_grid.c: mtpe's joint estimator of a group of more than
 * MTPE_EXACT_MAX trials merged into grid cells (search/mtpe_grid.c)
 * scores candidates as the exact one does.  Over histories of 10^4
 * trials of a synthetic objective, in three parameters (a log float, a
 * choice, a linear int) and in five (every kind), split as mtpe splits
 * them, the log density ratio log l(y) - log g(y) with the bad group
 * merged agrees with the exact one within TOL3 (three parameters: the
 * cells narrower than the kernels) or TOL5 (five: the cap on cells makes
 * them wider) at every candidate mtpe would draw from l, the best of
 * each round of 24 candidates under the merged ratio is within the
 * same tolerance of the exact best, the merged estimator has at most
 * MTPE_CELLS + 1 components whose weights sum to 1, and a whole
 * suggestion over the history lies in the space and is the same twice.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "search.h"
#include "space.h"
#include "space_kinds.h"
#include "tap.h"
#include "tpe_int.h"

#define NTRIALS		10000
#define MAXDIM		5
#define ROUNDS		50	/* suggestions' worth of candidates */
#define NCAND		24
#define TOL3		0.01	/* in log density ratio */
#define TOL5		0.75	/* five: cells up to range / 8 wide */

/*
 * A history of n finished trials of the d first parameters of
 * space_kinds_new(), a third of them around the optimum (lr 0.01, m 0.9)
 * as a search that learns would leave.
 */
static void
history_make(struct observation *obs, double *xs, size_t n, size_t d)
{
	struct rng r;
	size_t i;
	double *x;

	rng_seed(&r, 15, d);
	for (i = 0; i < n; i++) {
		x = &xs[MAXDIM * i];
		x[0] = i % 3 == 0 ? fmin(fmax(0.01 * exp(0.3 *
		    rng_normal(&r)), 0.001), 0.2) :
		    exp(log(0.001) + rng_uniform(&r) * log(200));
		x[1] = (double)(rng_next(&r) % 3);
		x[2] = i % 3 == 0 ? fmin(fmax(0.9 + 0.01 * rng_normal(&r),
		    0.85), 0.95) : 0.85 + 0.1 * rng_uniform(&r);
		x[3] = (double)(1 + rng_next(&r) % 9);
		x[4] = round(exp(log(8) + rng_uniform(&r) * log(64)));
		if (d == 3)
			x[2] = x[3];
		obs[i].x = x;
		obs[i].state = OBS_COMPLETE;
		obs[i].has_value = 1;
		obs[i].value = fabs(log(x[0] / 0.01)) + 0.1 * x[1] +
		    (d == 3 ? 0.1 * fabs(x[2] - 4) : 10 * fabs(x[2] - 0.9)) +
		    0.01 * rng_uniform(&r);
	}
}

/* The space of d parameters: every kind (5), or lr, bs and layers (3). */
static struct space *
space_make(size_t d)
{
	struct space *sp;

	if (d == MAXDIM)
		return space_kinds_new();
	sp = space_new();
	space_add_float(sp, "lr", 0.001, 0.2, SCALE_LOG, 0);
	space_kinds_add_bs(sp, "bs");
	space_add_int(sp, "layers", 1, 9, SCALE_LINEAR, 0);
	return sp;
}

/*
 * The largest difference of the ratio, exact against merged, over the
 * candidates, and of the rounds' best ratios (*best); *ncomp the merged
 * components, *wsum their weight.
 */
static double
group_check(const struct search *s, const struct history *h,
    const size_t *below, size_t nb, const size_t *above, size_t na,
    double *best, size_t *ncomp, double *wsum)
{
	size_t d = s->space->n, i, k, c;
	struct parzen l[MAXDIM], ge[MAXDIM], gm[MAXDIM];
	double *t, y[MAXDIM], re, rm, diff = 0, be, bm, sce[NCAND];
	struct rng r;
	int round;

	if ((t = calloc(na + 2, sizeof(*t))) == NULL ||
	    mtpe_fit(s, h, below, nb, SIZE_MAX, l) == -1 ||
	    mtpe_fit(s, h, above, na, SIZE_MAX, ge) == -1 ||
	    mtpe_fit(s, h, above, na, 0, gm) == -1)
		exit(1);
	*ncomp = gm[0].n;
	for (*wsum = 0, k = 0; k < gm[0].n; k++)
		*wsum += gm[0].w[k];
	*best = 0;
	for (round = 0; round < ROUNDS; round++) {
		rng_seed(&r, 99, (uint64_t)round);
		be = bm = -INFINITY;
		for (c = 0; c < NCAND; c++) {
			k = parzen_component(&l[0], &r);
			for (i = 0; i < d; i++)
				y[i] = tpe_snap(&s->space->params[i],
				    parzen_draw(&l[i], k, &r));
			re = mtpe_logpdf(l, d, y, t) - mtpe_logpdf(ge, d, y, t);
			rm = mtpe_logpdf(l, d, y, t) - mtpe_logpdf(gm, d, y, t);
			diff = fmax(diff, fabs(re - rm));
			sce[c] = re;
			if (rm > bm) {
				bm = rm;
				be = sce[c];
			}
		}
		for (c = 0; c < NCAND; c++)
			*best = fmax(*best, sce[c] - be);
	}
	for (i = 0; i < d; i++) {
		parzen_release(&l[i]);
		parzen_release(&ge[i]);
		parzen_release(&gm[i]);
	}
	free(t);
	return diff;
}

/* A whole mtpe suggestion: inside the space and the same twice. */
static void
suggest_check(const struct space *sp, const struct history *h)
{
	struct search *s;
	double x[MAXDIM], y[MAXDIM];
	size_t i;
	int inside = 1;

	if ((s = search_new("mtpe", sp, 3, NULL, 0)) == NULL)
		exit(1);
	if (search_suggest(s, h, x) != 0 || search_suggest(s, h, y) != 0)
		exit(1);
	for (i = 0; i < sp->n; i++)
		if (sp->params[i].type != PARAM_CHOICE &&
		    (x[i] < sp->params[i].min || x[i] > sp->params[i].max))
			inside = 0;
	ok(inside, "a suggestion over 10^4 trials lies in the space");
	ok(memcmp(x, y, sp->n * sizeof(*x)) == 0, "and is the same twice");
	search_free(s);
}

int
main(void)
{
	struct tpe_conf conf;
	struct observation *obs;
	struct search *s;
	struct history h;
	struct space *sp;
	double *xs, diff, best, wsum, tol;
	size_t *below, *above, nb, na, ncomp, d;

	xs = calloc(NTRIALS * MAXDIM, sizeof(*xs));
	obs = calloc(NTRIALS, sizeof(*obs));
	if (xs == NULL || obs == NULL)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.failed_worst = conf.liar = 1;
	conf.startup = 10;
	for (d = 3; d <= MAXDIM; d += 2) {
		sp = space_make(d);
		tol = d == 3 ? TOL3 : TOL5;
		history_make(obs, xs, NTRIALS, d);
		h.n = NTRIALS;
		h.obs = obs;
		h.maximize = 0;
		if ((s = search_new("mtpe", sp, 3, NULL, 0)) == NULL ||
		    tpe_split(&h, &conf, &below, &nb, &above, &na) != 0)
			return 1;
		ok(na > MTPE_EXACT_MAX, "%zu parameters: the bad group (%zu) "
		    "is merged", d, na);
		diff = group_check(s, &h, below, nb, above, na, &best, &ncomp,
		    &wsum);
		ok(diff <= tol, "log l/g within %g of the exact one (%.3g)",
		    tol, diff);
		ok(best <= tol, "the merged pick's exact ratio within %g of "
		    "the best (%.3g)", tol, best);
		ok(ncomp <= MTPE_CELLS + 1, "%zu components for %zu trials",
		    ncomp, na);
		is_near(wsum, 1, 1e-9, "weights sum to 1");
		free(below);
		free(above);
		search_free(s);
		suggest_check(sp, &h);
		space_free(sp);
	}
	free(xs);
	free(obs);
	return tap_done();
}
