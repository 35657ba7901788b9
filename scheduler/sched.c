/*
 * sched.c: the backend-independent half of sched.h, dispatch to the
 * backend's operations and the names of final states.
 */
#include <stddef.h>
#include <time.h>

#include "sched.h"

static const char *const sched_state_names[] = {
	[SCHED_COMPLETED] = "completed",
	[SCHED_FAILED] = "failed",
	[SCHED_TIMEOUT] = "timeout",
	[SCHED_CANCELLED] = "cancelled",
	[SCHED_NODE_FAIL] = "node_fail",
	[SCHED_PREEMPTED] = "preempted",
	[SCHED_LOST] = "lost"
};

/* Hand a job to the backend. */
int
sched_submit(struct sched *s, const struct sched_job *job)
{
	return s->ops->submit(s, job);
}

/* Ask the backend to cancel the job named by token. */
int
sched_cancel(struct sched *s, const char *token)
{
	return s->ops->cancel(s, token);
}

/* Ask the backend to take back a job started by an earlier process. */
int
sched_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	return s->ops->adopt(s, token, job_id, dir, cb, arg);
}

/* Hand a job over to a later sched_adopt() (see sched.h). */
int
sched_release(struct sched *s, const char *token)
{
	if (s->ops->release == NULL)
		return -1;
	return s->ops->release(s, token);
}

/* Return the number of jobs the backend is tracking. */
int
sched_active(const struct sched *s)
{
	return s->ops->active(s);
}

/* Release the backend; done(arg) runs when everything is closed. */
void
sched_close(struct sched *s, void (*done)(void *), void *arg)
{
	s->ops->close(s, done, arg);
}

/* Return the backend's time now: its own clock, or the wall clock. */
double
sched_now(const struct sched *s)
{
	struct timespec ts;

	if (s != NULL && s->ops->now != NULL)
		return s->ops->now(s);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Return the lowercase name of a final state. */
const char *
sched_state_name(enum sched_state st)
{
	if ((unsigned)st >= sizeof(sched_state_names) /
	    sizeof(sched_state_names[0]))
		return "unknown";
	return sched_state_names[st];
}

/* sched_suspended_by(): see sched.h. */
double
sched_suspended_by(double suspended, double suspended_at, double t)
{
	return suspended + (suspended_at > 0 && t > suspended_at ?
	    t - suspended_at : 0);
}
