/*
 * local_adopt.c: jobs an earlier daemon started, taken back after a
 * restart.  They do not count against the CPUs: adopt() does not say what
 * they use, and they run whatever we do.  They are watched by one shared
 * 1-s timer, through their result.json and their wrapper's pid.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Check one adopted job; return 1 when it has ended (END queued). */
static int
local_check_adopted(struct ljob *j)
{
	struct trial_result r;
	char err[PATH_MAX + 128];
	int rc;

	rc = result_read(j->dir, &r, err, sizeof(err));
	if (rc == 0 && !r.running) {
		local_end_result(j, &r);
		return 1;
	}
	if (rc == 0 && j->pid > 0 &&
	    (kill((pid_t)j->pid, 0) == 0 || errno == EPERM)) {
		if (j->kill_at > 0 && local_now() >= j->kill_at) {
			local_kill_adopted(j, SIGKILL);
			j->kill_at = 0;
		}
		return 0;
	}
	if (rc == 0)
		local_end(j, j->cancelled ? SCHED_CANCELLED : SCHED_LOST, &r,
		    "job vanished");
	else
		local_end(j, SCHED_LOST, NULL, rc == 1 ? "no result.json" : err);
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

/* Take back a job an earlier daemon started, from its result.json. */
int
local_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	struct local *l = (struct local *)s;
	struct trial_result r;
	struct ljob *j;
	char err[PATH_MAX + 128], reason[320];

	if (l->closing || token == NULL || dir == NULL || cb == NULL ||
	    local_find(l, token) != NULL)
		return -1;
	if ((j = local_job_new(l, token, dir, cb, arg)) == NULL)
		return -1;
	if (job_id != NULL && (j->job_id = strdup(job_id)) == NULL) {
		ljob_free(j);
		return -1;
	}
	l->nactive++;
	j->state = LJOB_ADOPTED;
	if (result_read(dir, &r, err, sizeof(err)) == 0 && r.running) {
		if (strcmp(r.host, l->host) != 0) {
			snprintf(reason, sizeof(reason), "job ran on host "
			    "'%s', not here", r.host);
			local_end(j, SCHED_LOST, &r, reason);
			ljob_free(j);
			return 0;
		}
		j->pid = r.pid;
	}
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
