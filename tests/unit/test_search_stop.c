/*
 * test_search_stop.c: unit tests of the stoppers on hand-made histories:
 * ASHA's rung arithmetic and promotion rule, Hyperband's brackets and the
 * median stopping rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hand_curves.h"
#include "search.h"
#include "stop.h"
#include "tap.h"

static void	test_mark(const struct stopper *, struct hand_curves *);

/* Names, defaults and refused parameters. */
static void
test_params(void)
{
	const char *const *names = stop_algorithms();
	struct stop_params p;
	struct stopper *s;
	char err[128];
	size_t i;

	is_str(names[0], "none", "first stopper is none");
	is_str(names[3], "median", "fourth is median");
	is_str(names[4], "target", "fifth is target");
	ok(names[5] == NULL, "five stoppers");
	ok(stop_known("asha") && stop_known("hyperband") &&
	    !stop_known("pbt") && !stop_known(NULL), "known names");
	stop_defaults(&p);
	ok(p.min_resource == 1 && p.eta == 3 && p.max_resource == 0 &&
	    p.warmup_trials == 5 && p.warmup_steps == 0, "defaults");
	p.eta = 1;
	ok(stop_new("asha", &p, err, sizeof(err)) == NULL, "eta 1 refused");
	like(err, "eta must be >= 2", "eta message");
	stop_defaults(&p);
	p.min_resource = 0;
	ok(stop_new("asha", &p, err, sizeof(err)) == NULL,
	    "min_resource 0 refused");
	stop_defaults(&p);
	ok(stop_new("hyperband", &p, err, sizeof(err)) == NULL,
	    "hyperband needs max_resource");
	like(err, "max_resource is required", "hyperband message");
	ok(stop_new("pbt", &p, err, sizeof(err)) == NULL, "unknown refused");
	s = stop_new("none", &p, err, sizeof(err));
	ok(s != NULL && strcmp(stop_name(s), "none") == 0, "none created");
	stop_free(s);
	/* Each runs under its own name: the table and the names in step. */
	p.max_resource = 9;
	p.has_target = 1;
	for (i = 0; names[i] != NULL; i++) {
		s = stop_new(names[i], &p, err, sizeof(err));
		ok(s != NULL && strcmp(stop_name(s), names[i]) == 0,
		    "'%s' runs under its name", names[i]);
		stop_free(s);
	}
}

/* Rungs at min_resource * eta^k below max_resource. */
static void
test_rungs(void)
{
	struct stop_params p;
	struct stopper *s;

	stop_defaults(&p);
	p.max_resource = 27;
	s = stop_new("asha", &p, NULL, 0);
	ok(stop_rung(s, 0, 0) == 1 && stop_rung(s, 0, 1) == 3 &&
	    stop_rung(s, 0, 2) == 9, "rungs 1, 3, 9");
	ok(stop_rung(s, 0, 3) == -1, "no rung at max_resource 27");
	is_int(stop_bracket(s, 5), 0, "asha has one bracket");
	stop_free(s);
	p.min_resource = 2;
	p.eta = 2;
	p.max_resource = 0;
	s = stop_new("asha", &p, NULL, 0);
	ok(stop_rung(s, 0, 0) == 2 && stop_rung(s, 0, 3) == 16 &&
	    stop_rung(s, 0, 10) == 2048, "min 2, eta 2, no max: 2 ... 2048");
	stop_free(s);
}

/* The asynchronous promotion rule on a hand-made history (minimize). */
static void
test_asha(void)
{
	static const double one[] = { 1 };
	struct stop_params p;
	struct stopper *s;
	struct hand_curves *c = calloc(1, sizeof(*c));
	size_t t;
	double v;

	stop_defaults(&p);
	p.max_resource = 27;
	s = stop_new("asha", &p, NULL, 0);
	hand_curves_init(c, 0);

	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 0.5), STOP_CONTINUE,
	    "first trial at rung 1: alone, goes on");
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 0.6), STOP_PRUNE,
	    "second, worse than the first: n=2 < eta, must be best: stops");
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 0.4), STOP_CONTINUE,
	    "third, best so far: goes on");
	/* Rung 1 now holds 0.5 0.6 0.4; three more arrive. */
	v = 0.3;
	t = hand_curves_add(c, OBS_RUNNING, 1, one, &v);
	t = hand_curves_add(c, OBS_RUNNING, 1, one, &v);
	c->vals[t][0] = 0.2;
	/* n = 6: the top floor(6/3) = 2 go on (0.2 and 0.3). */
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 0.3), STOP_CONTINUE,
	    "n=6: ties the 2nd best: goes on");
	c->obs[t].npoints = 0;
	is_int(hand_curves_report(s, c, t, 1, 0.35), STOP_PRUNE,
	    "n=6: 3rd best: stops");
	is_int(hand_curves_report(s, c, 0, 2, 0.9), STOP_CONTINUE,
	    "step 2 is no rung: goes on however bad");
	is_int(hand_curves_report(s, c, 0, 3, 0.1), STOP_CONTINUE,
	    "trial 0 reaches rung 3 first: goes on");
	is_int(hand_curves_report(s, c, 2, 3, 0.2), STOP_PRUNE,
	    "trial 2 reaches rung 3 worse than trial 0: stops");
	is_int(hand_curves_report(s, c, 0, 4, 5.0), STOP_CONTINUE,
	    "past rung 3, before rung 9: goes on");
	/* A trial whose first point is at step 5 crosses rungs 1 and 3. */
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 5, 0.05), STOP_CONTINUE,
	    "jumps rungs 1 and 3 with the best value: goes on");
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 5, 0.45), STOP_PRUNE,
	    "jumps rungs 1 and 3 with a poor value: stops at rung 1");
	is_int(hand_curves_report(s, c, 0, 27, 9.0), STOP_CONTINUE,
	    "at max_resource: rung 9 checked (alone there), no rung 27");
	stop_free(s);

	/* Maximize: larger is better. */
	s = stop_new("asha", &p, NULL, 0);
	hand_curves_init(c, 1);
	t = hand_curves_add(c, OBS_COMPLETE, 1, one, (double[]){ 0.9 });
	t = hand_curves_add(c, OBS_COMPLETE, 1, one, (double[]){ 0.8 });
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 0.7), STOP_PRUNE,
	    "maximize: 0.7 < 0.9 stops");
	c->obs[t].npoints = 0;
	is_int(hand_curves_report(s, c, t, 1, 0.95), STOP_CONTINUE,
	    "maximize: 0.95 goes on");
	stop_free(s);
	free(c);
}

/* Hyperband: bracket count, shares, and rungs within a bracket only. */
static void
test_hyperband(void)
{
	struct stop_params p;
	struct stopper *s;
	struct hand_curves *c = calloc(1, sizeof(*c));
	long count[4] = { 0 };
	size_t i, t, a = SIZE_MAX, b = SIZE_MAX;

	stop_defaults(&p);
	p.max_resource = 27;
	p.seed = 9;
	s = stop_new("hyperband", &p, NULL, 0);
	ok(s != NULL, "hyperband created");
	is_int(stop_nbrackets(s), 4, "27 / 1 with eta 3: 4 brackets");
	for (i = 0; i < 49000; i++)
		count[stop_bracket(s, i)]++;
	/* Shares 27, 12, 6 and 4 of 49. */
	ok(labs(count[0] - 27000) < 600 && labs(count[1] - 12000) < 500 &&
	    labs(count[2] - 6000) < 400 && labs(count[3] - 4000) < 300,
	    "brackets drawn in shares 27:12:6:4 (%ld %ld %ld %ld)", count[0],
	    count[1], count[2], count[3]);
	ok(stop_rung(s, 1, 0) == 3 && stop_rung(s, 2, 0) == 9 &&
	    stop_rung(s, 3, 0) == -1, "bracket b starts at eta^b; the last "
	    "never stops");
	is_int(stop_bracket(s, 17), stop_bracket(s, 17), "bracket is stable");
	/* Two trials of bracket 0 and one of another bracket. */
	for (i = 0; i < HAND_MAXT && (a == SIZE_MAX || b == SIZE_MAX); i++) {
		if (stop_bracket(s, i) == 0 && a == SIZE_MAX)
			a = i;
		else if (stop_bracket(s, i) == 1 && b == SIZE_MAX)
			b = i;
	}
	ok(a != SIZE_MAX && b != SIZE_MAX, "found trials in brackets 0 and 1");
	hand_curves_init(c, 0);
	for (t = 0; t < HAND_MAXT; t++)
		hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, b, 3, 0.1), STOP_CONTINUE,
	    "bracket-1 trial first at its rung 3");
	is_int(hand_curves_report(s, c, a, 1, 0.9), STOP_CONTINUE,
	    "bracket-0 trial alone at rung 1 (bracket 1 has no rung 1)");
	is_int(hand_curves_report(s, c, a, 3, 0.5), STOP_CONTINUE,
	    "rung 3 of bracket 0 does not see the bracket-1 trial");
	test_mark(s, c);
	stop_free(s);
	free(c);
}

/*
 * stop_mark_brackets() marks exactly the trials of another bracket than
 * the one asked about, and none for one bracket or no stopper.
 */
static void
test_mark(const struct stopper *hb, struct hand_curves *c)
{
	struct stop_params p;
	struct stopper *s;
	size_t i, n = HAND_MAXT, trial = HAND_MAXT + 5;
	int right = 1, some = 0, none = 1;

	stop_mark_brackets(hb, c->obs, n, trial);
	for (i = 0; i < n; i++) {
		right &= c->obs[i].other_bracket == (stop_bracket(hb, i) !=
		    stop_bracket(hb, trial));
		some += c->obs[i].other_bracket;
	}
	ok(right && some > 0 && some < (int)n, "hyperband: the %d trials of "
	    "other brackets marked", some);
	stop_defaults(&p);
	p.max_resource = 27;
	s = stop_new("asha", &p, NULL, 0);
	stop_mark_brackets(s, c->obs, n, trial);
	for (i = 0; i < n; i++)
		none &= c->obs[i].other_bracket == 0;
	stop_mark_brackets(hb, c->obs, n, trial);
	stop_mark_brackets(NULL, c->obs, n, trial);
	for (i = 0; i < n; i++)
		none &= c->obs[i].other_bracket == 0;
	ok(none, "asha and no stopper: no trial marked");
	stop_free(s);
}

/* The median rule against running averages of completed trials. */
static void
test_median(void)
{
	static const double st[] = { 1, 2, 3 };
	struct stop_params p;
	struct stopper *s;
	struct hand_curves *c = calloc(1, sizeof(*c));
	size_t t;

	stop_defaults(&p);
	p.warmup_trials = 3;
	p.warmup_steps = 2;
	s = stop_new("median", &p, NULL, 0);
	hand_curves_init(c, 0);
	/* Running averages at step 2: 0.75, 0.55, 0.35 (median 0.55). */
	hand_curves_add(c, OBS_COMPLETE, 3, st, (double[]){ 1.0, 0.5, 0.4 });
	hand_curves_add(c, OBS_COMPLETE, 3, st, (double[]){ 0.6, 0.5, 0.4 });
	hand_curves_add(c, OBS_PRUNED, 2, st, (double[]){ 0.0, 0.0 });
	hand_curves_add(c, OBS_RUNNING, 3, st, (double[]){ 0.0, 0.0, 0.0 });
	t = hand_curves_add(c, OBS_RUNNING, 0, NULL, NULL);
	is_int(hand_curves_report(s, c, t, 1, 2.0), STOP_CONTINUE,
	    "step 1 < warmup_steps: goes on");
	is_int(hand_curves_report(s, c, t, 2, 0.9), STOP_CONTINUE,
	    "2 completed trials < warmup_trials 3: goes on");
	hand_curves_add(c, OBS_COMPLETE, 3, st, (double[]){ 0.4, 0.3, 0.2 });
	c->obs[t].npoints = 1;
	is_int(hand_curves_report(s, c, t, 2, 0.6), STOP_PRUNE,
	    "best 0.6 > median 0.55 of running averages: stops");
	c->obs[t].npoints = 1;
	is_int(hand_curves_report(s, c, t, 2, 0.55), STOP_CONTINUE,
	    "best equal to the median: goes on");
	c->obs[t].npoints = 1;
	c->vals[t][0] = 0.5;
	is_int(hand_curves_report(s, c, t, 2, 0.9), STOP_CONTINUE,
	    "the best so far (0.5 at step 1) counts, not the last value");
	/* Step 3: averages 0.633, 0.5, 0.3; completed only. */
	c->obs[t].npoints = 2;
	is_int(hand_curves_report(s, c, t, 3, 0.7), STOP_CONTINUE,
	    "step 3: best 0.5 <= median 0.5: goes on");
	stop_free(s);
	free(c);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_params();
	test_rungs();
	test_asha();
	test_hyperband();
	test_median();
	return tap_done();
}
