/*
 * test_prior.c: a warm-started campaign's priors, recorded with the
 * campaign, enter the search history before its trials, the same way at
 * the start and at a resume: the book rebuilt from the ledger after some
 * trials equals the one kept live, and gives the same TPE suggestion,
 * which differs from the cold start's.  The trials' view (stoppers,
 * states by trial number) leaves the priors out; the account counts them
 * apart from the trials and the cost.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "curves.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "obsbook.h"
#include "params.h"
#include "prior.h"
#include "search.h"
#include "tap.h"

#define NPRIORS	16
#define NTRIALS	5

/* The TPE suggestion from a history. */
static void
suggest(const struct space *spc, struct observation *obs, size_t n,
    double *x)
{
	struct history	 h = { n, obs, 0 };
	struct search	*s = search_new("tpe", spc, 3, NULL, 0);

	search_suggest(s, &h, x);
	search_free(s);
}

int
main(void)
{
	char dir[64], err[256];
	struct ledger_prior pr[NPRIORS];
	struct ledger_campaign c;
	struct ledger_trial t;
	struct ledger *l;
	struct space *spc;
	struct curves *cv;
	struct obsbook *live, *loaded, *cold;
	struct observation *o1, *o2;
	struct account acct;
	double x[2], xa[2], xb[2], xc[2];
	char *pj[NPRIORS], *tj;
	int64_t cid, tid;
	size_t n1, n2, i, nsame = 0;

	l = ledger_tmp_open("hpod-prior", dir, sizeof(dir));
	ok(l != NULL, "ledger opened");
	if (l == NULL)
		return 1;
	spc = space_new();
	space_add_float(spc, "lr", 0.001, 1, SCALE_LOG, 0);
	space_add_float(spc, "momentum", 0.8, 0.99, SCALE_LINEAR, 0);
	/* Priors: the best near lr 0.01, momentum 0.9. */
	for (i = 0; i < NPRIORS; i++) {
		x[0] = exp(log(0.001) * (double)((i * 7) % 16) / 15.0);
		x[1] = 0.8 + 0.19 * (double)((i * 5) % 16) / 15.0;
		pj[i] = params_to_json(spc, x);
		memset(&pr[i], 0, sizeof(pr[i]));
		pr[i].number = (int)i;
		pr[i].source = "optuna:study.db:s";
		pr[i].source_number = (int)i + 100;
		pr[i].params_json = pj[i];
		pr[i].state = i % 5 == 4 ? "failed" : "completed";
		pr[i].has_value = i % 5 != 4;
		pr[i].value = fabs(log10(x[0]) + 2) + fabs(x[1] - 0.9);
	}
	memset(&c, 0, sizeof(c));
	c.name = "warm";
	c.workload = "w";
	c.backend = "local";
	c.state = "running";
	c.metric = "eval_error";
	c.started = 1000;
	c.max_trials = 10;
	is_int(prior_record(l, &c, pr, NPRIORS, NULL, NULL, &cid, err,
	    sizeof(err)), 0,
	    "campaign and priors recorded in one transaction");
	pr[3].state = "running";
	ok(prior_record(l, &c, pr, NPRIORS, NULL, NULL, &tid, err,
	    sizeof(err)) == -1,
	    "a bad prior row records nothing ...");
	c.id = 0;
	is_int(ledger_campaign_find(l, "2", &c), 1, "... not the campaign");
	pr[3].state = "completed";

	live = obsbook_new(spc);
	cv = curves_new();
	is_int(obsbook_load(live, l, cid, cv, "warm"), 0,
	    "the start loads the book as a resume does");
	o1 = obsbook_history(live, &n1);
	is_int(n1, NPRIORS, "the history holds the priors");
	obsbook_obs(live, &n1);
	is_int(n1, 0, "and no trial");
	for (i = 0; i < NTRIALS; i++) {
		o1 = obsbook_history(live, &n1);
		suggest(spc, o1, n1, x);
		tj = params_to_json(spc, x);
		memset(&t, 0, sizeof(t));
		t.campaign_id = cid;
		t.number = (int)i;
		t.params_json = tj;
		t.state = "pending";
		ledger_trial_insert(l, &t, &tid);
		obsbook_add(live, (int)i, tj, "warm");
		ledger_trial_set_best(l, tid, 0.5 + (double)i, 1, 0, 0);
		obsbook_best(live, (int)i, 0.5 + (double)i);
		ledger_trial_set_state(l, tid, "completed");
		obsbook_state(live, (int)i, TRIAL_COMPLETED);
		free(tj);
	}
	o1 = obsbook_obs(live, &n1);
	is_int(n1, NTRIALS, "the trials' view leaves the priors out");
	ok(o1[2].has_value && o1[2].value == 2.5 && o1[2].state ==
	    OBS_COMPLETE, "trial 2 is at index 2 of it");

	loaded = obsbook_new(spc);
	is_int(obsbook_load(loaded, l, cid, cv, "warm"), 0, "resume: loaded");
	o1 = obsbook_history(live, &n1);
	o2 = obsbook_history(loaded, &n2);
	is_int(n2, NPRIORS + NTRIALS, "priors, then trials");
	for (i = 0; i < n1 && i < n2; i++)
		nsame += memcmp(o1[i].x, o2[i].x, sizeof(x)) == 0 &&
		    o1[i].state == o2[i].state && o1[i].has_value ==
		    o2[i].has_value && (!o1[i].has_value || o1[i].value ==
		    o2[i].value);
	is_int(nsame, NPRIORS + NTRIALS, "live and resumed histories agree");
	is_int(o2[4].state, OBS_FAILED, "a failed prior is failed");
	suggest(spc, o1, n1, xa);
	suggest(spc, o2, n2, xb);
	ok(memcmp(xa, xb, sizeof(xa)) == 0, "tpe: the same suggestion");

	cold = obsbook_new(spc);
	o1 = obsbook_history(cold, &n1);
	suggest(spc, o1, n1, xc);
	o1 = obsbook_history(loaded, &n2);
	suggest(spc, o1, NPRIORS, xa);
	ok(memcmp(xa, xc, sizeof(xa)) != 0,
	    "the first suggestion from the priors is not the cold start's");

	memset(&c, 0, sizeof(c));
	ledger_campaign_get(l, cid, &c);
	is_int(account_campaign(l, &c, 2000, &acct), 0, "account");
	is_int(acct.priors, NPRIORS, "the account counts the priors");
	is_int(acct.trials_total, NTRIALS, "apart from the trials");
	is_str(acct.prior_source, "optuna:study.db:s", "and names the source");
	ok(acct.node_seconds == 0, "priors cost nothing");
	account_release(&acct);
	ledger_campaign_release(&c);

	for (i = 0; i < NPRIORS; i++)
		free(pj[i]);
	obsbook_free(live);
	obsbook_free(loaded);
	obsbook_free(cold);
	curves_free(cv);
	space_free(spc);
	ledger_tmp_close(l, dir);
	return tap_done();
}
