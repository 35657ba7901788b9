/*
 * test_search_objective.c: unit tests of the ranking by time to target
 * (objective.rank "time_to_target"): the rewritten history, and that tpe
 * and mtpe then follow the trial that got to the target soonest rather
 * than the one with the best final value.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "space.h"
#include "tap.h"

#define MAXT	16

/* A history of one-parameter trials with curves at steps 1..n. */
struct th {
	double		 x[MAXT][1];
	double		 steps[MAXT][40], vals[MAXT][40];
	struct observation obs[MAXT];
	struct history	 h;
};

/* Append a trial at x whose curve falls linearly from v0 to v1 in n steps. */
static size_t
th_add(struct th *t, double x, enum obs_state st, size_t n, double v0,
    double v1)
{
	size_t i = t->h.n++, k;
	struct observation *o = &t->obs[i];

	t->x[i][0] = x;
	o->x = t->x[i];
	o->state = st;
	o->steps = t->steps[i];
	o->values = t->vals[i];
	o->npoints = n;
	for (k = 0; k < n; k++) {
		t->steps[i][k] = (double)(k + 1);
		t->vals[i][k] = n > 1 ? v0 + (v1 - v0) * (double)k /
		    (double)(n - 1) : v0;
	}
	o->has_value = n > 0;
	o->value = n > 0 ? (v0 < v1 ? v0 : v1) : 0;
	t->h.obs = t->obs;
	return i;
}

/* The rewritten history: on target first, fewer steps first. */
static void
test_rewrite(void)
{
	struct observation out[MAXT];
	struct th t;

	memset(&t, 0, sizeof(t));
	th_add(&t, 0.1, OBS_COMPLETE, 40, 0.9, 0.05);	/* 0.2 at step 31 */
	th_add(&t, 0.2, OBS_RUNNING, 5, 0.5, 0.15);	/* 0.2 at step 5 */
	th_add(&t, 0.3, OBS_COMPLETE, 40, 0.9, 0.25);	/* never */
	th_add(&t, 0.4, OBS_PRUNED, 3, 0.9, 0.85);	/* never */
	search_time_to_target(&t.h, 0.2, out);
	ok(out[0].state == OBS_COMPLETE && out[1].state == OBS_COMPLETE,
	    "trials on target count as complete, running ones too");
	ok(out[1].value < out[0].value,
	    "5 steps to target rank ahead of 31");
	ok(out[0].value < 0.25 - 1e9,
	    "on target ranks ahead of any value");
	ok(out[2].value == 0.25 && out[2].state == OBS_COMPLETE &&
	    out[3].state == OBS_PRUNED && out[3].value == t.obs[3].value,
	    "the others keep their state and best value");
	ok(out[0].x == t.obs[0].x && out[0].npoints == 40,
	    "point and curve are kept");

	memset(&t, 0, sizeof(t));
	t.h.maximize = 1;
	th_add(&t, 0.1, OBS_COMPLETE, 10, 0.1, 0.9);
	th_add(&t, 0.2, OBS_COMPLETE, 10, 0.5, 0.95);
	th_add(&t, 0.3, OBS_COMPLETE, 10, 0.1, 0.7);
	t.obs[0].value = 0.9;
	t.obs[1].value = 0.95;
	t.obs[2].value = 0.7;
	search_time_to_target(&t.h, 0.8, out);
	ok(out[1].value > out[0].value && out[0].value > 0.95 + 1e9 &&
	    out[2].value == 0.7, "maximize: sooner is larger, then values");
}

/*
 * Ten finished trials: one got to the target in 8 steps near x = 0.15,
 * one in 32 steps but to the best final value near x = 0.85, eight never
 * (x in [0.4, 0.6]).  The mean of tpe's or mtpe's next suggestions over
 * 20 seeds follows the fast one by time to target, the best value by value.
 */
static double
mean_next(const char *algo, enum search_rank rank)
{
	struct space *sp = space_new();
	struct search *s;
	struct th t;
	double x[1], sum = 0;
	uint64_t seed;
	int i;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	memset(&t, 0, sizeof(t));
	th_add(&t, 0.15, OBS_COMPLETE, 40, 0.21, 0.15);
	th_add(&t, 0.85, OBS_COMPLETE, 40, 0.9, 0.01);
	for (i = 0; i < 8; i++)
		th_add(&t, 0.4 + 0.025 * i, OBS_COMPLETE, 40, 0.9, 0.3);
	for (seed = 1; seed <= 20; seed++) {
		s = search_new(algo, sp, seed, NULL, 0);
		search_set_budget(s, 100);
		search_set_objective(s, rank, 0.2);
		search_suggest(s, &t.h, x);
		sum += x[0];
		search_free(s);
	}
	space_free(sp);
	return sum / 20;
}

/* tpe, mtpe and auto follow the fast trial when ranking by time to target. */
static void
test_follow(void)
{
	double v, ttt;

	v = mean_next("tpe", SEARCH_RANK_VALUE);
	ttt = mean_next("tpe", SEARCH_RANK_TIME_TO_TARGET);
	ok(v > 0.6 && ttt < 0.4, "tpe: by value next x %.3f (best final "
	    "value at 0.85), by time to target %.3f (fastest at 0.15)", v, ttt);
	v = mean_next("mtpe", SEARCH_RANK_VALUE);
	ttt = mean_next("mtpe", SEARCH_RANK_TIME_TO_TARGET);
	ok(v > 0.6 && ttt < 0.4, "mtpe: by value %.3f, by time to target "
	    "%.3f", v, ttt);
	v = mean_next("auto", SEARCH_RANK_VALUE);
	ttt = mean_next("auto", SEARCH_RANK_TIME_TO_TARGET);
	ok(v > 0.6 && ttt < 0.4, "auto: by value %.3f, by time to target "
	    "%.3f", v, ttt);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_rewrite();
	test_follow();
	return tap_done();
}
