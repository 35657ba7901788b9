/*
 * engine_pilot.c: a campaign with "dispatch": "pilot" runs its attempts
 * through a pilot backend (scheduler/pilot/) of its own, wrapped around
 * the backend it would use per job.  Here: making it once the campaign's
 * run directory exists, recording its pilots in the ledger (their idle
 * time is the cost line "pilot_idle"), and draining them before the
 * campaign is marked finished, so that their whole cost is in.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "invoke.h"
#include "log.h"
#include "run.h"
#include "xmalloc.h"

/* A pilot's lifecycle: into the ledger; its idle time into the spend. */
static void
engine_pilot_event(void *arg, const struct sched_pilot_event *ev)
{
	struct engine	*e = arg;
	struct ledger	*l = e->env.ledger;
	double		 idle_n, idle_g, run;
	int		 rc = 0;

	if (e->detached)
		return;
	engine_batch(e);
	/* The live budget reads its pilots' idle time again. */
	e->idle_at = 0;
	switch (ev->type) {
	case SCHED_PILOT_SUBMITTED:
		rc = ledger_pilot_submitted(l, e->id, ev->token, ev->dir,
		    ev->time);
		/* Its row is in the ledger before its job exists. */
		engine_flush(e);
		break;
	case SCHED_PILOT_STARTED:
		rc = ledger_pilot_started(l, ev->token, ev->job_id, ev->time,
		    ev->nodes, ev->gpus, ev->cpus, ev->host);
		/*
		 * Said once, with its host: an agent that calls before the
		 * poll has seen its pilot start has it told without one
		 * (its job id for the ledger), and the poll tells it again
		 * with the host.
		 */
		if (ev->host != NULL)
			engine_say(e, "pilot %s started on %s", ev->job_id ?
			    ev->job_id : ev->token, ev->host);
		break;
	case SCHED_PILOT_ENDED:
		rc = ledger_pilot_ended(l, ev->token, ev->start, ev->time,
		    sched_state_name(ev->state), ev->suspended);
		/*
		 * Its whole idle time, a pilot taken back after a restart
		 * too: its busy_* count its jobs that ended before, and the
		 * sum read from the ledger left its idle time out
		 * (engine_pilot_spent_live()).  Of its run time, as
		 * account_pilots() counts it: its suspension left out.
		 */
		run = fmax(ev->elapsed - ev->suspended, 0);
		idle_n = fmax(run * ev->nodes - ev->busy_node_s, 0);
		idle_g = fmax(run * ev->gpus - ev->busy_gpu_s, 0);
		e->spent_node_s += idle_n;
		e->spent_gpu_s += idle_g;
		engine_say(e, "pilot %s ended (%s) after %.1f s, %.1f "
		    "node-seconds idle", ev->job_id ? ev->job_id : ev->token,
		    sched_state_name(ev->state), ev->elapsed, idle_n);
		engine_kick(e);
		break;
	case SCHED_PILOT_SUSPENDED:
		/* Its run time, and so its idle time, stops while suspended. */
		rc = ledger_pilot_suspended(l, ev->token, ev->suspended,
		    ev->suspended_at);
		engine_say(e, "pilot %s: %s, %.0f s suspended before",
		    ev->job_id ? ev->job_id : ev->token, ev->suspended_at > 0 ?
		    "suspended" : "running", ev->suspended);
		break;
	}
	if (rc == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(l));
}

/*
 * A campaign taken back after a restart: its pilots not yet ended are
 * followed again (their agents call back with what they run); one that
 * cannot be is recorded as ended, lost.
 */
static void
engine_pilot_adopt(struct engine *e)
{
	struct ledger_pilot	*lp;
	size_t			 n, i;

	if (ledger_pilot_list(e->env.ledger, e->id, engine_now(e), &lp,
	    &n) == -1) {
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
		return;
	}
	for (i = 0; i < n; i++) {
		if (sched_pilot_adopt(e->pilot, lp[i].token, lp[i].job_id,
		    lp[i].dir, lp[i].started, lp[i].seq,
		    lp[i].busy_node_s, lp[i].busy_gpu_s, lp[i].suspended,
		    lp[i].suspended_at) == 0) {
			engine_say(e, "pilot %s: re-adopted", lp[i].job_id ?
			    lp[i].job_id : lp[i].token);
			continue;
		}
		if (ledger_pilot_ended(e->env.ledger, lp[i].token, 0,
		    engine_now(e), "lost", 0) == -1)
			log_warnx("campaign '%s': %s", e->spec->name,
			    ledger_error(e->env.ledger));
	}
	ledger_pilot_list_free(lp, n);
}

/*
 * The idle time at now of the campaign's pilots not ended in the ledger
 * (its own and those taken back after a restart), as the ledger's
 * account counts it, and the allocation of those running (nodes, gpus:
 * may be NULL).
 */
static int
engine_pilot_read(struct engine *e, double now, double *node_s,
    double *gpu_s, int *nodes, int *gpus)
{
	struct ledger_pilot	*lp;
	size_t			 n, i;

	*node_s = *gpu_s = 0;
	if (nodes != NULL)
		*nodes = *gpus = 0;
	if (e->pilot == NULL)
		return 0;
	if (ledger_pilot_list(e->env.ledger, e->id, now, &lp, &n) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		*node_s += lp[i].idle_node_s;
		*gpu_s += lp[i].idle_gpu_s;
		/* Its idle time grows while it runs, not suspended. */
		if (nodes != NULL && lp[i].started > 0 &&
		    lp[i].suspended_at <= 0) {
			*nodes += lp[i].nodes;
			*gpus += lp[i].gpus;
		}
	}
	ledger_pilot_list_free(lp, n);
	return 0;
}

/*
 * The idle time at now of the campaign's pilots not ended: the engine
 * adds each pilot's whole idle time to its sum when it ends.
 */
int
engine_pilot_spent_live(struct engine *e, double now, double *node_s,
    double *gpu_s)
{
	return engine_pilot_read(e, now, node_s, gpu_s, NULL, NULL);
}

/*
 * The running pilots' idle time for the live budget.  The ledger's read
 * goes over every attempt of the campaign (a pilot's are found by their
 * job ids), too much for every tick of a large one; between two reads,
 * with no pilot started, ended, suspended or resumed, a running pilot's
 * idle time (its allocation times its run time, less its trials' charge,
 * which only grows) grows by at most its allocation a second, so that
 * bound stands in until it could spend the budget.
 */
int
engine_pilot_idle(struct engine *e, double now, int exact, double *node_s,
    double *gpu_s)
{
	double	 dt;

	if (!exact && e->idle_at > 0) {
		dt = fmax(now - e->idle_at, 0);
		*node_s = e->idle_node_s + dt * e->idle_nodes;
		*gpu_s = e->idle_gpu_s + dt * e->idle_gpus;
		return 0;
	}
	if (engine_pilot_read(e, now, node_s, gpu_s, &e->idle_nodes,
	    &e->idle_gpus) == -1) {
		e->idle_at = 0;
		return -1;
	}
	e->idle_at = now;
	e->idle_node_s = *node_s;
	e->idle_gpu_s = *gpu_s;
	return 0;
}

/* Wrap the engine's backend in a pilot backend (see engine_int.h). */
int
engine_pilot_start(struct engine *e, char *err, size_t errlen)
{
	const struct campaign_spec	*s = e->spec;
	struct sched_pilot_opts		 o;
	struct sched			*p;
	char				 why[512], *wrapper, *dir, *name;

	if (s->pilot.count == 0 || e->pilot != NULL)
		return 0;
	if ((wrapper = run_wrapper(why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "campaign '%s': %s", s->name, why);
		return -1;
	}
	dir = xasprintf("%s/%lld-%s", e->env.run_dir, (long long)e->id,
	    s->name);
	name = xasprintf("hpo-pilot-%lld-%s", (long long)e->id, s->name);
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.wrapper = wrapper;
	o.name = name;
	o.count = s->pilot.count;
	invoke_pilot_job(s, &o.job);
	o.cb = engine_pilot_event;
	o.arg = e;
	o.warn = log_warnx;
	p = sched_pilot_new(e->env.loop, e->env.sched, &o, err, errlen);
	free(dir);
	free(name);
	free(wrapper);
	if (p == NULL)
		return -1;
	e->inner = e->env.sched;
	e->pilot = e->env.sched = p;
	engine_pilot_adopt(e);
	engine_say(e, "dispatch: pilot, %d pilot%s of %d node%s of %d CPUs "
	    "and %d GPUs", s->pilot.count, s->pilot.count == 1 ? "" : "s",
	    s->pilot.nodes, s->pilot.nodes == 1 ? "" : "s", s->pilot.cpus,
	    s->pilot.gpus);
	return 0;
}

/*
 * 1 while the campaign must wait for its pilots before it finishes: they
 * are told to drain (those not started are cancelled), and each end
 * kicks the engine.
 */
int
engine_pilot_wait(struct engine *e)
{
	if (e->pilot == NULL || sched_pilot_live(e->pilot) == 0)
		return 0;
	sched_pilot_drain(e->pilot);
	return 1;
}

/* Close the pilot backend; the engine's memory waits for it. */
void
engine_pilot_close(struct engine *e)
{
	struct sched	*p = e->pilot;

	if (p == NULL)
		return;
	e->pilot = NULL;
	e->env.sched = e->inner;
	e->nopen++;
	sched_close(p, engine_release, e);
}
