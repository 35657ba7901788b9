/*
 * test_search_tpe_bin.c: the binned Parzen estimator that TPE uses for a
 * group of more than PARZEN_EXACT_MAX trials (search/parzen_bin.c) scores
 * candidates as the exact one does.  Over a history of 10^4 trials of a
 * synthetic objective (every kind of parameter, with and without tied
 * points), split into good and bad as TPE splits it, the log density
 * ratio log l(y) - log g(y) with the bad group binned agrees with the
 * exact one within TOL at every candidate TPE would draw from l and on a
 * grid over each range, the same candidate wins each round of 24, and
 * the binned estimator has at most 3 x PARZEN_BINS + 1 components; a
 * whole suggestion over that history is in the space and deterministic.
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
#define DIM		5
#define ROUNDS		50	/* suggestions' worth of candidates */
#define NCAND		24
#define NGRID		401
#define TOL		1e-3	/* in log density: 0.1% */

/*
 * A history of n finished trials, a third of them around the optimum
 * (lr 0.01, m 0.9) as a search that learns would leave; ties: many on
 * the same few points.
 */
static void
history_make(struct observation *obs, double *xs, size_t n, int ties)
{
	struct rng r;
	size_t i;
	double *x;

	rng_seed(&r, 15, (uint64_t)ties);
	for (i = 0; i < n; i++) {
		x = &xs[DIM * i];
		if (ties && i % 2 == 0)
			x[0] = 0.001 * (double)(1 + rng_next(&r) % 5);
		else if (i % 3 == 0)
			x[0] = fmin(fmax(0.01 * exp(0.3 * rng_normal(&r)),
			    0.001), 0.2);
		else
			x[0] = exp(log(0.001) + rng_uniform(&r) * log(200));
		x[1] = (double)(rng_next(&r) % 3);
		x[2] = ties && i % 2 == 1 ? 0.9 : i % 3 == 0 ?
		    fmin(fmax(0.9 + 0.01 * rng_normal(&r), 0.85), 0.95) :
		    0.85 + 0.1 * rng_uniform(&r);
		x[3] = (double)(1 + rng_next(&r) % 9);
		x[4] = round(exp(log(8) + rng_uniform(&r) * log(64)));
		obs[i].x = x;
		obs[i].state = OBS_COMPLETE;
		obs[i].has_value = 1;
		obs[i].value = fabs(log(x[0] / 0.01)) + 0.1 * x[1] +
		    10 * fabs(x[2] - 0.9) + 0.01 * rng_uniform(&r);
	}
}

/* The internal coordinates of parameter i of the trials idx. */
static void
coords(const struct space *sp, const struct history *h, size_t i,
    const size_t *idx, size_t m, double *xs)
{
	const struct param_def *p = &sp->params[i];
	size_t k;

	for (k = 0; k < m; k++)
		xs[k] = p->type == PARAM_CHOICE ? h->obs[idx[k]].x[i] :
		    tpe_to_internal(p, h->obs[idx[k]].x[i]);
}

/*
 * Parameter i: the largest difference of the ratio, exact against
 * binned, over the candidates and the grid; *differ counts the rounds
 * whose winners differ, *ncomp the binned components, *wsum their weight.
 */
static double
param_check(const struct space *sp, const struct history *h, size_t i,
    const size_t *below, size_t nb, const size_t *above, size_t na,
    int *differ, size_t *ncomp, double *wsum)
{
	const struct param_def *p = &sp->params[i];
	struct parzen l, ge, gb;
	struct rng r;
	double *xs, y, re, rb, diff = 0, beste = 0, bestb = 0;
	size_t k, c, ie = 0, ib = 0;
	int round;

	xs = calloc(na + 1, sizeof(*xs));
	if (xs == NULL)
		exit(1);
	coords(sp, h, i, below, nb, xs);
	if (parzen_init(&l, p, xs, nb, 0) == -1)
		exit(1);
	coords(sp, h, i, above, na, xs);
	if (parzen_init(&ge, p, xs, na, 0) == -1 ||
	    parzen_init_binned(&gb, p, xs, na, PARZEN_BINS) == -1)
		exit(1);
	*ncomp = gb.n;
	for (*wsum = 0, k = 0; k < gb.n; k++)
		*wsum += gb.w[k];
	*differ = 0;
	for (round = 0; round < ROUNDS; round++) {
		rng_seed(&r, 99, (uint64_t)round);
		for (c = 0; c < NCAND; c++) {
			y = tpe_snap(p, parzen_draw(&l,
			    parzen_component(&l, &r), &r));
			re = parzen_logpdf(&l, y) - parzen_logpdf(&ge, y);
			rb = parzen_logpdf(&l, y) - parzen_logpdf(&gb, y);
			diff = fmax(diff, fabs(re - rb));
			if (c == 0 || re > beste) {
				beste = re;
				ie = c;
			}
			if (c == 0 || rb > bestb) {
				bestb = rb;
				ib = c;
			}
		}
		*differ += ie != ib;
	}
	for (k = 0; k < NGRID; k++) {
		y = p->type == PARAM_CHOICE ? (double)(k % p->nchoices) :
		    tpe_snap(p, l.low + (l.high - l.low) * (double)k /
		    (NGRID - 1));
		re = parzen_logpdf(&l, y) - parzen_logpdf(&ge, y);
		rb = parzen_logpdf(&l, y) - parzen_logpdf(&gb, y);
		diff = fmax(diff, fabs(re - rb));
	}
	parzen_release(&l);
	parzen_release(&ge);
	parzen_release(&gb);
	free(xs);
	return diff;
}

/*
 * A whole suggestion over the binned groups: inside the space, the same
 * twice (a pure function of the seed and the history), and drawn near the
 * good trials' optimum (lr 0.01, m 0.9) as the exact TPE's is.
 */
static void
suggest_check(const struct space *sp, const struct history *h)
{
	struct search *s;
	double x[DIM], y[DIM];
	size_t i;
	int inside = 1;

	if ((s = search_new("tpe", sp, 3, NULL, 0)) == NULL)
		exit(1);
	if (search_suggest(s, h, x) != 0 || search_suggest(s, h, y) != 0)
		exit(1);
	for (i = 0; i < DIM; i++)
		if (sp->params[i].type != PARAM_CHOICE &&
		    (x[i] < sp->params[i].min || x[i] > sp->params[i].max))
			inside = 0;
	ok(inside, "a suggestion over 10^4 trials lies in the space");
	ok(memcmp(x, y, sizeof(x)) == 0, "and is the same twice");
	ok(fabs(log(x[0] / 0.01)) < 1 && fabs(x[2] - 0.9) < 0.02,
	    "near the optimum (lr %g, m %g)", x[0], x[2]);
	search_free(s);
}

int
main(void)
{
	static const char *const names[DIM] = { "log float", "choice",
	    "linear float", "linear int", "log int" };
	struct tpe_conf conf;
	struct observation *obs;
	struct history h;
	struct space *sp;
	double *xs, diff, wsum;
	size_t *below, *above, nb, na, i, ncomp;
	int ties, differ;

	sp = space_kinds_new();
	xs = calloc(NTRIALS * DIM, sizeof(*xs));
	obs = calloc(NTRIALS, sizeof(*obs));
	if (xs == NULL || obs == NULL)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.startup = 10;
	for (ties = 0; ties < 2; ties++) {
		history_make(obs, xs, NTRIALS, ties);
		h.n = NTRIALS;
		h.obs = obs;
		h.maximize = 0;
		if (tpe_split(&h, &conf, &below, &nb, &above, &na) != 0)
			return 1;
		ok(na > PARZEN_EXACT_MAX, "%s: the bad group (%zu) is binned",
		    ties ? "ties" : "spread", na);
		for (i = 0; i < DIM; i++) {
			diff = param_check(sp, &h, i, below, nb, above, na,
			    &differ, &ncomp, &wsum);
			ok(diff <= TOL, "%s, %s: log l/g within %g of the "
			    "exact one (%.3g)", ties ? "ties" : "spread",
			    names[i], TOL, diff);
			is_int(differ, 0, "the same candidate wins each round");
			ok(ncomp <= 3 * PARZEN_BINS + 1 && ncomp < na / 2,
			    "%zu components for %zu trials", ncomp, na);
			is_near(wsum, 1, 1e-9, "weights sum to 1");
		}
		free(below);
		free(above);
		suggest_check(sp, &h);
	}
	free(xs);
	free(obs);
	space_free(sp);
	return tap_done();
}
