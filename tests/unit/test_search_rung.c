/*
 * test_search_rung.c: mtpe's model on partial learning curves (rung.c,
 * BOHB's rule): it fits at the highest step at which enough trials have
 * a value, running trials included, so at max_parallel 8 it acts before
 * any trial finished; once enough trials finished, the curves change
 * nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "space.h"
#include "tap.h"

#define MAXT	32
#define MAXP	12
#define NSEEDS	25

/* A history of trials over one parameter, each with its curve. */
struct th {
	double		 x[MAXT];
	double		 steps[MAXT][MAXP], values[MAXT][MAXP];
	struct observation obs[MAXT];
	struct history	 h;
};

/* Append a trial at x in state st, with no curve yet. */
static struct observation *
th_add(struct th *t, double x, enum obs_state st)
{
	struct observation *o = &t->obs[t->h.n];

	t->x[t->h.n] = x;
	memset(o, 0, sizeof(*o));
	o->x = &t->x[t->h.n];
	o->steps = t->steps[t->h.n];
	o->values = t->values[t->h.n];
	o->state = st;
	t->h.n++;
	t->h.obs = t->obs;
	return o;
}

/* Give trial k the points 1..n of curve f at its x, its best as value. */
static void
th_curve(struct th *t, size_t k, size_t n, double (*f)(double, double))
{
	struct observation *o = &t->obs[k];
	size_t i;

	o->npoints = n;
	for (i = 0; i < n; i++) {
		t->steps[k][i] = (double)(i + 1);
		t->values[k][i] = f(t->x[k], (double)(i + 1));
		if (i == 0 || t->values[k][i] < o->value)
			o->value = t->values[k][i];
	}
	o->has_value = n > 0;
}

/* Loss at step e of a run at x: least at x = 0.2, falling with e. */
static double
near02(double x, double e)
{
	return fabs(x - 0.2) + 0.5 / e;
}

/*
 * Loss at step e of a run at x: the runs near 0.2 lead until step 5,
 * the runs near 0.8 from step 6 on.
 */
static double
crossing(double x, double e)
{
	return e <= 5 ? 1 + fabs(x - 0.2) / e : fabs(x - 0.8) / 2;
}

/*
 * Eight trials run, none finished, each three points into its curve:
 * the ninth suggestion comes from the model fitted on those points (it
 * was sobol's ninth point), near the region whose curves lead.
 */
static void
test_running(void)
{
	struct space *sp = space_new();
	struct search *s, *q;
	struct th *t = calloc(1, sizeof(*t));
	double x, xq, dm = 0, dq = 0;
	int seed, i, differs = 0;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (seed = 1; seed <= NSEEDS; seed++) {
		s = search_new("mtpe", sp, (uint64_t)seed, NULL, 0);
		q = search_new("sobol", sp, (uint64_t)seed, NULL, 0);
		search_set_budget(s, 100);
		t->h.n = 0;
		for (i = 0; i < 8; i++) {
			search_suggest(s, &t->h, &x);
			th_add(t, x, OBS_RUNNING);
		}
		for (i = 0; i < 8; i++)
			th_curve(t, (size_t)i, 3, near02);
		search_suggest(s, &t->h, &x);
		search_suggest(q, &t->h, &xq);
		differs += x != xq;
		dm += fabs(x - 0.2);
		dq += fabs(xq - 0.2);
		search_free(s);
		search_free(q);
	}
	printf("# mean distance from 0.2 of the 9th suggestion: mtpe %.3g, "
	    "sobol %.3g\n", dm / NSEEDS, dq / NSEEDS);
	ok(differs == NSEEDS, "8 running, none finished: the model acts "
	    "(%d of %d seeds differ from sobol's point)", differs, NSEEDS);
	ok(2 * dm < dq, "... and suggests near the leading curves");
	space_free(sp);
	free(t);
}

/*
 * The highest step with enough values decides: four of eight running
 * trials reached step 10, where the runs near 0.8 lead (those near 0.2
 * lead at step 5 and below); three values at a step are enough (the
 * start-up count of one parameter).
 */
static void
test_highest(void)
{
	struct space *sp = space_new();
	struct search *s;
	struct th *t = calloc(1, sizeof(*t));
	double x;
	int seed, i, high = 0;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (seed = 1; seed <= NSEEDS; seed++) {
		s = search_new("mtpe", sp, (uint64_t)seed, NULL, 0);
		t->h.n = 0;
		for (i = 0; i < 8; i++) {
			th_add(t, 0.05 + 0.125 * i, OBS_RUNNING);
			th_curve(t, (size_t)i, i % 2 ? 2 : 10, crossing);
		}
		search_suggest(s, &t->h, &x);
		high += fabs(x - 0.8) < fabs(x - 0.2);
		search_free(s);
	}
	ok(high >= NSEEDS * 4 / 5, "the model fits at step 10, where 0.8 "
	    "leads (%d of %d seeds nearer 0.8)", high, NSEEDS);
	space_free(sp);
	free(t);
}

/*
 * Once enough trials finished, the model is the one of their final
 * values: the curves (the running trials' included) change no
 * suggestion; and a new search given the same history with curves
 * suggests the same (restart).
 */
static void
test_finished(void)
{
	struct space *sp = space_new();
	struct search *s, *r;
	struct th *t = calloc(1, sizeof(*t));
	double x, xc, xr;
	size_t np[MAXT];
	int seed, i, same = 1, restart = 1;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (seed = 1; seed <= NSEEDS; seed++) {
		s = search_new("mtpe", sp, (uint64_t)seed, NULL, 0);
		t->h.n = 0;
		for (i = 0; i < 12; i++) {
			th_add(t, (double)((i * 5) % 12) / 11, i < 9 ?
			    OBS_COMPLETE : OBS_RUNNING);
			th_curve(t, (size_t)i, i < 9 ? 10 : 4, near02);
		}
		search_suggest(s, &t->h, &xc);
		r = search_new("mtpe", sp, (uint64_t)seed, NULL, 0);
		search_suggest(r, &t->h, &xr);
		restart &= xc == xr;
		for (i = 0; i < 12; i++) {
			np[i] = t->obs[i].npoints;
			t->obs[i].npoints = 0;
		}
		search_suggest(s, &t->h, &x);
		for (i = 0; i < 12; i++)
			t->obs[i].npoints = np[i];
		same &= x == xc;
		search_free(s);
		search_free(r);
	}
	ok(same, "9 finished on their last step: the curves change nothing");
	ok(restart, "same seed, same history with curves: same suggestion");
	space_free(sp);
	free(t);
}

/* auto's reason says that its model learns from partial curves. */
static void
test_auto_reason(void)
{
	struct space *sp = space_new();
	struct search *s;
	const char *why;
	double x;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	s = search_new("auto", sp, 1, NULL, 0);
	search_set_budget(s, 100);
	search_suggest(s, NULL, &x);
	is_str(search_chosen(s, &why), "cmtpe", "auto chose cmtpe");
	like(why, "highest epoch enough curves reached", "... and says "
	    "that it fits at the highest epoch enough curves reached");
	like(why, "the cheaper per epoch", "... the whole reason fits");
	search_free(s);
	space_free(sp);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_running();
	test_highest();
	test_finished();
	test_auto_reason();
	return tap_done();
}
