/*
 * paths.c: default locations and search paths.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h>

#include "paths.h"
#include "xmalloc.h"

/* The default control socket path. */
char *
paths_default_socket(void)
{
	const char	*rt = getenv("XDG_RUNTIME_DIR");
	char		 uid[32];

	if (rt != NULL && *rt == '/')
		return xasprintf("%s/hpod/hpod.sock", rt);
	snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	return xasprintf("/tmp/hpod-%s/hpod.sock", uid);
}

/* A file in the default state directory. */
char *
paths_default_state(const char *name)
{
	const char	*st = getenv("XDG_STATE_HOME");
	const char	*home = getenv("HOME");

	if (st != NULL && *st == '/')
		return xasprintf("%s/hpod/%s", st, name);
	if (home == NULL || *home == '\0')
		home = "/tmp";
	return xasprintf("%s/.local/state/hpod/%s", home, name);
}

/* The directory of the running executable. */
char *
paths_exe_dir(void)
{
	char	 buf[PATH_MAX];
	size_t	 len = sizeof(buf);

	if (uv_exepath(buf, &len) != 0)
		return xstrdup(".");
	return paths_dirname(buf);
}

/* The directory part of a path. */
char *
paths_dirname(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

/* Append s to a NULL-terminated vector of at most cap entries. */
static void
strv_push(char **v, size_t cap, char *s)
{
	size_t	 i;

	for (i = 0; i + 1 < cap && v[i] != NULL; i++)
		;
	if (i + 1 < cap)
		v[i] = s;
	else
		free(s);
}

/* Append each element of a colon-separated list. */
static void
strv_push_list(char **v, size_t cap, const char *list)
{
	const char	*p, *q;

	if (list == NULL)
		return;
	for (p = list; *p != '\0'; p = q) {
		q = strchr(p, ':');
		if (q == NULL)
			q = p + strlen(p);
		if (q > p)
			strv_push(v, cap, xasprintf("%.*s", (int)(q - p), p));
		if (*q == ':')
			q++;
	}
}

#define PATHS_MAX	32

/*
 * dir/rel as a clean path when it exists (realpath: no "..", no links),
 * so that messages say /opt/hpod/workloads/x.json, not
 * /opt/hpod/bin/../workloads/x.json; as joined otherwise.
 */
static char *
paths_under(const char *dir, const char *rel)
{
	char	*p = xasprintf("%s/%s", dir, rel), *r;

	if ((r = realpath(p, NULL)) == NULL)
		return p;
	free(p);
	return r;
}

/* Program search directories. */
char **
paths_progdirs(void)
{
	char	**v = xcalloc(PATHS_MAX, sizeof(*v));
	char	*exe = paths_exe_dir();

	strv_push(v, PATHS_MAX, xstrdup(exe));
	strv_push(v, PATHS_MAX, paths_under(exe, "../libexec/hpod"));
	strv_push(v, PATHS_MAX, xstrdup(HPOD_LIBEXECDIR));
	free(exe);
	return v;
}

/* Workload spec search directories. */
char **
paths_workdirs(const char *extra)
{
	char	**v = xcalloc(PATHS_MAX, sizeof(*v));
	char	*exe = paths_exe_dir();

	strv_push_list(v, PATHS_MAX, extra);
	strv_push_list(v, PATHS_MAX, getenv("HPOD_WORKLOAD_PATH"));
	strv_push(v, PATHS_MAX, paths_under(exe, "../workloads"));
	strv_push(v, PATHS_MAX, paths_under(exe, "../share/hpod/workloads"));
	strv_push(v, PATHS_MAX, xasprintf("%s/workloads", HPOD_DATADIR));
	free(exe);
	return v;
}

/* Create a directory and its parents. */
int
paths_mkdir(const char *path, int mode)
{
	char	*p, *s;

	if ((p = strdup(path)) == NULL)
		return -1;
	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) == -1 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	free(p);
	if (mkdir(path, mode) == -1 && errno != EEXIST)
		return -1;
	return 0;
}
