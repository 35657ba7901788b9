/*
 * local_spawn.c: starting one job of the local backend: the hpo-trial
 * wrapper's command line and environment, its output files, and the
 * spawn itself in a session of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "local_int.h"

extern char **environ;

/* Copy a NULL-terminated string vector; NULL on failure. */
char **
local_strv(const char *const *v)
{
	char **c;
	size_t i, n = 0;

	while (v != NULL && v[n] != NULL)
		n++;
	if ((c = calloc(n + 1, sizeof(*c))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if ((c[i] = strdup(v[i])) == NULL) {
			while (i-- > 0)
				free(c[i]);
			free(c);
			return NULL;
		}
	}
	return c;
}

/* Free a vector made by local_strv(). */
void
local_strv_free(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}


/* Return 1 if the environment entry e sets a name that env sets too. */
static int
local_env_overridden(const char *e, char **env)
{
	size_t n = strcspn(e, "=");
	size_t i;

	for (i = 0; env[i] != NULL; i++)
		if (strncmp(env[i], e, n) == 0 && env[i][n] == '=')
			return 1;
	return 0;
}

/* Build the wrapper's environment: ours, then the job's (which wins). */
static char **
local_environ(const struct ljob *j)
{
	char **v;
	size_t i, n = 0, m = 0;

	while (environ != NULL && environ[n] != NULL)
		n++;
	while (j->env[m] != NULL)
		m++;
	if ((v = calloc(n + m + 1, sizeof(*v))) == NULL)
		return NULL;
	m = 0;
	for (i = 0; i < n; i++)
		if (!local_env_overridden(environ[i], j->env))
			v[m++] = environ[i];
	for (i = 0; j->env[i] != NULL; i++)
		v[m++] = j->env[i];
	return v;
}

/* Build the wrapper's argv: wrapper -d DIR -t TOKEN [-l N] -- ARGV. */
static char **
local_args(const struct ljob *j, char *limit, size_t limitlen)
{
	char **v;
	size_t i, n = 0, k = 0;

	while (j->argv[n] != NULL)
		n++;
	if ((v = calloc(n + 9, sizeof(*v))) == NULL)
		return NULL;
	v[k++] = j->l->wrapper;
	v[k++] = "-d";
	v[k++] = j->dir;
	v[k++] = "-t";
	v[k++] = j->token;
	if (j->time_limit > 0) {
		snprintf(limit, limitlen, "%ld", j->time_limit);
		v[k++] = "-l";
		v[k++] = limit;
	}
	v[k++] = "--";
	for (i = 0; i < n; i++)
		v[k++] = j->argv[i];
	return v;
}

/* Open dir/name for the job's output; -1 with reason on failure. */
static int
local_open_output(const struct ljob *j, const char *name, char *reason,
    size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", j->dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd == -1)
		snprintf(reason, len, "cannot open '%s': %s", path,
		    strerror(errno));
	return fd;
}

/* Spawn the wrapper for j; 0, or -1 with reason (nothing started). */
int
local_spawn(struct ljob *j, char *reason, size_t len)
{
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	char **args = NULL, **env = NULL, limit[32];
	int fd[3] = { -1, -1, -1 }, i, rc = -1;

	if ((args = local_args(j, limit, sizeof(limit))) == NULL ||
	    (env = local_environ(j)) == NULL) {
		snprintf(reason, len, "out of memory");
		goto out;
	}
	if ((fd[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(reason, len, "cannot open '/dev/null': %s",
		    strerror(errno));
		goto out;
	}
	if ((fd[1] = local_open_output(j, "stdout", reason, len)) == -1 ||
	    (fd[2] = local_open_output(j, "stderr", reason, len)) == -1)
		goto out;
	for (i = 0; i < 3; i++) {
		io[i].flags = UV_INHERIT_FD;
		io[i].data.fd = fd[i];
	}
	memset(&o, 0, sizeof(o));
	o.exit_cb = local_exited;
	o.file = j->l->wrapper;
	o.args = args;
	o.env = env;
	o.cwd = j->dir;
	o.flags = UV_PROCESS_DETACHED;
	o.stdio_count = 3;
	o.stdio = io;
	/* A failed uv_spawn() leaves an initialised handle to close. */
	j->spawned = 1;
	j->nopen++;
	j->l->nopen++;
	rc = uv_spawn(j->l->loop, &j->proc, &o);
	j->proc.data = j;
	if (rc != 0) {
		snprintf(reason, len, "cannot run '%s': %s", j->l->wrapper,
		    uv_strerror(rc));
		rc = -1;
	}
out:
	for (i = 0; i < 3; i++)
		if (fd[i] != -1)
			close(fd[i]);
	free(args);
	free(env);
	return rc;
}
