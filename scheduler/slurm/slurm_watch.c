/*
 * slurm_watch.c: the Slurm backend learns of a job's end from the job
 * itself.  hpo-trial creates the attempt directory's end marker (result.h)
 * when the workload has ended; a uv_fs_event on the directory sees it on
 * the daemon's host and brings the next poll forward, so that a freed slot
 * does not wait for the timed poll.  The marker is never trusted alone: the
 * poll decides, and while a marked job still runs the polls that follow
 * back off from poll_kick to the normal period again.  A poll a marker
 * brings loads only the marked jobs (one slurm_load_job per job id, at
 * most SLURM_CONFIRM_MAX), not every job of the user, unless the timed
 * poll is due anyway: with hundreds of jobs queued, confirming one end
 * costs the controller one record, not hundreds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "slurm_int.h"

struct slurm_watch {
	uv_fs_event_t	 ev;
	struct slurm	*b;
	struct slurm_job *j;
};

static void
slurm_watch_closed(uv_handle_t *h)
{
	free(h->data);
}

/* Something changed in a job's directory: poll soon if it is the marker. */
static void
slurm_watch_event(uv_fs_event_t *h, const char *name, int events,
    int status)
{
	struct slurm_watch	*w = h->data;

	(void)events;
	if (status < 0 || name == NULL || strcmp(name, RESULT_ENDED) != 0)
		return;
	w->j->hinted = 1;
	w->b->hint_delay = w->b->opts.kick;
	slurm_poll_soon(w->b);
}

/* Watch a job's directory (nothing happens if it cannot be watched). */
void
slurm_watch_start(struct slurm *b, struct slurm_job *j)
{
	struct slurm_watch	*w;

	if (b->opts.kick == 0 || b->closing || j->watch != NULL)
		return;
	w = slurm_calloc(1, sizeof(*w));
	w->b = b;
	w->j = j;
	w->ev.data = w;
	if (uv_fs_event_init(b->loop, &w->ev) != 0) {
		free(w);
		return;
	}
	if (uv_fs_event_start(&w->ev, slurm_watch_event, j->dir, 0) != 0) {
		/* The timed polls still find the end. */
		uv_close((uv_handle_t *)&w->ev, slurm_watch_closed);
		return;
	}
	j->watch = w;
}

/* Stop watching a job's directory. */
void
slurm_watch_stop(struct slurm_job *j)
{
	if (j->watch == NULL)
		return;
	uv_fs_event_stop(&j->watch->ev);
	uv_close((uv_handle_t *)&j->watch->ev, slurm_watch_closed);
	j->watch = NULL;
}

/* Poll within hint_delay ms; a running poll is followed up by slurm_polled. */
void
slurm_poll_soon(struct slurm *b)
{
	if (b->closing || b->polling)
		return;
	if (uv_is_active((uv_handle_t *)&b->poll) &&
	    uv_timer_get_due_in(&b->poll) <= b->hint_delay)
		return;
	b->confirm = 1;
	uv_timer_start(&b->poll, slurm_poll_due, b->hint_delay, 0);
}

/*
 * An array task's own job id as its end marker holds it (hpo-trial writes
 * $SLURM_JOB_ID there), 0 if it holds none.  A hint too: the records it
 * brings must still match the task's array, index and comment.
 */
static uint32_t
slurm_watch_marker_id(const struct slurm_job *j)
{
	char		*path, buf[32], *end;
	unsigned long	 v;
	ssize_t		 n;
	int		 fd;

	path = slurm_printf("%s/%s", j->dir, RESULT_ENDED);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno != 0 || end == buf || (*end != '\n' && *end != '\0') ||
	    v == 0 || v >= UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

/*
 * The job ids that confirm the marked jobs' ends (an array task's own id,
 * from a poll or its marker, else its array's), each once; 0 if there are
 * none, or more than SLURM_CONFIRM_MAX: then one poll of all is cheaper.
 */
size_t
slurm_watch_ids(struct slurm *b, uint32_t *ids)
{
	struct slurm_job	*j;
	uint32_t		 id;
	size_t			 n = 0, i;

	TAILQ_FOREACH(j, &b->jobs, entry) {
		if (!j->hinted || j->state != SJ_LIVE)
			continue;
		if (j->task != SLURM_NO_TASK && j->own_id == 0)
			j->own_id = slurm_watch_marker_id(j);
		id = j->task != SLURM_NO_TASK && j->own_id != 0 ? j->own_id :
		    j->id;
		if (id == 0)
			return 0;
		for (i = 0; i < n && ids[i] != id; i++)
			;
		if (i < n)
			continue;
		if (n == SLURM_CONFIRM_MAX)
			return 0;
		ids[n++] = id;
	}
	return n;
}

/*
 * After a poll: if a marked job has not ended yet (Slurm may still be
 * completing it, or the marker lied), poll again soon, backing off.
 * Return 1 if a poll was armed.
 */
int
slurm_watch_followup(struct slurm *b)
{
	struct slurm_job	*j;

	TAILQ_FOREACH(j, &b->jobs, entry)
		if (j->hinted && j->state == SJ_LIVE)
			break;
	if (j == NULL || b->hint_delay == 0 || b->hint_delay >= b->interval)
		return 0;
	slurm_poll_soon(b);
	b->hint_delay *= 2;
	return 1;
}
