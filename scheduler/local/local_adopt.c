/*
 * local_adopt.c: jobs an earlier daemon started, taken back after a
 * restart.  They do not count against the CPUs: adopt() does not say what
 * they use, and they run whatever we do.  They are watched by one shared
 * 1-s timer, through their result.json and their wrapper's process.
 *
 * A daemon killed right after it spawned a wrapper may have recorded
 * neither its pid nor seen its result.json: the wrapper is then found by
 * the token on its command line (hpo-trial -d DIR -t TOKEN ...), so that
 * a job that may still run is followed, never declared lost beside it.
 * So is the wrapper of an older hpo-trial, which kept its record in
 * result.json alone, when the program replaced that with its own.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "local_int.h"

/*
 * Signal an adopted job's wrapper: its process group when it leads one (we
 * started it detached), else the wrapper alone, which forwards the signal.
 */
void
local_kill_adopted(const struct ljob *j, int sig)
{
	if (j->pid > 0 && kill(-(pid_t)j->pid, sig) == -1 && errno == ESRCH)
		kill((pid_t)j->pid, sig);
}

/*
 * Is process pid the wrapper of token: a process whose arguments hold
 * "-t TOKEN"?  1 if so, 0 if not, -1 if it has no arguments to read: a
 * zombie, or a process in the middle of an execve().
 */
static int
local_is_wrapper(long pid, const char *token)
{
	char path[64], buf[8192];
	ssize_t n;
	size_t i, len;
	int fd, after_t = 0;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (i = 0; i < (size_t)n; i += len + 1) {
		len = strlen(buf + i);
		if (after_t && strcmp(buf + i, token) == 0)
			return 1;
		after_t = strcmp(buf + i, "-t") == 0;
	}
	return 0;
}

/* Is process pid alive (not a zombie)? */
static int
local_pid_alive(long pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last parenthesis. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return 0;
	return p[2] != 'Z' && p[2] != 'X';
}

/*
 * Is the wrapper of an adopted job still alive?  Its pid was its own
 * (from result.json or found by token); between two execve() calls its
 * arguments may be unreadable for a moment.
 */
static int
local_wrapper_alive(const struct ljob *j)
{
	if (j->pid <= 0)
		return 0;
	switch (local_is_wrapper(j->pid, j->token)) {
	case 1:
		return 1;
	case 0:
		return 0;
	default:
		return local_pid_alive(j->pid);
	}
}

/* The pid of the live wrapper of token on this machine, or 0. */
static long
local_find_wrapper(const char *token)
{
	struct dirent *d;
	DIR *dp;
	long pid, found = 0;

	if ((dp = opendir("/proc")) == NULL)
		return 0;
	while (found == 0 && (d = readdir(dp)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = strtol(d->d_name, NULL, 10);
		if (pid > 0 && local_is_wrapper(pid, token) == 1)
			found = pid;
	}
	closedir(dp);
	return found;
}

/* Check one adopted job; return 1 when it has ended (END queued). */
static int
local_check_adopted(struct ljob *j)
{
	struct trial_result r;
	char err[PATH_MAX + 128];
	int rc, alive;

	/*
	 * Look at the wrapper first: if it is gone now, whatever it wrote
	 * before it went is in result.json when we read it next.
	 */
	alive = local_wrapper_alive(j);
	rc = result_read(j->dir, &r, err, sizeof(err));
	if (rc == 0 && !r.running) {
		local_end_result(j, &r);
		return 1;
	}
	if (alive) {
		if (j->kill_at > 0 && local_now() >= j->kill_at) {
			local_kill_adopted(j, SIGKILL);
			j->kill_at = 0;
		}
		return 0;
	}
	if (rc == 0)
		local_end(j, j->cancelled ? SCHED_CANCELLED : SCHED_LOST, &r,
		    "job vanished");
	else if (rc == 1)
		local_end(j, SCHED_LOST, NULL, "never started: no result.json "
		    "and no wrapper running");
	else
		local_end(j, SCHED_LOST, NULL, err);
	return 1;
}

/* Poll the adopted jobs; stop when there are none left. */
static void
local_watch(uv_timer_t *h)
{
	struct local *l = h->data;
	struct ljob *j, *next;
	int left = 0;

	for (j = TAILQ_FIRST(&l->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (j->state != LJOB_ADOPTED)
			continue;
		if (local_check_adopted(j)) {
			TAILQ_REMOVE(&l->jobs, j, entry);
			ljob_free(j);
		} else
			left++;
	}
	if (left == 0)
		uv_timer_stop(&l->watch);
}

/*
 * An adopted job that runs: say since when (its result.json's start), as
 * its owner may have lost the record of it; the allocation is not known
 * here (nodes 0: as asked).
 */
void
local_adopted_started(struct ljob *j)
{
	struct sched_event ev;
	struct trial_result r;
	char id[32], err[PATH_MAX + 128];

	if (result_read(j->dir, &r, err, sizeof(err)) != 0 || !r.running ||
	    r.start <= 0 || strcmp(r.token, j->token) != 0)
		return;
	/* Its job id, the wrapper's pid, if that was not recorded either. */
	if (j->job_id == NULL && r.pid > 0) {
		snprintf(id, sizeof(id), "%ld", r.pid);
		if ((j->job_id = strdup(id)) == NULL)
			return;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_STARTED;
	ev.token = j->token;
	ev.job_id = j->job_id;
	ev.time = r.start;
	ev.exit_code = -1;
	ev.host = r.host;
	local_emit(j->l, j->cb, j->arg, &ev);
}

/* Take back a job an earlier daemon started, from its result.json. */
int
local_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	struct local *l = (struct local *)s;
	struct trial_result r;
	struct ljob *j;
	char err[PATH_MAX + 128], reason[320];
	int rc;

	if (l->closing || token == NULL || dir == NULL || cb == NULL)
		return -1;
	/* Released by an engine of this process: it follows it on. */
	if (local_rebind(l, token, cb, arg))
		return 0;
	if (local_find(l, token) != NULL)
		return -1;
	if ((j = local_job_new(l, token, dir, cb, arg)) == NULL)
		return -1;
	if (job_id != NULL && (j->job_id = strdup(job_id)) == NULL) {
		ljob_free(j);
		return -1;
	}
	l->nactive++;
	j->state = LJOB_ADOPTED;
	if ((rc = result_read(dir, &r, err, sizeof(err))) == 0 && r.running) {
		if (strcmp(r.host, l->host) != 0) {
			snprintf(reason, sizeof(reason), "job ran on host "
			    "'%s', not here", r.host);
			local_end(j, SCHED_LOST, &r, reason);
			ljob_free(j);
			return 0;
		}
		j->pid = r.pid;
		local_adopted_started(j);
	}
	/*
	 * Spawned, but its record not written yet, or an older hpo-trial's
	 * result.json replaced by the program's own: find it.
	 */
	if (rc != 0)
		j->pid = local_find_wrapper(token);
	if (local_check_adopted(j)) {
		ljob_free(j);
		return 0;
	}
	TAILQ_INSERT_TAIL(&l->jobs, j, entry);
	if (!uv_is_active((uv_handle_t *)&l->watch))
		uv_timer_start(&l->watch, local_watch, LOCAL_WATCH_MS,
		    LOCAL_WATCH_MS);
	return 0;
}
