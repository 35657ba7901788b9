/*
 * diskfull.c: a campaign stops submitting while the file system of its
 * run directory or of its ledger is nearly full (below min_free), and
 * starts again when space returns.  Running trials go on: the reserve is
 * what they need to write their output, result.json and ledger rows, so
 * that what they did is recorded, not lost and retried.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "engine_int.h"
#include "log.h"
#include "paths.h"

#define MIB	(1024.0 * 1024.0)

/*
 * Bytes free to us on the file system holding path, or the nearest of its
 * parents that exists, and (total non-NULL) its size; -1 when none can be
 * read.
 */
static double
diskfull_free(const char *path, double *total)
{
	struct statvfs	 sv;
	char		*p, *up;
	double		 n = -1;

	if ((p = strdup(path)) == NULL)
		return -1;
	for (;;) {
		if (statvfs(p, &sv) == 0) {
			n = (double)sv.f_bavail * (double)sv.f_frsize;
			if (total != NULL)
				*total = (double)sv.f_blocks *
				    (double)sv.f_frsize;
			break;
		}
		if (errno != ENOENT || strcmp(p, "/") == 0 ||
		    strcmp(p, ".") == 0)
			break;
		up = paths_dirname(p);
		free(p);
		p = up;
	}
	free(p);
	return n;
}

/*
 * Should the campaign wait before submitting?  Say so once when space
 * runs short, and once when it is back.
 */
int
diskfull_wait(struct engine *e)
{
	const char	*where[2], *low = NULL;
	double		 need = (double)e->env.min_free * MIB, avail = 0, n;
	size_t		 i;

	if (e->env.min_free <= 0)
		return 0;
	where[0] = e->env.run_dir;
	where[1] = ledger_path(e->env.ledger);
	for (i = 0; i < 2 && low == NULL; i++) {
		if (where[i] == NULL || *where[i] == '\0' ||
		    (n = diskfull_free(where[i], NULL)) < 0)
			continue;
		if (n < need) {
			low = where[i];
			avail = n;
		}
	}
	if (low != NULL && !e->disk_low) {
		engine_say(e, "submissions paused: %.1f MiB free for %s, below "
		    "min_free (%ld MiB); running trials go on, new ones start "
		    "when space returns", avail / MIB, low, e->env.min_free);
		e->disk_low = 1;
	} else if (low == NULL && e->disk_low) {
		engine_say(e, "submissions resumed: space is back above "
		    "min_free (%ld MiB)", e->env.min_free);
		e->disk_low = 0;
	}
	return e->disk_low;
}

/*
 * Refuse a new campaign that could never start a trial: min_free is more
 * than the whole file system of its run directory or ledger holds (a
 * small tmpfs), so its submissions would wait for space for ever.
 */
int
diskfull_check(const struct engine *e, char *err, size_t errlen)
{
	const char	*where[2];
	double		 need = (double)e->env.min_free * MIB, total = 0;
	size_t		 i;

	if (e->env.min_free <= 0)
		return 0;
	where[0] = e->env.run_dir;
	where[1] = ledger_path(e->env.ledger);
	for (i = 0; i < 2; i++) {
		if (where[i] == NULL || *where[i] == '\0' ||
		    diskfull_free(where[i], &total) < 0 || total >= need)
			continue;
		snprintf(err, errlen, "campaign '%s': min_free (%ld MiB) is "
		    "more than the whole file system of %s holds (%.1f MiB): "
		    "no trial could ever start; lower min_free (hpod.conf(5)) "
		    "or move it", e->spec->name, e->env.min_free, where[i],
		    total / MIB);
		return -1;
	}
	return 0;
}
