/*
 * test_file_save.c: file_save_all() writes every file of a batch (an
 * array's job.json files) with the content file_save() would give, leaves
 * no temporary file, and on a failure names the file, leaves the earlier
 * files as they were and removes its temporary files.
 */
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "tap.h"

#define NFILES	40

/* 1 if path holds exactly text and a newline. */
static int
holds(const char *path, const char *text)
{
	char *buf, err[256];
	size_t len;
	int ok;

	if (file_slurp(path, 1 << 20, &buf, &len, err, sizeof(err)) != 0)
		return 0;
	ok = len == strlen(text) + 1 && strncmp(buf, text, len - 1) == 0 &&
	    buf[len - 1] == '\n';
	free(buf);
	return ok;
}

int
main(void)
{
	char dir[] = "/tmp/hpod-filesave.XXXXXX", *files[2 * NFILES + 3];
	char path[256], tmp[300], *keep;
	size_t i, failed = 99;
	int nok = 0, ntmp = 0, rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%zu", dir, i);
		mkdir(path, 0755);
		if (asprintf(&files[2 * i], "%s/%zu/job.json", dir, i) == -1 ||
		    asprintf(&files[2 * i + 1], "{\"task\": %zu}", i) == -1)
			return 1;
	}
	files[2 * NFILES] = NULL;
	is_int(file_save_all(files, &failed), 0, "a batch of files saved");
	for (i = 0; i < NFILES; i++) {
		nok += holds(files[2 * i], files[2 * i + 1]);
		snprintf(tmp, sizeof(tmp), "%s.tmp", files[2 * i]);
		ntmp += access(tmp, F_OK) == 0;
	}
	is_int(nok, NFILES, "each holds its text and a newline");
	is_int(ntmp, 0, "no temporary file is left");

	/* New texts, and a file in a directory that does not exist. */
	for (i = 0; i < NFILES; i++) {
		free(files[2 * i + 1]);
		if (asprintf(&files[2 * i + 1], "{\"task\": %zu, \"v\": 2}",
		    i) == -1)
			return 1;
	}
	free(files[2 * 30]);
	if (asprintf(&files[2 * 30], "%s/nosuch/job.json", dir) == -1)
		return 1;
	errno = 0;
	rc = file_save_all(files, &failed);
	is_int(rc, -1, "a batch with an unwritable file fails");
	is_int(errno, ENOENT, "with errno set");
	is_int(failed, 60, "naming the file that failed");
	nok = ntmp = 0;
	for (i = 0; i < NFILES; i++) {
		if (i == 30)
			continue;
		snprintf(path, sizeof(path), "{\"task\": %zu}", i);
		nok += holds(files[2 * i], path);
		snprintf(tmp, sizeof(tmp), "%s.tmp", files[2 * i]);
		ntmp += access(tmp, F_OK) == 0;
	}
	is_int(nok, NFILES - 1, "the other files keep their old content");
	is_int(ntmp, 0, "and no temporary file is left");

	keep = files[0];
	files[0] = NULL;
	is_int(file_save_all(files, &failed), 0, "an empty batch is nothing");
	files[0] = keep;

	for (i = 0; i < NFILES; i++) {
		unlink(files[2 * i]);
		snprintf(path, sizeof(path), "%s/%zu", dir, i);
		rmdir(path);
		free(files[2 * i]);
		free(files[2 * i + 1]);
	}
	rmdir(dir);
	return tap_done();
}
