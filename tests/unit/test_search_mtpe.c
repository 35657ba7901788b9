/*
 * test_search_mtpe.c: unit tests of mtpe (multivariate TPE where failed
 * and running trials inform the model) and of auto, the default search
 * that picks an algorithm from the space and the budget.
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

/* Append a trial to t, with its value v if it completed. */
static void
th_add(struct grow_history *t, const double *x, size_t dim,
    enum obs_state st, double v)
{
	grow_history_add(t, x, dim, st, st == OBS_COMPLETE, v);
}

/* Compare two doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * SGD with momentum: the effective step lr / (1 - m) diverges above 1
 * (the trial fails, *failed = 1); the loss is least at a step of 0.5,
 * next to the diverging region, as on real learning curves.
 */
static double
sgd(const double *x, int *failed)
{
	double eff = x[0] / (1 - x[1]), a;

	*failed = eff > 1;
	a = log10(eff / 0.5);
	return a * a;
}

/*
 * Run algo for n sequential trials of sgd; return the trials until one
 * reaches a loss under 0.01 (n + 1 if none does) and count the failures.
 */
static int
sgd_run(const char *algo, const struct space *sp, uint64_t seed, int n,
    int *nfailed)
{
	struct search *s;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[2], v;
	int i, failed, hit = n + 1;

	s = search_new(algo, sp, seed, NULL, 0);
	search_set_budget(s, (size_t)n);
	*nfailed = 0;
	for (i = 0; i < n; i++) {
		search_suggest(s, &t->h, x);
		v = sgd(x, &failed);
		*nfailed += failed;
		if (!failed && v < 0.01 && hit > n)
			hit = i + 1;
		th_add(t, x, 2, failed ? OBS_FAILED : OBS_COMPLETE, v);
	}
	search_free(s);
	free(t);
	return hit;
}

/*
 * A region that diverges is avoided: mtpe fails fewer trials than tpe
 * (which leaves failures out, as Optuna) and reaches the target sooner.
 */
static void
test_failures(void)
{
	struct space *sp = space_new();
	double hm[NSEEDS], ht[NSEEDS], fm[NSEEDS], ft[NSEEDS];
	int i, nf;

	space_add_float(sp, "lr", 1e-3, 10, SCALE_LOG, 0);
	space_add_float(sp, "momentum", 0, 0.99, SCALE_LINEAR, 0);
	for (i = 0; i < NSEEDS; i++) {
		hm[i] = sgd_run("mtpe", sp, 100 + i, 60, &nf);
		fm[i] = nf;
		ht[i] = sgd_run("tpe", sp, 100 + i, 60, &nf);
		ft[i] = nf;
	}
	qsort(hm, NSEEDS, sizeof(double), cmp_double);
	qsort(ht, NSEEDS, sizeof(double), cmp_double);
	qsort(fm, NSEEDS, sizeof(double), cmp_double);
	qsort(ft, NSEEDS, sizeof(double), cmp_double);
	printf("# sgd, 60 trials: median failed mtpe %g tpe %g, "
	    "median trials to target mtpe %g tpe %g\n", fm[NSEEDS / 2],
	    ft[NSEEDS / 2], hm[NSEEDS / 2], ht[NSEEDS / 2]);
	ok(fm[NSEEDS / 2] <= 0.5 * ft[NSEEDS / 2], "mtpe fails at most "
	    "half as many trials as tpe in the median seed");
	ok(hm[NSEEDS / 2] < ht[NSEEDS / 2], "mtpe reaches the target in "
	    "fewer trials than tpe in the median seed");
	space_free(sp);
}

/*
 * Failures of a 1-D search whose best point 0.6 borders a region that
 * diverges, (0.6, 0.8]; hide: leave them out of the model (as tpe does).
 */
static int
edge_failures(const struct space *sp, uint64_t seed, int hide)
{
	struct search *s;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[1];
	int i, failed, nfailed = 0;

	s = search_new("mtpe", sp, seed, NULL, 0);
	for (i = 0; i < 40; i++) {
		search_suggest(s, &t->h, x);
		failed = x[0] > 0.6 && x[0] <= 0.8;
		nfailed += failed;
		th_add(t, x, 1, failed ? OBS_FAILED : OBS_COMPLETE,
		    fabs(x[0] - 0.6));
		t->obs[i].other_bracket = failed && hide;
	}
	search_free(s);
	free(t);
	return nfailed;
}

/*
 * Failed trials inform the model: next to a diverging region, mtpe fails
 * fewer trials than it does when the same failures are left out.
 */
static void
test_failed_informs(void)
{
	struct space *sp = space_new();
	int seed, in = 0, out = 0;

	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (seed = 0; seed < NSEEDS; seed++) {
		in += edge_failures(sp, seed, 0);
		out += edge_failures(sp, seed, 1);
	}
	printf("# edge, 40 trials x %d seeds: %d failed, %d with the "
	    "failures left out\n", NSEEDS, in, out);
	ok(2 * in < out, "failures in the model halve the failures");
	space_free(sp);
}

/*
 * Running trials count as bad (the constant liar): six trials running at
 * the best point push the next suggestion away from it, where six
 * trials of another bracket (left out) do not.
 */
static void
test_liar(void)
{
	struct space *sp = space_new();
	struct search *s;
	struct grow_history *t;
	double x[1], xl, xo, dl = 0, dout = 0;
	int seed, i;

	space_add_float(sp, "x", -5, 5, SCALE_LINEAR, 0);
	for (seed = 0; seed < NSEEDS; seed++) {
		t = calloc(1, sizeof(*t));
		for (i = 0; i < 30; i++) {
			x[0] = -5 + 10.0 * ((i * 7) % 30) / 29;
			th_add(t, x, 1, OBS_COMPLETE, fabs(x[0] - 1.3));
		}
		x[0] = 1.3;
		for (i = 0; i < 6; i++)
			th_add(t, x, 1, OBS_RUNNING, 0);
		s = search_new("mtpe", sp, seed, NULL, 0);
		search_suggest(s, &t->h, &xl);
		for (i = 30; i < 36; i++)
			t->obs[i].other_bracket = 1;
		search_suggest(s, &t->h, &xo);
		dl += fabs(xl - 1.3);
		dout += fabs(xo - 1.3);
		search_free(s);
		free(t);
	}
	printf("# mean distance from the running trials: liar %.3g, "
	    "left out %.3g\n", dl / NSEEDS, dout / NSEEDS);
	ok(dl > 1.5 * dout, "running trials push suggestions away "
	    "from themselves");
	space_free(sp);
}

/*
 * Same seed and history (failed, running, pruned trials included): same
 * suggestion, from a search created anew as after a restart.
 */
static void
test_restart(void)
{
	struct space *sp = space_new();
	struct search *a, *b;
	struct grow_history *t = calloc(1, sizeof(*t));
	struct value v[3] = { { 0, 32, NULL }, { 0, 64, NULL },
	    { 0, 128, NULL } };
	double xa[4], xb[4];
	int i, j, same = 1, valid = 1;

	space_add_float(sp, "lr", 1e-4, 1, SCALE_LOG, 0);
	space_add_int(sp, "n", 1, 64, SCALE_LOG, 0);
	space_add_choice(sp, "bs", v, 3);
	space_add_int(sp, "k", -3, 3, SCALE_LINEAR, 0);
	a = search_new("mtpe", sp, 9, NULL, 0);
	for (i = 0; i < 40; i++) {
		search_suggest(a, &t->h, xa);
		b = search_new("mtpe", sp, 9, NULL, 0);
		search_suggest(b, &t->h, xb);
		search_free(b);
		same &= memcmp(xa, xb, sizeof(xa)) == 0;
		for (j = 0; j < 4; j++)
			valid &= space_contains(sp, j, xa[j]);
		th_add(t, xa, 4, i % 7 == 3 ? OBS_FAILED : i % 5 == 1 ?
		    OBS_RUNNING : OBS_COMPLETE, xa[0] + xa[3] * xa[3]);
	}
	ok(same, "same seed, same history: a new mtpe suggests the same");
	ok(valid, "every coordinate is valid (log int, choice, int)");
	search_free(a);
	space_free(sp);
	free(t);
}

/*
 * The start-up count follows the dimension and the budget; until then
 * mtpe suggests sobol's points.
 */
static void
test_startup(void)
{
	struct space *sp = space_new();
	struct search *m, *r;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[4], xr[4];
	int i, first = -1;

	for (i = 0; i < 4; i++)
		space_add_float(sp, i == 0 ? "a" : i == 1 ? "b" : i == 2 ?
		    "c" : "d", 0, 1, SCALE_LINEAR, 0);
	m = search_new("mtpe", sp, 4, NULL, 0);
	r = search_new("sobol", sp, 4, NULL, 0);
	for (i = 0; i < 12 && first < 0; i++) {
		search_suggest(m, &t->h, x);
		search_suggest(r, &t->h, xr);
		if (memcmp(x, xr, sizeof(x)) != 0)
			first = i;
		th_add(t, x, 4, OBS_COMPLETE, x[0] + x[1]);
	}
	is_int(first, 5, "4 parameters: the model acts after 5 trials");
	search_set_budget(m, 30);
	t->h.n = 3;
	search_suggest(m, &t->h, x);
	search_suggest(r, &t->h, xr);
	ok(memcmp(x, xr, sizeof(x)) != 0, "a budget of 30: after 3");
	search_free(m);
	search_free(r);
	space_free(sp);
	free(t);
}

/*
 * The first wave of a parallel campaign, 8 suggestions made while every
 * earlier one still runs, is a design: over 25 seeds, mtpe's and cmtpe's
 * 8 points fall one in each eighth of every parameter's range (8
 * independent random draws do so for one parameter with probability
 * 8!/8^8, 0.24%).
 */
static void
test_design(void)
{
	static const char *const algos[] = { "mtpe", "cmtpe", "auto" };
	struct space *sp = space_new();
	struct search *s;
	struct grow_history *t = calloc(1, sizeof(*t));
	double x[4];
	unsigned seen;
	int a, seed, i, d, strat;

	for (i = 0; i < 4; i++)
		space_add_float(sp, i == 0 ? "a" : i == 1 ? "b" : i == 2 ?
		    "c" : "d", 0, 1, SCALE_LINEAR, 0);
	for (a = 0; a < 3; a++) {
		strat = 0;
		for (seed = 1; seed <= NSEEDS; seed++) {
			s = search_new(algos[a], sp, (uint64_t)seed, NULL, 0);
			search_set_budget(s, 100);
			t->h.n = 0;
			for (i = 0; i < 8; i++) {
				search_suggest(s, &t->h, x);
				th_add(t, x, 4, OBS_RUNNING, 0);
			}
			for (d = 0, seen = 0xff; d < 4; d++) {
				unsigned bins = 0;

				for (i = 0; i < 8; i++)
					bins |= 1u << (int)floor(8 *
					    t->x[i][d]);
				seen &= bins;
			}
			strat += seen == 0xff;
			search_free(s);
		}
		ok(strat == NSEEDS, "%s: the first 8 parallel suggestions "
		    "cover every eighth of each parameter (%d of %d seeds)",
		    algos[a], strat, NSEEDS);
	}
	space_free(sp);
	free(t);
}

/* auto picks grid, sobol or mtpe and says why. */
static void
test_auto(void)
{
	struct space *sp = space_new();
	struct search *s;
	struct value v[3] = { { 0, 32, NULL }, { 0, 64, NULL },
	    { 0, 128, NULL } };
	const char *why;
	double x[3];

	space_add_choice(sp, "bs", v, 3);
	space_add_int(sp, "k", 1, 4, SCALE_LINEAR, 0);
	s = search_new("auto", sp, 1, NULL, 0);
	is_str(search_chosen(s, &why), "auto", "auto: nothing chosen yet");
	search_set_budget(s, 20);
	search_suggest(s, NULL, x);
	is_str(search_chosen(s, &why), "grid", "12 discrete points, 20 "
	    "trials: grid");
	like(why, "12 points", "the reason names the grid's size");
	search_free(s);

	s = search_new("auto", sp, 1, NULL, 0);
	search_set_budget(s, 5);
	search_suggest(s, NULL, x);
	is_str(search_chosen(s, &why), "sobol", "budget 5: sobol");
	like(why, "start-up", "the reason names the start-up");
	is_str(why, "sobol: a budget of 5 trials leaves a model of 2 "
	    "parameters 2 suggestions of its own after its 3 start-up trials, "
	    "fewer than those", "... and what it leaves the model");
	search_free(s);

	space_free(sp);
	sp = space_new();
	space_add_float(sp, "lr", 1e-4, 1, SCALE_LOG, 0);
	s = search_new("auto", sp, 1, NULL, 0);
	search_set_budget(s, 4);
	search_suggest(s, NULL, x);
	search_chosen(s, &why);
	is_str(why, "sobol: a budget of 4 trials leaves a model of 1 "
	    "parameter 1 suggestion of its own after its 3 start-up trials, "
	    "fewer than those", "one parameter, one suggestion: no plural");
	search_free(s);
	s = search_new("auto", sp, 1, NULL, 0);
	search_set_budget(s, 100);
	search_suggest(s, NULL, x);
	search_chosen(s, &why);
	like(why, "the budget and 1 parameter leave a joint", "... nor for "
	    "cmtpe's");
	search_free(s);
	space_free(sp);
	sp = space_new();
	space_add_choice(sp, "bs", v, 3);
	space_add_int(sp, "k", 1, 4, SCALE_LINEAR, 0);

	space_add_float(sp, "lr", 1e-4, 1, SCALE_LOG, 0);
	s = search_new("auto", sp, 1, NULL, 0);
	search_set_budget(s, 100);
	search_suggest(s, NULL, x);
	is_str(search_chosen(s, &why), "cmtpe", "a float, 100 trials: "
	    "cmtpe");
	like(why, "failed", "the reason says failures inform it");
	like(why, "cheaper", "... and that cost decides between equals");
	search_free(s);
	space_free(sp);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_failures();
	test_failed_informs();
	test_liar();
	test_restart();
	test_startup();
	test_design();
	test_auto();
	return tap_done();
}
