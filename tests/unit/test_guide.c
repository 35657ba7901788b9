/*
 * test_guide.c: the arithmetic of the guideline table and of the
 * time-to-solution report (olympic mean, standard deviation, success
 * rate, Valid FLOPS), and both computed from hand-made ledgers whose every
 * figure is known: epochs and time to target, confirmation, time to
 * solution, the winning run, and every attempt's cost counted exactly
 * once, by outcome and by batch size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "account.h"
#include "guide.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "report.h"
#include "tap.h"

/* The pure functions. */
static void
test_arithmetic(void)
{
	double v5[] = { 100, 2, 3, 1, 4 }, v2[] = { 5, 7 }, one[] = { 9 };
	double same[] = { 2, 2, 2 }, s8[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double e3[] = { 2, 4, 10 };
	struct guide_stats s;

	is_near(guide_olympic_mean(v5, 5), 3, 1e-12,
	    "olympic mean drops one min and one max");
	is_near(guide_mean(v5, 5), 22, 1e-12, "plain mean of the same");
	is_near(guide_olympic_mean(v2, 2), 6, 1e-12,
	    "olympic mean of 2 values is the plain mean");
	is_near(guide_olympic_mean(one, 1), 9, 1e-12, "of 1 value, itself");
	is_near(guide_olympic_mean(same, 3), 2, 1e-12,
	    "of equal values, drops only one of each");
	ok(isnan(guide_olympic_mean(NULL, 0)), "of no value, NaN");
	is_near(guide_std(s8, 8), sqrt(32.0 / 7), 1e-12,
	    "sample standard deviation (n - 1)");
	is_near(guide_std(one, 1), 0, 0, "std of 1 value is 0");
	guide_stats(v5, 5, &s);
	ok(s.n == 5 && s.min == 1 && s.max == 100 && s.olympic_mean == 3 &&
	    s.mean == 22, "stats: n, min, max, olympic and plain mean");
	/* 2, 4 and 10 epochs: the t interval is 5.33 +- 10.5. */
	guide_stats(e3, 3, &s);
	ok(s.has_ci && s.ci_low == 0 && s.ci_high > 15,
	    "stats: an interval of epochs or seconds stops at 0 (%g-%g)",
	    s.ci_low, s.ci_high);
	is_near(guide_rate(4, 5), 0.8, 1e-12, "success rate 4 of 5");
	ok(isnan(guide_rate(0, 0)), "success rate of no run is NaN");
	ok(guide_meets(0.12, 0, 0.12) && !guide_meets(0.121, 0, 0.12) &&
	    guide_meets(0.9, 1, 0.8) && !guide_meets(NAN, 0, 1),
	    "meets: <= when minimizing, >= when maximizing, never NaN");
	is_near(guide_quality_ratio(0.16, 0, 0.2), 1.25, 1e-12,
	    "quality ratio minimizing: target / achieved");
	is_near(guide_quality_ratio(0.9, 1, 0.8), 1.125, 1e-12,
	    "quality ratio maximizing: achieved / target");
	is_near(guide_valid_flops(1e8, 1.25), 1e8 * 3.0517578125, 1e-3,
	    "Valid FLOPS = FLOPS x q^5");
}

/* A trial; returns its id. */
static int64_t
trial(struct ledger *l, int64_t cid, int number, long batch,
    const char *role, const char *state, double best, double step,
    int reached, double reached_at)
{
	struct ledger_trial t = { .campaign_id = cid, .number = number,
	    .params_json = "{\"lr\":0.1}", .batch_size = batch,
	    .seed = number, .state = (char *)state, .role = (char *)role,
	    .created = 1000 };
	int64_t id = 0;

	if (batch == 32)
		t.params_json = "{\"lr\":0.1414,\"batch_size\":32}";
	else if (batch == 16)
		t.params_json = "{\"lr\":0.1,\"batch_size\":16}";
	if (ledger_trial_insert(l, &t, &id) == -1 ||
	    (isfinite(best) && ledger_trial_set_best(l, id, best, step,
	    reached, reached_at) == -1))
		printf("# trial %d: %s\n", number, ledger_error(l));
	return id;
}

/* An attempt from start to end (0: running); returns its id. */
static int64_t
attempt(struct ledger *l, int64_t tid, int number, double start, double end,
    const char *state, int nodes, int gpus, int cpus)
{
	struct ledger_attempt a = { .trial_id = tid, .number = number,
	    .dir = "/nonexistent", .created = start - 1 };
	char tok[64];
	int64_t id = 0;

	snprintf(tok, sizeof(tok), "tok-%lld-%d", (long long)tid, number);
	a.token = tok;
	if (ledger_attempt_insert(l, &a, &id) == -1 ||
	    ledger_attempt_submitted(l, id, "job", start - 1) == -1 ||
	    ledger_attempt_started(l, id, NULL, start, nodes, gpus, cpus, 0,
	    number ? "node-b" : "node-a") == -1 ||
	    (end > 0 && ledger_attempt_finished(l, id, state, end, 0, 0,
	    NULL) == -1))
		printf("# attempt %d: %s\n", number, ledger_error(l));
	return id;
}

/* A curve: eval_error at epochs 1..n ending at value, one per 10 s. */
static void
curve(struct ledger *l, int64_t aid, double start, int n, double last)
{
	int i;

	for (i = 1; i <= n; i++)
		ledger_metric_insert(l, aid, i, "eval_error", i == n ? last :
		    0.5 + 0.1 * (n - i), start + 10.0 * i);
	ledger_metric_insert(l, aid, 0, "train_samples", 1000, start);
}

static const char scaling_spec[] = "{\"name\":\"scale\","
    "\"workload\":\"minicosmo\","
    "\"objective\":{\"metric\":\"eval_error\",\"goal\":\"min\","
    "\"target\":0.2},"
    "\"space\":{\"lr\":{\"type\":\"float\",\"min\":0.001,\"max\":1,"
    "\"scale\":\"log\"}},"
    "\"batch_sizes\":[16,32],"
    "\"scaling\":{\"lr_rule\":\"sqrt\",\"trials_per_batch\":2,"
    "\"seeds\":5,\"min_successes\":4,\"local_batch\":16},"
    "\"budget\":{\"max_trials\":14},"
    "\"resources\":{\"tasks_per_node\":2},"
    "\"hardware\":\"test rig\"}";

/*
 * The scaling campaign, started at 1000, looked at at 2000 (cost in
 * node-seconds; every attempt has 1 node; batch 16: 2 GPUs, 4 CPUs; batch
 * 32: 4 GPUs, 8 CPUs):
 *
 *  0 search  16  completed 1000-1100, reached at epoch 3 (t 1030)   100
 *  1 search  16  node_fail 1000-1050 (retried), then completed
 *                1100-1200, not reached                          50 + 100
 *  2-6 confirm 16  start 1200, reached at epochs 4, 5, 6, 9 (time to
 *                target 40, 50, 60, 90 s, ended then); 6 never (1300)
 *                                                       40+50+60+90+100
 *  7 transfer 32  pruned 1000-1020                                    20
 *  8 search  32  cancelled 1000-1010                                  10
 *  9-11 confirm 32  start 1400, reached at epochs 3, 4, 5 (30, 40, 50 s)
 *  12 confirm 32  failed 1400-1500                                   100
 *  13 confirm 32  running since 1400 (600 s at 2000)                 600
 */
static int64_t
fill_scaling(struct ledger *l)
{
	struct ledger_campaign c = { .name = "scale", .workload = "minicosmo",
	    .backend = "local", .spec_json = (char *)scaling_spec,
	    .spec_path = "scale.json", .metric = "eval_error",
	    .has_target = 1, .target = 0.2, .started = 1000,
	    .max_trials = 14,
	    .workload_json = "{\"name\":\"minicosmo\","
	    "\"flops_per_sample\":1e6,"
	    "\"batch\":{\"global\":\"batch_size\",\"local\":\"lb\"}}" };
	static const int ep16[] = { 4, 5, 6, 9 }, ep32[] = { 3, 4, 5 };
	int64_t cid = 0, t, a;
	int i;

	ok(ledger_campaign_insert(l, &c, &cid) == 0, "insert campaign");
	t = trial(l, cid, 0, 16, "search", "completed", 0.15, 3, 1, 1030);
	a = attempt(l, t, 0, 1000, 1100, "completed", 1, 2, 4);
	curve(l, a, 1000, 3, 0.15);
	t = trial(l, cid, 1, 16, "search", "completed", 0.4, 5, 0, 0);
	attempt(l, t, 0, 1000, 1050, "node_fail", 1, 2, 4);
	a = attempt(l, t, 1, 1100, 1200, "completed", 1, 2, 4);
	curve(l, a, 1100, 5, 0.4);
	for (i = 0; i < 4; i++) {
		t = trial(l, cid, 2 + i, 16, "confirm", "completed", 0.16,
		    ep16[i], 1, 1200 + 10 * ep16[i]);
		a = attempt(l, t, 0, 1200, 1200 + 10 * ep16[i], "completed", 1,
		    2, 4);
		curve(l, a, 1200, ep16[i], 0.16);
	}
	t = trial(l, cid, 6, 16, "confirm", "completed", 0.3, 8, 0, 0);
	a = attempt(l, t, 0, 1200, 1300, "completed", 1, 2, 4);
	curve(l, a, 1200, 8, 0.3);
	t = trial(l, cid, 7, 32, "transfer", "pruned", 0.6, 1, 0, 0);
	attempt(l, t, 0, 1000, 1020, "pruned", 1, 4, 8);
	t = trial(l, cid, 8, 32, "search", "cancelled", NAN, 0, 0, 0);
	attempt(l, t, 0, 1000, 1010, "cancelled", 1, 4, 8);
	for (i = 0; i < 3; i++) {
		t = trial(l, cid, 9 + i, 32, "confirm", "completed", 0.18,
		    ep32[i], 1, 1400 + 10 * ep32[i]);
		a = attempt(l, t, 0, 1400, 1400 + 10 * ep32[i], "completed", 1,
		    4, 8);
		curve(l, a, 1400, ep32[i], 0.18);
	}
	t = trial(l, cid, 12, 32, "confirm", "failed", NAN, 0, 0, 0);
	attempt(l, t, 0, 1400, 1500, "failed", 1, 4, 8);
	t = trial(l, cid, 13, 32, "confirm", "running", 0.5, 2, 0, 0);
	a = attempt(l, t, 0, 1400, 0, NULL, 1, 4, 8);
	curve(l, a, 1400, 2, 0.5);
	return cid;
}

/* Cost by outcome: each attempt in one bucket; the sum is the total. */
static void
test_outcomes(const struct guide *g)
{
	const struct account *a = &g->acct;
	const struct account_cost *o = a->by_outcome;
	struct account_cost sum = { 0 };
	int i;

	is_int(o[ACCT_OUT_COMPLETED].attempts, 10, "10 completed attempts");
	is_near(o[ACCT_OUT_COMPLETED].node_seconds, 660, 1e-6,
	    "completed: 660 node-seconds");
	is_int(o[ACCT_OUT_RETRIED].attempts, 1,
	    "the node_fail attempt counted once, as retried");
	is_near(o[ACCT_OUT_RETRIED].node_seconds, 50, 1e-6,
	    "retried: 50 node-seconds");
	is_near(o[ACCT_OUT_RETRIED].gpu_seconds, 100, 1e-6,
	    "retried: 100 GPU-seconds");
	is_int(o[ACCT_OUT_FAILED].attempts, 1, "1 failed attempt");
	is_near(o[ACCT_OUT_FAILED].node_seconds, 100, 1e-6,
	    "failed: 100 node-seconds");
	is_int(o[ACCT_OUT_PRUNED].attempts, 1, "1 pruned attempt");
	is_near(o[ACCT_OUT_PRUNED].cpu_seconds, 160, 1e-6,
	    "pruned: 160 CPU-seconds");
	is_int(o[ACCT_OUT_CANCELLED].attempts, 1, "1 cancelled attempt");
	is_near(o[ACCT_OUT_CANCELLED].gpu_seconds, 40, 1e-6,
	    "cancelled: 40 GPU-seconds");
	is_int(o[ACCT_OUT_RUNNING].attempts, 1, "1 running attempt");
	is_near(o[ACCT_OUT_RUNNING].node_seconds, 600, 1e-6,
	    "running: charged until now (600 s)");
	for (i = 0; i < ACCT_NOUTCOMES; i++)
		account_cost_add(&sum, &o[i]);
	is_int(sum.attempts, a->attempts, "outcomes sum to every attempt");
	is_int(a->attempts, 15, "15 attempts in all");
	is_near(sum.node_seconds, a->node_seconds, 1e-6,
	    "outcomes' node-seconds sum to the total");
	is_near(sum.gpu_seconds, a->gpu_seconds, 1e-6,
	    "outcomes' GPU-seconds sum to the total");
	is_near(sum.cpu_seconds, a->cpu_seconds, 1e-6,
	    "outcomes' CPU-seconds sum to the total");
	is_near(a->node_seconds, 1440, 1e-6, "total: 1440 node-seconds");
	is_near(a->gpu_seconds, 4580, 1e-6, "total: 4580 GPU-seconds");
}

/* The rows of the scaling campaign. */
static void
test_rows(const struct guide *g)
{
	const struct guide_row *r;
	struct account_cost sum = { 0 };
	size_t i;
	int trials = 0;

	is_int(g->nrows, 2, "one row per batch size");
	if (g->nrows != 2)
		return;
	r = &g->rows[0];
	is_int(r->batch_size, 16, "row 0: batch 16");
	is_int(r->ranks, 1, "batch 16: 1 rank of local batch 16");
	is_int(r->local_batch, 16, "batch 16: local batch 16");
	is_int(r->runs, 5, "batch 16: its 5 confirmation runs");
	is_int(r->successes, 4, "batch 16: 4 reached the target");
	is_near(r->success_rate, 0.8, 1e-12, "batch 16: success rate 0.8");
	ok(r->confirmed, "batch 16: confirmed (4 of 5 >= min_successes 4)");
	is_near(r->epochs.olympic_mean, 5.5, 1e-12,
	    "batch 16: epochs olympic mean of 4 5 6 9");
	is_near(r->epochs.mean, 6, 1e-12, "batch 16: epochs plain mean");
	is_near(r->epochs.std, sqrt(14.0 / 3), 1e-12, "batch 16: epochs std");
	ok(r->epochs.min == 4 && r->epochs.max == 9, "batch 16: epochs 4-9");
	is_near(r->ttt.olympic_mean, 55, 1e-9,
	    "batch 16: time to target olympic mean of 40 50 60 90 s");
	ok(r->ttt.min == 40 && r->ttt.max == 90, "batch 16: 40-90 s");
	is_int(r->trials_tuning, 2, "batch 16: 2 tuning trials");
	is_int(r->trials_confirm, 5, "batch 16: 5 confirmation runs");
	is_near(r->tuning.node_seconds, 250, 1e-6,
	    "batch 16: tuning cost, the retried attempt included");
	is_near(r->confirm.gpu_seconds, 680, 1e-6,
	    "batch 16: confirmation GPU-seconds");
	is_near(r->samples_per_s, (4 * 100 + 80) / 5.0, 1e-9,
	    "batch 16: mean of 1000 samples x epochs run / run time");
	is_str(r->params_json, "{\"lr\":0.1,\"batch_size\":16}",
	    "batch 16: the confirmation runs' parameters");
	r = &g->rows[1];
	is_int(r->ranks, 2, "batch 32: 2 ranks");
	is_int(r->runs, 4, "batch 32: 4 ended runs (the running one waits)");
	is_int(r->successes, 3, "batch 32: 3 reached");
	ok(!r->confirmed, "batch 32: not confirmed (a run is still going)");
	is_near(r->epochs.olympic_mean, 4, 1e-12,
	    "batch 32: olympic mean of 3 4 5");
	is_near(r->confirm.node_seconds, 820, 1e-6,
	    "batch 32: confirmation node-seconds (running one until now)");
	for (i = 0; i < g->nrows; i++) {
		account_cost_add(&sum, &g->rows[i].total);
		trials += g->rows[i].trials_tuning + g->rows[i].trials_confirm;
	}
	is_near(sum.node_seconds, g->acct.node_seconds, 1e-6,
	    "rows' node-seconds sum to the campaign's");
	is_near(sum.gpu_seconds, g->acct.gpu_seconds, 1e-6,
	    "rows' GPU-seconds sum to the campaign's");
	is_int(sum.attempts, g->acct.attempts,
	    "rows' attempts sum to the campaign's");
	is_int(trials, g->acct.trials_total, "rows' trials sum to the total");
	is_int(g->total_trials, 14, "table total: 14 trials");
}

/* Time to solution, winner, MLPerf figures, checklist. */
static void
test_solution(const struct guide *g)
{
	ok(g->has_tts && g->tts_row == &g->rows[0],
	    "time to solution to batch 16, the first confirmed");
	is_near(g->tts_s, 300, 1e-6,
	    "time to solution: start to the end of its last confirmation");
	is_int(g->tts_trial, 6, "its last confirmation run: trial 6");
	is_int(g->first_reach, 0, "first trial on target kept: trial 0");
	ok(g->winner != NULL && g->winner->trial == 2,
	    "winner: the fastest confirmation run of batch 16");
	is_near(g->winner_cost.gpu_seconds, 80, 1e-6,
	    "winner alone: 40 s x 2 GPUs");
	is_str(g->overhead_unit, "gpu_hours", "overhead in GPU-hours");
	is_near(g->overhead, 4580.0 / 80, 1e-9, "tuning overhead 57.25");
	is_str(g->ttt_from, "confirm", "time to train of confirmation runs");
	is_near(g->ttt.olympic_mean, 55, 1e-9, "time to train olympic mean");
	is_int(g->reached_runs, 8, "8 runs reached the target");
	is_near(g->models_per_min, 8 / 7.5, 1e-9,
	    "models per minute: 8 in 450 s");
	ok(g->has_flops, "Valid FLOPS: the workload declares FLOPs");
	is_near(g->flops, 1e6 * 1000 * 4 / 40, 1e-3,
	    "FLOPS: 1e6 x 1000 samples x 4 epochs / 40 s");
	is_near(g->quality_ratio, 0.2 / 0.16, 1e-12, "q = target / achieved");
	is_near(g->valid_flops, 1e8 * pow(1.25, 5), 1e-3, "Valid FLOPS");
	ok(g->checks[0].ok && g->checks[1].ok && g->checks[2].ok &&
	    g->checks[3].ok, "checklist: all four hold");
	like(g->checks[0].detail, "15 attempts of 14 trials",
	    "checklist counts every attempt");
	like(g->checks[2].detail, "test rig", "checklist names the hardware");
	like(g->checks[2].detail, "2 hosts: node-a, node-b",
	    "checklist names the hosts");
	like(g->checks[3].detail, "1 failed and 1 retried",
	    "checklist reports failures");
	is_str(g->lr_rule, "sqrt", "lr rule stated");
}

/* The table's JSON has the agreed schema; the RCP export the fixture's. */
static void
test_formats(struct ledger *l)
{
	cJSON *j, *r, *fx, *e, *fe, *h, *fh;
	char *out = NULL, err[256], *buf;
	FILE *f;
	long n;
	int same = 1;

	ok(report_table(l, "scale", REPORT_JSON, &out, err,
	    sizeof(err)) == 0, "table as JSON");
	j = cJSON_Parse(out);
	free(out);
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
	ok(cJSON_IsString(cJSON_GetObjectItem(j, "lr_rule")) &&
	    cJSON_IsNumber(cJSON_GetObjectItem(j, "seeds")) &&
	    cJSON_IsNumber(cJSON_GetObjectItem(j, "min_successes")) &&
	    cJSON_IsObject(cJSON_GetObjectItem(j, "campaign")) &&
	    cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(j,
	    "total"), "gpu_hours")), "JSON: top-level keys");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(r, "confirmed")) &&
	    cJSON_GetObjectItem(r, "success_rate")->valuedouble == 0.8 &&
	    cJSON_GetObjectItem(cJSON_GetObjectItem(r, "epochs"),
	    "olympic_mean")->valuedouble == 5.5 &&
	    cJSON_IsObject(cJSON_GetObjectItem(r, "params")) &&
	    cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(r,
	    "time_to_target_s"), "olympic_mean")) &&
	    cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(r, "cost"), "confirm"), "node_hours")),
	    "JSON: a row's keys and values");
	cJSON_Delete(j);

	ok(report_table(l, "scale", REPORT_RCP, &out, err, sizeof(err)) == 0,
	    "table as RCP");
	j = cJSON_Parse(out);
	free(out);
	e = cJSON_GetObjectItem(j, "minicosmo_hpod_16");
	is_int(cJSON_GetArraySize(j), 1, "RCP: only the confirmed batch size");
	ok(e != NULL && cJSON_GetArraySize(cJSON_GetObjectItem(e,
	    "Epochs to converge")) == 4, "RCP: the 4 converged runs' epochs");
	if ((f = fopen("tests/fixtures/rcp/rcps_cosmoflow.json", "r")) ==
	    NULL) {
		ok(0, "RCP fixture readable (run from the source tree)");
		cJSON_Delete(j);
		return;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (buf == NULL || fread(buf, 1, n, f) != (size_t)n)
		n = 0;
	fclose(f);
	fx = cJSON_Parse(buf);
	free(buf);
	fe = cJSON_GetArrayItem(fx, 0);
	ok(fe != NULL && e != NULL, "RCP fixture has entries");
	for (r = fe ? fe->child : NULL; r != NULL && e != NULL; r = r->next)
		if (cJSON_GetObjectItem(e, r->string) == NULL ||
		    (cJSON_GetObjectItem(e, r->string)->type & 0xff) !=
		    (r->type & 0xff))
			same = 0;
	/* And rcp_checker's four statistics and hpod's figures. */
	ok(same && cJSON_GetArraySize(e) == cJSON_GetArraySize(fe) + 5 &&
	    cJSON_IsNumber(cJSON_GetObjectItem(e, "Min Epochs")) &&
	    cJSON_IsObject(cJSON_GetObjectItem(e, "hpod")),
	    "RCP entry has the fixture's members with the same types");
	h = cJSON_GetObjectItem(e, "Hyperparams");
	fh = cJSON_GetObjectItem(fe, "Hyperparams");
	ok(h != NULL && fh != NULL && h->child != NULL && fh->child != NULL &&
	    strcmp(h->child->string, fh->child->string) == 0 &&
	    cJSON_GetObjectItem(h, "lr") != NULL &&
	    cJSON_GetObjectItem(h, "batch_size") == NULL,
	    "RCP Hyperparams: global_batch_size first, then the parameters");
	ok(cJSON_IsNumber(cJSON_GetArrayItem(cJSON_GetObjectItem(e,
	    "Epochs to converge"), 0)), "RCP epochs are numbers");
	cJSON_Delete(fx);
	cJSON_Delete(j);
}

/*
 * An ordinary campaign, batch size fixed (not a parameter): one row, the
 * batch size from the spec; its trials are its runs; time to solution is
 * the first trial on target.
 */
static void
test_ordinary(struct ledger *l)
{
	struct ledger_campaign c = { .name = "plain", .workload = "minicosmo",
	    .backend = "local", .metric = "loss", .has_target = 1,
	    .target = 0.2, .started = 1000, .max_trials = 3,
	    .spec_json = "{\"name\":\"plain\",\"workload\":\"minicosmo\","
	    "\"objective\":{\"metric\":\"loss\",\"goal\":\"min\","
	    "\"target\":0.2},\"space\":{\"lr\":{\"type\":\"float\","
	    "\"min\":0.001,\"max\":1}},\"fixed\":{\"batch_size\":64},"
	    "\"budget\":{\"max_trials\":3}}" };
	struct guide g;
	char err[256], *text;
	int64_t cid = 0, t, a;

	ok(ledger_campaign_insert(l, &c, &cid) == 0, "insert campaign");
	c.id = cid;
	t = trial(l, cid, 0, 0, NULL, "completed", 0.3, 4, 0, 0);
	a = attempt(l, t, 0, 1000, 1040, "completed", 1, 0, 1);
	ledger_metric_insert(l, a, 4, "loss", 0.3, 1040);
	t = trial(l, cid, 1, 0, NULL, "completed", 0.1, 2, 1, 1070);
	a = attempt(l, t, 0, 1050, 1070, "completed", 1, 0, 1);
	ledger_metric_insert(l, a, 1, "loss", 0.5, 1060);
	ledger_metric_insert(l, a, 2, "loss", 0.1, 1070);
	t = trial(l, cid, 2, 0, NULL, "failed", NAN, 0, 0, 0);
	attempt(l, t, 0, 1070, 1075, "failed", 1, 0, 1);
	ok(guide_compute(l, &c, 2000, &g, err, sizeof(err)) == 0,
	    "guide of an ordinary campaign");
	is_int(g.nrows, 1, "one row");
	is_int(g.nrows ? g.rows[0].batch_size : 0, 64,
	    "its batch size from the spec's fixed value");
	is_int(g.nrows ? g.rows[0].runs : 0, 3, "its runs: the ended trials");
	is_int(g.nrows ? g.rows[0].successes : 0, 1, "1 reached the target");
	ok(!g.scaling && g.has_tts && g.tts_s == 70 && g.tts_trial == 1,
	    "time to solution: first trial on target, 70 s");
	ok(g.winner != NULL && g.winner->trial == 1 && g.winner->ttt_s == 20,
	    "winner: that trial, 20 s to target");
	is_str(g.overhead_unit, "node_hours", "overhead in node-hours");
	is_near(g.overhead, 65.0 / 20, 1e-9, "overhead 65 / 20");
	ok(!g.checks[1].ok, "checklist: 'loss' is not named held-out");
	ok(!g.checks[2].ok, "checklist: no hardware key");
	ok(!g.checks[3].ok, "checklist: one seed per configuration");
	ok(!g.has_flops, "no Valid FLOPS without flops_per_sample");
	text = guide_table(&g, REPORT_TEXT);
	ok(text != NULL && strstr(text, "hyperparameters of its trial that "
	    "reached the target in the fewest epochs, else of its best\n") !=
	    NULL, "the text says whose hyperparameters a row shows");
	free(text);
	guide_release(&g);
}

/*
 * A scaling campaign whose batch size 16 confirmed two candidates: trial
 * 0 (lr 0.1) missed with 2 of its 2 runs and was abandoned; trial 1 (lr
 * 0.05) passed with 4 of 5 runs at epochs 4, 5, 6, 7.  The row has trial
 * 1's runs and parameters, 2 candidates, and every confirmation run in
 * the trials and the cost.
 */
static void
test_candidates(struct ledger *l)
{
	struct ledger_campaign c = { .name = "cand", .workload = "minicosmo",
	    .backend = "local", .spec_json = (char *)scaling_spec,
	    .spec_path = "cand.json", .metric = "eval_error",
	    .has_target = 1, .target = 0.2, .started = 1000,
	    .max_trials = 14, .state = "finished" };
	static const char *const pj[] = { "{\"lr\":0.1,\"batch_size\":16}",
	    "{\"lr\":0.05,\"batch_size\":16}" };
	struct ledger_trial t = { .batch_size = 16, .created = 1000 };
	struct guide g;
	const struct guide_row *r;
	char err[512], *text;
	int64_t cid = 0, id, a;
	int i, n = 0;

	ok(ledger_campaign_insert(l, &c, &cid) == 0, "insert campaign cand");
	t.campaign_id = cid;
	/* 0, 1: tuning; 2, 3: trial 0's runs; 4-8: trial 1's. */
	for (i = 0; i < 9; i++) {
		int cand = i < 2 ? i : i < 4 ? 0 : 1;
		int reached = i < 2 || (i >= 4 && i < 8);
		int ep = i < 2 ? 3 : 4 + (i - 4);

		t.number = n++;
		t.seed = i;
		t.params_json = (char *)pj[cand];
		t.role = i < 2 ? "search" : "confirm";
		t.state = "completed";
		if (ledger_trial_insert(l, &t, &id) == -1 ||
		    ledger_trial_set_best(l, id, reached ? 0.15 : 0.3, ep,
		    reached, reached ? 1000 + 10 * ep : 0) == -1)
			printf("# %s\n", ledger_error(l));
		a = attempt(l, id, 0, 1000, 1100, "completed", 1, 2, 4);
		curve(l, a, 1000, ep, reached ? 0.15 : 0.3);
	}
	ledger_campaign_set_state(l, cid, "finished", 1200);
	c.id = cid;
	if (guide_compute(l, &c, 2000, &g, err, sizeof(err)) == -1) {
		ok(0, "guide of cand: %s", err);
		return;
	}
	r = g.nrows > 0 ? &g.rows[0] : NULL;
	ok(r != NULL && r->batch_size == 16, "row of batch 16");
	if (r == NULL)
		goto out;
	is_int(r->candidates, 2, "two candidates confirmed");
	ok(r->confirmed, "confirmed by the second");
	is_int(r->params_trial, 1, "its parameters are trial 1's");
	is_str(r->params_json, pj[1], "lr 0.05");
	ok(r->runs == 5 && r->successes == 4, "4 of its 5 runs, not 4 of 7");
	is_near(r->epochs.olympic_mean, 5.5, 1e-12,
	    "epochs: olympic mean of 4 5 6 7");
	is_int(r->trials_confirm, 7, "the 7 confirmation runs are counted");
	is_near(r->confirm.node_seconds, 700, 1e-6,
	    "and all 7 are in the cost");
	text = guide_table(&g, REPORT_TEXT);
	ok(text != NULL && strstr(text, "yes#2") != NULL,
	    "the text table says the second candidate passed");
	free(text);
out:
	guide_release(&g);
}

int
main(void)
{
	struct ledger_campaign c;
	struct ledger *l;
	struct guide g;
	char err[512], dir[64];

	test_arithmetic();
	if ((l = ledger_tmp_open("test_guide", dir, sizeof(dir))) == NULL)
		return 1;
	memset(&c, 0, sizeof(c));
	c.id = fill_scaling(l);
	c.metric = "eval_error";
	ok(guide_compute(l, &c, 2000, &g, err, sizeof(err)) == 0,
	    "guide of the scaling campaign");
	ok(g.scaling && g.seeds == 5 && g.min_successes == 4,
	    "the spec's scaling plan");
	test_outcomes(&g);
	test_rows(&g);
	test_solution(&g);
	guide_release(&g);
	test_formats(l);
	test_ordinary(l);
	test_candidates(l);
	ledger_tmp_close(l, dir);
	return tap_done();
}
