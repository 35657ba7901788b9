/*
 * test_search_target.c: unit tests of the target-aware stopper's decision
 * rule on hand-made learning curves: its refusals, the grace period, the
 * extrapolation (rate since the first point and over the recent window,
 * slack), the reference curves of trials that reached the target, the
 * leader rule, the power-law extrapolation (power_law) and both goals.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hand_curves.h"
#include "search.h"
#include "stop.h"
#include "stop_impl.h"
#include "tap.h"

/*
 * The parameters of a target stopper: target, last step 40, grace period
 * 3, the rest stop_defaults()'.
 */
static void
target_params(struct stop_params *p, double target)
{
	stop_defaults(p);
	p->has_target = 1;
	p->target = target;
	p->max_resource = 40;
	p->warmup_steps = 3;
}

/* A target stopper: target_params() with slack and warm-up trials. */
static struct stopper *
target_new(double target, double slack, int warmup_trials)
{
	struct stop_params p;

	target_params(&p, target);
	p.slack = slack;
	p.warmup_trials = warmup_trials;
	return stop_new("target", &p, NULL, 0);
}

/* Bad parameters are refused with a message naming them. */
static void
test_refused(void)
{
	struct stop_params p;
	char err[128];

	ok(stop_known("target"), "target is a stopper");
	stop_defaults(&p);
	p.max_resource = 40;
	ok(stop_new("target", &p, err, sizeof(err)) == NULL &&
	    strstr(err, "objective.target") != NULL, "no target: %s", err);
	p.has_target = 1;
	p.max_resource = 0;
	ok(stop_new("target", &p, err, sizeof(err)) == NULL &&
	    strstr(err, "max_resource") != NULL, "no last step: %s", err);
	p.max_resource = 40;
	p.slack = -1;
	ok(stop_new("target", &p, err, sizeof(err)) == NULL &&
	    strstr(err, "slack") != NULL, "negative slack: %s", err);
}

/* A run stuck at chance stops at the end of the grace period, no sooner. */
static void
test_stuck(void)
{
	struct stopper *s = target_new(0.2, 0, 5);
	struct hand_curves c;
	size_t t;

	hand_curves_init(&c, 0);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	ok(hand_curves_next(s, &c, t, 0.90) == STOP_CONTINUE, "step 1: grace");
	ok(hand_curves_next(s, &c, t, 0.90) == STOP_CONTINUE, "step 2: grace");
	ok(hand_curves_next(s, &c, t, 0.90) == STOP_PRUNE,
	    "step 3: no improvement since the first point: stopped");
	stop_free(s);
}

/*
 * Feed a run falling from 0.6 by drop a step, for steps steps, to a
 * target stopper (target 0.2, grace 5) and, when lax_stopped is not
 * NULL, to one with slack 1 too; the step each first stopped it at, 0
 * for never, in *stopped and *lax_stopped.
 */
static void
line_stops(double drop, int steps, int *stopped, int *lax_stopped)
{
	struct stopper *s = target_new(0.2, 0, 5), *lax = target_new(0.2, 1, 5);
	struct hand_curves c;
	size_t t;
	int i;
	double v;

	*stopped = 0;
	if (lax_stopped != NULL)
		*lax_stopped = 0;
	hand_curves_init(&c, 0);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	for (i = 1; i <= steps; i++) {
		v = 0.6 - drop * (i - 1);
		if (hand_curves_next(s, &c, t, v) == STOP_PRUNE &&
		    *stopped == 0)
			*stopped = i;
		if (lax_stopped != NULL &&
		    stop_decide(lax, &c.h, t, i, v) == STOP_PRUNE &&
		    *lax_stopped == 0)
			*lax_stopped = i;
	}
	stop_free(s);
	stop_free(lax);
}

/*
 * A slow but steady run goes on while a straight line at its rate would
 * reach the target by step 40, and stops once it would not.
 */
static void
test_rate(void)
{
	int stopped, lax_stopped;

	/* 0.6 at step 1, then 0.005 better per step: 0.405 at step 40. */
	line_stops(0.005, 39, &stopped, &lax_stopped);
	/* 0.6 - 0.005 (i - 1) - 0.005 (40 - i) > 0.2 for every i: at once. */
	is_int(stopped, 3, "0.005 per step never gets to 0.2: stopped at 3");
	/* With slack 1: 0.6 - 0.005 (i - 1) - 0.01 (40 - i) > 0.2 from 3. */
	is_int(lax_stopped, 3, "nor twice as fast (slack 1)");

	/* 0.01 per step: at step i the line ends at 0.6 - 0.39 = 0.21. */
	line_stops(0.01, 20, &stopped, &lax_stopped);
	is_int(stopped, 3, "0.01 per step ends at 0.21 > 0.2: stopped");
	is_int(lax_stopped, 0, "twice that reaches it: slack 1 goes on");

	/* 0.012 per step: reaches 0.2 at step 35. */
	line_stops(0.012, 34, &stopped, NULL);
	is_int(stopped, 0, "0.012 per step gets there: never stopped");
}

/* A plateau, then a fast drop: the recent rate keeps it going. */
static void
test_recent(void)
{
	struct stopper *s = target_new(0.2, 0, 5);
	struct hand_curves c;
	double v[22];
	size_t t;
	int i;

	hand_curves_init(&c, 0);
	for (i = 0; i < 20; i++)
		v[i] = 0.9;
	v[20] = 0.7;
	t = hand_curves_add(&c, OBS_RUNNING, 21, NULL, v);
	/*
	 * Since step 1: 0.3 / 21 per step, 0.6 - 0.257 = 0.343 at step 40;
	 * since step 12: 0.3 / 10 per step, 0.6 - 0.54 < 0.2.
	 */
	ok(hand_curves_next(s, &c, t, 0.6) == STOP_CONTINUE,
	    "a drop after a plateau: the recent rate reaches the target");
	stop_free(s);
}

/* Accuracy: larger is better. */
static void
test_maximize(void)
{
	struct stopper *s = target_new(0.8, 0, 5);
	struct hand_curves c;
	size_t t;

	hand_curves_init(&c, 1);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	hand_curves_next(s, &c, t, 0.30);
	hand_curves_next(s, &c, t, 0.40);
	ok(hand_curves_next(s, &c, t, 0.50) == STOP_CONTINUE,
	    "maximize: 0.1 per step gets to 0.8");
	hand_curves_init(&c, 1);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	hand_curves_next(s, &c, t, 0.30);
	hand_curves_next(s, &c, t, 0.30);
	ok(hand_curves_next(s, &c, t, 0.31) == STOP_PRUNE,
	    "maximize: 0.005 per step does not");
	ok(hand_curves_next(s, &c, t, 0.85) == STOP_CONTINUE,
	    "maximize: a point on target is never stopped");
	stop_free(s);
}

/*
 * Once warmup_trials others reached the target, a trial worse than all of
 * them at the same step (beyond the slack) stops even when its own rate
 * would get it there.
 */
static void
test_reference(void)
{
	struct stopper *s = target_new(0.2, 0, 2), *lax = target_new(0.2, 1, 2);
	const double fast[6] = { 0.5, 0.4, 0.3, 0.25, 0.21, 0.19 };
	const double slow[6] = { 0.55, 0.45, 0.36, 0.3, 0.25, 0.18 };
	struct hand_curves c;
	size_t t;

	hand_curves_init(&c, 0);
	hand_curves_add(&c, OBS_COMPLETE, 6, NULL, fast);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	hand_curves_next(s, &c, t, 0.8);
	hand_curves_next(s, &c, t, 0.65);
	ok(hand_curves_next(s, &c, t, 0.5) == STOP_CONTINUE,
	    "one reference trial of the two needed: it goes on");
	hand_curves_add(&c, OBS_COMPLETE, 6, NULL, slow);
	ok(stop_decide(s, &c.h, t, 3, 0.5) == STOP_PRUNE,
	    "0.5 at step 3, the worst that got there had 0.36: stopped");
	/* slack 1: 0.36 + (0.36 - 0.2) = 0.52, not worse. */
	ok(stop_decide(lax, &c.h, t, 3, 0.5) == STOP_CONTINUE,
	    "within slack 1 of it: goes on");
	ok(stop_decide(s, &c.h, t, 40, 0.5) == STOP_CONTINUE,
	    "at the last step: nothing to save");
	stop_free(s);
	stop_free(lax);
}

/* A target stopper with the leader rule: K, from step from on. */
static struct stopper *
leader_new(double k, double from)
{
	struct stop_params p;

	target_params(&p, 0.2);
	p.leader = k;
	p.leader_steps = from;
	return stop_new("target", &p, NULL, 0);
}

/*
 * The leader rule: from leader_steps on (before the grace period too), a
 * trial whose best so far is worse than the best any other trial had by
 * step / K stops, though its own rate would reach the target; not when
 * it is as good, when no other trial reported by then, at the last step,
 * nor once on target.  K 0 turns it off; K in (0, 1) is refused.
 */
static void
test_leader(void)
{
	struct stopper *s = leader_new(2, 2), *off = leader_new(0, 2),
	    *late = leader_new(2, 5), *k3 = leader_new(3, 2);
	const double lead[4] = { 0.6, 0.3, 0.29, 0.28 };
	struct stop_params p;
	struct hand_curves c;
	char err[128];
	size_t t;

	hand_curves_init(&c, 0);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	hand_curves_next(s, &c, t, 0.9);
	ok(hand_curves_next(s, &c, t, 0.7) == STOP_CONTINUE,
	    "no other trial: the leader rule cannot act");
	hand_curves_add(&c, OBS_PRUNED, 4, NULL, lead);
	/* Step 2: the leader's best by step 1 is 0.6; 0.7 is worse. */
	ok(stop_decide(s, &c.h, t, 2, 0.7) == STOP_PRUNE,
	    "0.7 at step 2, the leader had 0.6 by step 1: stopped before the "
	    "grace period");
	ok(stop_decide(off, &c.h, t, 2, 0.7) == STOP_CONTINUE,
	    "leader 0: off");
	ok(stop_decide(late, &c.h, t, 2, 0.7) == STOP_CONTINUE,
	    "before leader_steps: goes on");
	ok(stop_decide(k3, &c.h, t, 2, 0.7) == STOP_CONTINUE,
	    "K 3: nobody had reported by step 2/3");
	/* Its rate (0.2 an epoch) reaches the target: only the leader stops. */
	hand_curves_next(s, &c, t, 0.5);
	ok(stop_decide(s, &c.h, t, 4, 0.5) == STOP_PRUNE,
	    "0.5 at step 4, the leader had 0.3 by step 2: stopped");
	ok(stop_decide(off, &c.h, t, 4, 0.5) == STOP_CONTINUE,
	    "without the leader rule its rate keeps it");
	ok(stop_decide(k3, &c.h, t, 4, 0.5) == STOP_CONTINUE,
	    "K 3: the leader had 0.6 by step 4/3: goes on");
	hand_curves_next(s, &c, t, 0.3);
	ok(stop_decide(s, &c.h, t, 5, 0.3) == STOP_CONTINUE,
	    "0.3 at step 5, as good as the leader by step 2.5: goes on");
	ok(stop_decide(s, &c.h, t, 40, 0.3) == STOP_CONTINUE,
	    "at the last step: nothing to save");
	hand_curves_next(s, &c, t, 0.19);
	ok(stop_decide(s, &c.h, t, 6, 0.19) == STOP_CONTINUE,
	    "on target: never stopped");
	stop_defaults(&p);
	p.has_target = 1;
	p.target = 0.2;
	p.max_resource = 40;
	p.leader = 0.5;
	ok(stop_new("target", &p, err, sizeof(err)) == NULL &&
	    strstr(err, "leader") != NULL, "leader 0.5: %s", err);
	stop_free(s);
	stop_free(off);
	stop_free(late);
	stop_free(k3);
}

/*
 * The leader rule with leader_running (K2): another trial still running
 * is judged at step / K2, an ended one (pruned, failed, completed) at
 * step / K; K2 0 is K for both, K2 in (0, 1) is refused.
 */
static void
test_leader_running(void)
{
	struct stopper *s = leader_new(2, 2), *run3;
	const double lead[4] = { 0.6, 0.3, 0.29, 0.28 };
	struct stop_params p;
	struct hand_curves c;
	char err[128];
	size_t t, l;

	target_params(&p, 0.2);
	p.leader = 2;
	p.leader_steps = 2;
	p.leader_running = 3;
	run3 = stop_new("target", &p, NULL, 0);
	hand_curves_init(&c, 0);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	hand_curves_next(s, &c, t, 0.9);
	hand_curves_next(s, &c, t, 0.7);
	hand_curves_next(s, &c, t, 0.6);
	l = hand_curves_add(&c, OBS_RUNNING, 4, NULL, lead);
	hand_curves_next(run3, &c, t, 0.5);
	/* Step 4, 0.5: the running leader had 0.3 by 2, 0.6 by 4/3. */
	ok(stop_decide(s, &c.h, t, 4, 0.5) == STOP_PRUNE,
	    "K2 0: 0.5 at step 4 behind a running trial's 0.3 by step 2: "
	    "stopped");
	ok(stop_decide(run3, &c.h, t, 4, 0.5) == STOP_CONTINUE,
	    "K2 3: the running trial had 0.6 by step 4/3: goes on");
	c.obs[l].state = OBS_PRUNED;
	ok(stop_decide(run3, &c.h, t, 4, 0.5) == STOP_PRUNE,
	    "K2 3: the same trial ended (pruned) is judged at K 2: stopped");
	c.obs[l].state = OBS_FAILED;
	ok(stop_decide(run3, &c.h, t, 4, 0.5) == STOP_PRUNE,
	    "ended failed: judged at K 2: stopped");
	c.obs[l].state = OBS_COMPLETE;
	ok(stop_decide(run3, &c.h, t, 4, 0.5) == STOP_PRUNE,
	    "ended complete: judged at K 2: stopped");
	c.obs[l].state = OBS_RUNNING;
	/* Step 6: the running trial had 0.3 by 6/3 = 2. */
	hand_curves_next(run3, &c, t, 0.5);
	hand_curves_next(run3, &c, t, 0.45);
	ok(stop_decide(run3, &c.h, t, 6, 0.45) == STOP_PRUNE,
	    "K2 3: 0.45 at step 6 behind its 0.3 by step 2: stopped");
	p.leader_running = 0.5;
	ok(stop_new("target", &p, err, sizeof(err)) == NULL &&
	    strstr(err, "leader_running") != NULL, "leader_running 0.5: %s",
	    err);
	stop_free(s);
	stop_free(run3);
}

/*
 * The power-law fit: the most hopeful of its fits, never less hopeful
 * than the true law of an exact power-law curve; a flat curve promises
 * nothing more; too few points or a curve that only worsens give NaN.
 */
static void
test_power_bound(void)
{
	double t[10], y[10];
	size_t i;

	for (i = 0; i < 10; i++) {
		t[i] = (double)i + 1;
		y[i] = 0.1 + 0.5 / t[i];
	}
	/* The law itself ends at 0.1 + 0.5 / 40 = 0.1125 at step 40. */
	ok(powerlaw_bound(t, y, 10, 40) <= 0.1125 + 1e-12,
	    "an exact power law: the bound is at least as hopeful as the law "
	    "(%g)", powerlaw_bound(t, y, 10, 40));
	ok(isnan(powerlaw_bound(t, y, 2, 40)), "two points: no fit");
	ok(isnan(powerlaw_bound(t, y, 10, 5)), "a last step before the "
	    "points: no fit");
	for (i = 0; i < 10; i++)
		y[i] = 0.4;
	ok(fabs(powerlaw_bound(t, y, 10, 40) - 0.4) < 1e-12,
	    "a flat curve: the bound is its value");
	for (i = 0; i < 10; i++)
		y[i] = 0.4 + 0.01 * (double)i;
	ok(isnan(powerlaw_bound(t, y, 10, 40)), "a curve that only worsens: "
	    "no fit improves");
}

/*
 * Feed the curve a + 0.5 / sqrt(step) (1 - that to maximize) to a target
 * stopper (target 0.2, or 0.8; last step 40, grace 3) with power_law
 * set to power; the step it first stopped it at, 0 for never.
 */
static int
power_stops(double a, int power, int maximize)
{
	struct stop_params p;
	struct stopper *s;
	struct hand_curves c;
	size_t t;
	int i, stopped = 0;
	double v;

	target_params(&p, maximize ? 0.8 : 0.2);
	p.power_law = power;
	s = stop_new("target", &p, NULL, 0);
	hand_curves_init(&c, maximize);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	for (i = 1; i < 40 && stopped == 0; i++) {
		v = a + 0.5 / sqrt(i);
		if (hand_curves_next(s, &c, t, maximize ? 1 - v : v) ==
		    STOP_PRUNE)
			stopped = i;
	}
	stop_free(s);
	return stopped;
}

/*
 * The step at which a target stopper with power_law (target 0.2, last
 * step 40, grace 3) stops a run falling in a straight line from 0.6 by
 * 0.012 a step, which reaches 0.2 at step 35 (test_rate: the line alone
 * never stops it); 0 for never.  A power law expects the fall to
 * flatten: at step 3 its most hopeful fit, with twice its gain, ends at
 * 0.487.
 */
static int
line_power_stops(void)
{
	struct stop_params p;
	struct stopper *s;
	struct hand_curves c;
	size_t t;
	int i, stopped = 0;

	target_params(&p, 0.2);
	p.power_law = 1;
	s = stop_new("target", &p, NULL, 0);
	hand_curves_init(&c, 0);
	t = hand_curves_add(&c, OBS_RUNNING, 0, NULL, NULL);
	for (i = 1; i < 35 && stopped == 0; i++)
		if (hand_curves_next(s, &c, t, 0.6 - 0.012 * (i - 1)) ==
		    STOP_PRUNE)
			stopped = i;
	stop_free(s);
	return stopped;
}

/*
 * A curve flattening towards 0.3 as a power law: the straight line at its
 * fastest rate keeps hoping until step 28, the power law sees it
 * flattening at step 17 (twice its predicted gain from 0.4213 still ends
 * above 0.2; at 16, 0.194).  A curve that reaches the target at step 25
 * is never stopped by either.  Either goal.
 */
static void
test_power(void)
{
	ok(power_stops(0.3, 0, 0) == 28 && power_stops(0.3, 0, 1) == 28,
	    "a curve flattening at 0.3, the line alone: stopped at 28 (%d), "
	    "either goal", power_stops(0.3, 0, 0));
	ok(power_stops(0.3, 1, 0) == 17 && power_stops(0.3, 1, 1) == 17,
	    "the same with power_law: stopped at 17 (%d), either goal",
	    power_stops(0.3, 1, 0));
	ok(power_stops(0.1, 1, 0) == 0 && power_stops(0.1, 1, 1) == 0,
	    "a curve reaching the target at step 25, power_law: never "
	    "stopped");
	ok(power_stops(0.1, 0, 0) == 0 && power_stops(0.1, 0, 1) == 0,
	    "the same, the line alone: never stopped");
	ok(line_power_stops() == 3, "what power_law costs: a straight line "
	    "0.012 a step, on target at step 35, is stopped at 3 (%d)",
	    line_power_stops());
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_refused();
	test_stuck();
	test_rate();
	test_recent();
	test_maximize();
	test_reference();
	test_leader();
	test_leader_running();
	test_power_bound();
	test_power();
	return tap_done();
}
