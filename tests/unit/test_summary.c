/*
 * test_summary.c: ledger_summary_list(), one row per attempt of what a
 * report needs of its points: the highest step of the objective, the
 * first of its points that meets the target (in the trials the ledger
 * marks reached, which the engine does when it records that point), and
 * the last positive train_samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/* A trial of campaign cid, marked reached or not; its id. */
static int64_t
trial(struct ledger *l, int64_t cid, int number, int reached)
{
	struct ledger_trial t = { .campaign_id = cid, .number = number,
	    .params_json = "{}", .state = "completed", .role = "search" };
	int64_t id = 0;

	if (ledger_trial_insert(l, &t, &id) == -1 ||
	    (reached && ledger_trial_set_best(l, id, 0.1, 1, 1, 1100) == -1))
		printf("# %s\n", ledger_error(l));
	return id;
}

/* An attempt of trial tid; its id. */
static int64_t
attempt(struct ledger *l, int64_t tid, int number)
{
	struct ledger_attempt a = { .trial_id = tid, .number = number,
	    .dir = "/nonexistent", .created = 1000 };
	char tok[64];
	int64_t id = 0;

	snprintf(tok, sizeof(tok), "tok-%lld-%d", (long long)tid, number);
	a.token = tok;
	if (ledger_attempt_insert(l, &a, &id) == -1)
		printf("# %s\n", ledger_error(l));
	return id;
}

int
main(void)
{
	struct ledger_campaign c = { .name = "s", .workload = "minicosmo",
	    .backend = "replay", .metric = "eval_error", .has_target = 1,
	    .target = 0.2, .started = 1000 };
	struct ledger_summary *s;
	struct ledger	*l;
	int64_t		 cid = 0, t, a0, a1, b0;
	size_t		 n;
	char		 dir[64];

	if ((l = ledger_tmp_open("test_summary", dir, sizeof(dir))) == NULL)
		return 1;
	if (ledger_campaign_insert(l, &c, &cid) == -1)
		printf("# %s\n", ledger_error(l));
	/* Trial 0, reached: not in its first attempt, at step 2 of its second. */
	t = trial(l, cid, 0, 1);
	a0 = attempt(l, t, 0);
	a1 = attempt(l, t, 1);
	ledger_metric_insert(l, a0, 1, "eval_error", 0.5, 1010);
	ledger_metric_insert(l, a0, 2, "eval_error", 0.4, 1020);
	ledger_metric_insert(l, a1, 3, "eval_error", 0.15, 1130);
	ledger_metric_insert(l, a1, 1, "eval_error", 0.3, 1110);
	ledger_metric_insert(l, a1, 2, "eval_error", 0.19, 1120);
	ledger_metric_insert(l, a1, 4, "eval_error", NAN, 1140);
	ledger_metric_insert(l, a1, 0, "train_samples", 512, 1100);
	ledger_metric_insert(l, a1, 1, "train_samples", 256, 1110);
	ledger_metric_insert(l, a1, 2, "train_samples", 0, 1120);
	/* Trial 1, not marked: a point on target is not sought. */
	t = trial(l, cid, 1, 0);
	b0 = attempt(l, t, 0);
	ledger_metric_insert(l, b0, 1, "eval_error", 0.1, 1210);
	ok(ledger_summary_list(l, cid, "eval_error", 1, 0, 0.2, &s, &n) == 0,
	    "summarize the campaign");
	is_int(n, 3, "a row per attempt");
	if (n != 3) {
		printf("Bail out! %zu rows\n", n);
		return 1;
	}
	ok(s[0].attempt_id == a0 && s[1].attempt_id == a1 &&
	    s[2].attempt_id == b0, "by trial and attempt number");
	ok(s[0].has_last_step && s[0].last_step == 2 && !s[0].reached &&
	    s[0].train_samples == 0, "attempt 0: to step 2, never on target,"
	    " no train_samples");
	ok(s[1].has_last_step && s[1].last_step == 4,
	    "attempt 1: its highest step, a NaN point's too");
	ok(s[1].reached && s[1].reached_step == 2 && s[1].reached_time == 1120,
	    "its first point on target by step, not the first written");
	is_near(s[1].train_samples, 256, 0, "its last positive train_samples");
	ok(!s[2].reached && s[2].last_step == 1,
	    "a trial not marked reached: its points are not searched");
	free(s);
	ok(ledger_summary_list(l, cid, "eval_error", 1, 1, 0.35, &s, &n) == 0 &&
	    n == 3 && s[0].reached && s[0].reached_step == 1 &&
	    s[0].reached_time == 1010, "maximizing: >= the target");
	free(s);
	ok(ledger_summary_list(l, cid, "eval_error", 0, 0, 0.2, &s, &n) == 0 &&
	    n == 3 && !s[0].reached && !s[1].reached,
	    "no target: nothing reached");
	free(s);
	ledger_tmp_close(l, dir);
	return tap_done();
}
