/*
 * test_score.c: scoring of MLPerf result logs on small hand-made logs
 * that hold the traps of real ones, and the olympic mean of a set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "score.h"
#include "tap.h"

/* One MLLOG line: key, event type, time_ms, value, metadata members. */
#define L(key, type, t, value, md)					\
	":::MLLOG {\"namespace\": \"\", \"time_ms\": " #t ", "		\
	"\"event_type\": \"" type "\", \"key\": \"" key "\", "		\
	"\"value\": " value ", \"metadata\": {" md "}}\n"
#define P(key, t, value, md)	L(key, "POINT_IN_TIME", t, value, md)
#define BENCH(name)	P("submission_benchmark", 1000, "\"" name "\"", "")
#define START(t)	L("run_start", "INTERVAL_START", t, "null", "")
#define STOP(t, md)	L("run_stop", "INTERVAL_END", t, "null", md)
#define EVAL(key, t, v, epoch)	P(key, t, #v, "\"epoch_num\": " #epoch)

/* Claims success, but 0.81 never meets deepcam's 0.82. */
static const char false_success[] =
    BENCH("deepcam")
    P("global_batch_size", 1001, "144", "")
    START(2000)
    EVAL("eval_accuracy", 3000, 0.7, 1)
    EVAL("eval_accuracy", 4000, 0.81, 2)
    EVAL("eval_accuracy", 5000, 0.805, 3)
    STOP(5500, "\"status\": \"success\"");

/* Meets cosmoflow's 0.124 only after run_stop; one before run_start. */
static const char after_stop[] =
    BENCH("cosmoflow")
    EVAL("eval_error", 1500, 0.1, 0)
    START(2000)
    EVAL("eval_error", 3000, 0.3, 1)
    EVAL("eval_error", 4000, 0.2, 2)
    STOP(4250, "\"status\": \"aborted\"")
    EVAL("eval_error", 5000, 0.11, 3);

/* No status, ranks in front, noise in between, meets the target twice. */
static const char ranks[] =
    "  0: " BENCH("oc20")
    "starting up\n"
    "  0: " START(1696465431167)
    "  0: " EVAL("eval_error", 1696465500000, 0.05, 1)
    "  0: " EVAL("eval_error", 1696465600000, 0.0359, 2)
    "  0: " EVAL("eval_error", 1696465700000, 0.0355, 3)
    "  0: " STOP(1696466701325, "\"epoch\": 3");

/* OpenFold: epoch_num counts samples. */
static const char openfold[] =
    BENCH("openfold")
    START(0)
    EVAL("eval_accuracy", 10, 0.79, 8720)
    EVAL("eval_accuracy", 20, 0.801, 17440)
    STOP(25, "\"status\": \"success\"");

/* Score the log text s as name with rule; the return of score_stream. */
static int
score_text(const char *s, const char *name, const struct score_rule *rule,
    struct score_run *r, char *err, size_t errlen)
{
	FILE	*f;
	int	 rc;

	if ((f = fmemopen((void *)s, strlen(s), "r")) == NULL)
		return -2;
	rc = score_stream(f, name, rule, r, err, errlen);
	fclose(f);
	return rc;
}

/* Expect s to be refused with a message containing msg. */
static void
refused(const char *s, const struct score_rule *rule, const char *msg,
    const char *name)
{
	struct score_run r;
	char		 err[256] = "";

	is_int(score_text(s, "x.log", rule, &r, err, sizeof(err)), -1, name);
	like(err, msg, "  the message");
}

/* The traps of one run. */
static void
test_runs(void)
{
	struct score_rule rule = { 0 };
	struct score_run r;
	char		 err[256];

	is_int(score_text(false_success, "fs.log", &rule, &r, err,
	    sizeof(err)), 0, "status success without the target");
	is_str(r.benchmark, "deepcam", "  benchmark");
	is_str(r.metric, "eval_accuracy", "  metric from the table");
	is_int(r.goal, SCORE_MAX, "  accuracy is maximised");
	is_near(r.target, 0.82, 0, "  target 0.82");
	is_int(r.reached, 0, "  not reached, whatever the status says");
	is_str(r.status, "success", "  status reported as logged");
	is_near(r.best, 0.81, 0, "  best is the highest accuracy");
	is_int(r.has_epochs, 0, "  no epochs to target");
	is_int(r.evals, 3, "  three evaluations");
	is_int(r.has_gbs, 1, "  global batch size");
	is_near(r.gbs, 144, 0, "  of 144");
	is_near(r.ttt_ms, 3500, 0, "  time to train 3.5 s");
	is_int(r.runs_required, 5, "  deepcam needs 5 runs");
	is_str(r.file, "fs.log", "  named as given");
	score_run_release(&r);

	is_int(score_text(after_stop, "as.log", &rule, &r, err,
	    sizeof(err)), 0, "evaluations outside the run");
	is_int(r.evals, 2, "  only the two inside count");
	is_int(r.reached, 0, "  0.11 after run_stop does not count");
	is_near(r.best, 0.2, 0, "  best is the lowest error inside");
	is_str(r.status, "aborted", "  status");
	is_near(r.ttt_ms, 2250, 0, "  time to train");
	score_run_release(&r);

	is_int(score_text(ranks, "rk.log", &rule, &r, err, sizeof(err)), 0,
	    "rank prefixes and no status");
	is_str(r.benchmark, "oc20", "  benchmark behind a rank prefix");
	is_str(r.status, "", "  no status");
	is_int(r.reached, 1, "  reached");
	is_near(r.epochs, 2, 0, "  at the first evaluation on target");
	is_near(r.best, 0.0355, 0, "  best is the lowest");
	is_near(r.ttt_ms, 1270158, 0, "  time to train from time_ms");
	score_run_release(&r);

	is_int(score_text(openfold, "of.log", &rule, &r, err, sizeof(err)), 0,
	    "openfold");
	is_near(r.epochs, 17440, 0, "  epoch_num as logged");
	is_str(r.epoch_unit, "samples", "  in samples");
	score_run_release(&r);

	rule.has_target = 1;
	rule.target = 0.8;
	is_int(score_text(false_success, "fs.log", &rule, &r, err,
	    sizeof(err)), 0, "--target alone overrides the threshold");
	is_int(r.reached, 1, "  0.81 meets 0.8");
	is_near(r.epochs, 2, 0, "  at epoch 2");
	is_str(r.metric, "eval_accuracy", "  metric still the table's");
	score_run_release(&r);
	rule.has_goal = 1;
	rule.goal = SCORE_MIN;
	rule.metric = "eval_accuracy";
	rule.target = 0.75;
	is_int(score_text(false_success, "fs.log", &rule, &r, err,
	    sizeof(err)), 0, "--minimize overrides the goal");
	is_int(r.reached, 1, "  0.7 <= 0.75");
	is_near(r.epochs, 1, 0, "  at epoch 1");
	is_near(r.best, 0.7, 0, "  best is now the lowest");
	score_run_release(&r);
}

/*
 * What real logs hold and the MLCommons scorer takes: NaN values, a log
 * cut before run_stop, garbage and half-written lines.
 */
static void
test_faults(void)
{
	struct score_rule rule = { 0 };
	struct score_run r;
	char		 err[256] = "";
	static const char nan[] = BENCH("deepcam") START(0)
	    P("eval_accuracy", 5, "NaN", "\"epoch_num\": 1")
	    EVAL("eval_accuracy", 6, 0.83, 2)
	    P("eval_accuracy", 7, "-Infinity", "\"epoch_num\": 3")
	    STOP(10, "\"status\": \"success\"");
	static const char allnan[] = BENCH("cosmoflow") START(0)
	    P("eval_error", 5, "NaN", "\"epoch_num\": 1") STOP(10, "");
	static const char cut[] = BENCH("deepcam") START(0)
	    EVAL("eval_accuracy", 5, 0.7, 1) EVAL("eval_accuracy", 6, 0.9, 2)
	    ":::MLLOG {\"namespace\": \"\", \"time_ms\": 7, \"event_";
	static const char garbage[] = BENCH("deepcam") START(0)
	    ":::MLLOG {\"key\": \"eval_\n"
	    "\x01\xff\xfe:::MLLOG garbage\n"
	    ":::MLLOG [1, 2]\n"
	    EVAL("eval_accuracy", 5, 0.85, 1)
	    P("eval_accuracy", 6, "\"high\"", "")
	    STOP(10, "\"status\": \"success\"");

	is_int(score_text(nan, "nan.log", &rule, &r, err, sizeof(err)), 0,
	    "NaN and -Infinity values: scored");
	is_int(r.evals, 3, "  every evaluation counted");
	ok(r.has_best && r.best == 0.83, "  the best is the finite one");
	ok(r.reached && r.has_epochs && r.epochs == 2,
	    "  reached at epoch 2, not at the NaN");
	is_int((int)r.skipped, 0, "  no line skipped");
	score_run_release(&r);

	/* A batch size that is no table row: skipped, named, not truncated. */
	is_int(score_text(BENCH("deepcam") P("global_batch_size", 1, "512.5",
	    "") P("global_batch_size", 2, "1e300", "") START(0)
	    EVAL("eval_accuracy", 5, 0.9, 1) STOP(10, ""), "gbs.log", &rule,
	    &r, err, sizeof(err)), 0, "global_batch_size 512.5, then 1e300");
	ok(!r.has_gbs, "  neither is the batch size");
	is_int((int)r.skipped, 2, "  both lines skipped");
	is_int((int)r.skips[0].line, 2, "  the first on its line");
	like(r.skips[0].why, "global_batch_size 512.5 is not a whole number",
	    "  saying why");
	score_run_release(&r);

	is_int(score_text(allnan, "n.log", &rule, &r, err, sizeof(err)), 0,
	    "only NaN: scored");
	ok(!r.reached && !r.has_best && r.evals == 1,
	    "  NaN never meets the target (eval_error <= 0.124)");
	score_run_release(&r);

	is_int(score_text(cut, "cut.log", &rule, &r, err, sizeof(err)), 0,
	    "cut before run_stop: scored");
	ok(!r.stopped && !r.reached, "  not reached: the run never ended");
	is_str(r.status, "aborted", "  aborted");
	ok(r.evals == 2 && r.has_best && r.best == 0.9,
	    "  with its partial curve");
	is_int((int)r.skipped, 1, "  the half-written last line skipped");
	is_int((int)r.skips[0].line, 5, "  and its line kept");
	score_run_release(&r);

	is_int(score_text(garbage, "g.log", &rule, &r, err, sizeof(err)), 0,
	    "garbage lines: scored");
	ok(r.stopped && r.reached && r.evals == 1, "  the good lines count");
	is_int((int)r.skipped, 4, "  4 lines skipped");
	is_int((int)r.skips[0].line, 3, "  the first on line 3");
	like(r.skips[0].why, "bad JSON after ':::MLLOG'", "  why");
	is_int((int)r.skips[3].line, 7, "  the value that is no number");
	like(r.skips[3].why, "eval_accuracy: value is not a number", "  why");
	score_run_release(&r);
}

/* Logs that cannot be scored. */
static void
test_errors(void)
{
	struct score_rule rule = { 0 }, full = { "eval_error", 1, SCORE_MIN,
	    1, 0.5 };
	struct score_run r;
	char		 err[256];
	static const char unknown[] = BENCH("resnet") START(0)
	    EVAL("eval_error", 5, 0.4, 1) STOP(10, "");
	static const char nobench[] = START(0) EVAL("eval_error", 5, 0.4, 1)
	    STOP(10, "");
	static const char proxy[] = BENCH("minicosmo") START(0)
	    EVAL("eval_error", 5, 0.4, 1) STOP(10, "");

	refused(BENCH("deepcam") STOP(10, ""), &rule,
	    "x.log:2: run_stop before run_start", "run_stop first");
	/* An evaluation on target, after run_start but timed before it. */
	is_int(score_text(BENCH("deepcam") START(5000)
	    EVAL("eval_accuracy", 4000, 0.9, 1)
	    EVAL("eval_accuracy", 6000, 0.5, 2) STOP(7000, "\"status\": "
	    "\"success\""), "x.log", &rule, &r, err, sizeof(err)), 0,
	    "an evaluation timed before run_start: scored");
	ok(!r.reached, "  it does not reach the target");
	is_int(r.evals, 1, "  the other evaluation counts");
	is_int((int)r.skipped, 1, "  it is skipped");
	like(r.skips[0].why, "eval_accuracy: time_ms 4000 is before "
	    "run_start's", "  saying why");
	score_run_release(&r);
	/* Epoch 2 logged after epoch 12: not 2 epochs to target. */
	is_int(score_text(BENCH("deepcam") START(0)
	    EVAL("eval_accuracy", 10, 0.5, 11)
	    EVAL("eval_accuracy", 20, 0.6, 12)
	    EVAL("eval_accuracy", 30, 0.9, 2)
	    EVAL("eval_accuracy", 40, 0.85, 13) STOP(50, "\"status\": "
	    "\"success\""), "x.log", &rule, &r, err, sizeof(err)), 0,
	    "an epoch_num that goes backwards: scored");
	ok(r.reached && r.has_epochs && r.epochs == 13,
	    "  reached at epoch 13, not at the out-of-order 2");
	is_int(r.evals, 3, "  the other evaluations count");
	ok(r.has_best && r.best == 0.85, "  the skipped one is not the best");
	is_int((int)r.skipped, 1, "  it is skipped");
	is_int((int)r.skips[0].line, 5, "  its line kept");
	like(r.skips[0].why, "eval_accuracy: epoch_num 2 is before the "
	    "previous evaluation's 12 (line 4)", "  saying why");
	score_run_release(&r);
	refused(BENCH("deepcam") START(5000) STOP(2000, ""), &rule,
	    "x.log:3: run_stop's time_ms 2000 is before run_start's 5000 "
	    "(line 2)", "run_stop earlier than run_start");
	refused(BENCH("deepcam") START(5000) STOP(1e308, ""), &rule,
	    "x.log:3: run_stop's time_ms 1e+308 is more than a year after "
	    "run_start's 5000 (line 2)", "a run_stop at time_ms 1e308");
	is_int(score_text(BENCH("deepcam") START(0) STOP(31622400000, ""),
	    "x.log", &rule, &r, err, sizeof(err)), 0,
	    "a run of 366 days: scored");
	score_run_release(&r);
	refused(BENCH("deepcam") START(0) STOP(31622400001, ""), &rule,
	    "x.log:3: run_stop's time_ms 3.16224e+10 is more than a year",
	    "one millisecond more: refused");
	refused(BENCH("deepcam") L("run_start", "INTERVAL_START", "0",
	    "null", "") STOP(10, ""), &rule,
	    "x.log:2: run_start without a numeric time_ms",
	    "run_start with a string time_ms");
	refused(BENCH("deepcam") START(0)
	    ":::MLLOG {\"event_type\": \"INTERVAL_END\", \"key\": "
	    "\"run_stop\", \"value\": null}\n", &rule,
	    "x.log:3: run_stop without a numeric time_ms",
	    "run_stop without time_ms");
	refused(BENCH("deepcam"), &rule, "x.log: no run_start event",
	    "no run_start");
	refused("\n", &rule, "x.log: no run_start event", "an empty log");
	refused(BENCH("deepcam") START(0) START(5) STOP(10, ""), &rule,
	    "x.log:3: second run_start (the first is on line 2)",
	    "two run_start");
	refused(BENCH("deepcam") START(0) STOP(5, "") STOP(10, ""), &rule,
	    "x.log:4: second run_stop", "two run_stop");
	refused(unknown, &rule, "x.log:1: unknown benchmark 'resnet' "
	    "(submission_benchmark; known: cosmoflow, deepcam, oc20, "
	    "openfold, minicosmo, minicam): give --metric, --target and "
	    "--maximize or --minimize", "an unknown benchmark, by its line");
	refused(BENCH("cosmoflow") BENCH("deepcam") START(0)
	    EVAL("eval_accuracy", 5, 0.9, 1) STOP(10, ""), &rule,
	    "x.log:2: submission_benchmark 'deepcam', but line 1 says "
	    "'cosmoflow'", "two benchmarks in one log (merged logs)");
	is_int(score_text(BENCH("deepcam") BENCH("deepcam") START(0)
	    EVAL("eval_accuracy", 5, 0.9, 1) STOP(10, ""), "x.log", &rule,
	    &r, err, sizeof(err)), 0, "the same benchmark twice: scored");
	score_run_release(&r);
	refused(nobench, &rule, "x.log: no submission_benchmark: give",
	    "no benchmark");
	refused(proxy, &rule, "x.log: benchmark 'minicosmo' has no fixed "
	    "target: give --target", "a proxy without --target");

	is_int(score_text(unknown, "u.log", &full, &r, err, sizeof(err)), 0,
	    "an unknown benchmark with a full rule");
	is_int(r.reached, 1, "  0.4 <= 0.5");
	is_int(r.runs_required, 3, "  3 runs for an olympic mean");
	score_run_release(&r);
	is_int(score_text(nobench, "n.log", &full, &r, err, sizeof(err)), 0,
	    "no benchmark, full rule");
	is_str(r.benchmark, "", "  benchmark empty");
	score_run_release(&r);
	full.metric = NULL;
	full.has_goal = 0;
	is_int(score_text(proxy, "p.log", &full, &r, err, sizeof(err)), 0,
	    "a proxy with --target");
	is_str(r.metric, "eval_error", "  minicosmo's metric");
	score_run_release(&r);

	is_int(score_file("/nonexistent/result_0.txt", &rule, &r, err,
	    sizeof(err)), -1, "a missing file");
	is_str(err, "/nonexistent/result_0.txt: No such file or directory",
	    "  named, with the reason");
}

/* A made-up run of deepcam for the set tests. */
static struct score_run
run_of(const char *file, double ms, int reached, double epochs)
{
	struct score_run r;

	memset(&r, 0, sizeof(r));
	r.file = (char *)file;
	snprintf(r.benchmark, sizeof(r.benchmark), "deepcam");
	snprintf(r.metric, sizeof(r.metric), "eval_accuracy");
	r.goal = SCORE_MAX;
	r.target = 0.82;
	r.epoch_unit = "epochs";
	r.runs_required = 5;
	r.ttt_ms = ms;
	r.reached = reached;
	r.has_epochs = reached;
	r.epochs = epochs;
	return r;
}

/* The olympic mean of sets. */
static void
test_sets(void)
{
	struct score_run r[5];
	struct score_set s;
	char		 err[256];

	r[0] = run_of("a", 100000, 1, 8);
	r[1] = run_of("b", 90000, 1, 7);
	r[2] = run_of("c", 500000, 0, 0);
	r[3] = run_of("d", 110000, 1, 9);
	r[4] = run_of("e", 120000, 1, 10);
	is_int(score_summary(r, 5, &s, err, sizeof(err)), 0,
	    "a set with one failed run");
	is_int(s.converged, 4, "  4 converged");
	is_int(s.has_mean, 1, "  it has a mean");
	is_int(s.slowest, 2, "  the failed run is dropped as the slowest");
	is_int(s.fastest, 1, "  and the fastest is dropped");
	is_near(s.mean_s, 110, 1e-12, "  mean of 100, 110, 120 s");
	is_near(s.mean_min, 110 / 60.0, 1e-12, "  in minutes");
	is_int(s.has_epochs, 1, "  epochs known");
	is_near(s.mean_epochs, 9, 1e-12, "  olympic mean of 7 8 9 10 inf");
	is_int(s.scores, 1, "  it scores");
	is_str(s.reason, "", "  no reason");

	r[3].reached = 0;
	is_int(score_summary(r, 5, &s, err, sizeof(err)), 0,
	    "a set with two failed runs");
	is_int(s.has_mean, 0, "  has no mean");
	is_int(s.scores, 0, "  does not score");
	is_str(s.reason, "2 runs did not reach the target; at most 1 may",
	    "  and says why");
	r[3].reached = 1;

	is_int(score_summary(r, 4, &s, err, sizeof(err)), 0,
	    "4 deepcam runs");
	is_int(s.has_mean, 1, "  have a mean");
	is_near(s.mean_s, 105, 1e-12, "  of 100 and 110 s");
	is_int(s.scores, 0, "  but do not score");
	is_str(s.reason, "4 runs; the rules require 5", "  too few runs");

	is_int(score_summary(r, 2, &s, err, sizeof(err)), 0, "2 runs");
	is_str(s.reason, "2 runs; the olympic mean needs 3", "  no mean");

	r[4].ttt_ms = 90000;
	is_int(score_summary(r, 5, &s, err, sizeof(err)), 0, "a tie");
	is_int(s.fastest, 1, "  the first of equals is the fastest");
	r[4].ttt_ms = 120000;

	snprintf(r[4].benchmark, sizeof(r[4].benchmark), "cosmoflow");
	is_int(score_summary(r, 5, &s, err, sizeof(err)), -1,
	    "mixed benchmarks");
	is_str(err, "e is benchmark 'cosmoflow' but a is 'deepcam'",
	    "  named");
	snprintf(r[4].benchmark, sizeof(r[4].benchmark), "deepcam");
	r[4].target = 0.8;
	is_int(score_summary(r, 5, &s, err, sizeof(err)), -1,
	    "mixed targets");
}

/* A directory of result files, in version order. */
static void
test_dir(void)
{
	struct score_rule rule = { 0 };
	struct score_run *runs;
	size_t		  n, i;
	char		  dir[] = "/tmp/test_score.XXXXXX", path[256], err[512];
	static const char *names[] = { "result_10.txt", "result_2.txt",
	    "result_1.txt", "notes.txt" };
	FILE		 *f;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	is_int(score_dir(dir, &rule, &runs, &n, err, sizeof(err)), -1,
	    "an empty directory");
	like(err, "no result_*.txt files", "  says so");
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if ((f = fopen(path, "w")) == NULL)
			continue;
		fputs(i == 3 ? "not a log\n" : openfold, f);
		fclose(f);
	}
	is_int(score_dir(dir, &rule, &runs, &n, err, sizeof(err)), 0,
	    "a directory of result files");
	is_int(n, 3, "  three of them");
	snprintf(path, sizeof(path), "%s/result_1.txt", dir);
	is_str(n > 0 ? runs[0].file : NULL, path, "  result_1 first");
	snprintf(path, sizeof(path), "%s/result_10.txt", dir);
	is_str(n > 2 ? runs[2].file : NULL, path, "  result_10 last");
	for (i = 0; i < n; i++)
		score_run_release(&runs[i]);
	free(runs);

	snprintf(path, sizeof(path), "%s/result_2.txt", dir);
	if ((f = fopen(path, "w")) != NULL) {
		fputs(false_success, f);
		fclose(f);
	}
	is_int(score_dir(dir, &rule, &runs, &n, err, sizeof(err)), 0,
	    "a directory of mixed benchmarks is read");
	is_int(score_summary(runs, n, &(struct score_set){ 0 }, err,
	    sizeof(err)), -1, "  but not scored as a set");
	for (i = 0; i < n; i++)
		score_run_release(&runs[i]);
	free(runs);

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	is_int(score_dir(dir, &rule, &runs, &n, err, sizeof(err)), -1,
	    "a missing directory");
	like(err, "No such file or directory", "  says so");
}

int
main(void)
{
	test_runs();
	test_faults();
	test_errors();
	test_sets();
	test_dir();
	return tap_done();
}
