/*
 * test_obsbook.c: the search history the engine keeps in memory, built
 * trial by trial as a campaign runs (states, bests, a retry that starts
 * its trial's best again, curves), equals the one rebuilt from the ledger
 * after a restart, observation by observation, and gives the same TPE
 * suggestion; its points are those the ledger's params_json gives back.
 * Its log names every trial appended or changed, and a load starts a
 * new one.
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
#include "obsbook.h"
#include "params.h"
#include "search.h"
#include "tap.h"

#define NTRIALS	300

/* 1 if two observations hold the same content. */
static int
obs_same(const struct observation *a, const struct observation *b,
    size_t dim)
{
	if (memcmp(a->x, b->x, dim * sizeof(double)) != 0 ||
	    a->state != b->state || a->has_value != b->has_value ||
	    (a->has_value && a->value != b->value) ||
	    a->npoints != b->npoints || a->other_bracket != b->other_bracket)
		return 0;
	return a->npoints == 0 || (memcmp(a->steps, b->steps, a->npoints *
	    sizeof(double)) == 0 && memcmp(a->values, b->values, a->npoints *
	    sizeof(double)) == 0);
}

int
main(void)
{
	char dir[64], err[256];
	const char *states[] = { "completed", "pruned", "failed", "cancelled",
	    "running", "completed" };
	struct ledger *l;
	struct space *spc;
	struct curves *cv, *cv2;
	struct obsbook *live, *loaded;
	struct observation *o1, *o2;
	struct history h1, h2;
	struct history_log lg, lg2;
	struct search *s;
	double x[3], back[3], xa[3], xb[3], v;
	char *pj;
	int64_t cid, tid, aid;
	size_t n1, n2, i;
	int k, e, nsame = 0, nback = 0, nlog = 0, nlogged = 0;

	l = ledger_tmp_open("hpod-obsbook", dir, sizeof(dir));
	ok(l != NULL, "ledger opened");
	if (l == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "ob", NTRIALS);
	spc = space_new();
	space_add_float(spc, "lr", 0.001, 1, SCALE_LOG, 0);
	space_add_float(spc, "momentum", 0.8, 0.99, SCALE_LINEAR, 0);
	space_add_int(spc, "layers", 1, 9, SCALE_LINEAR, 0);
	live = obsbook_new(spc);
	cv = curves_new();
	for (i = 0; i < NTRIALS; i++) {
		/* Digits that params_to_json may not keep. */
		x[0] = exp(log(0.001) * (double)((i * 37) % 101) / 100.0);
		x[1] = 0.8 + 0.19 * sqrt((double)((i * 13) % 17) / 17.0);
		x[2] = (double)(1 + i % 9);
		pj = params_to_json(spc, x);
		tid = ledger_tmp_trial(l, cid, (int)i, pj);
		obsbook_add(live, (int)i, pj, "ob");
		obsbook_log(live, &lg);
		nlog++;
		nlogged += lg.n > 0 && lg.changed[lg.n - 1] == i;
		params_from_json(spc, pj, back, err, sizeof(err));
		o1 = obsbook_obs(live, &n1);
		nback += memcmp(o1[i].x, back, sizeof(back)) == 0;
		free(pj);
		/* Every seventh trial is retried: its best starts again. */
		for (k = 0; k < (i % 7 == 3 ? 2 : 1); k++) {
			aid = ledger_tmp_attempt(l, tid, (int)i, k);
			for (e = 1; e <= 1 + (int)(i % 4); e++) {
				v = fabs(log(x[0]) + 4) / e + 0.1 * k +
				    0.001 * (double)(i % 5);
				ledger_metric_insert(l, aid, e, "eval_error", v,
				    0);
				curves_add(cv, (int)i, aid, e, v, e);
				obsbook_curve(live, cv, (int)i);
				obsbook_log(live, &lg);
				nlog++;
				nlogged += lg.changed[lg.n - 1] == i;
				if (e == 1 || i % 2) {
					ledger_trial_set_best(l, tid, v, e, 0,
					    0);
					obsbook_best(live, (int)i, v);
				}
			}
		}
		ledger_trial_set_state(l, tid, states[i % 6]);
		/* Another trial's change between, as the engine's would. */
		if (i > 0)
			obsbook_curve(live, cv, (int)i - 1);
		obsbook_state(live, (int)i, trial_state_parse(states[i % 6]));
		obsbook_log(live, &lg);
		nlog++;
		nlogged += lg.changed[lg.n - 1] == i &&
		    (i == 0 || lg.changed[lg.n - 2] == i - 1);
		if (strcmp(states[i % 6], "completed") == 0)
			curves_complete(cv, (int)i);
	}
	is_int(nback, NTRIALS, "each point is the one params_json gives back");
	is_int(nlogged, nlog, "the log names each trial appended or changed");

	cv2 = curves_new();
	is_int(curves_load(cv2, l, cid, "eval_error"), 0, "curves loaded");
	loaded = obsbook_new(spc);
	obsbook_add(loaded, 0, "{\"lr\": 0.5, \"momentum\": 0.9, \"layers\": 2}",
	    "ob");	/* replaced by the load */
	obsbook_log(loaded, &lg2);
	lg = lg2;
	is_int(obsbook_load(loaded, l, cid, cv2, "ob"), 0, "history loaded");
	obsbook_log(loaded, &lg2);
	ok(lg2.id != lg.id && lg2.n == 0, "a load starts a new log");
	o1 = obsbook_obs(live, &n1);
	o2 = obsbook_obs(loaded, &n2);
	is_int(n2, NTRIALS, "the load holds every trial, and only those");
	for (i = 0; i < n1 && i < n2; i++)
		nsame += obs_same(&o1[i], &o2[i], 3);
	is_int(nsame, NTRIALS, "every observation equals its rebuilt one");
	ok(o1[3].has_value && o1[3].value > 0.1,
	    "a retry's best replaces the earlier attempt's");
	is_int(o1[2].state, OBS_FAILED, "failed trials are failed");
	is_int(o1[3].state, OBS_FAILED, "cancelled trials are failed too");
	is_int(o1[4].state, OBS_RUNNING, "running trials are running");

	h1.n = n1;
	h1.obs = o1;
	h1.maximize = 0;
	h2 = h1;
	h2.obs = o2;
	s = search_new("tpe", spc, 11, NULL, 0);
	search_suggest(s, &h1, xa);
	search_suggest(s, &h2, xb);
	ok(memcmp(xa, xb, sizeof(xa)) == 0,
	    "tpe: the same suggestion from either");
	search_free(s);
	s = search_new("tpe", spc, 11, NULL, 0);
	obsbook_log(live, &lg);
	search_suggest_logged(s, &h1, &lg, xb);
	ok(memcmp(xa, xb, sizeof(xa)) == 0, "and with the live book's log");
	search_free(s);

	obsbook_free(live);
	obsbook_free(loaded);
	curves_free(cv);
	curves_free(cv2);
	space_free(spc);
	ledger_tmp_close(l, dir);
	return tap_done();
}
