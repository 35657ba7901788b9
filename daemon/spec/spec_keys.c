/*
 * spec_keys.c: the tables of a campaign spec's scalar keys (budget,
 * resources, retry), like hpod.conf's table in config.c: one row per key
 * gives its type, whether it is required, its range and default, and
 * where its value goes; sp_table() checks and stores an object by one.
 */
#include <stddef.h>
#include <stdint.h>

#include "spec_int.h"

#define SPEC_OFF(m)	offsetof(struct campaign_spec, m)

const struct spec_key spec_budget_keys[] = {
	{ "max_trials", SPK_INT, 1, 1, 1000000, 0, SPEC_OFF(max_trials) },
	{ "max_parallel", SPK_INT, 0, 1, 100000, 1, SPEC_OFF(max_parallel) },
	{ "max_node_hours", SPK_NUMBER, 0, 1e-9, 1e9, 0,
	    SPEC_OFF(max_node_hours) },
	{ "max_gpu_hours", SPK_NUMBER, 0, 1e-9, 1e9, 0,
	    SPEC_OFF(max_gpu_hours) },
	{ "max_wall_time", SPK_SECONDS, 0, 0, 0, 0, SPEC_OFF(max_wall_time) },
	{ "stop_on_target", SPK_BOOL, 0, 0, 0, 0, SPEC_OFF(stop_on_target) },
	{ NULL, SPK_CODE, 0, 0, 0, 0, 0 }
};

/* The Slurm-only keys after constraint are spec_slurm.c's. */
const struct spec_key spec_resource_keys[] = {
	{ "nodes", SPK_INT, 0, 1, 100000, 1, SPEC_OFF(res.nodes) },
	{ "gpus_per_node", SPK_INT, 0, 0, 1024, 0,
	    SPEC_OFF(res.gpus_per_node) },
	{ "cpus_per_task", SPK_INT, 0, 1, 4096, 1,
	    SPEC_OFF(res.cpus_per_task) },
	{ "tasks_per_node", SPK_INT, 0, 1, 4096, 1,
	    SPEC_OFF(res.tasks_per_node) },
	{ "time_limit", SPK_DURATION, 0, 0, 0, 0, SPEC_OFF(res.time_limit) },
	{ "partition", SPK_STRING, 0, 0, 0, 0, SPEC_OFF(res.partition) },
	{ "account", SPK_STRING, 0, 0, 0, 0, SPEC_OFF(res.account) },
	{ "qos", SPK_STRING, 0, 0, 0, 0, SPEC_OFF(res.qos) },
	{ "constraint", SPK_STRING, 0, 0, 0, 0, SPEC_OFF(res.constraint) },
	{ "mem", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "mem_per_cpu", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "mem_per_gpu", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "exclusive", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "reservation", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "signal", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "gpus_per_task", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "cpus_per_gpu", SPK_CODE, 0, 0, 0, 0, 0 },
	{ "sbatch_extra", SPK_CODE, 0, 0, 0, 0, 0 },
	{ NULL, SPK_CODE, 0, 0, 0, 0, 0 }
};

const struct spec_key spec_retry_keys[] = {
	{ "limit", SPK_INT, 0, 0, 100, 2, SPEC_OFF(retry_limit) },
	{ "on_timeout", SPK_BOOL, 0, 0, 0, 0, SPEC_OFF(retry_timeout) },
	{ NULL, SPK_CODE, 0, 0, 0, 0, 0 }
};

/* A pilot's size and number ("pilot": {...}, see spec_pilot.c). */
const struct spec_key spec_pilot_keys[] = {
	{ "count", SPK_INT, 1, 1, 10000, 0, SPEC_OFF(pilot.count) },
	{ "cpus", SPK_INT, 0, 1, 1000000, 0, SPEC_OFF(pilot.cpus) },
	{ "gpus", SPK_INT, 0, 0, 1024, 0, SPEC_OFF(pilot.gpus) },
	{ "nodes", SPK_INT, 0, 1, 10000, 0, SPEC_OFF(pilot.nodes) },
	{ "time_limit", SPK_DURATION, 0, 0, 0, 0,
	    SPEC_OFF(pilot.time_limit) },
	{ NULL, SPK_CODE, 0, 0, 0, 0, 0 }
};

/* Check key k of obj and store it at p. */
static int
sp_table_key(struct sp *sp, const cJSON *obj, const char *path,
    const struct spec_key *k, void *p)
{
	long	 v;

	switch (k->type) {
	case SPK_INT:
		if (sp_int(sp, obj, k->name, path, k->required, (long)k->min,
		    (long)k->max, (long)k->def, &v) == -1)
			return -1;
		*(int *)p = (int)v;
		return 0;
	case SPK_NUMBER:
		return sp_number(sp, obj, k->name, path, k->min, k->max,
		    k->def, NULL, p);
	case SPK_BOOL:
		return sp_bool(sp, obj, k->name, path, (int)k->def, p);
	case SPK_STRING:
		return sp_string(sp, obj, k->name, path, k->required, NULL,
		    p);
	case SPK_DURATION:
		return sp_duration(sp, obj, k->name, path, p);
	case SPK_SECONDS:
		if (sp_duration(sp, obj, k->name, path, &v) == -1)
			return -1;
		*(double *)p = (double)v;
		return 0;
	case SPK_CODE:
		break;
	}
	return 0;
}

int
sp_table(struct sp *sp, struct campaign_spec *s, const cJSON *obj,
    const char *path, const struct spec_key *t)
{
	const char	*names[32];
	size_t		 i;

	for (i = 0; t[i].name != NULL && i + 1 < sizeof(names) /
	    sizeof(names[0]); i++)
		names[i] = t[i].name;
	names[i] = NULL;
	if (obj != NULL && sp_keys(sp, obj, path, names) == -1)
		return -1;
	for (i = 0; t[i].name != NULL; i++)
		if (sp_table_key(sp, obj, path, &t[i], (char *)s +
		    t[i].offset) == -1)
			return -1;
	return 0;
}
