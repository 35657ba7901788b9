/*
 * test_spec_slurm.c: the Slurm keys beyond the shape (mem, mem_per_cpu,
 * mem_per_gpu, exclusive, reservation, signal, gpus_per_task,
 * cpus_per_gpu, sbatch_extra) read as sbatch reads them, and bad ones name
 * file and key.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "tap.h"

/* Parse a spec whose resources object is res; NULL with err set. */
static struct campaign_spec *
parse(const char *res, char *err, size_t len)
{
	struct campaign_spec	*s;
	char			*text;

	if (asprintf(&text, "{\"name\": \"x\", \"workload\": \"w\", \"space\": "
	    "{\"a\": {\"type\": \"int\", \"min\": 0, \"max\": 3}}, \"budget\": "
	    "{\"max_trials\": 3}, \"backend\": \"slurm\", \"resources\": "
	    "{%s}}", res) == -1)
		abort();
	s = spec_parse(text, strlen(text), "c.json", err, len);
	free(text);
	return s;
}

/* One key's value in MB, as each memory key reads it. */
static void
mem(const char *value, unsigned long long want)
{
	struct campaign_spec	*s;
	char			 res[128], err[512] = "", name[128];

	snprintf(res, sizeof(res), "\"mem\": %s", value);
	s = parse(res, err, sizeof(err));
	snprintf(name, sizeof(name), "mem %s is %llu MB", value, want);
	is_int(s ? (long long)s->res.slurm.mem_mb : -1, (long long)want, name);
	spec_free(s);
}

/* A resources object that must be refused with message want. */
static void
bad(const char *res, const char *want)
{
	struct campaign_spec	*s;
	char			 err[512] = "";

	s = parse(res, err, sizeof(err));
	ok(s == NULL, "refused: %s", res);
	like(err, want, want);
	spec_free(s);
}

int
main(void)
{
	struct campaign_spec	*s;
	char			 err[512] = "", sb[256];

	mem("4096", 4096);
	mem("\"4096\"", 4096);
	mem("\"500M\"", 500);
	mem("\"4G\"", 4096);
	mem("\"4gb\"", 4096);
	mem("\"1T\"", 1024 * 1024);
	mem("\"1536K\"", 2);

	s = parse("\"mem_per_gpu\": \"8G\", \"exclusive\": true, "
	    "\"reservation\": \"r1\", \"signal\": \"B:USR1@120\", "
	    "\"gpus_per_task\": 1, \"cpus_per_gpu\": 2", err, sizeof(err));
	ok(s != NULL, "every key together parses%s%s", s ? "" : ": ", err);
	if (s != NULL) {
		is_int((long long)s->res.slurm.mem_per_gpu_mb, 8192,
		    "mem_per_gpu 8G");
		is_int(s->res.slurm.exclusive, 1, "exclusive");
		is_str(s->res.slurm.reservation, "r1", "reservation");
		is_int(s->res.slurm.signal, SIGUSR1, "signal USR1");
		is_int(s->res.slurm.signal_time, 120, "@120 seconds");
		is_int(s->res.slurm.signal_batch, 1, "B: the batch shell");
		is_int(s->res.slurm.gpus_per_task, 1, "gpus_per_task");
		is_int(s->res.slurm.cpus_per_gpu, 2, "cpus_per_gpu");
		spec_slurm_sbatch(&s->res.slurm, sb, sizeof(sb));
		is_str(sb, "--mem-per-gpu=8192M --exclusive --reservation=r1 "
		    "--signal=B:10@120 --gpus-per-task=1 --cpus-per-gpu=2",
		    "rendered as the sbatch options they stand for");
	}
	spec_free(s);
	s = parse("\"signal\": \"SIGTERM\", \"mem_per_cpu\": 100", err,
	    sizeof(err));
	ok(s != NULL && s->res.slurm.signal == SIGTERM &&
	    s->res.slurm.signal_time == 60 && !s->res.slurm.signal_batch,
	    "signal SIGTERM: 60 s before the end, as sbatch");
	ok(s != NULL && s->res.slurm.mem_per_cpu_mb == 100, "mem_per_cpu 100");
	if (s != NULL) {
		spec_slurm_sbatch(&s->res.slurm, sb, sizeof(sb));
		is_str(sb, "--mem-per-cpu=100M --signal=15@60",
		    "mem_per_cpu and signal as sbatch options");
		memset(&s->res.slurm, 0, sizeof(s->res.slurm));
		spec_slurm_sbatch(&s->res.slurm, sb, sizeof(sb));
		is_str(sb, "", "no keys: no options");
	}
	spec_free(s);

	s = parse("\"sbatch_extra\": [\"--licenses=foo\", \"--nice=10\", "
	    "\"--time-min=5\", \"--hold\"], \"mem\": 100", err, sizeof(err));
	ok(s != NULL, "sbatch_extra parses%s%s", s ? "" : ": ", err);
	if (s != NULL) {
		is_str(s->res.slurm.sbatch[0], "--licenses=foo",
		    "sbatch_extra[0]");
		ok(s->res.slurm.sbatch[4] == NULL, "four entries, then NULL");
		spec_slurm_sbatch(&s->res.slurm, sb, sizeof(sb));
		is_str(sb, "--mem=100M --licenses=foo --nice=10 --time-min=5 "
		    "--hold", "sbatch_extra after the modelled options");
	}
	spec_free(s);
	s = parse("\"sbatch_extra\": []", err, sizeof(err));
	ok(s != NULL && s->res.slurm.sbatch == NULL,
	    "an empty sbatch_extra is none (libslurm submits)");
	spec_free(s);
	bad("\"sbatch_extra\": \"--qos=x\"", "c.json: resources.sbatch_extra: "
	    "expected a list of sbatch options");
	bad("\"sbatch_extra\": [\"--hold\", 3]",
	    "c.json: resources.sbatch_extra[1]: expected a string, got a number");
	bad("\"sbatch_extra\": [\"-q debug\"]", "c.json: "
	    "resources.sbatch_extra[0]: \"-q debug\": expected a long sbatch "
	    "option");
	bad("\"sbatch_extra\": [\"--\"]", "resources.sbatch_extra[0]: \"--\": "
	    "expected a long sbatch option");
	bad("\"sbatch_extra\": [\"--hold\", \"--job-name=x\"]", "c.json: "
	    "resources.sbatch_extra[1]: \"--job-name=x\": --job-name is set by "
	    "hpod itself");
	bad("\"sbatch_extra\": [\"--partition=gpu\"]", "c.json: "
	    "resources.sbatch_extra[0]: \"--partition=gpu\": --partition is "
	    "set by hpod (use resources.partition)");
	bad("\"sbatch_extra\": [\"--arr=0-3\"]", "resources.sbatch_extra[0]: "
	    "\"--arr=0-3\": --array is set by hpod itself");
	bad("\"sbatch_extra\": [\"--mem=1G\"]", "\"--mem=1G\": --mem is set "
	    "by hpod (use resources.mem)");
	bad("\"sbatch_extra\": [\"--output\"]", "--output is set by hpod");
	bad("\"sbatch_extra\": [\"--wait\"]", "--wait is set by hpod");
	bad("\"sbatch_extra\": [\"--x=a\\nb\"]", "a control character");

	bad("\"mem\": \"4X\"", "c.json: resources.mem: expected a size");
	bad("\"mem\": 0", "c.json: resources.mem: expected a size");
	bad("\"mem_per_gpu\": \"G\"", "c.json: resources.mem_per_gpu: expected");
	bad("\"mem\": \"1G\", \"mem_per_cpu\": \"1G\"",
	    "c.json: resources: mem, mem_per_cpu and mem_per_gpu exclude");
	bad("\"signal\": \"FOO@10\"",
	    "c.json: resources.signal: \"FOO@10\": expected");
	bad("\"signal\": \"USR1@x\"", "c.json: resources.signal: \"USR1@x\": "
	    "the time after @");
	bad("\"signal\": 10", "c.json: resources.signal: expected a string");
	bad("\"exclusive\": \"yes\"", "c.json: resources.exclusive: expected "
	    "true or false");
	bad("\"reservation\": \"\"", "c.json: resources.reservation: expected "
	    "a non-empty string");
	bad("\"gpus_per_task\": -1", "c.json: resources.gpus_per_task: -1 is "
	    "out of range");
	return tap_done();
}
