/*
 * test_spec.c: campaign spec validation, workload rendering and the
 * configuration file parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "params.h"
#include "spec.h"
#include "tap.h"
#include "workload.h"

static const char good[] =
    "{\"name\": \"demo\", \"workload\": \"minicosmo\",\n"
    " \"objective\": {\"metric\": \"eval_error\", \"goal\": \"min\", "
    "\"target\": 0.2},\n"
    " \"space\": {\n"
    "  \"lr\": {\"type\": \"float\", \"min\": 1e-4, \"max\": 1.0, "
    "\"scale\": \"log\"},\n"
    "  \"warmup_epochs\": {\"type\": \"int\", \"min\": 0, \"max\": 4},\n"
    "  \"batch_size\": {\"type\": \"choice\", \"values\": [16, 32, 64]},\n"
    "  \"opt\": {\"type\": \"choice\", \"values\": [\"sgd\", \"adam\"]}},\n"
    " \"fixed\": {\"epochs\": 6},\n"
    " \"search\": {\"algorithm\": \"random\", \"seed\": 1},\n"
    " \"budget\": {\"max_trials\": 24, \"max_parallel\": 2, "
    "\"max_wall_time\": \"01:30:00\"},\n"
    " \"resources\": {\"nodes\": 1, \"gpus_per_node\": 0, "
    "\"cpus_per_task\": 1, \"time_limit\": \"00:10:00\"},\n"
    " \"backend\": \"local\"}\n";

/* Parse text and expect failure with a message containing want. */
static void
bad(const char *text, const char *want, const char *name)
{
	struct campaign_spec	*s;
	char			 err[1024] = "";

	s = spec_parse(text, strlen(text), "c.json", err, sizeof(err));
	ok(s == NULL, "%s: rejected", name);
	like(err, want, name);
	spec_free(s);
}

/* A minimal spec around one space entry or extra top-level text. */
static char *
mk(const char *space, const char *extra)
{
	char	*s;

	if (asprintf(&s, "{\"name\": \"x\", \"workload\": \"w\", \"space\": "
	    "{%s}, \"budget\": {\"max_trials\": 3}%s}", space, extra) == -1)
		abort();
	return s;
}

static void
test_good(void)
{
	struct campaign_spec	*s;
	char			 err[1024] = "", *pj;
	double			 x[4] = { 0.01, 2, 1, 1 }, y[4];

	s = spec_parse(good, strlen(good), "c.json", err, sizeof(err));
	ok(s != NULL, "good spec parses (%s)", err);
	if (s == NULL)
		return;
	is_str(s->name, "demo", "name");
	is_str(s->metric, "eval_error", "objective.metric");
	ok(!s->maximize && s->has_target, "goal min with a target");
	is_near(s->target, 0.2, 0, "target");
	is_int(s->space->n, 4, "four parameters");
	is_int(s->space->params[0].scale, SCALE_LOG, "lr is log-scaled");
	is_int(s->max_trials, 24, "max_trials");
	is_int(s->max_parallel, 2, "max_parallel");
	is_near(s->max_wall_time, 5400, 0, "max_wall_time in seconds");
	is_int(s->res.time_limit, 600, "time_limit in seconds");
	is_int(s->retry_limit, 2, "retry.limit defaults to 2");
	is_int(s->nfixed, 1, "one fixed parameter");
	is_str(s->fixed[0].value, "6", "fixed value as text");
	pj = params_to_json(s->space, x);
	is_str(pj, "{\"lr\":0.01,\"warmup_epochs\":2,\"batch_size\":32,"
	    "\"opt\":\"adam\"}", "params_to_json");
	ok(params_from_json(s->space, pj, y, err, sizeof(err)) == 0 &&
	    memcmp(x, y, sizeof(x)) == 0, "params_from_json round-trips");
	ok(params_from_json(s->space, "{\"lr\":5}", y, err, sizeof(err)) ==
	    -1, "params outside the space are refused");
	free(pj);
	spec_free(s);
}

/* bad() on a minimal spec made by mk(). */
static void
bad_mk(const char *space, const char *extra, const char *want,
    const char *name)
{
	char	*t = mk(space, extra);

	bad(t, want, name);
	free(t);
}

static void
test_bad(void)
{
	bad("{\"name\": ", "c.json: line 1, column", "JSON syntax error");
	bad("[1]", "expected a JSON object", "not an object");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": 0, \"max\": 1}",
	    ", \"budgett\": {}",
	    "c.json: budgett: unknown key", "unknown top-level key");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": 0, \"max\": 1, "
	    "\"sclae\": \"log\"}", "",
	    "space.lr.sclae: unknown key", "unknown parameter key");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": \"0\", \"max\": 1}",
	    "",
	    "space.lr.min: expected a number, got a string", "wrong type");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": 1, \"max\": 1}", "",
	    "space.lr: empty range", "empty range");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": 2, \"max\": 1}", "",
	    "space.lr: min (2) must be <= max (1)", "min > max");
	bad_mk("\"lr\": {\"type\": \"float\", \"min\": 0, \"max\": 1, "
	    "\"scale\": \"log\"}", "",
	    "space.lr.min: must be > 0 for scale \"log\"",
	    "log scale over non-positive values");
	bad_mk("\"bs\": {\"type\": \"choice\", \"values\": []}", "",
	    "space.bs.values: expected a non-empty array", "empty choice");
	bad_mk("\"bs\": {\"type\": \"choice\", \"values\": [1, 1]}", "",
	    "space.bs.values[1]: duplicate value", "duplicate choice");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0.5, \"max\": 3}", "",
	    "space.n: int bounds must be integers", "fractional int bound");
	bad_mk("\"n\": {\"type\": \"integer\", \"min\": 0, \"max\": 3}", "",
	    "space.n.type: expected \"float\", \"int\" or \"choice\"",
	    "unknown parameter type");
	bad("{\"name\": \"x\", \"workload\": \"w\", \"space\": {\"a\": {\"type"
	    "\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": {}}",
	    "budget.max_trials: required", "missing budget cap");
	bad("{\"name\": \"x\", \"workload\": \"w\", \"space\": {\"a\": {\"type"
	    "\": \"int\", \"min\": 0, \"max\": 3}}}", "budget: required",
	    "missing budget");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"search\": {\"algorithm\": \"magic\"}",
	    "search.algorithm: unknown algorithm \"magic\"",
	    "unknown algorithm");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"resources\": {\"time_limit\": \"ten minutes\"}",
	    "resources.time_limit: expected a positive duration",
	    "bad duration");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"resources\": {\"time_limit\": 1e300}",
	    "or minutes below 10000000, got 1e+300", "a huge duration says so");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"resources\": {\"time_limit\": \"5 min\"}",
	    "resources.time_limit: expected a positive duration as sbatch "
	    "--time takes it (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S; fields up to "
	    "1000000, days up to 100000) or minutes below 10000000, got "
	    "\"5 min\"", "a bad duration shows what it got");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"fixed\": {\"n\": 2}",
	    "fixed.n: also defined in space", "fixed overlaps space");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"backend\": \"pbs\"",
	    "backend: expected \"local\", \"slurm\" or \"replay\"", "unknown backend");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}, "
	    "\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 4}", "",
	    "space.n: duplicate key", "duplicate parameter");
	bad("{\"name\": \"x y\", \"workload\": \"w\", \"space\": {\"a\": "
	    "{\"type\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": "
	    "{\"max_trials\": 1}}", "name: \"x y\" must start with a letter",
	    "bad campaign name");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 3}",
	    ", \"budget\": {\"max_trials\": 0}",
	    "duplicate key", "budget given twice");
	bad("{\"name\": \"x\", \"workload\": \"w\", \"space\": {\"a\": {\"type"
	    "\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": "
	    "{\"max_trials\": 0}}", "budget.max_trials: 0 is out of range",
	    "max_trials out of range");
	bad("{\"name\": \"x\", \"workload\": \"w\", \"space\": {\"a\": {\"type"
	    "\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": "
	    "{\"max_trials\": 2.5}}", "budget.max_trials: expected an integer",
	    "fractional max_trials");
	bad_mk("\"n\": {\"type\": \"int\", \"min\": 0, \"max\": 1e300}", "",
	    "space.n: int bounds must be within +-2^53 (9007199254740992; "
	    "got 0, 1e+300)", "a huge int bound says why");
	bad("{\"name\": \"minicosmo\", \"program\": \"minicosmo\", "
	    "\"args\": [\"--lr\", \"{lr}\"]}", "c.json: a workload spec (it "
	    "has \"program\"; see hpod-workload(5)), not a campaign spec",
	    "a workload spec given as a campaign");
	/* A huge number is shown short, not as its 301 digits. */
	bad("{\"name\": \"x\", \"workload\": \"w\", \"space\": {\"a\": {\"type"
	    "\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": "
	    "{\"max_trials\": 1e300}}",
	    "budget.max_trials: 1e+300 is out of range [1, 1000000]",
	    "a huge max_trials");
}

/* A scaling campaign of batch sizes 32 and 64 in pilots given by pilot. */
static char *
scaling_pilot(const char *pilot)
{
	char	*s;

	if (asprintf(&s, "{\"name\": \"x\", \"workload\": \"w\", "
	    "\"space\": {\"lr\": {\"type\": \"float\", \"min\": 0.1, "
	    "\"max\": 1}}, \"budget\": {\"max_trials\": 8}, "
	    "\"batch_sizes\": [32, 64], \"scaling\": {\"local_batch\": 16, "
	    "\"lr_rule\": \"none\", \"trials_per_batch\": 1, \"seeds\": 1}, "
	    "\"resources\": {\"gpus_per_node\": 2}, \"backend\": \"slurm\", "
	    "\"dispatch\": \"pilot\", \"pilot\": %s}", pilot) == -1)
		abort();
	return s;
}

/* "dispatch" and "pilot": "auto" and an object, defaults and refusals. */
static void
test_pilot(void)
{
	static const char lr[] = "\"lr\": {\"type\": \"float\", \"min\": 0.1, "
	    "\"max\": 1}";
	static const char res[] = ", \"resources\": {\"cpus_per_task\": 2, "
	    "\"gpus_per_node\": 1}, \"dispatch\": \"pilot\"";
	struct campaign_spec	*s;
	char			 err[1024] = "", extra[512], *t;

	t = mk(lr, "");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	is_int(s ? s->pilot.count : -1, 0, "no dispatch: one job per attempt");
	spec_free(s);
	free(t);
	snprintf(extra, sizeof(extra), "%s, \"pilot\": \"auto\"", res);
	t = mk(lr, extra);
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s != NULL, "pilot auto parses");
	if (s == NULL)
		printf("# %s\n", err);
	ok(s && s->pilot.autosize && s->pilot.count == 1 &&
	    s->pilot.cpus == 2 && s->pilot.gpus == 1 &&
	    s->pilot.time_limit == 0,
	    "auto: max_parallel pilots of one trial's size, no time limit");
	spec_free(s);
	free(t);
	snprintf(extra, sizeof(extra), "%s, \"pilot\": {\"count\": 3, "
	    "\"time_limit\": \"01:00:00\"}", res);
	t = mk(lr, extra);
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s && s->pilot.count == 3 && s->pilot.cpus == 2 &&
	    s->pilot.gpus == 1 && s->pilot.time_limit == 3600,
	    "pilot object: cpus and gpus default to one trial's");
	spec_free(s);
	free(t);

	snprintf(extra, sizeof(extra), "%s, \"pilot\": \"big\"", res);
	bad_mk(lr, extra, "c.json: pilot: expected \"auto\" or an object, "
	    "got \"big\"", "pilot: a string other than auto");
	snprintf(extra, sizeof(extra), "%s, \"pilot\": 3", res);
	bad_mk(lr, extra, "c.json: pilot: expected \"auto\" or an object, "
	    "got a number", "pilot: a number");
	snprintf(extra, sizeof(extra), "%s, \"pilot\": {\"cpus\": 4}", res);
	bad_mk(lr, extra, "c.json: pilot.count: required", "pilot.count "
	    "required");
	snprintf(extra, sizeof(extra), "%s, \"pilot\": {\"count\": 1, "
	    "\"gpus\": 0}", res);
	bad_mk(lr, extra, "c.json: pilot.gpus: 0 is less than one trial's 1 "
	    "GPUs", "pilot.gpus below a trial's");
	bad_mk(lr, res, "c.json: pilot: required with \"dispatch\": "
	    "\"pilot\"", "dispatch pilot without pilot");
	bad_mk(lr, ", \"dispatch\": \"batch\"", "c.json: dispatch: expected "
	    "\"job\", \"chain\" or \"pilot\", got \"batch\"",
	    "dispatch batch");
	bad_mk(lr, ", \"pilot\": \"auto\"", "c.json: pilot: only with "
	    "\"dispatch\": \"pilot\"", "pilot without dispatch");
	t = mk(lr, ", \"resources\": {\"nodes\": 2}, \"backend\": \"slurm\","
	    " \"dispatch\": \"pilot\", \"pilot\": \"auto\"");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s && s->pilot.nodes == 2, "auto: a pilot of one 2-node trial's "
	    "nodes");
	spec_free(s);
	free(t);
	t = mk(lr, ", \"resources\": {\"nodes\": 2}, \"backend\": \"slurm\","
	    " \"dispatch\": \"pilot\", \"pilot\": {\"count\": 1, "
	    "\"nodes\": 4}");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s && s->pilot.nodes == 4, "a pilot of 4 nodes for 2-node trials");
	spec_free(s);
	free(t);
	t = mk(lr, ", \"backend\": \"slurm\", \"dispatch\": \"pilot\", "
	    "\"pilot\": {\"count\": 1}");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s && s->pilot.nodes == 1, "pilot.nodes defaults to a trial's");
	spec_free(s);
	free(t);
	bad_mk(lr, ", \"resources\": {\"nodes\": 2}, \"backend\": \"slurm\","
	    " \"dispatch\": \"pilot\", \"pilot\": {\"count\": 1, "
	    "\"nodes\": 1}", "c.json: pilot.nodes: 1 is less than one trial's "
	    "2 nodes (resources.nodes)", "a trial larger than its pilot");
	bad_mk(lr, ", \"dispatch\": \"pilot\", \"pilot\": {\"count\": 1, "
	    "\"nodes\": 2}", "c.json: pilot.nodes: 2 nodes need backend "
	    "\"slurm\": the local backend is one host",
	    "a multi-node pilot on the local backend");
	bad_mk(lr, ", \"backend\": \"slurm\", \"dispatch\": \"pilot\", "
	    "\"pilot\": {\"count\": 1, \"nodes\": 0}", "c.json: pilot.nodes",
	    "pilot.nodes 0");

	/*
	 * A scaling campaign sizes each batch size's trial (local_batch 16,
	 * 2 GPUs a node: 64 is 2 nodes x 2 GPUs); a pilot must hold the
	 * largest, or that batch size's trials never run.
	 */
	t = scaling_pilot("\"auto\"");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s && s->pilot.nodes == 2 && s->pilot.gpus == 2,
	    "auto in a scaling campaign: a pilot of the largest batch size's "
	    "trial (%d nodes x %d GPUs)", s ? s->pilot.nodes : -1,
	    s ? s->pilot.gpus : -1);
	if (s == NULL)
		printf("# %s\n", err);
	spec_free(s);
	free(t);
	t = scaling_pilot("{\"count\": 1}");
	bad(t, "c.json: pilot.nodes: 1 is less than the 2 nodes of a trial of "
	    "batch size 64 (batch_sizes[1])", "a pilot smaller than the "
	    "largest batch size's trial");
	free(t);
}

/* "dispatch": "chain": Slurm only, no pilot with it. */
static void
test_chain(void)
{
	static const char lr[] = "\"lr\": {\"type\": \"float\", \"min\": 0.1, "
	    "\"max\": 1}";
	struct campaign_spec	*s;
	char			 err[1024] = "", *t;

	t = mk(lr, ", \"backend\": \"slurm\", \"dispatch\": \"chain\"");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s != NULL && s->chain && s->pilot.count == 0,
	    "dispatch chain on slurm parses (%s)", err);
	spec_free(s);
	free(t);
	t = mk(lr, ", \"backend\": \"slurm\"");
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	ok(s != NULL && !s->chain, "no dispatch: not chained");
	spec_free(s);
	free(t);
	bad_mk(lr, ", \"dispatch\": \"chain\"", "c.json: dispatch: \"chain\" "
	    "needs backend \"slurm\" (a job queued behind another's end), not "
	    "\"local\"", "dispatch chain on the local backend");
	bad_mk(lr, ", \"backend\": \"slurm\", \"dispatch\": \"chain\", "
	    "\"pilot\": \"auto\"", "c.json: pilot: only with \"dispatch\": "
	    "\"pilot\"", "dispatch chain with a pilot");
}

static void
test_durations(void)
{
	is_int(spec_parse_duration("10"), 600, "minutes");
	is_int(spec_parse_duration("01:30"), 90, "MM:SS");
	is_int(spec_parse_duration("01:00:05"), 3605, "HH:MM:SS");
	is_int(spec_parse_duration("2-01:00:00"), 2 * 86400 + 3600,
	    "D-HH:MM:SS");
	is_int(spec_parse_duration("1:2:3:4"), -1, "too many fields");
	is_int(spec_parse_duration("abc"), -1, "not a number");
	is_int(spec_parse_duration("2-10"), 2 * 86400 + 10 * 3600, "D-H");
	is_int(spec_parse_duration("0-01:30"), 5400, "D-H:M");
}

/* Write a file in dir. */
static void
put(const char *dir, const char *name, const char *text)
{
	char	 path[512];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* Write a workload spec and expect loading it to fail with want. */
static void
bad_workload(const char *dir, const char *name, const char *text,
    const char *want, const char *what)
{
	const char *const	 prog[] = { "/bin", NULL };
	struct workload		*w;
	char			 err[1024] = "", path[512];

	put(dir, name, text);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = workload_load(path, prog, err, sizeof(err));
	ok(w == NULL, "%s: rejected", what);
	like(err, want, "the error names the file and key");
	workload_free(w);
}

static void
test_workload(const char *dir)
{
	const char *const	 prog[] = { "/bin", NULL };
	const char *const	 names[] = { "lr", "bs" };
	struct workload_var	 vars[] = { { "lr", "0.5" }, { "bs", "a b;c" },
				    { "seed", "7" } };
	struct workload		*w;
	char			 err[1024] = "", **argv = NULL, **env = NULL;
	char			 path[512], *rp;

	put(dir, "w.json", "{\"name\": \"w\", \"program\": \"sh\", \"args\": "
	    "[\"--lr={lr}\", \"{bs}\", \"{{literal}}\", \"{seed}\", \"{ep}\"],"
	    " \"env\": {\"X\": \"{lr}\"}, \"defaults\": {\"ep\": 3, \"lr\": "
	    "0.1}, \"objective\": {\"metric\": \"acc\", \"goal\": \"max\", "
	    "\"target\": 0.9}}");
	snprintf(path, sizeof(path), "%s/w.json", dir);
	w = workload_load(path, prog, err, sizeof(err));
	ok(w != NULL, "workload loads (%s)", err);
	if (w == NULL)
		return;
	rp = realpath("/bin/sh", NULL);
	is_str(w->program, rp, "program resolved in progdirs");
	free(rp);
	ok(w->maximize && w->has_target, "objective read");
	ok(workload_check(w, names, 2, err, sizeof(err)) == 0,
	    "all placeholders known");
	ok(workload_check(w, names, 1, err, sizeof(err)) == -1,
	    "an unknown placeholder is reported");
	like(err, "placeholder 'bs' has no value", "and named");
	ok(workload_render(w, vars, 3, &argv, &env, err, sizeof(err)) == 0,
	    "render");
	if (argv != NULL) {
		is_str(argv[1], "--lr=0.5", "parameter substituted");
		is_str(argv[2], "a b;c", "value stays one argv element");
		is_str(argv[3], "{literal}", "{{ }} are literal braces");
		is_str(argv[4], "7", "built-in seed");
		is_str(argv[5], "3", "default used");
		ok(argv[6] == NULL, "argv ends");
		is_str(env[0], "X=0.5", "environment rendered");
	}
	workload_strv_free(argv);
	workload_strv_free(env);
	workload_free(w);

	bad_workload(dir, "bad1.json", "{\"name\": \"b\", \"program\": "
	    "\"sh\", \"args\": [\"{x\"]}", "bad1.json: args[0]",
	    "unbalanced brace");
	/* A program of a cluster need not exist where the spec is read. */
	put(dir, "lazy.json", "{\"name\": \"b\", \"program\": "
	    "\"no-such-program-hpod\"}");
	snprintf(path, sizeof(path), "%s/lazy.json", dir);
	w = workload_load(path, prog, err, sizeof(err));
	ok(w != NULL && w->program == NULL &&
	    strcmp(w->program_name, "no-such-program-hpod") == 0,
	    "a missing program is kept by name (%s)", err);
	workload_free(w);
	bad_workload(dir, "bad3.json", "{\"name\": \"b\", \"program\": "
	    "\"sh\", \"colour\": 1}", "bad3.json: colour: unknown key",
	    "unknown workload key");
	w = workload_load(dir, prog, err, sizeof(err));
	ok(w == NULL, "a directory is not a workload spec");
	like(err, ": Is a directory", "and is named so, not 'unreadable'");
}

static void
test_config(const char *dir)
{
	struct config	 cfg;
	char		 err[1024] = "", path[512], longp[121], line[200];

	memset(&cfg, 0, sizeof(cfg));
	put(dir, "ok.conf", "# comment\nledger = \"/tmp/x.db\"\n"
	    "poll_interval = 250  # trailing\n\n");
	snprintf(path, sizeof(path), "%s/ok.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == 0, "config loads");
	is_str(cfg.ledger, "/tmp/x.db", "quoted value");
	is_int(cfg.poll_interval, 250, "integer value");
	ok(cfg.local_cpus >= 1, "local_cpus defaults to the CPUs");
	put(dir, "bad.conf", "ledger = /tmp/y.db\npoll_interval = 5\n");
	snprintf(path, sizeof(path), "%s/bad.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == -1, "range checked");
	like(err, "bad.conf:2: poll_interval: '5' must be an integer from 50",
	    "error names file, line and key");
	is_str(cfg.ledger, "/tmp/x.db", "a failed load changes nothing");
	put(dir, "bad2.conf", "colour = blue\n");
	snprintf(path, sizeof(path), "%s/bad2.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == -1, "unknown key");
	like(err, "bad2.conf:1: unknown key 'colour'", "named");
	put(dir, "bad3.conf", "ledger = relative.db\n");
	snprintf(path, sizeof(path), "%s/bad3.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == -1, "relative path");
	like(err, "ledger: must be an absolute path", "named");
	/* A directory reads as an error, not as an empty file. */
	ok(config_load(dir, &cfg, err, sizeof(err)) == -1,
	    "a directory is not a configuration file");
	like(err, "Is a directory", "its error says why");
	put(dir, "bad4.conf", "slurm_poll_max = 500\nslurm_poll_min = 1000\n");
	snprintf(path, sizeof(path), "%s/bad4.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == -1,
	    "slurm_poll_min above slurm_poll_max");
	like(err, "bad4.conf: slurm_poll_min: 1000 is more than slurm_poll_max "
	    "(500)", "named");
	is_str(cfg.ledger, "/tmp/x.db", "and nothing of it applied");
	/* hpod -n says what hpod's start would: a socket path too long. */
	memset(longp, 'd', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	snprintf(line, sizeof(line), "socket = %s/s.sock\n", longp);
	put(dir, "bad5.conf", line);
	snprintf(path, sizeof(path), "%s/bad5.conf", dir);
	ok(config_load(path, &cfg, err, sizeof(err)) == -1,
	    "a socket path longer than a socket address holds");
	like(err, "bad5.conf: socket: '/ddd", "named");
	like(err, "is too long for a socket (127 bytes, at most 107)", "why");
	config_release(&cfg);
}

/*
 * A recorded spec that a check refuses for a real reason is read held
 * (spec_parse_recorded(): hold says why, naming the key); a new one with
 * the same setting is refused; one that does not parse is not read.
 */
static void
test_held(void)
{
	struct campaign_spec	*s;
	char			 err[1024] = "", *t;

	t = mk("\"lr\": {\"type\": \"float\", \"min\": -1e308, "
	    "\"max\": 1e308}", "");
	bad(t, "c.json: space.lr: the range [-1e+308, 1e+308] is wider",
	    "a new spec with a range whose width overflows");
	s = spec_parse_recorded(t, strlen(t), "c.json", err, sizeof(err));
	ok(s != NULL, "recorded, it is read (%s)", err);
	if (s != NULL)
		like(s->hold, "c.json: space.lr: the range [-1e+308, 1e+308] "
		    "is wider", "held, naming the key and why");
	spec_free(s);
	free(t);
	s = spec_parse_recorded(good, strlen(good), "c.json", err,
	    sizeof(err));
	ok(s != NULL && s->hold[0] == '\0', "a good recorded spec is not "
	    "held");
	spec_free(s);
	t = mk("\"lr\": {\"type\": \"bogus\", \"min\": 0, \"max\": 1}",
	    "");
	s = spec_parse_recorded(t, strlen(t), "c.json", err, sizeof(err));
	ok(s == NULL, "a recorded spec that does not parse is not read");
	like(err, "c.json: space.lr.type: expected", "naming the key");
	spec_free(s);
	free(t);
}

int
main(void)
{
	char	 dir[] = "/tmp/hpod-test-spec-XXXXXX", cmd[600];

	if (mkdtemp(dir) == NULL)
		return 1;
	test_good();
	test_bad();
	test_held();
	test_pilot();
	test_chain();
	test_durations();
	test_workload(dir);
	test_config(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	return tap_done();
}
