/*
 * test_mllog.c: MLLOG lines from real MLPerf HPC results parse, and
 * anything else is told apart without crashing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mllog.h"
#include "tap.h"

/* Real lines from tests' fixtures (cosmoflow, deepcam, oc20 with a rank). */
static const char cosmo_eval[] = ":::MLLOG {\"namespace\": \"\", "
    "\"time_ms\": 1695625588966, \"event_type\": \"POINT_IN_TIME\", "
    "\"key\": \"eval_error\", \"value\": 0.3136800527572632, \"metadata\": "
    "{\"file\": \"/workspace/cosmoflow/utils/utils.py\", \"lineno\": 233, "
    "\"epoch_num\": 1, \"instance\": 0}}";
static const char deepcam_eval[] = ":::MLLOG {\"namespace\": \"\", "
    "\"time_ms\": 1691209104436, \"event_type\": \"POINT_IN_TIME\", "
    "\"key\": \"eval_accuracy\", \"value\": 0.6646025776863098, "
    "\"metadata\": {\"file\": \"/opt/deepCam/driver/validation.py\", "
    "\"lineno\": 347, \"epoch_num\": 1, \"step_num\": 842}}";
static const char deepcam_stop[] = ":::MLLOG {\"namespace\": \"\", "
    "\"time_ms\": 1691211692795, \"event_type\": \"INTERVAL_END\", "
    "\"key\": \"run_stop\", \"value\": null, \"metadata\": {\"file\": "
    "\"./train.py\", \"lineno\": 417, \"status\": \"success\", "
    "\"epoch_num\": 8}}";
static const char oc20_rank[] = "  0: :::MLLOG {\"namespace\": \"\", "
    "\"time_ms\": 1696465431155, \"event_type\": \"POINT_IN_TIME\", "
    "\"key\": \"submission_benchmark\", \"value\": \"oc20\", \"metadata\": "
    "{\"file\": \"/global/u2/s/sfarrell/WorkAreas/mlperf/optimized-hpc/oc20/"
    "pytorch/ocpmodels/trainers/mlperf_forces_trainer.py\", "
    "\"lineno\": 195}}";
static const char oc20_bool[] = "  0: :::MLLOG {\"namespace\": \"\", "
    "\"time_ms\": 1696465431105, \"event_type\": \"POINT_IN_TIME\", "
    "\"key\": \"cache_clear\", \"value\": true, \"metadata\": {\"file\": "
    "\"x.py\", \"lineno\": 192}}";

/* Parse a NUL-terminated line. */
static int
parse(const char *line, struct mllog_event *ev, char *err, size_t errlen)
{
	return mllog_parse_line(line, strlen(line), ev, err, errlen);
}

/* Parse the first n bytes of s from an exactly sized heap copy. */
static int
parse_exact(const char *s, size_t n, struct mllog_event *ev, char *err,
    size_t errlen)
{
	char *copy;
	int rc;

	if ((copy = malloc(n ? n : 1)) == NULL)
		return -2;
	memcpy(copy, s, n);
	rc = mllog_parse_line(copy, n, ev, err, errlen);
	free(copy);
	return rc;
}

/* Check the parser on real, broken and hostile lines. */
int
main(void)
{
	struct mllog_event ev;
	char err[256], big[600];
	size_t n;
	int bad, expect;

	is_int(parse(cosmo_eval, &ev, err, sizeof(err)), 0, "cosmoflow eval");
	is_str(ev.key, "eval_error", "  key");
	is_str(ev.event_type, "POINT_IN_TIME", "  event_type");
	is_near(ev.time_ms, 1695625588966.0, 0.5, "  time_ms");
	is_int(ev.has_num, 1, "  numeric value");
	is_near(ev.num, 0.3136800527572632, 1e-15, "  value");
	is_int(ev.has_epoch, 1, "  epoch present");
	is_near(ev.epoch, 1, 0, "  epoch_num");
	is_str(ev.status, "", "  no status");

	is_int(parse(deepcam_eval, &ev, err, sizeof(err)), 0, "deepcam eval");
	is_str(ev.key, "eval_accuracy", "  key");
	is_near(ev.num, 0.6646025776863098, 1e-15, "  value");

	is_int(parse(deepcam_stop, &ev, err, sizeof(err)), 0, "run_stop");
	is_str(ev.key, "run_stop", "  key");
	is_str(ev.event_type, "INTERVAL_END", "  event_type");
	is_str(ev.status, "success", "  status");
	is_int(ev.has_num, 0, "  null value is not a number");
	is_str(ev.str, "", "  nor a string");
	is_near(ev.epoch, 8, 0, "  epoch_num");

	is_int(parse(oc20_rank, &ev, err, sizeof(err)), 0, "rank prefix");
	is_str(ev.key, "submission_benchmark", "  key");
	is_str(ev.str, "oc20", "  string value");
	is_int(ev.has_num, 0, "  string is not a number");
	is_int(ev.has_epoch, 0, "  no epoch");

	is_int(parse(oc20_bool, &ev, err, sizeof(err)), 0, "bool value");
	/* An eval_accuracy of true is no 1.0 that meets every target. */
	is_int(ev.has_num, 0, "  a bool is not a number");
	is_str(ev.value_json, "true", "  but kept as JSON");

	/* A step before 0 or past every number is no epoch to count. */
	is_int(parse(":::MLLOG {\"key\": \"eval_error\", \"value\": 0.05, "
	    "\"metadata\": {\"epoch_num\": -5}}", &ev, err, sizeof(err)), -1,
	    "a negative epoch_num is malformed");
	like(err, "eval_error: metadata.epoch_num -5 is not a step",
	    "  and says so");
	is_int(parse(":::MLLOG {\"key\": \"eval_error\", \"value\": 0.05, "
	    "\"metadata\": {\"epoch_num\": 1e999}}", &ev, err, sizeof(err)), -1,
	    "an infinite epoch_num is malformed");
	is_int(parse(":::MLLOG {\"key\": \"eval_error\", \"value\": 0.05, "
	    "\"metadata\": {\"epoch_num\": 0}}", &ev, err, sizeof(err)), 0,
	    "epoch_num 0 is a step");
	is_int(ev.has_epoch, 1, "  read");

	is_int(parse("Epoch 3: loss 0.25", &ev, err, sizeof(err)), 1,
	    "plain output is not MLLOG");
	is_int(parse("", &ev, err, sizeof(err)), 1, "empty line");
	is_int(parse("::MLLOG {\"key\": \"x\"}", &ev, err, sizeof(err)), 1,
	    "almost the tag");

	is_int(parse(":::MLLOG {\"key\": \"x\", ", &ev, err, sizeof(err)), -1,
	    "malformed JSON");
	like(err, "bad JSON", "  says bad JSON");
	is_int(parse(":::MLLOG", &ev, err, sizeof(err)), -1, "tag alone");
	is_int(parse(":::MLLOG {\"value\": 1}", &ev, err, sizeof(err)), -1,
	    "missing key");
	like(err, "'key'", "  names the key");
	is_int(parse(":::MLLOG {\"key\": 5}", &ev, err, sizeof(err)), -1,
	    "numeric key");
	is_int(parse(":::MLLOG [1, 2]", &ev, err, sizeof(err)), -1,
	    "not an object");

	is_int(parse(":::MLLOG {\"key\": \"k\", \"value\": {\"a\": 1}}", &ev,
	    err, sizeof(err)), 0, "object value");
	is_int(ev.has_num, 0, "  object value: no number");
	is_str(ev.str, "", "  object value: no string");
	is_int(parse(":::MLLOG {\"key\": \"k\", \"value\": [1], "
	    "\"metadata\": {\"epoch_num\": \"3\", \"status\": 4}}", &ev,
	    err, sizeof(err)), 0, "array value, odd metadata");
	is_int(ev.has_num, 0, "  array value: no number");
	is_int(ev.has_epoch, 0, "  string epoch_num ignored");
	is_str(ev.status, "", "  numeric status ignored");

	memset(big, 'x', sizeof(big));
	n = (size_t)snprintf(big, sizeof(big), ":::MLLOG {\"key\": \"");
	memset(big + n, 'k', 300);
	n += 300;
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\", \"value\": \"");
	memset(big + n, 'v', 200);
	n += 200;
	snprintf(big + n, sizeof(big) - n, "\"}");
	is_int(parse(big, &ev, err, sizeof(err)), 0, "long key and value");
	is_int(strlen(ev.key), sizeof(ev.key) - 1, "  key truncated");
	is_int(strlen(ev.str), sizeof(ev.str) - 1, "  value truncated");

	is_int(parse_exact(deepcam_stop, sizeof(deepcam_stop) - 1, &ev, err,
	    sizeof(err)), 0, "line without a NUL after it");
	is_int(parse_exact(deepcam_stop, sizeof(deepcam_stop) - 3, &ev, err,
	    sizeof(err)), -1, "len shorter than the line: malformed");
	is_int(parse_exact(oc20_rank, 13, &ev, err, sizeof(err)), -1,
	    "cut right after the tag");
	is_int(parse_exact(oc20_rank, 10, &ev, err, sizeof(err)), 1,
	    "cut inside the tag");

	bad = 0;
	for (n = 0; n < sizeof(cosmo_eval); n++) {
		expect = n < 8 ? 1 : n == sizeof(cosmo_eval) - 1 ? 0 : -1;
		if (parse_exact(cosmo_eval, n, &ev, err, sizeof(err)) != expect)
			bad++;
	}
	is_int(bad, 0, "every prefix of a line: only the whole one parses");
	/* Python's json writes NaN and the infinities as bare words. */
	is_int(parse(":::MLLOG {\"key\": \"eval_accuracy\", \"value\": NaN, "
	    "\"metadata\": {\"epoch_num\": 3}}", &ev, err, sizeof(err)), 0,
	    "value NaN (Python's json)");
	ok(ev.has_num && isnan(ev.num), "  a number, NaN");
	is_int(ev.has_epoch, 1, "  the rest of the line read");
	is_int(parse(":::MLLOG {\"key\": \"x\", \"value\": -Infinity}", &ev,
	    err, sizeof(err)), 0, "value -Infinity");
	ok(ev.has_num && isinf(ev.num) && ev.num < 0, "  -inf");
	is_int(parse(":::MLLOG {\"key\": \"x\", \"value\": \"NaN\"}", &ev,
	    err, sizeof(err)), 0, "value \"NaN\", a string");
	ok(!ev.has_num && strcmp(ev.str, "NaN") == 0, "  stays a string");
	is_int(parse(":::MLLOG {\"key\": \"a NaN, b\", \"value\": Infinity, "
	    "\"metadata\": {\"s\": \"\\\"NaN\"}}", &ev, err, sizeof(err)), 0,
	    "bare words only outside strings");
	ok(strcmp(ev.key, "a NaN, b") == 0 && ev.has_num && isinf(ev.num),
	    "  the strings untouched");
	is_int(parse(":::MLLOG {\"key\": \"x\", \"value\": NaNa}", &ev, err,
	    sizeof(err)), -1, "NaNa is not NaN");
	return tap_done();
}
