/*
 * spec.h: campaign specs (JSON, see hpod-campaign(5)).
 *
 * spec_load() validates everything it can without the workload and
 * spec_bind() the rest (objective defaults, placeholders).  Errors name the
 * file, the key path and what was expected; nothing is half-applied.
 */
#ifndef HPOD_SPEC_H
#define HPOD_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "space.h"
#include "stop.h"
#include "workload.h"

struct spec_resources {
	int		 nodes;
	int		 gpus_per_node;
	int		 cpus_per_task;
	int		 tasks_per_node;
	long		 time_limit;	/* seconds, 0 = none */
	char		*partition, *account, *qos, *constraint;
};

struct campaign_spec {
	char		*path;		/* file it came from ("-" for stdin) */
	char		*json;		/* the spec, compact JSON */
	char		*name;
	char		*workload;
	char		*backend;	/* "local", "slurm" or "replay" */
	char		*replay_table;	/* replay: the table's path */
	char		*metric;	/* objective; may come from workload */
	int		 has_goal;
	int		 maximize;
	int		 has_target;
	double		 target;
	struct space	*space;
	struct workload_var *fixed;	/* owned names and values */
	size_t		 nfixed;
	char		*algorithm;
	uint64_t	 seed;
	char		*stopper;	/* early stopping: "none", "asha", ... */
	struct stop_params stop;	/* its parameters */
	int		 max_trials;
	int		 max_parallel;
	int		 stop_on_target;
	double		 max_node_hours;	/* 0 = no cap */
	double		 max_gpu_hours;
	double		 max_wall_time;		/* seconds, 0 = no cap */
	struct spec_resources res;
	int		 retry_limit;	/* extra attempts after infra failures */
	int		 retry_timeout;	/* also retry TIMEOUT */
};

/* Parse and validate a spec from text; path names it in errors. */
struct campaign_spec	*spec_parse(const char *text, size_t len,
			    const char *path, char *err, size_t errlen);
/* Read and parse a file ("-": standard input). */
struct campaign_spec	*spec_load(const char *path, char *err, size_t errlen);
void			 spec_free(struct campaign_spec *);

/*
 * Complete the spec from its workload: objective defaults, and check that
 * every placeholder of the workload is known.  Return 0 or -1 with err.
 */
int	 spec_bind(struct campaign_spec *, const struct workload *, char *err,
	    size_t errlen);

/* Parse "[D-]HH:MM:SS", "MM:SS" or minutes; -1 if malformed. */
long	 spec_parse_duration(const char *);

#endif
