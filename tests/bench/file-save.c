/*
 * file-save.c: the wall time of writing the job.json files of a Slurm
 * job array (make bench): N files, each in its own attempt directory
 * under DIR, one file_save() (fsync of the file, then of its directory)
 * after another, against one file_save_all() (two flushes in all).
 *
 *   file-save DIR [N]
 *
 * prints "N one_by_one_s batch_s".
 */
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "file.h"

/* Wall seconds. */
static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	char **files, d[4096];
	double t0, one, all;
	size_t n, i, failed;

	if (argc < 2) {
		fprintf(stderr, "usage: file-save DIR [N]\n");
		return 1;
	}
	n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
	if ((files = calloc(2 * n + 1, sizeof(*files))) == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		snprintf(d, sizeof(d), "%s/%zu", argv[1], i);
		if (mkdir(d, 0755) == -1 && access(d, F_OK) == -1)
			return 1;
		if (asprintf(&files[2 * i], "%s/job.json", d) == -1 ||
		    asprintf(&files[2 * i + 1], "{\"token\": \"t%zu\", "
		    "\"program\": \"/usr/bin/true\", \"args\": []}", i) == -1)
			return 1;
	}
	sync();
	t0 = wall_now();
	for (i = 0; i < n; i++)
		if (file_save(files[2 * i], files[2 * i + 1]) == -1)
			return 1;
	one = wall_now() - t0;
	sync();
	t0 = wall_now();
	if (file_save_all(files, &failed) == -1)
		return 1;
	all = wall_now() - t0;
	printf("%zu %.3f %.3f\n", n, one, all);
	for (i = 0; i < 2 * n; i++)
		free(files[i]);
	free(files);
	return 0;
}
