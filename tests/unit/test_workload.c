/*
 * test_workload.c: the workload spec keys of the reference workloads
 * (launcher, tunable, batch, metric_reader, lazy programs), the checks of
 * a campaign against them, one rendering, and the non-MLLOG reader of
 * ResNet-50 on a hand-made log.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "invoke.h"
#include "spec.h"
#include "tap.h"
#include "workload.h"

static char	 dir[] = "/tmp/hpod-test-workload-XXXXXXXX";
static char	 err[1024];		/* the last error */

/* Write a file in the test directory; return its path (static). */
static const char *
put(const char *name, const char *text)
{
	static char	 path[512];
	FILE		*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

/* Expect a workload spec to be rejected with a message containing want. */
static void
bad_workload(const char *name, const char *text, const char *want)
{
	struct workload	*w;

	err[0] = '\0';
	w = workload_load(put(name, text), NULL, err, sizeof(err));
	ok(w == NULL, "%s: rejected", name);
	like(err, want, name);
	workload_free(w);
}

/* A workload with tunable ranges and a batch split, for campaigns. */
static const char tuned[] =
    "{\"name\": \"tw\", \"program\": \"train\","
    " \"launcher\": {\"program\": \"no-such-srun\", \"args\": [\"--ntasks={ranks}\","
    " \"--ntasks-per-node={ranks_per_node}\"]},"
    " \"args\": [\"--lr\", \"{lr}\", \"--opt\", \"{opt}\", \"--bs\","
    " \"{local_bs}\", \"--seed\", \"{seed}\", \"--data\", \"{data}\"],"
    " \"defaults\": {\"lr\": 0.1, \"opt\": \"sgd\", \"batch\": 64},"
    " \"tunable\": {\"lr\": {\"above\": 0, \"max\": 1},"
    " \"opt\": {\"values\": [\"sgd\", \"adam\"]},"
    " \"batch\": {\"integer\": true, \"min\": 1}},"
    " \"batch\": {\"global\": \"batch\", \"local\": \"local_bs\"},"
    " \"objective\": {\"metric\": \"acc\", \"goal\": \"max\", \"target\": 0.9}}";

/* Bind a campaign (space and extra keys) to the tuned workload. */
static int
bind(const struct workload *w, const char *space, const char *extra)
{
	struct campaign_spec	*s;
	char			*t;
	int			 rc;

	if (asprintf(&t, "{\"name\": \"c\", \"workload\": \"tw\", \"space\": "
	    "{%s}, \"fixed\": {\"data\": \"/d\"}, \"budget\": {\"max_trials\": "
	    "4}, \"backend\": \"slurm\", \"resources\": {\"nodes\": 2, "
	    "\"gpus_per_node\": 4}%s}", space, extra) == -1)
		abort();
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	free(t);
	if (s == NULL)
		return -2;
	rc = spec_bind(s, w, err, sizeof(err));
	spec_free(s);
	return rc;
}

/* Expect a campaign to be refused by its workload's rules. */
static void
bad_campaign(const struct workload *w, const char *space, const char *extra,
    const char *want, const char *what)
{
	err[0] = '\0';
	ok(bind(w, space, extra) == -1, "%s: refused", what);
	like(err, want, what);
}

static void
test_rules(void)
{
	struct workload	*w;

	w = workload_load(put("tw.json", tuned), NULL, err, sizeof(err));
	ok(w != NULL, "a workload with launcher, tunable and batch loads (%s)",
	    err);
	if (w == NULL)
		return;
	ok(w->program == NULL && strcmp(w->program_name, "train") == 0,
	    "a program that is not here is kept by name");
	ok(bind(w, "\"lr\": {\"type\": \"float\", \"min\": 0.01, \"max\": 1},"
	    " \"batch\": {\"type\": \"choice\", \"values\": [64, 128]}", "")
	    == 0, "a legal campaign binds (%s)", err);
	bad_campaign(w, "\"lr\": {\"type\": \"float\", \"min\": 0.01, "
	    "\"max\": 2}", "", "c.json: space.lr.max: 2 is not legal for "
	    "workload 'tw' (", "a range beyond the legal maximum");
	like(err, "tw.json): must be <= 1", "the rule and workload file named");
	bad_campaign(w, "\"lr\": {\"type\": \"float\", \"min\": 0, "
	    "\"max\": 1}", "", "c.json: space.lr.min: 0 is not legal",
	    "an exclusive bound");
	bad_campaign(w, "\"opt\": {\"type\": \"choice\", \"values\": "
	    "[\"sgd\", \"lion\"]}", "", "c.json: space.opt.values[1]: lion is "
	    "not legal", "a choice outside the legal values");
	bad_campaign(w, "\"seed\": {\"type\": \"int\", \"min\": 0, "
	    "\"max\": 9}", "", "c.json: space.seed: not tunable in "
	    "workload 'tw' (", "tuning a parameter that is not tunable");
	like(err, "tunable: lr, opt, batch", "the tunable ones listed");
	bad_campaign(w, "\"batch\": {\"type\": \"choice\", \"values\": "
	    "[64, 100]}", "", "c.json: space.batch.values[1]: 100 is not "
	    "legal", "a global batch that does not divide by 8 ranks");
	like(err, "divide evenly by the 8 ranks (2 nodes x 4)",
	    "the rank count explained");
	bad_campaign(w, "\"batch\": {\"type\": \"int\", \"min\": 8, "
	    "\"max\": 64}", "", "c.json: space.batch: a global batch size "
	    "must divide evenly", "a global batch as an int range");
	workload_free(w);
}

#define LR "\"lr\": {\"type\": \"float\", \"min\": 0.01, \"max\": 1}"

/* The metrics a workload declares bound a campaign's objective. */
static void
test_metrics(void)
{
	struct workload	*w;
	char		*t;

	bad_workload("m1.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metrics\": \"acc\"}",
	    "m1.json: metrics: expected a non-empty array of metric names");
	bad_workload("m2.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metrics\": [\"acc\", \"\"]}",
	    "m2.json: metrics[1]: expected a metric name");
	bad_workload("m3.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metrics\": [\"acc\", \"loss\", \"acc\"]}",
	    "m3.json: metrics[2]: 'acc' is listed twice");
	bad_workload("m4.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metrics\": [\"acc\", \"loss\"], \"objective\": "
	    "{\"metric\": \"eval_acc\"}}",
	    "m4.json: objective.metric: 'eval_acc' is not in metrics (acc, "
	    "loss)");
	bad_workload("m5.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metrics\": [\"acc\"], \"objective\": {\"metric\": "
	    "\"acc\"}, \"metric_reader\": {\"pattern\": \"top1 ([0-9.]+)\", "
	    "\"key\": \"top1\"}}",
	    "m5.json: metric_reader.key: 'top1' is not in metrics (acc)");
	/* The tuned workload, with the metrics its program logs. */
	if (asprintf(&t, "%.*s, \"metrics\": [\"acc\", \"loss\"]}",
	    (int)strlen(tuned) - 1, tuned) == -1)
		abort();
	w = workload_load(put("mw.json", t), NULL, err, sizeof(err));
	free(t);
	ok(w != NULL && w->metrics != NULL, "a workload with metrics loads "
	    "(%s)", err);
	if (w == NULL)
		return;
	ok(bind(w, LR, ", \"objective\": {\"metric\": \"loss\", "
	    "\"goal\": \"min\"}") == 0, "an objective among them binds (%s)",
	    err);
	bad_campaign(w, LR, ", \"objective\": {\"metric\": \"accuracy\", "
	    "\"goal\": \"max\"}", "c.json: objective.metric: 'accuracy' is "
	    "not logged by workload 'tw' (", "an objective it never logs");
	like(err, "mw.json), which logs acc, loss", "its file and metrics named");
	workload_free(w);
	w = workload_load(put("tw.json", tuned), NULL, err, sizeof(err));
	ok(w != NULL && bind(w, LR, ", \"objective\": {\"metric\": "
	    "\"accuracy\", \"goal\": \"max\"}") == 0, "a workload "
	    "without metrics takes any (%s)", err);
	workload_free(w);
}

static void
test_bad_specs(void)
{
	bad_workload("b1.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"launchr\": {}}", "b1.json: launchr: unknown key");
	bad_workload("b2.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"launcher\": {\"program\": \"srun\", \"args\": \"-n 4\"}}",
	    "b2.json: launcher.args: expected an array");
	bad_workload("b3.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"launcher\": {\"program\": \"srun {nodes}\"}}",
	    "b3.json: launcher.program: expected a program name");
	bad_workload("b4.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"launcher\": {\"program\": \"srun\", \"argv\": []}}",
	    "b4.json: launcher.argv: unknown key");
	bad_workload("b5.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"launcher\": {\"program\": \"srun\", \"args\": [\"-n{x\"]}}",
	    "b5.json: launcher.args[0]: expected a string with balanced");
	bad_workload("b6.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9.]+\"}}", "b6.json: metric_reader.pattern: ");
	/* Repetitions of repetitions, which the C library multiplies. */
	bad_workload("b6b.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ((x{120}){120})\"}}",
	    "b6b.json: metric_reader.pattern: too complex");
	bad_workload("b6c.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9]{256})\"}}",
	    "b6c.json: metric_reader.pattern: a repetition of more than 255");
	bad_workload("b6d.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9]++++++++++++++)\"}}",
	    "b6d.json: metric_reader.pattern: too complex");
	bad_workload("b7.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9.]+)\", \"value\": 2}}",
	    "b7.json: metric_reader.value: expected a group number from 1 "
	    "to 1");
	bad_workload("b8.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"metric_reader\": \"tensorboard\"}",
	    "b8.json: metric_reader: expected \"mllog\" or an object");
	bad_workload("b9.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"tunable\": {\"lr\": {\"min\": 1, \"max\": 0}}}",
	    "b9.json: tunable.lr: empty range");
	bad_workload("b10.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"tunable\": {\"lr\": {\"maximum\": 1}}}",
	    "b10.json: tunable.lr.maximum: unknown key");
	bad_workload("b11.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"batch\": {\"global\": \"bs\", \"ranks\": \"nodes\"}}",
	    "b11.json: batch.ranks: unknown key");
	bad_workload("b12.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"flops_per_sample\": -1}",
	    "b12.json: flops_per_sample: expected a positive number");
	bad_workload("b14.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"defaults\": {\"epochs\": 0}, \"tunable\": {\"epochs\": "
	    "{\"integer\": true, \"min\": 1, \"max\": 100}}}",
	    "b14.json: defaults.epochs: 0 is not legal: must be >= 1 "
	    "(allowed: whole numbers in [1, 100])");
	bad_workload("b13.json", "{\"name\": \"b\",\n \"program\": "
	    "\"p\\u0000/../x\"}",
	    "b13.json: line 2: a NUL character is not allowed in a string");
	/* cJSON finds the first of two: the other was ignored, unsaid. */
	bad_workload("b15.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"args\": [\"{lr}\"], \"args\": [\"{lr}\", \"{bs}\"]}",
	    "b15.json: args: duplicate key");
	bad_workload("b16.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"env\": {\"A\": \"1\", \"B\": \"2\", \"A\": \"3\"}}",
	    "b16.json: env.A: duplicate key");
	bad_workload("b17.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"tunable\": {\"lr\": {\"min\": 0, \"max\": 1, \"min\": 1}}}",
	    "b17.json: tunable.lr.min: duplicate key");
	bad_workload("b18.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"x\": [[1], {\"y\": 1, \"y\": 2}]}",
	    "b18.json: x[1].y: duplicate key");
	bad_workload("b19.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"env\": {\"A=B\": \"1\"}}",
	    "b19.json: env.A=B: a variable's name may not be empty or "
	    "contain '='");
	bad_workload("b20.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"env\": {\"\": \"1\"}}",
	    "b20.json: env.: a variable's name may not be empty");
	/* Its value was read from a group regexec() had not set. */
	bad_workload("b21.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"^acc [0-9.]+$\"}}",
	    "b21.json: metric_reader.pattern: it has no group, (...), for the "
	    "metric's value (metric_reader.value, 1 by default)");
	bad_workload("b22.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9.]+)\", \"run_start\": \"start(\"}}",
	    "b22.json: metric_reader.run_start: ");
	bad_workload("b23.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9.]+)\", \"run_start\": true}}",
	    "b23.json: metric_reader.run_start: expected a regular expression");
	bad_workload("b24.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"acc\"}, \"metric_reader\": "
	    "{\"pattern\": \"acc ([0-9.]+)\", \"run_start\": \"(x{120}){120}\"}}",
	    "b24.json: metric_reader.run_start: too complex");
	/* Neither was refused: no trial would report, the goal was lost. */
	bad_workload("b25.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"\", \"goal\": \"min\"}}",
	    "b25.json: objective.metric: expected a metric name");
	bad_workload("b26.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": {\"metric\": \"loss\", \"direction\": "
	    "\"min\"}}", "b26.json: objective.direction: unknown key "
	    "(expected metric, goal or target)");
	bad_workload("b27.json", "{\"name\": \"b\", \"program\": \"p\", "
	    "\"objective\": \"loss\"}",
	    "b27.json: objective: expected an object with metric, goal and "
	    "target");
}

/* Render one attempt of a campaign of the tuned workload. */
static void
test_render(void)
{
	struct campaign_spec	*s;
	struct workload		*w;
	struct invoke_ctx	 ic;
	struct invocation	 inv;
	double			 x[2] = { 0.5, 1 };
	const char		*t = "{\"name\": \"c\", \"workload\": \"tw\", "
	    "\"space\": {\"lr\": {\"type\": \"float\", \"min\": 0.01, \"max\": "
	    "1}, \"batch\": {\"type\": \"choice\", \"values\": [64, 128]}}, "
	    "\"fixed\": {\"data\": \"/d\"}, \"budget\": {\"max_trials\": 4}, "
	    "\"backend\": \"slurm\", \"resources\": {\"nodes\": 2, "
	    "\"gpus_per_node\": 4}}";

	w = workload_load(put("tw.json", tuned), NULL, err, sizeof(err));
	s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	if (w == NULL || s == NULL || spec_bind(s, w, err, sizeof(err)) == -1) {
		ok(0, "render set-up: %s", err);
		goto out;
	}
	memset(&ic, 0, sizeof(ic));
	ic.trial = 3;
	ic.seed = 42;
	ic.dir = "/runs/1-c/trial-0003/attempt-0";
	ic.token = "tok";
	ic.x = x;
	ok(invoke_render(s, w, &ic, &inv, err, sizeof(err)) == 0,
	    "render (%s)", err);
	if (inv.argv != NULL) {
		is_str(inv.argv[0], "no-such-srun", "the launcher comes first, by name");
		is_str(inv.argv[1], "--ntasks=8", "ranks = nodes x GPUs");
		is_str(inv.argv[2], "--ntasks-per-node=4", "ranks per node");
		is_str(inv.argv[3], "train", "then the program, by name");
		is_str(inv.argv[5], "0.5", "the point's learning rate");
		is_str(inv.argv[9], "16", "local batch = 128 / 8 ranks");
		is_str(inv.argv[11], "42", "the seed");
		is_int(inv.local_batch, 16, "local batch recorded");
	}
	invoke_release(&inv);
	ic.resolve = 1;
	ok(invoke_render(s, w, &ic, &inv, err, sizeof(err)) == -1,
	    "a launcher that is not on this machine fails a local submit");
	like(err, "launcher.program: 'no-such-srun' is not an executable on this "
	    "machine", "with a clear message");
out:
	spec_free(s);
	workload_free(w);
}

/*
 * A program given by a path, for the local backend: a file it cannot
 * execute (a script not made executable) or none at all fails the
 * submit naming the spec and key, as a name not in $PATH does; it ran
 * and failed each trial with exit 127.
 */
static void
test_program_path(void)
{
	static const char *const t = "{\"name\": \"c\", \"workload\": "
	    "\"pp\", \"objective\": {\"metric\": \"loss\", \"goal\": "
	    "\"min\"}, \"space\": {\"lr\": {\"type\": \"float\", \"min\": "
	    "0.01, \"max\": 1}}, \"budget\": {\"max_trials\": 1}}";
	static const char *const progs[] = { "noexec.sh", "nosuch.sh",
		"exec.sh", "adir" };
	struct campaign_spec	*s = NULL;
	struct workload		*w = NULL;
	struct invoke_ctx	 ic;
	struct invocation	 inv;
	double			 x[1] = { 0.5 };
	char			 prog[600], text[800];
	size_t			 i;
	int			 rc;

	put("noexec.sh", "#!/bin/sh\n");
	snprintf(prog, sizeof(prog), "%s/adir", dir);
	mkdir(prog, 0755);
	put("exec.sh", "#!/bin/sh\n");
	snprintf(prog, sizeof(prog), "%s/exec.sh", dir);
	chmod(prog, 0755);
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		snprintf(prog, sizeof(prog), "%s/%s", dir, progs[i]);
		snprintf(text, sizeof(text), "{\"name\": \"pp\", \"program\": "
		    "\"%s\", \"args\": [\"{lr}\"]}", prog);
		w = workload_load(put("pp.json", text), NULL, err, sizeof(err));
		s = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
		if (w == NULL || s == NULL ||
		    spec_bind(s, w, err, sizeof(err)) == -1) {
			ok(0, "program path set-up: %s", err);
			goto next;
		}
		memset(&ic, 0, sizeof(ic));
		ic.dir = "/runs/1-c/trial-0000/attempt-0";
		ic.token = "tok";
		ic.x = x;
		ic.resolve = 1;
		rc = invoke_render(s, w, &ic, &inv, err, sizeof(err));
		if (i == 2)
			ok(rc == 0 && strcmp(inv.argv[0], prog) == 0,
			    "an executable path is run as it is (%s)", err);
		else {
			ok(rc == -1, "%s fails a local submit", progs[i]);
			like(err, "pp.json: program: '", "naming the spec and "
			    "key");
			like(err, i == 0 ? "noexec.sh' cannot be run on this "
			    "machine: Permission denied" : i == 1 ? "nosuch.sh' "
			    "cannot be run on this machine: No such file or "
			    "directory" : "adir' cannot be run on this machine: "
			    "Is a directory", "and why");
		}
		invoke_release(&inv);
next:
		spec_free(s);
		workload_free(w);
	}
}

/*
 * How a reader's value group is read: blanks around it (a CRLF line's
 * "\r") are no part of it, a hexadecimal or a comma decimal is no number,
 * and a NaN, an infinity or an overflow is a value that is not finite,
 * as in an MLLOG line (attempt.c counts it, never records it).
 */
static void
test_reader_numbers(void)
{
	static const struct {
		const char	*line;
		int		 rc;
		double		 v;	/* 99: not finite */
	} c[] = {
		{ "epoch 1 acc=  3.5  ", 0, 3.5 },
		{ "epoch 1 acc=0.25\r", 0, 0.25 },
		{ "epoch 1 acc=-0", 0, 0 },
		{ "epoch 1 acc=.5", 0, 0.5 },
		{ "epoch 1 acc=5.", 0, 5 },
		{ "epoch 1 acc=+1.5E-3", 0, 1.5e-3 },
		{ "epoch 1 acc=1e400", 0, 99 },
		{ "epoch 1 acc=nan", 0, 99 },
		{ "epoch 1 acc=-inf", 0, 99 },
		{ "epoch 1 acc=Infinity", 0, 99 },
		{ "epoch 1 acc=0x10", -1, 0 },
		{ "epoch 1 acc=2,5", -1, 0 },
		{ "epoch 1 acc=1e", -1, 0 },
		{ "epoch 1 acc=.", -1, 0 },
		{ "epoch 1 acc=", -1, 0 },
		{ "epoch 1 acc=nano", -1, 0 },
	};
	static const char	*bad = "epoch 1 acc=1\x1b[0m,5";
	struct workload		*w;
	struct mllog_event	 ev;
	size_t			 i;
	int			 rc;

	w = workload_load(put("num.json", "{\"name\": \"n\", \"program\": "
	    "\"p\", \"objective\": {\"metric\": \"acc\", \"goal\": \"max\"},"
	    " \"metric_reader\": {\"pattern\": \"^epoch ([^ ]+) acc=(.*)$\","
	    " \"value\": 2, \"epoch\": 1}}"), NULL, err, sizeof(err));
	ok(w != NULL, "a reader whose value group takes anything (%s)", err);
	if (w == NULL)
		return;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rc = workload_read_line(w, c[i].line, strlen(c[i].line), &ev,
		    err, sizeof(err));
		if (c[i].rc == -1)
			ok(rc == -1 && strstr(err, "is not a number") != NULL,
			    "'%s' is no number (%s)", c[i].line + 12, err);
		else if (c[i].v == 99)
			ok(rc == 0 && ev.has_num && !isfinite(ev.num),
			    "'%s' is a value that is not finite", c[i].line + 12);
		else
			ok(rc == 0 && ev.has_num && ev.num == c[i].v &&
			    ev.epoch == 1, "'%.*s' is %g",
			    (int)strcspn(c[i].line + 12, "\r"), c[i].line + 12,
			    c[i].v);
	}
	workload_read_line(w, bad, strlen(bad), &ev, err, sizeof(err));
	like(err, "acc: '1?[0m,5' is not a number",
	    "a control byte of what is quoted is shown as '?'");
	ok(workload_read_line(w, "epoch nan acc=0.5", 17, &ev, err,
	    sizeof(err)) == -1, "an epoch that is NaN is malformed");
	like(err, "the epoch of acc is not a number >= 0 ('nan')", "and says "
	    "so");
	workload_free(w);

	w = workload_load(put("rs.json", "{\"name\": \"n\", \"program\": "
	    "\"p\", \"objective\": {\"metric\": \"acc\", \"goal\": \"max\"},"
	    " \"metric_reader\": {\"pattern\": \"acc=([0-9.]+)\","
	    " \"run_start\": \"^== start\"}}"), NULL, err, sizeof(err));
	ok(w != NULL, "a reader with a run_start pattern (%s)", err);
	if (w == NULL)
		return;
	ok(workload_read_line(w, "== start acc=0.5", 16, &ev, err,
	    sizeof(err)) == 0 && strcmp(ev.key, "run_start") == 0 &&
	    !ev.has_num, "a line it matches is run_start, before any value");
	ok(workload_read_line(w, "x == start", 10, &ev, err, sizeof(err)) == 1,
	    "one it does not is no event");
	workload_free(w);
}

/* The ResNet-50 reader on a hand-made HPC AI500 log. */
static void
test_reader(void)
{
	static const char *const lines[] = {
		"DLL 2020-06-01 10:00:00.000 - Starting Model Evaluation...",
		"DLL 2020-06-01 10:00:00.100 - Evaluation Epochs : 1",
		"DLL 2020-06-01 10:02:13.500 - Top-1 Accuracy: 76.310",
		"DLL 2020-06-01 10:02:13.501 - Top-5 Accuracy: 92.950",
		"3: DLL 2020-06-01 10:02:14.000 - Top-1 Accuracy: 75",
		"Top-1 Accuracy: nan",
		NULL
	};
	struct workload		*w;
	struct mllog_event	 ev;
	int			 rc[8], i;

	w = workload_load("workloads/resnet50.json", NULL, err, sizeof(err));
	ok(w != NULL, "resnet50.json loads (%s)", err);
	if (w == NULL)
		return;
	ok(w->reader != NULL && w->has_flops, "it has a reader and FLOPs");
	for (i = 0; lines[i] != NULL; i++)
		rc[i] = workload_read_line(w, lines[i], strlen(lines[i]), &ev,
		    err, sizeof(err));
	ok(rc[0] == 1 && rc[1] == 1 && rc[3] == 1 && rc[5] == 1,
	    "other lines are not metric points");
	is_int(rc[2], 0, "the top-1 line is a point");
	workload_read_line(w, lines[2], strlen(lines[2]), &ev, err,
	    sizeof(err));
	is_str(ev.key, "eval_accuracy", "as eval_accuracy");
	is_near(ev.num, 0.7631, 1e-12, "in percent, scaled to a fraction");
	ok(!ev.has_epoch, "with no epoch in the line");
	is_int(rc[4], 0, "a rank prefix and an integer value are read");
	workload_read_line(w, lines[4], strlen(lines[4]), &ev, err,
	    sizeof(err));
	is_near(ev.num, 0.75, 1e-12, "75 percent");
	/* The first 40 bytes only: a line is not NUL-terminated. */
	ok(workload_read_line(w, lines[2], 40, &ev, err, sizeof(err)) == 1,
	    "the line's length is respected");
	workload_free(w);

	w = workload_load(put("ep.json", "{\"name\": \"e\", \"program\": \"p\","
	    " \"objective\": {\"metric\": \"acc\", \"goal\": \"max\"},"
	    " \"metric_reader\": {\"pattern\": \"^epoch ([0-9]+) .*acc=([^ ]+)\","
	    " \"value\": 2, \"epoch\": 1}}"), NULL, err, sizeof(err));
	ok(w != NULL, "a reader with an epoch group (%s)", err);
	if (w == NULL)
		return;
	ok(workload_read_line(w, "epoch 7 loss=1.2 acc=0.25 t=3", 29, &ev,
	    err, sizeof(err)) == 0 && ev.has_epoch && ev.epoch == 7 &&
	    ev.num == 0.25 && strcmp(ev.key, "acc") == 0,
	    "value and epoch from their groups, key from the objective");
	ok(workload_read_line(w, "epoch 8 acc=high", 16, &ev, err,
	    sizeof(err)) == -1, "a value that is not a number is malformed");
	like(err, "acc: 'high' is not a number", "and says so, quoting it");
	workload_free(w);

	w = workload_load(put("ep2.json", "{\"name\": \"e\", \"program\": "
	    "\"p\", \"objective\": {\"metric\": \"acc\", \"goal\": \"max\"},"
	    " \"metric_reader\": {\"pattern\": "
	    "\"^epoch ([-0-9]+) acc=([^ ]+)\","
	    " \"value\": 2, \"epoch\": 1}}"), NULL, err, sizeof(err));
	ok(w != NULL, "a reader whose epoch group takes a sign (%s)", err);
	if (w == NULL)
		return;
	ok(workload_read_line(w, "epoch -5 acc=0.9", 16, &ev, err,
	    sizeof(err)) == -1, "a negative epoch is malformed");
	like(err, "the epoch of acc is not a number >= 0", "and says so");
	workload_free(w);

	/* Repetition characters in a bracket and an escape are no repetition. */
	w = workload_load(put("ep3.json", "{\"name\": \"e\", \"program\": "
	    "\"p\", \"objective\": {\"metric\": \"acc\", \"goal\": \"max\"},"
	    " \"metric_reader\": {\"pattern\": "
	    "\"^[]{}+*?]\\\\+{2,3} x{1,255} acc=([0-9.]+)$\"}}"), NULL, err,
	    sizeof(err));
	ok(w != NULL, "a pattern with +{}* in a bracket, \\+ and x{1,255} "
	    "loads (%s)", err);
	if (w != NULL && workload_read_line(w, "}++ xx acc=0.5", 14, &ev, err,
	    sizeof(err)) == 0)
		is_near(ev.num, 0.5, 1e-12, "and reads its lines");
	else
		ok(0, "and reads its lines (%s)", err);
	workload_free(w);
}

/* Every reference spec loads, with a launcher, a batch split and rules. */
static void
test_references(void)
{
	static const char *const refs[] = { "cosmoflow", "deepcam", "oc20",
		"openfold", "resnet50", NULL };
	static const char *const all[] = { "cosmoflow", "deepcam", "oc20",
		"openfold", "resnet50", "minicosmo", "minicam", NULL };
	struct workload	*w;
	char		 path[128];
	int		 i;

	for (i = 0; refs[i] != NULL; i++) {
		snprintf(path, sizeof(path), "workloads/%s.json", refs[i]);
		err[0] = '\0';
		w = workload_load(path, NULL, err, sizeof(err));
		ok(w != NULL && w->launcher != NULL && w->has_tunable &&
		    w->batch_global != NULL && w->has_target,
		    "%s loads with launcher, tunable, batch, target (%s)",
		    refs[i], err);
		workload_free(w);
	}
	/* Every shipped spec says what its program logs. */
	for (i = 0; all[i] != NULL; i++) {
		snprintf(path, sizeof(path), "workloads/%s.json", all[i]);
		w = workload_load(path, NULL, err, sizeof(err));
		ok(w != NULL && w->metrics != NULL &&
		    workload_metric_known(w, w->metric), "%s declares its "
		    "metrics, the objective among them", all[i]);
		workload_free(w);
	}
}

/*
 * What a step counts: the fidelity's unit unless the spec says
 * (OpenFold's epoch_num counts samples); a step_unit that is not a plural
 * word is refused, naming the file and key.
 */
static void
test_step_unit(void)
{
	static const struct {
		const char	*extra, *plural, *one;
	} ok_units[] = {
		{ "", "epochs", "epoch" },
		{ ", \"fidelity\": \"steps\"", "steps", "step" },
		{ ", \"fidelity\": \"steps\", \"step_unit\": \"samples\"",
		    "samples", "sample" },
		{ ", \"step_unit\": \"iterations\"", "iterations",
		    "iteration" },
	};
	static const char *const bad[] = { "\"sample\"", "\"s\"", "\"\"",
		"\"Samples\"", "\"sam ples\"", "\"samples/s\"", "7",
		"\"abcdefghijklmnopqrstuvwxyzabcdes\"" };
	struct workload	*w;
	char		 text[256], name[32];
	size_t		 i;

	for (i = 0; i < sizeof(ok_units) / sizeof(ok_units[0]); i++) {
		snprintf(text, sizeof(text), "{\"name\": \"u\", \"program\": "
		    "\"t\", \"objective\": {\"metric\": \"m\"}%s}",
		    ok_units[i].extra);
		err[0] = '\0';
		w = workload_load(put("u.json", text), NULL, err, sizeof(err));
		ok(w != NULL && strcmp(w->step_unit, ok_units[i].plural) == 0 &&
		    strcmp(w->step_unit_one, ok_units[i].one) == 0,
		    "step unit %s, %s in messages (%s)", ok_units[i].plural,
		    ok_units[i].one, err);
		workload_free(w);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "{\"name\": \"u\", \"program\": "
		    "\"t\", \"objective\": {\"metric\": \"m\"}, "
		    "\"step_unit\": %s}", bad[i]);
		snprintf(name, sizeof(name), "unit%zu.json", i);
		bad_workload(name, text, "step_unit: expected what a step "
		    "counts, a plural of at most 31 lowercase letters");
		like(err, name, "the file is named");
	}
	w = workload_load("workloads/openfold.json", NULL, err, sizeof(err));
	ok(w != NULL && strcmp(w->step_unit, "samples") == 0,
	    "openfold's steps are samples");
	workload_free(w);
}

/*
 * metric_file: a path in the attempt directory, its placeholders
 * rendered; one absolute or with a ".." component refused, in the spec
 * or once rendered, naming the file and key.
 */
static void
test_metric_file(void)
{
	static const char *const bad[] = { "\"/abs.log\"", "\"..\"",
		"\"a/../../b\"", "\"\"", "\"a/{x\"", "[]" };
	struct workload_var	 v[] = { { "x", "7" } };
	struct workload	*w;
	char		 text[256], name[32], *out;
	size_t		 i;

	w = workload_load(put("mf.json", "{\"name\": \"mf\", \"program\": "
	    "\"t\", \"objective\": {\"metric\": \"m\"}, \"metric_file\": "
	    "\"out/..log_{x}\"}"), NULL, err, sizeof(err));
	ok(w != NULL, "a metric_file loads (%s)", err);
	if (w == NULL)
		return;
	ok(workload_metric_file(w, v, 1, &out, err, sizeof(err)) == 0 &&
	    out != NULL && strcmp(out, "out/..log_7") == 0,
	    "its placeholders are rendered (%s)", out ? out : err);
	free(out);
	v[0].value = "../../etc";
	ok(workload_metric_file(w, v, 1, &out, err, sizeof(err)) == -1 &&
	    out == NULL, "a value that takes it outside is refused");
	like(err, "mf.json: metric_file: 'out/..log_../../etc' is not a path "
	    "inside the attempt directory", "naming the file and key");
	ok(workload_metric_file(w, NULL, 0, &out, err, sizeof(err)) == -1,
	    "a placeholder with no value is refused");
	like(err, "mf.json: metric_file: placeholder 'x' has no value",
	    "naming it, the file and key");
	ok(workload_check(w, NULL, 0, err, sizeof(err)) == -1,
	    "workload_check refuses it too");
	like(err, "mf.json: metric_file: placeholder 'x' has no value",
	    "naming the file and key");
	workload_free(w);
	w = workload_load(put("nomf.json", "{\"name\": \"n\", \"program\": "
	    "\"t\", \"objective\": {\"metric\": \"m\"}}"), NULL, err,
	    sizeof(err));
	out = (char *)"x";
	ok(w != NULL && workload_metric_file(w, NULL, 0, &out, err,
	    sizeof(err)) == 0 && out == NULL, "none: stdout is read");
	workload_free(w);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "{\"name\": \"u\", \"program\": "
		    "\"t\", \"objective\": {\"metric\": \"m\"}, "
		    "\"metric_file\": %s}", bad[i]);
		snprintf(name, sizeof(name), "mf%zu.json", i);
		bad_workload(name, text, "metric_file: expected a path "
		    "relative to the attempt directory");
		like(err, name, "the file is named");
	}
}

int
main(void)
{
	char	 cmd[600];

	if (mkdtemp(dir) == NULL)
		return 1;
	test_bad_specs();
	test_rules();
	test_metrics();
	test_render();
	test_reader();
	test_reader_numbers();
	test_program_path();
	test_references();
	test_step_unit();
	test_metric_file();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	return tap_done();
}
