/*
 * shapereq.c: a Slurm campaign submitted to hpod is put to `sbatch
 * --test-only` before it is recorded, as `hpoctl check` and `hpoctl run`
 * put it: a job the controller takes but can never run (more nodes than
 * its partition has) would otherwise pend for ever.  sbatch may wait
 * long for a frozen controller (MessageTimeout, 10 s by default), so it
 * runs as a child process on the loop (uv_spawn) and the reply is
 * deferred (control_defer) until it has answered; the loop, the other
 * campaigns and the other clients go on meanwhile.  No answer (the
 * controller does not reply, sbatch cannot run) is no refusal: the
 * campaign is taken, and the log says it was not checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sched.h"
#include "shapereq.h"
#include "xmalloc.h"

struct shapereq {
	LIST_ENTRY(shapereq)	 entry;
	struct sched_slurm_test	*test;
	struct control_call	*call;
	struct campaign_spec	*s;
	struct workload		*w;
	shapereq_cb		 cb;
	void			*arg;
	int			 stopped;	/* answered: sbatch is killed */
};

/* sbatch answered: say it in the spec's words and hand the spec on. */
static void
shapereq_answered(void *arg, int rc, const char *said)
{
	struct shapereq	*r = arg;
	char		 msg[2048];

	if (r->stopped) {
		free(r);
		return;
	}
	LIST_REMOVE(r, entry);
	spec_test_say(r->s, r->s->path, rc, said, msg, sizeof(msg));
	if (rc == 0)
		log_info("campaign '%s': %s", r->s->name, msg);
	else if (rc == 1)
		log_warnx("campaign '%s': %s", r->s->name, msg);
	r->cb(r->arg, r->call, r->s, r->w, rc == -1 ? msg : NULL);
	free(r);
}

/* shapereq_start(): see shapereq.h. */
int
shapereq_start(uv_loop_t *loop, struct control *ctl, struct shapereqs *list,
    struct campaign_spec *s, struct workload *w, shapereq_cb cb, void *arg)
{
	struct sched_job	 job;
	struct shapereq		*r;
	char			 msg[1024], note[2048];

	if (strcmp(s->backend, "slurm") != 0)
		return -1;
	r = xcalloc(1, sizeof(*r));
	spec_test_job(s, &job);
	if ((r->test = sched_slurm_test_start(loop, &job, shapereq_answered,
	    r, msg, sizeof(msg))) == NULL) {
		spec_test_say(s, s->path, 1, msg, note, sizeof(note));
		log_warnx("campaign '%s': %s", s->name, note);
		free(r);
		return -1;
	}
	r->call = control_defer(ctl);
	r->s = s;
	r->w = w;
	r->cb = cb;
	r->arg = arg;
	LIST_INSERT_HEAD(list, r, entry);
	return 0;
}

/*
 * shapereq_stop(): see shapereq.h.  The question is freed once sbatch,
 * killed, has ended.
 */
void
shapereq_stop(struct shapereqs *list)
{
	struct shapereq	*r;

	while ((r = LIST_FIRST(list)) != NULL) {
		LIST_REMOVE(r, entry);
		r->stopped = 1;
		sched_slurm_test_stop(r->test);
		r->cb(r->arg, r->call, r->s, r->w, NULL);
	}
}
