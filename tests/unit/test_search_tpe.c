/*
 * test_search_tpe.c: unit tests of the TPE search: determinism, start-up
 * trials, how it ranks pruned and failed trials, and that it beats random
 * search on functions whose optimum is known.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow_history.h"
#include "search.h"
#include "space.h"
#include "tap.h"

#define NSEEDS	25

/* Compare two doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A 1-D function: a parabola with its minimum 0 at x = 1.3. */
static double
f1(const double *x)
{
	return (x[0] - 1.3) * (x[0] - 1.3);
}

/*
 * A 2-D function over a log-scale learning rate and an integer: its
 * minimum 0 is at lr = 10^-1.5 and n = 7.
 */
static double
f2(const double *x)
{
	double a = log10(x[0]) + 1.5, b = (x[1] - 7) / 4;

	return a * a + b * b;
}

/* Best value found by `algo` in `ntrials` sequential trials of f. */
static double
run(const char *algo, const struct space *sp, uint64_t seed, int ntrials,
    double (*f)(const double *))
{
	struct search *s;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[4], v, best = INFINITY;
	int i;

	s = search_new(algo, sp, seed, NULL, 0);
	for (i = 0; i < ntrials; i++) {
		search_suggest(s, &t->h, x);
		v = f(x);
		best = fmin(best, v);
		grow_history_add(t, x, sp->n, OBS_COMPLETE, 1, v);
	}
	search_free(s);
	free(t);
	return best;
}

/* Median over NSEEDS seeds of the best value found. */
static double
median_best(const char *algo, const struct space *sp, int ntrials,
    double (*f)(const double *))
{
	double b[NSEEDS];
	int i;

	for (i = 0; i < NSEEDS; i++)
		b[i] = run(algo, sp, 1000 + i, ntrials, f);
	qsort(b, NSEEDS, sizeof(double), cmp_double);
	return b[NSEEDS / 2];
}

/* TPE beats random on the median of 25 seeds, in 1-D and in 2-D. */
static void
test_beats_random(void)
{
	struct space *sp;
	double mt, mr;

	sp = space_new();
	space_add_float(sp, "x", -5, 5, SCALE_LINEAR, 0);
	mt = median_best("tpe", sp, 40, f1);
	mr = median_best("random", sp, 40, f1);
	printf("# 1-D, 40 trials: median best tpe %.3g, random %.3g\n", mt, mr);
	ok(mt < mr / 2, "1-D: tpe's median best is under half random's");
	space_free(sp);

	sp = space_new();
	space_add_float(sp, "lr", 1e-4, 1, SCALE_LOG, 0);
	space_add_int(sp, "n", 0, 20, SCALE_LINEAR, 0);
	mt = median_best("tpe", sp, 50, f2);
	mr = median_best("random", sp, 50, f2);
	printf("# 2-D, 50 trials: median best tpe %.3g, random %.3g\n", mt, mr);
	ok(mt < mr / 2, "2-D: tpe's median best is under half random's");
	space_free(sp);
}

/* Same seed and history: same point; start-up trials are random's. */
static void
test_determinism(void)
{
	struct space *sp = space_new();
	struct search *a, *b, *r;
	struct grow_history *t = calloc(1, sizeof(*t));
	struct value v[3] = { { 0, 16, NULL }, { 0, 32, NULL },
	    { 1, 0, "big" } };
	double x[4], xa[4], xb[4], xr[4];
	int i, same = 1, startup = 1, valid = 1, j;

	space_add_float(sp, "lr", 1e-4, 1, SCALE_LOG, 0);
	space_add_int(sp, "n", 1, 64, SCALE_LOG, 0);
	space_add_choice(sp, "bs", v, 3);
	space_add_int(sp, "k", -3, 3, SCALE_LINEAR, 0);
	a = search_new("tpe", sp, 5, NULL, 0);
	b = search_new("tpe", sp, 5, NULL, 0);
	r = search_new("random", sp, 5, NULL, 0);
	for (i = 0; i < 30; i++) {
		search_suggest(a, &t->h, xa);
		search_suggest(b, &t->h, xb);
		search_suggest(r, &t->h, xr);
		same &= memcmp(xa, xb, sizeof(xa)) == 0;
		if (i < 10)
			startup &= memcmp(xa, xr, sizeof(xa)) == 0;
		for (j = 0; j < 4; j++)
			valid &= space_contains(sp, j, xa[j]);
		memcpy(x, xa, sizeof(x));
		grow_history_add(t, x, 4, i % 7 == 3 ? OBS_FAILED : i % 5 == 1 ?
		    OBS_PRUNED : OBS_COMPLETE, 1, x[0] + x[3] * x[3]);
	}
	ok(same, "same seed, same history: same 30 suggestions");
	ok(startup, "the first 10 suggestions are random search's");
	ok(valid, "every coordinate is valid (log int, choice, int)");
	search_free(a);
	search_free(b);
	search_free(r);
	space_free(sp);
	free(t);
}

/*
 * Completed trials rank before pruned ones whatever their values (as in
 * Optuna); failed trials count neither in the start-up nor in the model.
 */
static void
test_ranking(void)
{
	struct space *sp = space_new();
	struct search *s, *r;
	struct grow_history *t;
	double x[1], xs, xr, xa, xb;
	int seed, near_done = 0, startup = 1, blind = 1, i;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (seed = 0; seed < 10; seed++) {
		/* 2 completed at 0.85 (value 0.5), 18 pruned elsewhere (0.01). */
		t = calloc(1, sizeof(*t));
		for (i = 0; i < 20; i++) {
			x[0] = i < 2 ? 0.85 : 0.05 + 0.03 * i;
			x[0] = i < 2 ? x[0] : fmin(x[0], 0.6);
			grow_history_add(t, x, 1, i < 2 ? OBS_COMPLETE :
			    OBS_PRUNED, 1, i < 2 ? 0.5 : 0.01);
		}
		s = search_new("tpe", sp, seed, NULL, 0);
		search_suggest(s, &t->h, &xs);
		near_done += xs > 0.7;
		search_free(s);
		free(t);

		/* 15 failed near 0.1, 9 completed: still random search. */
		t = calloc(1, sizeof(*t));
		for (i = 0; i < 24; i++) {
			x[0] = i % 3 == 0 ? 0.9 - 0.01 * i : 0.1 + 0.001 * i;
			grow_history_add(t, x, 1, i % 3 == 0 || i == 23 ?
			    OBS_COMPLETE : OBS_FAILED, 1, x[0]);
		}
		s = search_new("tpe", sp, seed, NULL, 0);
		r = search_new("random", sp, seed, NULL, 0);
		search_suggest(s, &t->h, &xs);
		search_suggest(r, &t->h, &xr);
		startup &= xs == xr;

		/* One more completed: tpe, blind to where the failed ones are. */
		x[0] = 0.5;
		grow_history_add(t, x, 1, OBS_COMPLETE, 1, 0.5);
		search_suggest(s, &t->h, &xa);
		for (i = 0; i < 25; i++)
			if (t->obs[i].state == OBS_FAILED)
				t->x[i][0] = 0.95 - 0.002 * i;
		search_suggest(s, &t->h, &xb);
		search_suggest(r, &t->h, &xr);
		blind &= xa == xb && xa != xr;
		search_free(s);
		search_free(r);
		free(t);
	}
	ok(near_done >= 8, "completed trials rank before pruned ones "
	    "(%d of 10 seeds near them)", near_done);
	ok(startup, "failed trials do not count in the 10 start-up trials");
	ok(blind, "failed trials do not inform the model");
	space_free(sp);
}

/*
 * Trials marked other_bracket count neither in the start-up nor in the
 * model: the suggestion is the same whatever they hold.
 */
static void
test_brackets(void)
{
	struct space *sp = space_new();
	struct search *s, *r;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[1], xa, xb, xr;
	int i, startup, blind;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	s = search_new("tpe", sp, 3, NULL, 0);
	r = search_new("random", sp, 3, NULL, 0);
	/* 9 of this bracket, 20 of others, all completed. */
	for (i = 0; i < 29; i++) {
		x[0] = 0.02 * i + 0.1;
		grow_history_add(t, x, 1, OBS_COMPLETE, 1,
		    i % 3 == 0 ? x[0] : 0.01);
		t->obs[i].other_bracket = i % 3 != 0 || i > 24;
	}
	search_suggest(s, &t->h, &xa);
	search_suggest(r, &t->h, &xr);
	startup = xa == xr;
	t->obs[27].other_bracket = 0;
	search_suggest(s, &t->h, &xa);
	for (i = 0; i < 29; i++)
		if (t->obs[i].other_bracket) {
			t->x[i][0] = 0.9;
			t->obs[i].value = 1 - t->obs[i].value;
		}
	search_suggest(s, &t->h, &xb);
	search_suggest(r, &t->h, &xr);
	blind = xa == xb && xa != xr;
	ok(startup, "trials of other brackets do not count in the start-up");
	ok(blind, "trials of other brackets do not inform the model");
	search_free(s);
	search_free(r);
	space_free(sp);
	free(t);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_determinism();
	test_ranking();
	test_brackets();
	test_beats_random();
	return tap_done();
}
