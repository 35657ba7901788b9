/*
 * test_curves.c: the learning curves the engine keeps for the search and
 * the stopper are the same whether built point by point while a campaign
 * runs or rebuilt from the ledger after a restart, and so are the
 * suggestions and the stopping decisions made from them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curves.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "search.h"
#include "stop.h"
#include "tap.h"

#define NTRIALS	14
#define NEPOCHS	6

/* A history over both parameters of every trial, curves from cs. */
static void
history(const struct curves *cs, double (*x)[2], struct observation *obs,
    struct history *h, int n)
{
	int i;

	memset(obs, 0, n * sizeof(*obs));
	for (i = 0; i < n; i++) {
		obs[i].x = x[i];
		curves_fill(cs, i, &obs[i]);
		obs[i].state = curves_completed(cs, i) ? OBS_COMPLETE :
		    OBS_PRUNED;
		obs[i].has_value = obs[i].npoints > 0;
		obs[i].value = obs[i].npoints > 0 ? obs[i].values[0] : 0;
	}
	h->n = n;
	h->obs = obs;
	h->maximize = 0;
}

/* Return 1 if two curve sets hold the same points and states. */
static int
same(const struct curves *a, const struct curves *b, int n)
{
	struct observation oa, ob;
	int i;

	for (i = 0; i < n; i++) {
		curves_fill(a, i, &oa);
		curves_fill(b, i, &ob);
		if (oa.npoints != ob.npoints || oa.step_s != ob.step_s ||
		    curves_completed(a, i) != curves_completed(b, i))
			return 0;
		if (oa.npoints > 0 && (memcmp(oa.steps, ob.steps,
		    oa.npoints * sizeof(double)) != 0 || memcmp(oa.values,
		    ob.values, oa.npoints * sizeof(double)) != 0))
			return 0;
	}
	return 1;
}

/*
 * Write a campaign to a ledger as the engine would, keeping the curves
 * as it goes: retried trials, points out of order, repeated steps, other
 * metrics, late points of pruned trials; then rebuild the curves from the
 * ledger and compare.
 */
int
main(void)
{
	char dir[64];
	struct ledger *l;
	struct curves *live, *loaded;
	struct observation obs[NTRIALS], obs2[NTRIALS];
	struct history h, h2;
	struct search *s;
	struct stopper *sp;
	struct stop_params p;
	double x[NTRIALS][2], xa[2], xb[2], v, step, tm;
	int64_t cid, tid, aid;
	int i, k, e, nattempts, ok_dec = 1;

	l = ledger_tmp_open("hpod-curves", dir, sizeof(dir));
	ok(l != NULL, "ledger opened");
	if (l == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "cv", NTRIALS);
	live = curves_new();
	for (i = 0; i < NTRIALS; i++) {
		x[i][0] = 0.05 + 0.9 * ((i * 7) % NTRIALS) / NTRIALS;
		x[i][1] = (i * 3) % 5;
		tid = ledger_tmp_trial(l, cid, i, "{}");
		nattempts = i % 5 == 2 ? 2 : 1;
		for (k = 0; k < nattempts; k++) {
			aid = ledger_tmp_attempt(l, tid, i, k);
			for (e = NEPOCHS; e >= 1; e--) {
				/* Later epochs first for odd trials. */
				step = i % 2 ? e : NEPOCHS + 1 - e;
				v = fabs(x[i][0] - 0.4) + 1.0 / step + 0.01 * k;
				/* 60 (i + 1) seconds an epoch. */
				tm = 2000 + 60.0 * (i + 1) * step;
				/*
				 * Pruned at 3: its later points, logged in
				 * its cancel's grace, are kept but late,
				 * in no curve.
				 */
				if (i % 3 == 0 && step > 3) {
					ledger_metric_insert_as(l, aid, step,
					    "eval_error", v / 10, tm, 1);
					continue;
				}
				ledger_metric_insert(l, aid, step, "eval_error",
				    v, tm);
				curves_add(live, i, aid, step, v, tm);
				/* A repeated step: the ledger keeps the first. */
				ledger_metric_insert(l, aid, step, "eval_error",
				    v + 1, tm + 7);
				curves_add(live, i, aid, step, v + 1, tm + 7);
				ledger_metric_insert(l, aid, step, "train_loss",
				    v / 2, 0);
			}
		}
		if (i % 3 != 0) {
			ledger_trial_set_state(l, tid, "completed");
			curves_complete(live, i);
		} else
			ledger_trial_set_state(l, tid, "pruned");
	}
	loaded = curves_new();
	curves_add(loaded, 40, 1, 1, 1, 1);	/* replaced by the load */
	is_int(curves_load(loaded, l, cid, "eval_error"), 0, "curves loaded");
	ok(same(live, loaded, NTRIALS + 1), "rebuilt curves equal the live ones");
	{
		struct observation o;

		curves_fill(loaded, 2, &o);
		is_int(o.npoints, NEPOCHS, "a retried trial keeps its last "
		    "attempt's curve");
		ok(o.npoints == NEPOCHS && fabs(o.values[0] -
		    (fabs(x[2][0] - 0.4) + 1 + 0.01)) < 1e-12,
		    "... with the last attempt's values");
		ok(fabs(o.step_s - 180) < 1e-9, "its seconds per epoch from "
		    "the points' times (%g)", o.step_s);
		curves_fill(loaded, 3, &o);
		ok(o.npoints == 3 && o.steps[0] == 1 && o.steps[2] == 3,
		    "points sorted by step");
		ok(fabs(o.step_s - 240) < 1e-9, "... points out of order (%g)",
		    o.step_s);
		curves_fill(loaded, 40, &o);
		is_int(o.npoints, 0, "the load forgot what was there");
		ok(o.step_s == 0, "no points, no seconds per epoch");
	}

	/* The same suggestions and stopping decisions from either. */
	history(live, x, obs, &h, NTRIALS);
	history(loaded, x, obs2, &h2, NTRIALS);
	{
		struct space *spc = space_new();

		space_add_float(spc, "lr", 0.01, 1, SCALE_LOG, 0);
		space_add_int(spc, "k", 0, 4, SCALE_LINEAR, 0);
		s = search_new("tpe", spc, 3, NULL, 0);
		search_suggest(s, &h, xa);
		search_suggest(s, &h2, xb);
		ok(xa[0] == xb[0] && xa[1] == xb[1],
		    "tpe: the same suggestion after a rebuild");
		search_free(s);
		space_free(spc);
	}
	stop_defaults(&p);
	sp = stop_new("asha", &p, NULL, 0);
	for (i = 0; i < NTRIALS; i++)
		for (k = 0; k < (int)obs[i].npoints; k++)
			ok_dec &= stop_decide(sp, &h, i, obs[i].steps[k],
			    obs[i].values[k]) == stop_decide(sp, &h2, i,
			    obs2[i].steps[k], obs2[i].values[k]);
	ok(ok_dec, "asha: the same decisions after a rebuild");
	stop_free(sp);

	curves_free(live);
	curves_free(loaded);

	/*
	 * A trainer that evaluates twice an epoch: the engine keeps the
	 * step's best in the ledger (ledger_metric_set()) and in its live
	 * curve (curves_keep_best()), so a rebuild after a restart gives
	 * the search the same curve.
	 */
	cid = ledger_tmp_campaign(l, "twice", 1);
	tid = ledger_tmp_trial(l, cid, 0, "{}");
	aid = ledger_tmp_attempt(l, tid, NTRIALS, 0);	/* a token of its own */
	live = curves_new();
	curves_keep_best(live, 0);
	ledger_metric_insert(l, aid, 1, "eval_error", 0.5, 100);
	curves_add(live, 0, aid, 1, 0.5, 100);
	ledger_metric_set(l, aid, "eval_error", 1, 0.3, 130);
	curves_add(live, 0, aid, 1, 0.3, 130);
	curves_add(live, 0, aid, 1, 0.4, 160);	/* worse: not taken */
	loaded = curves_new();
	is_int(curves_load(loaded, l, cid, "eval_error"), 0,
	    "twice an epoch: curves loaded");
	ok(same(live, loaded, 1), "twice an epoch: the live curve is the "
	    "ledger's, the step's best");
	{
		struct observation o;

		curves_fill(live, 0, &o);
		ok(o.npoints == 1 && o.values[0] == 0.3, "... 0.3, not the "
		    "first 0.5 nor the later, worse 0.4");
	}
	curves_free(live);
	curves_free(loaded);
	ledger_tmp_close(l, dir);
	return tap_done();
}
