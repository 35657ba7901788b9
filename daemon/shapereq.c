/*
 * shapereq.c: a Slurm campaign submitted to hpod has each distinct job
 * it will submit (each batch size's trials, its pilots) put to `sbatch
 * --test-only` before it is recorded, as `hpoctl check` and `hpoctl run`
 * put them: a job the controller takes but can never run (more nodes
 * than its partition has) would otherwise pend for ever.  sbatch may
 * wait long for a frozen controller (MessageTimeout, 10 s by default),
 * so it runs as a child process on the loop (uv_spawn), one question
 * after another, and the reply is deferred (control_defer) until the
 * last has been answered; the loop, the other campaigns and the other
 * clients go on meanwhile.  No answer (the controller does not reply,
 * sbatch cannot run) is no refusal: the campaign is taken, the questions
 * left are not asked, and the log says it was not checked.  A client that
 * leaves before the answer (its connection closed) takes its submit with
 * it: sbatch is killed and nothing is recorded, as no one would be told
 * the campaign's id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sched.h"
#include "shapereq.h"
#include "workload.h"
#include "xmalloc.h"

struct shapereq {
	LIST_ENTRY(shapereq)	 entry;
	uv_loop_t		*loop;
	struct sched_slurm_test	*test;
	struct spec_test_what	 what;	/* the job asked about */
	size_t			 next;	/* spec_test_job()'s to ask next */
	size_t			 asked;
	struct control_call	*call;
	struct campaign_spec	*s;
	struct workload		*w;
	shapereq_cb		 cb;
	void			*arg;
	int			 stopped;	/* answered: sbatch is killed */
};

/*
 * Ask about the next distinct job of r's campaign.  0: asked, its answer
 * follows; 1: none is left; -1: no cluster can be asked (msg: why).
 */
static int
shapereq_ask(struct shapereq *r, void (*cb)(void *, int, const char *),
    char *msg, size_t len)
{
	struct sched_job	 job;

	while (r->next < spec_test_njobs(r->s))
		if (spec_test_job(r->s, r->next++, &job, &r->what) == 0) {
			r->asked++;
			r->test = sched_slurm_test_start(r->loop, &job, cb, r,
			    msg, len);
			return r->test != NULL ? 0 : -1;
		}
	return 1;
}

/*
 * sbatch answered: ask about the next job if this one was taken, else (or
 * after the last) say it in the spec's words and hand the spec on.
 */
static void
shapereq_answered(void *arg, int rc, const char *said)
{
	struct shapereq	*r = arg;
	char		 last[1024], why[1024], msg[2048];
	int		 next;

	if (r->stopped) {
		free(r);
		return;
	}
	if (rc == 0) {
		/* said is sbatch's only while this runs. */
		snprintf(last, sizeof(last), "%s", said);
		if ((next = shapereq_ask(r, shapereq_answered, why,
		    sizeof(why))) == 0)
			return;
		rc = next == -1 ? 1 : 0;
		said = next == -1 ? why : last;
	}
	LIST_REMOVE(r, entry);
	spec_test_say(r->s, r->s->path, &r->what, r->asked, rc, said, msg,
	    sizeof(msg));
	if (rc == 0)
		log_info("campaign '%s': %s", r->s->name, msg);
	else if (rc == 1)
		log_warnx("campaign '%s': %s", r->s->name, msg);
	r->cb(r->arg, r->call, r->s, r->w, rc == -1 ? msg : NULL);
	free(r);
}

/*
 * The client of r's submit left before its question was answered: kill
 * sbatch (r is freed once it has ended) and drop the submit.
 */
static void
shapereq_gone(void *arg)
{
	struct shapereq	*r = arg;

	log_warnx("submit of '%s' abandoned: the client left before it was "
	    "checked", r->s->name);
	LIST_REMOVE(r, entry);
	r->stopped = 1;
	sched_slurm_test_stop(r->test);
	control_answer(r->call, NULL);
	spec_free(r->s);
	workload_free(r->w);
}

/* shapereq_start(): see shapereq.h. */
int
shapereq_start(uv_loop_t *loop, struct control *ctl, struct shapereqs *list,
    struct campaign_spec *s, struct workload *w, shapereq_cb cb, void *arg)
{
	struct shapereq		*r;
	char			 msg[1024], note[2048];

	if (strcmp(s->backend, "slurm") != 0)
		return -1;
	r = xcalloc(1, sizeof(*r));
	r->loop = loop;
	r->s = s;
	if (shapereq_ask(r, shapereq_answered, msg, sizeof(msg)) != 0) {
		spec_test_say(s, s->path, &r->what, r->asked, 1, msg, note,
		    sizeof(note));
		log_warnx("campaign '%s': %s", s->name, note);
		free(r);
		return -1;
	}
	r->call = control_defer(ctl);
	r->w = w;
	r->cb = cb;
	r->arg = arg;
	control_watch(r->call, shapereq_gone, r);
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
