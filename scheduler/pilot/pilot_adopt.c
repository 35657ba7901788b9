/*
 * pilot_adopt.c: the pilot backend takes back what an earlier process
 * left: its pilots (sched_pilot_adopt), then their jobs (the adopt
 * operation), each followed in its pilot as it runs, or ended from its
 * result.json if its pilot is gone, and how long each was suspended.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"
#include "pilot_int.h"
#include "result.h"

/*
 * Job a of pilot p, taken back, runs: say since when (its result.json's
 * start) and on what share of the pilot, as the engine may have lost the
 * record of its start with a batch it never committed; else the job would
 * count against a budget only from its end.  Its host is the pilot's
 * node when it has one; of a larger pilot's nodes only the agent knows
 * which are the job's (NULL: the host recorded stands), and result.json
 * names the machine, not the scheduler's node.
 */
static void
patt_restarted(struct pjob *p, struct patt *a)
{
	struct sched_event	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_STARTED;
	ev.job_id = a->job_id;
	ev.time = a->t_started;
	ev.exit_code = -1;
	ev.host = p->nodes == 1 ? p->host : NULL;
	ev.nodes = a->nodes;
	ev.node_share = pilot_share(p, a);
	ev.gpus = a->gpus * a->nodes;
	ev.cpus = a->cpus * a->nodes;
	pilot_emit(p->ps, a, &ev);
}

/*
 * Take back a job of an earlier process: it belongs to the pilot its job
 * id names (adopted first), and is followed there as it runs (its agent
 * says hello with it) or has ended (its result.json).  A job never handed
 * to a pilot, or given to one that no longer runs and left no final
 * result, cannot be: -1, and the engine ends it lost and retries it.
 */
int
pilot_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, sched_event_cb cb, void *arg)
{
	struct psched	*ps = (struct psched *)s;
	struct trial_result r;
	struct jobfile	 jf;
	struct pjob	*p;
	struct patt	*a;
	char		 path[PATH_MAX], err[512];
	size_t		 n;

	if (job_id == NULL)
		return -1;
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if (p->job_id != NULL && p->state != PJ_ENDED &&
		    strncmp(job_id, p->job_id, n = strlen(p->job_id)) == 0 &&
		    strncmp(job_id + n, ".p", 2) == 0)
			break;
	snprintf(path, sizeof(path), "%s/job.json", dir);
	if (jobfile_read(path, &jf, err, sizeof(err)) == -1)
		return -1;
	if ((a = calloc(1, sizeof(*a))) == NULL)
		pilot_nomem("taking back a job");
	a->token = pilot_strdup(token);
	a->dir = pilot_strdup(dir);
	a->job_id = pilot_strdup(job_id);
	a->nodes = jf.nodes > 0 ? jf.nodes : 1;
	a->gpus = jf.gpus / a->nodes;
	a->cpus = jf.cpus / a->nodes;
	a->srun = jf.argv != NULL && jf.argv[0] != NULL &&
	    (strcmp(jf.argv[0], "srun") == 0 ||
	    (strlen(jf.argv[0]) > 5 && strcmp(jf.argv[0] +
	    strlen(jf.argv[0]) - 5, "/srun") == 0));
	a->limit = jf.limit;
	jobfile_release(&jf);
	a->cb = cb;
	a->arg = arg;
	a->submitted = pilot_now();
	ps->nactive++;
	/* Its pilot is gone: its result.json is all there is. */
	if (p == NULL) {
		TAILQ_INSERT_TAIL(&ps->queue, a, entry);
		if (patt_end_result(ps, a, -1, NULL) == -1) {
			TAILQ_REMOVE(&ps->queue, a, entry);
			ps->nactive--;
			patt_free(a);
			return -1;
		}
		return 0;
	}
	a->pilot = p;
	a->adopted = 1;
	a->started = 1;
	if (result_read(dir, &r, err, sizeof(err)) == 0 &&
	    strcmp(r.token, token) == 0)
		a->t_started = r.start;
	TAILQ_INSERT_TAIL(&p->jobs, a, entry);
	if (a->t_started > 0 && r.running)
		patt_restarted(p, a);
	/*
	 * Which of its pilot's nodes it runs on, its agent's hello says
	 * (pilot_hello, before the pilot is given any job): counted on the
	 * first, as many as it holds, until then.  An agent older than
	 * "running_nodes" never says: the count stays on the first nodes,
	 * and a later job may be placed beside it on a node it fills.
	 */
	if ((a->at = calloc((size_t)a->nodes, sizeof(*a->at))) == NULL)
		pilot_nomem("taking back a job");
	for (n = 0; n < (size_t)a->nodes; n++)
		a->at[n] = (int)n;
	pslots_hold(p->slots, a->nodes, a->cpus, a->gpus, a->at);
	return 0;
}

/* Take back a pilot of an earlier process (sched.h). */
int
sched_pilot_adopt(struct sched *s, const char *token, const char *job_id,
    const char *dir, double started, int seq, double busy_node_s,
    double busy_gpu_s, double suspended, double suspended_at)
{
	struct psched	*ps = (struct psched *)s;
	struct pjob	*p;
	const char	*base;
	int		 n;

	if (!pilot_is(s))
		return -1;
	p = pjob_new(ps);
	p->token = pilot_strdup(token);
	p->dir = pilot_strdup(dir);
	p->job_id = pilot_strdup(job_id);
	p->started = started;
	p->state = started > 0 ? PJ_RUNNING : PJ_SUBMITTED;
	p->seq = seq;
	p->busy_node_s = busy_node_s;
	p->busy_gpu_s = busy_gpu_s;
	/* Its next SUSPENDED event counts from where the last one stood. */
	p->suspended = suspended;
	p->suspended_at = suspended_at;
	p->adopted = 1;
	/* New pilots' directories come after this one's. */
	if ((base = strrchr(dir, '/')) != NULL && (n = atoi(base + 1)) >
	    ps->npilots)
		ps->npilots = n;
	TAILQ_INSERT_TAIL(&ps->pilots, p, entry);
	if (sched_adopt(ps->inner, token, job_id, dir, pilot_inner_event, p)
	    == -1) {
		TAILQ_REMOVE(&ps->pilots, p, entry);
		pjob_free(p);
		return -1;
	}
	return 0;
}

/* A job taken back was suspended so before (sched.h). */
int
sched_pilot_job_suspended(struct sched *s, const char *token,
    double suspended, double suspended_at)
{
	struct psched	*ps = (struct psched *)s;
	struct pjob	*p;
	struct patt	*a = NULL;

	if (!pilot_is(s))
		return -1;
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if ((a = pilot_job_find(p, token)) != NULL)
			break;
	if (a == NULL)
		return -1;
	a->suspended = suspended > 0 ? suspended : 0;
	a->suspended_at = suspended_at > 0 ? fmax(suspended_at,
	    a->t_started) : 0;
	return 0;
}
