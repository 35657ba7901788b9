/*
 * test_result.c: the record is written atomically to hpo-trial.json and
 * result.json and read back exactly, from hpo-trial.json while the program
 * has replaced result.json, else from an older hpo-trial's result.json;
 * bad files are refused with a message that names them; the end marker
 * holds the Slurm job's own id.
 */
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "tap.h"

/* Write text to dir/result.json. */
static void
put(const char *dir, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	if ((f = fopen(path, "w")) == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

/* The text of dir/name (at most 63 bytes), "" if unreadable. */
static const char *
slurp(const char *dir, const char *name)
{
	static char buf[64];
	char path[PATH_MAX];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Remove dir/name. */
static void
rm(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Check that the document text is refused with a message containing msg. */
static void
refused(const char *dir, const char *text, const char *msg)
{
	struct trial_result r;
	char err[PATH_MAX + 128] = "";

	put(dir, text);
	is_int(result_read(dir, &r, err, sizeof(err)), -1, msg);
	like(err, msg, "  the message says so");
	like(err, "/result.json", "  and names the file");
}

/* Check result.json writing and reading. */
int
main(void)
{
	struct trial_result w, r;
	char dir[] = "/tmp/hpod-test-result.XXXXXX", err[PATH_MAX + 128];
	char path[PATH_MAX];

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}

	is_int(result_read(dir, &r, err, sizeof(err)), 1, "no file: 1");

	memset(&w, 0, sizeof(w));
	snprintf(w.token, sizeof(w.token), "c1-t7-a2-deadbeef");
	snprintf(w.host, sizeof(w.host), "node \"042\"");
	w.running = 1;
	w.pid = 123456;
	w.start = 1700000000.123;
	w.exit_code = -1;
	is_int(result_write(dir, &w), 0, "write running");
	is_int(result_read(dir, &r, err, sizeof(err)), 0, "read running");
	is_str(r.token, w.token, "token round-trips");
	is_str(r.host, w.host, "host with quotes round-trips");
	is_int(r.running, 1, "running");
	is_int(r.pid, 123456, "pid");
	is_near(r.start, 1700000000.123, 1e-6, "start");
	is_int(r.exit_code, -1, "exit_code -1 while running");

	w.running = 0;
	w.end = 1700000042.5;
	w.exit_code = -1;
	w.signal = 9;
	w.timed_out = 1;
	is_int(result_write(dir, &w), 0, "write exited");
	is_int(result_read(dir, &r, err, sizeof(err)), 0, "read exited");
	is_int(r.running, 0, "exited");
	is_near(r.end, 1700000042.5, 1e-6, "end");
	is_int(r.signal, 9, "signal");
	is_int(r.timed_out, 1, "timed_out");
	snprintf(path, sizeof(path), "%s/result.json.tmp", dir);
	ok(access(path, F_OK) == -1, "no temporary file left behind");
	snprintf(path, sizeof(path), "%s/hpo-trial.json.tmp", dir);
	ok(access(path, F_OK) == -1, "  of either file");
	is_int(result_read_file(dir, "result.json", &r, err, sizeof(err)), 0,
	    "result.json holds the record too");
	is_near(r.end, 1700000042.5, 1e-6, "  the same");

	/* The program replaced result.json with its own: ours is read. */
	put(dir, "{\"accuracy\": 1}");
	is_int(result_read(dir, &r, err, sizeof(err)), 0,
	    "a program's result.json: the record is read all the same");
	is_str(r.token, w.token, "  from hpo-trial.json");
	is_int(result_read_file(dir, "result.json", &r, err, sizeof(err)), -1,
	    "  result.json alone is not a record");
	/* An older hpo-trial wrote result.json alone: it is read below. */
	rm(dir, "hpo-trial.json");

	is_int(result_write("/nonexistent/dir", &w), -1,
	    "write into a missing directory fails");

	refused(dir, "{\"token\": \"x\", \"state\": ", "bad JSON");
	refused(dir, "", "bad JSON");
	refused(dir, "{\"token\": \"x\", \"state\": \"exited\", \"pid\": 1, "
	    "\"start\": \"soon\"}", "'start' must be a number");
	refused(dir, "{\"token\": \"x\", \"state\": \"gone\", \"pid\": 1, "
	    "\"start\": 1}", "'state' must be");
	refused(dir, "{\"state\": \"exited\", \"pid\": 1, \"start\": 1}",
	    "'token' must be a string");
	refused(dir, "[1, 2]", "not a JSON object");
	refused(dir, "{\"token\": \"x\", \"state\": \"exited\", \"pid\": 1, "
	    "\"start\": 1, \"timed_out\": 1}", "'timed_out' must be a boolean");

	put(dir, "{\"token\": \"x\", \"state\": \"exited\", \"pid\": 7, "
	    "\"start\": 5}");
	is_int(result_read(dir, &r, err, sizeof(err)), 0,
	    "optional keys may be missing");
	is_int(r.exit_code, -1, "  exit_code defaults to -1");
	is_int(r.timed_out, 0, "  timed_out defaults to false");

	/* The end marker: empty outside Slurm, the job's own id inside. */
	unsetenv("SLURM_JOB_ID");
	is_int(result_mark_ended(dir), 0, "mark ended outside Slurm");
	is_str(slurp(dir, RESULT_ENDED), "", "  the marker is empty");
	setenv("SLURM_JOB_ID", "4321", 1);
	is_int(result_mark_ended(dir), 0, "mark ended in Slurm job 4321");
	is_str(slurp(dir, RESULT_ENDED), "4321\n",
	    "  the marker holds the job's own id");
	unsetenv("SLURM_JOB_ID");

	rm(dir, RESULT_ENDED);
	rm(dir, "result.json");
	rmdir(dir);
	return tap_done();
}
