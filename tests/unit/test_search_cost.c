/*
 * test_search_cost.c: unit tests of cmtpe, mtpe that prefers the cheaper
 * per step of suggestions of about equal promise (search/cost.c).
 *
 * Two parameters: x decides the loss, w the seconds per epoch (10 to
 * 200, twentyfold, as on CIFAR-10).  A trial's cost is its seconds per
 * epoch; the target is a loss under 0.0002.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "space.h"
#include "tap.h"

#define NTRIALS	40
#define NSEEDS	200	/* 25 left the medians within seed noise */

struct th {
	double		 x[NTRIALS][2];
	struct observation obs[NTRIALS];
	struct history	 h;
};

/* Seconds per epoch at w. */
static double
step_s(double w)
{
	return 10 * pow(20, w);
}

/* The loss at x: best at x = 0.3; bad_cheap: w < 0.3 never learns. */
static double
loss(const double *x, int bad_cheap)
{
	if (bad_cheap && x[1] < 0.3)
		return 1;
	return (x[0] - 0.3) * (x[0] - 0.3);
}

/* Compare doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Run algo for NTRIALS sequential trials (costs known when known is 1);
 * return the cost spent until the first trial under the target (the whole
 * campaign's if none), the trials made in the cheap third (w < 0.3) after
 * the first 10 in *ncheap, and every point in xs (NTRIALS x 2) if given.
 */
static double
run(const char *algo, uint64_t seed, int known, int bad_cheap, int *ncheap,
    double (*xs)[2])
{
	struct space *sp = space_new();
	struct search *s;
	struct th *t = calloc(1, sizeof(*t));
	struct observation *o;
	double cost = 0, hit = -1;
	int i;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	space_add_float(sp, "w", 0, 1, SCALE_LINEAR, 0);
	s = search_new(algo, sp, seed, NULL, 0);
	search_set_budget(s, NTRIALS);
	*ncheap = 0;
	for (i = 0; i < NTRIALS; i++) {
		t->h.n = (size_t)i;
		t->h.obs = t->obs;
		search_suggest(s, &t->h, t->x[i]);
		if (xs != NULL)
			memcpy(xs[i], t->x[i], sizeof(xs[i]));
		o = &t->obs[i];
		memset(o, 0, sizeof(*o));
		o->x = t->x[i];
		o->state = OBS_COMPLETE;
		o->has_value = 1;
		o->value = loss(t->x[i], bad_cheap);
		o->step_s = known ? step_s(t->x[i][1]) : 0;
		cost += step_s(t->x[i][1]);
		if (hit < 0 && o->value < 0.0002)
			hit = cost;
		if (i >= 10 && t->x[i][1] < 0.3)
			(*ncheap)++;
	}
	search_free(s);
	space_free(sp);
	free(t);
	return hit < 0 ? cost : hit;
}

/* Cost does not vary with quality: cmtpe gets to the target cheaper. */
static void
test_cheaper(void)
{
	double cm[NSEEDS], mm[NSEEDS];
	int i, nc, ncm = 0, nmm = 0;

	for (i = 0; i < NSEEDS; i++) {
		cm[i] = run("cmtpe", 300 + i, 1, 0, &nc, NULL);
		ncm += nc;
		mm[i] = run("mtpe", 300 + i, 1, 0, &nc, NULL);
		nmm += nc;
	}
	qsort(cm, NSEEDS, sizeof(double), cmp_double);
	qsort(mm, NSEEDS, sizeof(double), cmp_double);
	printf("# cost to target, median: cmtpe %g mtpe %g; trials in the "
	    "cheap third after 10: cmtpe %d mtpe %d\n", cm[NSEEDS / 2],
	    mm[NSEEDS / 2], ncm, nmm);
	ok(cm[NSEEDS / 2] <= 0.8 * mm[NSEEDS / 2], "cmtpe reaches the "
	    "target for at most 0.8x mtpe's cost (%g, %g)", cm[NSEEDS / 2],
	    mm[NSEEDS / 2]);
	ok(4 * ncm >= 7 * nmm, "cmtpe makes at least 1.75x as many cheap "
	    "suggestions (%d, %d)", ncm, nmm);
}

/* The cheap region never learns: cost does not outvote the model. */
static void
test_quality_first(void)
{
	int i, nc, ncm = 0, nmm = 0;

	for (i = 0; i < NSEEDS; i++) {
		run("cmtpe", 500 + i, 1, 1, &nc, NULL);
		ncm += nc;
		run("mtpe", 500 + i, 1, 1, &nc, NULL);
		nmm += nc;
	}
	printf("# cheap but useless: %d (mtpe %d) of %d cmtpe trials there "
	    "after 10\n", ncm, nmm, NSEEDS * (NTRIALS - 10));
	ok(ncm < NSEEDS * (NTRIALS - 10) * 3 / 10, "cheap but useless: "
	    "cmtpe goes there less often than random draws would (%d of %d)",
	    ncm, NSEEDS * (NTRIALS - 10) * 3 / 10);
}

/* With no cost known, cmtpe suggests exactly what mtpe does. */
static void
test_unknown_cost(void)
{
	static double a[NTRIALS][2], b[NTRIALS][2];
	int nc;

	run("cmtpe", 7, 0, 0, &nc, a);
	run("mtpe", 7, 0, 0, &nc, b);
	ok(memcmp(a, b, sizeof(a)) == 0, "costs unknown: cmtpe's 40 "
	    "suggestions are mtpe's");
	run("cmtpe", 7, 1, 0, &nc, a);
	ok(memcmp(a, b, sizeof(a)) != 0, "costs known: they differ");
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_cheaper();
	test_quality_first();
	test_unknown_cost();
	return tap_done();
}
