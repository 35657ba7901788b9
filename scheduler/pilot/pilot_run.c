/*
 * pilot_run.c: the life of the pilot backend's pilots: submitting them
 * through the inner backend while jobs wait, their events (started,
 * ended: the jobs they ran end with them), their agents' hello, start and
 * end of jobs, and handing queued jobs to pilots that asked for one.
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pilot_int.h"

/* Tell pilot p's agent to exit once idle. */
static void
pilot_drain_one(struct pjob *p)
{
	struct pilot_msg	 m;

	if (p->conn == NULL || p->drained)
		return;
	memset(&m, 0, sizeof(m));
	m.op = PILOT_DRAIN;
	pilot_send(p->conn, &m);
	p->drained = 1;
}

/* Hand job a to pilot p. */
static void
pilot_give(struct psched *ps, struct pjob *p, struct patt *a)
{
	struct sched_event	 ev;
	struct pilot_msg	 m;
	char			 id[256];

	TAILQ_REMOVE(&ps->queue, a, entry);
	TAILQ_INSERT_TAIL(&p->jobs, a, entry);
	a->pilot = p;
	p->asked--;
	snprintf(id, sizeof(id), "%s.p%d", p->job_id ? p->job_id : p->token,
	    ++p->seq);
	free(a->job_id);
	a->job_id = pilot_strdup(id);
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_SUBMITTED;
	ev.job_id = a->job_id;
	ev.time = a->submitted;
	ev.exit_code = -1;
	pilot_emit(ps, a, &ev);
	memset(&m, 0, sizeof(m));
	m.op = PILOT_RUN;
	m.token = a->token;
	m.dir = a->dir;
	m.job = a->job;
	/* A pilot of one node: its agent's own, as before nodes were told. */
	if (p->nodes > 1) {
		m.nodes = a->at;
		m.nnodes = a->nodes;
	}
	pilot_send(p->conn, &m);
}

/*
 * The seconds pilot p has left for job a beyond its time limit and the
 * margin (negative: too few), counted from its start (its submission
 * while no poll saw it start: less, never more, than it has).  A pilot
 * or a job without a time limit, and a pilot given no job yet (none
 * could have more time), always fit: 0.
 */
static double
pilot_spare(const struct psched *ps, const struct pjob *p,
    const struct patt *a, double now)
{
	double	 start = p->started > 0 ? p->started : p->submitted;

	if (ps->opts.job.time_limit <= 0 || a->limit <= 0 || p->seq == 0 ||
	    start <= 0)
		return 0;
	return start + ps->opts.job.time_limit - now - a->limit -
	    SCHED_PILOT_MARGIN;
}

/*
 * Pilots that asked for a job but have too little time left for the job
 * that waits drain (their running jobs go on), so that a new pilot, with
 * its whole time limit, replaces them.
 */
static void
pilot_drain_short(struct psched *ps, double now)
{
	struct patt	*a = TAILQ_FIRST(&ps->queue);
	struct pjob	*p;
	double		 start;

	if (a == NULL)
		return;
	TAILQ_FOREACH(p, &ps->pilots, entry) {
		if (p->state != PJ_RUNNING || p->conn == NULL ||
		    p->asked == 0 || p->drained ||
		    pilot_spare(ps, p, a, now) >= 0)
			continue;
		start = p->started > 0 ? p->started : p->submitted;
		pilot_warn(ps, "pilot %s: %.0f s left, less than a trial's "
		    "time limit of %ld s and a margin of %d s: drained, a new "
		    "pilot takes the trials", p->job_id ? p->job_id : p->token,
		    start + ps->opts.job.time_limit - now, a->limit,
		    SCHED_PILOT_MARGIN);
		pilot_drain_one(p);
	}
}

/*
 * Hand queued jobs to pilots with free room and time enough that asked
 * for one.
 */
void
pilot_dispatch(struct psched *ps)
{
	struct patt	*a, *next;
	struct pjob	*p;
	double		 now = pilot_now();
	int		*at;

	for (a = TAILQ_FIRST(&ps->queue); a != NULL; a = next) {
		next = TAILQ_NEXT(a, entry);
		if ((at = calloc((size_t)a->nodes, sizeof(*at))) == NULL)
			pilot_nomem("placing a job");
		/*
		 * Only to a pilot whose job id is known: its jobs' ids are
		 * JOBID.pN, by which the ledger charges them to it.  An agent
		 * can call before that (a pilot taken back whose submit's
		 * answer was lost: its id comes from the backend's search).
		 */
		TAILQ_FOREACH(p, &ps->pilots, entry)
			if (p->state == PJ_RUNNING && p->conn != NULL &&
			    p->job_id != NULL && p->asked > 0 && !p->drained &&
			    pilot_spare(ps, p, a, now) >= 0 &&
			    pslots_take(p->slots, a->nodes, a->cpus, a->gpus,
			    !a->srun, at) == 0)
				break;
		if (p == NULL) {
			free(at);
			continue;
		}
		a->at = at;
		pilot_give(ps, p, a);
	}
	pilot_drain_short(ps, now);
	if (ps->draining && TAILQ_EMPTY(&ps->queue))
		TAILQ_FOREACH(p, &ps->pilots, entry)
			if (p->asked > 0)
				pilot_drain_one(p);
}

/* A pilot's lifecycle for the engine's ledger. */
static void
pilot_tell(struct psched *ps, struct pjob *p, enum sched_pilot_ev_type t,
    const struct sched_event *iev)
{
	struct sched_pilot_event ev;

	if (ps->opts.cb == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = t;
	ev.token = p->token;
	ev.dir = p->dir;
	ev.job_id = p->job_id;
	ev.host = p->host;
	ev.time = iev != NULL && iev->time > 0 ? iev->time :
	    t == SCHED_PILOT_STARTED && p->started > 0 ? p->started :
	    pilot_now();
	ev.nodes = p->nodes;
	ev.gpus = p->gpus * p->nodes;
	ev.cpus = p->cpus * p->nodes;
	/*
	 * What the backend says it started, when it says: a Slurm job first
	 * seen ended starts from its final record, all its nodes
	 * (slurm_apply), not from the view of those still completing.
	 */
	if (iev != NULL && iev->type == SCHED_EV_STARTED && iev->nodes > 0) {
		ev.nodes = iev->nodes;
		ev.gpus = iev->gpus;
		ev.cpus = iev->cpus;
	}
	if (t == SCHED_PILOT_ENDED) {
		/*
		 * The scheduler's times may be whole seconds or the time of
		 * a poll: the pilot ran at least from its first job's start
		 * to its last job's end.
		 */
		if (iev->end > 0)
			ev.time = iev->end;
		if (p->last_end > ev.time)
			ev.time = p->last_end;
		ev.start = p->started;
		if (p->first_start > 0 && (ev.start == 0 ||
		    p->first_start < ev.start))
			ev.start = p->first_start;
		ev.state = iev->state;
		ev.elapsed = ev.start > 0 && ev.time > ev.start ?
		    ev.time - ev.start : 0;
		/*
		 * A job the scheduler forgot, last seen suspended, stayed
		 * so as far as anyone knows: no run time past then.
		 */
		ev.suspended = iev->suspended;
		if (iev->forgotten)
			ev.suspended = fmax(ev.suspended, sched_suspended_by(
			    p->suspended, p->suspended_at, ev.time));
		if (ev.suspended > ev.elapsed)
			ev.suspended = ev.elapsed;
		ev.adopted = p->adopted;
		ev.busy_node_s = p->busy_node_s;
		ev.busy_gpu_s = p->busy_gpu_s;
	}
	ps->opts.cb(ps->opts.arg, &ev);
}

/* Submit one more pilot through the inner backend. */
static int
pilot_submit_one(struct psched *ps)
{
	struct sched_job	 j;
	struct pjob		*p;
	char			 slots[32], n[32];
	const char		*argv[8], *env[1] = { NULL };
	int			 rc;

	p = pjob_new(ps);
	p->submitted = pilot_now();
	snprintf(n, sizeof(n), "%d", ++ps->npilots);
	if (asprintf(&p->token, "%s-pilot-%s-%lx", ps->name, n,
	    (unsigned long)time(NULL)) == -1 ||
	    asprintf(&p->dir, "%s/pilots/%s", ps->dir, n) == -1)
		pilot_nomem("naming a pilot");
	if ((mkdir(p->dir, 0700) == -1 && errno != EEXIST)) {
		pilot_warn(ps, "pilot: mkdir %s: %s", p->dir, strerror(errno));
		pjob_free(p);
		return -1;
	}
	TAILQ_INSERT_TAIL(&ps->pilots, p, entry);
	pilot_tell(ps, p, SCHED_PILOT_SUBMITTED, NULL);
	/* The agent asks for as many jobs as CPUs on all its nodes. */
	snprintf(slots, sizeof(slots), "%d", p->cpus * p->nodes);
	argv[0] = ps->wrapper;
	argv[1] = "--pilot";
	argv[2] = ps->file;
	argv[3] = "-i";
	argv[4] = p->token;
	argv[5] = "-n";
	argv[6] = slots;
	argv[7] = NULL;
	j = ps->opts.job;
	j.token = p->token;
	j.name = ps->name;
	j.dir = p->dir;
	j.argv = argv;
	j.env = env;
	j.cb = pilot_inner_event;
	j.arg = p;
	if ((rc = sched_submit(ps->inner, &j)) == -1) {
		struct sched_event ev;
		char		 nodes[32] = "";

		pilot_warn(ps, "pilot %s: the %s backend refused it", p->token,
		    ps->inner->ops->name);
		/* A shape refused once is refused again. */
		ps->failed = PILOT_MAX_FAILED;
		if (p->nodes > 1)
			snprintf(nodes, sizeof(nodes), "%d nodes of ",
			    p->nodes);
		snprintf(ps->fail_why, sizeof(ps->fail_why), "the %s backend "
		    "refused a pilot of %s%d CPUs and %d GPUs (resources "
		    "beyond what it has?)", ps->inner->ops->name, nodes,
		    p->cpus, p->gpus);
		memset(&ev, 0, sizeof(ev));
		ev.type = SCHED_EV_END;
		ev.state = SCHED_FAILED;
		p->state = PJ_ENDED;
		pilot_tell(ps, p, SCHED_PILOT_ENDED, &ev);
	}
	return rc;
}

/* Submit pilots while jobs wait and fewer than count are alive. */
void
pilot_grow(struct psched *ps)
{
	struct sched_event ev;
	struct patt	*a;
	struct pjob	*p;
	int		 room = 0;

	if (ps->closing || ps->draining || TAILQ_EMPTY(&ps->queue))
		return;
	/* Pilots keep failing to start: fail the jobs rather than loop. */
	if (ps->failed >= PILOT_MAX_FAILED) {
		while ((a = TAILQ_FIRST(&ps->queue)) != NULL) {
			TAILQ_REMOVE(&ps->queue, a, entry);
			memset(&ev, 0, sizeof(ev));
			ev.type = SCHED_EV_SUBMIT_FAILED;
			ev.exit_code = -1;
			ev.reason = ps->fail_why;
			pilot_emit(ps, a, &ev);
			patt_free(a);
		}
		return;
	}
	/* Pilots not started yet will take queued jobs. */
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if (p->state == PJ_SUBMITTED)
			room++;
	TAILQ_FOREACH(a, &ps->queue, entry)
		if (--room < 0)
			break;
	while (room < 0 && pilot_live_count(ps) < ps->opts.count) {
		if (pilot_submit_one(ps) == -1) {
			/* Refused: its jobs fail (above). */
			pilot_grow(ps);
			return;
		}
		room++;
	}
}

/* The end of pilot p: its jobs end with it; more pilots if work waits. */
static void
pilot_ended(struct psched *ps, struct pjob *p, const struct sched_event *ev)
{
	struct patt	*a;
	char		 why[512];
	int		 st;

	/* It ran, but no poll saw it running: its start from the end. */
	if (p->started == 0 && ev->start > 0) {
		p->started = ev->start;
		pilot_tell(ps, p, SCHED_PILOT_STARTED, NULL);
	}
	p->state = PJ_ENDED;
	/*
	 * A pilot counts as working once its agent called: one that started
	 * but whose agent never reached hpod (a host name the nodes cannot
	 * resolve, a firewall) would otherwise be replaced for ever.
	 */
	if (p->called)
		ps->failed = 0;
	else if (!ps->draining) {
		ps->failed++;
		snprintf(ps->fail_why, sizeof(ps->fail_why), "%d pilots in a "
		    "row ended before their agent called hpod at %s port %d; "
		    "the last: %s (%s)%s%s; its agent's output is in %s",
		    ps->failed, ps->addr.host, ps->addr.port,
		    p->job_id ? p->job_id : p->token,
		    sched_state_name(ev->state), ev->reason ? ": " : "",
		    ev->reason ? ev->reason : "", p->dir);
	}
	st = ev->state == SCHED_TIMEOUT ? SCHED_TIMEOUT : SCHED_NODE_FAIL;
	snprintf(why, sizeof(why), "its pilot %s ended (%s)%s%s",
	    p->job_id ? p->job_id : p->token, sched_state_name(ev->state),
	    ev->reason ? ": " : "", ev->reason ? ev->reason : "");
	while ((a = TAILQ_FIRST(&p->jobs)) != NULL)
		patt_end_result(ps, a, st, why);
	if (p->conn != NULL)
		pilot_conn_close(p->conn);
	pilot_tell(ps, p, SCHED_PILOT_ENDED, ev);
	pilot_grow(ps);
	pilot_dispatch(ps);
}

/*
 * Pilot p's job was suspended or resumed (ev): so were the jobs running
 * in it, each from its start on.  A suspension that ended since the last
 * event (its seconds the growth of ev's) counts for each from when it
 * began, or, begun and ended between two polls, as if it ended at ev.
 * A pilot taken back after a restart, and its jobs, count on from where
 * their last events before it stood (sched_pilot_adopt(),
 * sched_pilot_job_suspended()).  The pilot's own run time, and so its
 * idle time, stops with it too: its lifecycle callback is told.
 */
static void
pilot_suspended(struct psched *ps, struct pjob *p,
    const struct sched_event *ev)
{
	struct sched_event	 sev;
	struct sched_pilot_event pev;
	struct patt		*a;
	double			 d, from;

	d = ev->suspended - p->suspended;
	from = p->suspended_at > 0 ? p->suspended_at : ev->time - d;
	TAILQ_FOREACH(a, &p->jobs, entry) {
		if (!a->started || a->t_started <= 0)
			continue;
		if (d > 0)
			a->suspended += fmax(fmin(d, from + d - a->t_started),
			    0);
		a->suspended_at = ev->suspended_at > 0 ?
		    fmax(ev->suspended_at, a->t_started) : 0;
		memset(&sev, 0, sizeof(sev));
		sev.type = SCHED_EV_SUSPENDED;
		sev.job_id = a->job_id;
		sev.suspended = a->suspended;
		sev.suspended_at = a->suspended_at;
		pilot_emit(ps, a, &sev);
	}
	p->suspended = ev->suspended;
	p->suspended_at = ev->suspended_at;
	memset(&pev, 0, sizeof(pev));
	pev.type = SCHED_PILOT_SUSPENDED;
	pev.token = p->token;
	pev.job_id = p->job_id;
	pev.time = ev->time;
	pev.suspended = p->suspended;
	pev.suspended_at = p->suspended_at;
	pev.adopted = p->adopted;
	ps->opts.cb(ps->opts.arg, &pev);
}

/* An event of a pilot job from the inner backend. */
void
pilot_inner_event(void *arg, const struct sched_event *ev)
{
	struct pjob	*p = arg;
	struct psched	*ps = p->ps;

	if (ps == NULL) {
		/* Orphaned by sched_close(): only its memory is left. */
		if (ev->type == SCHED_EV_END ||
		    ev->type == SCHED_EV_SUBMIT_FAILED)
			pjob_free(p);
		return;
	}
	switch (ev->type) {
	case SCHED_EV_SUBMITTED:
		free(p->job_id);
		p->job_id = pilot_strdup(ev->job_id);
		/*
		 * Its agent called before its id was known (pilot_hello):
		 * the ledger gets the id, then it can take jobs.
		 */
		if (p->called && p->job_id != NULL) {
			pilot_tell(ps, p, SCHED_PILOT_STARTED, NULL);
			pilot_dispatch(ps);
		}
		return;
	case SCHED_EV_STARTED:
		/* A pilot taken back whose start is known: nothing new. */
		if (ev->nodes == 0 && p->started > 0)
			return;
		if (ev->job_id != NULL) {
			free(p->job_id);
			p->job_id = pilot_strdup(ev->job_id);
		}
		free(p->host);
		p->host = pilot_strdup(ev->host);
		p->state = PJ_RUNNING;
		p->started = ev->time;
		p->ran = 1;
		pilot_tell(ps, p, SCHED_PILOT_STARTED, ev);
		if (ps->draining)
			sched_cancel(ps->inner, p->token);
		pilot_dispatch(ps);
		return;
	case SCHED_EV_SUBMIT_FAILED:
	case SCHED_EV_END:
		pilot_ended(ps, p, ev);
		return;
	case SCHED_EV_SUSPENDED:
		pilot_suspended(ps, p, ev);
		return;
	case SCHED_EV_OUTPUT:
	case SCHED_EV_PENDING:	/* the pilot's own wait, none of a trial's */
		return;
	}
}

/*
 * An agent said hello: the jobs it runs are counted on the nodes it says
 * (taken back after a restart, they were counted on the first); jobs
 * given to it that it never heard of wait again.
 */
void
pilot_hello(struct pjob *p, char *const *running,
    const struct pilot_nodes *nodes)
{
	struct psched	*ps = p->ps;
	struct patt	*a, *next;
	size_t		 i;

	/*
	 * Its agent runs: the backend's poll may not have said so yet (the
	 * poll's back-off: up to slurm_poll_max).  The engine is told now,
	 * so that the pilot's job id is in the ledger before its jobs' ids
	 * (JOBID.pN): hpod killed before that poll could not take them back
	 * after a restart, and they would run on unseen.  The poll's start,
	 * when it comes, is told too: the ledger gets the host and Slurm's
	 * start time.
	 */
	if (p->state == PJ_SUBMITTED) {
		p->state = PJ_RUNNING;
		if (p->job_id != NULL)
			pilot_tell(ps, p, SCHED_PILOT_STARTED, NULL);
	}
	p->ran = 1;
	p->called = 1;
	for (a = TAILQ_FIRST(&p->jobs); a != NULL; a = next) {
		next = TAILQ_NEXT(a, entry);
		for (i = 0; running != NULL && running[i] != NULL; i++)
			if (strcmp(running[i], a->token) == 0)
				break;
		if (running != NULL && running[i] != NULL) {
			if (nodes != NULL && nodes[i].n > 0)
				patt_replace(p, a, nodes[i].at, nodes[i].n);
			/* Cancelled while its agent was away: tell it now. */
			if (a->cancelled)
				pilot_send_cancel(p, a);
			continue;
		}
		/*
		 * Not running there: ended (what it ended while hpod was
		 * away follows the hello; its result.json says it now), or
		 * never started (handed out but lost on the way: wait again).
		 */
		if (a->started || a->job == NULL) {
			patt_end_result(ps, a, SCHED_LOST, "its pilot's agent "
			    "does not run it and it left no final result");
			continue;
		}
		/* Cancelled while on its way: it never ran. */
		if (a->cancelled) {
			patt_end_result(ps, a, SCHED_CANCELLED, "cancelled "
			    "before it started");
			continue;
		}
		TAILQ_REMOVE(&p->jobs, a, entry);
		patt_unplace(p, a);
		a->pilot = NULL;
		TAILQ_INSERT_HEAD(&ps->queue, a, entry);
	}
	pilot_dispatch(ps);
}

/* A pilot's agent started job token. */
void
pilot_job_started(struct pjob *p, const char *token, const char *host,
    double when)
{
	struct sched_event	 ev;
	struct patt		*a;

	if ((a = pilot_job_find(p, token)) == NULL || a->started)
		return;
	a->started = 1;
	a->t_started = when;
	memset(&ev, 0, sizeof(ev));
	ev.type = SCHED_EV_STARTED;
	ev.job_id = a->job_id;
	ev.time = when;
	ev.exit_code = -1;
	ev.host = host != NULL ? host : p->host;
	ev.nodes = a->nodes;
	ev.node_share = pilot_share(p, a);
	ev.gpus = a->gpus * a->nodes;
	ev.cpus = a->cpus * a->nodes;
	pilot_emit(p->ps, a, &ev);
}

/*
 * A pilot's agent says job token ended: its result.json decides, unless
 * it was stopped because its pilot is ending: then the pilot's end does.
 */
void
pilot_job_ended(struct pjob *p, const char *token, int ending)
{
	struct psched	*ps = p->ps;
	struct patt	*a;

	if ((a = pilot_job_find(p, token)) == NULL)
		return;
	if (ending && !a->cancelled) {
		a->dying = 1;
		return;
	}
	if (patt_end_result(ps, a, SCHED_LOST, "the agent reported its end "
	    "but its result.json is not final") == 0)
		pilot_dispatch(ps);
}
