/*
 * test_jobfile: the job.json that tells hpo-trial what to run in a batch
 * job, and an array job's list: round trip and clear errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "jobfile.h"
#include "tap.h"

static char dir[] = "/tmp/hpod-test-jobfile.XXXXXX";

/* Write text to dir/name and return the path (static buffer). */
static const char *
put(const char *name, const char *text)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (file_save(path, text) == -1)
		perror(path);
	return path;
}

/* A bad job file is refused with a message containing want. */
static void
refused(const char *text, const char *want, const char *name)
{
	struct jobfile jf;
	char err[512];

	is_int(jobfile_read(put("bad.json", text), &jf, err, sizeof(err)),
	    -1, name);
	like(err, want, name);
	like(err, "bad.json", "the message names the file");
}

int
main(void)
{
	char *argv[] = { "/bin/prog", "--lr", "0.1", "it's \"quoted\"", NULL };
	char *env[] = { "HPO_LR=0.1", "HPO_NAME=a b", NULL };
	struct jobfile in, out;
	char err[512], *text, *e;

	if (mkdtemp(dir) == NULL)
		return 1;
	memset(&in, 0, sizeof(in));
	in.token = "hpod-1-2-0-abcdef";
	in.dir = "/runs/1-x/trial-0002/attempt-0";
	in.argv = argv;
	in.env = env;
	in.limit = 90;
	in.nodes = 2;
	in.gpus = 8;
	in.cpus = 16;
	text = jobfile_render(&in);
	ok(text != NULL, "render");
	is_int(jobfile_read(put("job.json", text), &out, err, sizeof(err)), 0,
	    "read back");
	free(text);
	is_str(out.token, in.token, "token");
	is_str(out.dir, in.dir, "dir");
	is_str(out.argv[3], argv[3], "argv with quotes survives intact");
	ok(out.argv[4] == NULL, "argv ends");
	is_str(out.env[1], "HPO_NAME=a b", "env entry");
	ok(out.env[2] == NULL, "env ends");
	is_int(out.limit, 90, "limit");
	is_int(out.nodes * 100 + out.gpus * 10 + out.cpus, 2 * 100 + 80 + 16,
	    "requested totals");
	jobfile_release(&out);

	refused("[1]", "not a JSON object", "not an object");
	refused("{\"dir\": \"/d\", \"argv\": [\"p\"], \"env\": []}",
	    "'token' must be a non-empty string", "token missing");
	refused("{\"token\": \"t\", \"dir\": \"/d\", \"argv\": [], "
	    "\"env\": []}", "'argv' must be a non-empty array",
	    "empty argv");
	refused("{\"token\": \"t\", \"dir\": \"/d\", \"argv\": [\"p\", 3], "
	    "\"env\": []}", "argv[1] must be a string", "non-string arg");
	refused("{\"token\": \"t\", \"dir\": \"/d\", \"argv\": [\"p\"], "
	    "\"env\": [], \"limit\": -1}", "'limit' must be", "negative limit");
	is_int(jobfile_read("/nonexistent/job.json", &out, err, sizeof(err)),
	    -1, "a missing file is refused");
	like(err, "no such file", "and says so");

	put("array.list", "/a/job.json\n/b/job.json\n/c/job.json");
	e = jobfile_list_entry(put("array.list",
	    "/a/job.json\n/b/job.json\n/c/job.json"), 1, err, sizeof(err));
	is_str(e, "/b/job.json", "list entry 1");
	free(e);
	e = jobfile_list_entry(put("array.list",
	    "/a/job.json\n/b/job.json\n/c/job.json"), 2, err, sizeof(err));
	is_str(e, "/c/job.json", "the last entry");
	free(e);
	e = jobfile_list_entry(put("array.list", "/a/job.json"), 3, err,
	    sizeof(err));
	ok(e == NULL, "an entry past the end is refused");
	like(err, "no entry 3", "and named");
	put("array.list", "/a/b/job.json\n/a/job.json\n/c/job.json\n");
	is_int((int)jobfile_list_index(put("array.list",
	    "/a/b/job.json\n/a/job.json\n/c/job.json\n"), "/a/job.json", err,
	    sizeof(err)), 1, "the line that names an entry");
	is_int((int)jobfile_list_index(put("array.list", "/a/job.json.x\n"),
	    "/a/job.json", err, sizeof(err)), -1, "  a longer line is not it");
	is_int((int)jobfile_list_index(put("array.list", "/c/job.json"),
	    "/c/job.json", err, sizeof(err)), 0, "  the last line, unended");
	is_int((int)jobfile_list_index("/nonexistent/list", "/c/job.json", err,
	    sizeof(err)), -1, "  a missing list: -1");

	snprintf(err, sizeof(err), "rm -rf '%s'", dir);
	if (system(err) != 0)
		return 1;
	return tap_done();
}
