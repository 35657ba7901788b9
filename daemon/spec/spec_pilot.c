/*
 * spec_pilot.c: "dispatch" and "pilot": whether a campaign's trials run
 * as one batch job each ("job", the default), as one batch job each with
 * each slot's next job queued behind its running one ("chain", Slurm
 * only), or back to back inside a few pilot allocations ("pilot", see
 * scheduler/pilot/ and hpod-campaign(5)).
 */
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "spec_int.h"

/* The defaults of "pilot": "auto": one pilot per parallel trial, its size. */
static void
sp_pilot_auto(struct campaign_spec *s, int cpus, int gpus)
{
	s->pilot.autosize = 1;
	s->pilot.count = s->max_parallel;
	s->pilot.nodes = s->res.nodes;
	s->pilot.cpus = cpus;
	s->pilot.gpus = gpus;
	s->pilot.time_limit = 0;
}

/*
 * Parse "dispatch" and "pilot".  A pilot of "nodes" nodes runs as many
 * trials at once as its nodes' CPUs and GPUs hold, so it must hold one
 * trial: as many nodes, and on each as many CPUs and GPUs.  The local
 * backend is one host: its pilots are one node (N "nodes" there would
 * bill N nodes for one host).
 */
int
sp_pilot(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	const cJSON	*p = cJSON_GetObjectItemCaseSensitive(root, "pilot");
	char		*dispatch = NULL;
	int		 pilot, cpus, gpus;

	if (sp_string(sp, root, "dispatch", "", 0, "job", &dispatch) == -1)
		return -1;
	pilot = strcmp(dispatch, "pilot") == 0;
	s->chain = strcmp(dispatch, "chain") == 0;
	if (!pilot && !s->chain && strcmp(dispatch, "job") != 0) {
		sp_fail(sp, "dispatch", "expected \"job\", \"chain\" or "
		    "\"pilot\", got \"%s\"", dispatch);
		free(dispatch);
		return -1;
	}
	free(dispatch);
	/* Only Slurm queues a job behind another's end. */
	if (s->chain && strcmp(s->backend, "slurm") != 0)
		return sp_fail(sp, "dispatch", "\"chain\" needs backend "
		    "\"slurm\" (a job queued behind another's end), not "
		    "\"%s\"", s->backend);
	if (!pilot)
		return p == NULL ? 0 : sp_fail(sp, "pilot", "only with "
		    "\"dispatch\": \"pilot\"");
	if (strcmp(s->backend, "replay") == 0)
		return sp_fail(sp, "dispatch", "\"pilot\" needs backend "
		    "\"local\" or \"slurm\", not \"replay\"");
	cpus = s->res.cpus_per_task * s->res.tasks_per_node;
	gpus = s->res.gpus_per_node;
	if (p == NULL)
		return sp_fail(sp, "pilot", "required with \"dispatch\": "
		    "\"pilot\" (\"auto\" or an object)");
	if (cJSON_IsString(p)) {
		if (strcmp(p->valuestring, "auto") != 0)
			return sp_fail(sp, "pilot", "expected \"auto\" or an "
			    "object, got \"%s\"", p->valuestring);
		sp_pilot_auto(s, cpus, gpus);
		return 0;
	}
	if (!cJSON_IsObject(p))
		return sp_fail(sp, "pilot", "expected \"auto\" or an object, "
		    "got %s", sp_type(p));
	if (sp_table(sp, s, p, "pilot", spec_pilot_keys) == -1)
		return -1;
	if (s->pilot.cpus == 0)
		s->pilot.cpus = cpus;
	if (s->pilot.nodes == 0)
		s->pilot.nodes = s->res.nodes;
	if (s->pilot.nodes < s->res.nodes)
		return sp_fail(sp, "pilot.nodes", "%d is less than one trial's "
		    "%d nodes (resources.nodes)", s->pilot.nodes,
		    s->res.nodes);
	if (s->pilot.nodes > 1 && strcmp(s->backend, "slurm") != 0)
		return sp_fail(sp, "pilot.nodes", "%d nodes need backend "
		    "\"slurm\": the %s backend is one host", s->pilot.nodes,
		    s->backend);
	if (!cJSON_HasObjectItem(p, "gpus"))
		s->pilot.gpus = gpus;
	if (s->pilot.cpus < cpus)
		return sp_fail(sp, "pilot.cpus", "%d is less than one trial's "
		    "%d CPUs (resources)", s->pilot.cpus, cpus);
	if (s->pilot.gpus < gpus)
		return sp_fail(sp, "pilot.gpus", "%d is less than one trial's "
		    "%d GPUs (resources)", s->pilot.gpus, gpus);
	/* A trial is given only to a pilot with its time limit left. */
	if (s->pilot.time_limit > 0 && s->res.time_limit > 0 &&
	    s->res.time_limit + SCHED_PILOT_MARGIN > s->pilot.time_limit)
		return sp_fail(sp, "resources.time_limit", "%ld s and a "
		    "margin of %d s exceed pilot.time_limit, %ld s: no pilot "
		    "could run a trial", s->res.time_limit, SCHED_PILOT_MARGIN,
		    s->pilot.time_limit);
	return 0;
}

/*
 * In a scaling campaign with scaling.local_batch, each batch size's trial
 * has its own nodes and GPUs (spec_resources_for), and a pilot must hold
 * the largest, or that batch size's trials are never given one: "auto"
 * pilots are sized to it, a pilot object smaller than it is refused,
 * naming the batch size.  Called once "scaling" is parsed.
 */
int
sp_pilot_scaling(struct sp *sp, struct campaign_spec *s)
{
	const struct spec_scaling *sc = &s->scaling;
	struct spec_resources	 r;
	char			 err[256], what[96];
	size_t			 i;
	int			 cpus;

	if (s->pilot.count == 0 || sc->local_batch <= 0)
		return 0;
	for (i = 0; i < sc->nbatch; i++) {
		if (spec_resources_for(s, sc->batch_sizes[i], &r, err,
		    sizeof(err)) == -1)
			return sp_fail(sp, "scaling.local_batch", "%s", err);
		cpus = r.cpus_per_task * r.tasks_per_node;
		if (s->pilot.autosize) {
			if (r.nodes > s->pilot.nodes)
				s->pilot.nodes = r.nodes;
			if (cpus > s->pilot.cpus)
				s->pilot.cpus = cpus;
			if (r.gpus_per_node > s->pilot.gpus)
				s->pilot.gpus = r.gpus_per_node;
			continue;
		}
		snprintf(what, sizeof(what), "a trial of batch size %ld "
		    "(batch_sizes[%zu])", sc->batch_sizes[i], sc->batch_pos ?
		    sc->batch_pos[i] : i);
		if (r.nodes > s->pilot.nodes)
			return sp_fail(sp, "pilot.nodes", "%d is less than the "
			    "%d nodes of %s", s->pilot.nodes, r.nodes, what);
		if (cpus > s->pilot.cpus)
			return sp_fail(sp, "pilot.cpus", "%d is less than the "
			    "%d CPUs a node of %s", s->pilot.cpus, cpus, what);
		if (r.gpus_per_node > s->pilot.gpus)
			return sp_fail(sp, "pilot.gpus", "%d is less than the "
			    "%d GPUs a node of %s", s->pilot.gpus,
			    r.gpus_per_node, what);
	}
	if (s->pilot.nodes > 1 && strcmp(s->backend, "slurm") != 0)
		return sp_fail(sp, "pilot", "a pilot of %d nodes (the largest "
		    "batch size's trial) needs backend \"slurm\": the %s "
		    "backend is one host", s->pilot.nodes, s->backend);
	return 0;
}
