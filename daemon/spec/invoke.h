/*
 * invoke.h: what one attempt of a trial runs, rendered from the campaign
 * spec, its workload and the trial's point: every placeholder's value,
 * the argument vector (launcher first), the environment with the HPO_*
 * variables, the rank count and the batch split.  attempt.c submits it;
 * `hpoctl render` prints it.  One path for both.
 */
#ifndef HPOD_INVOKE_H
#define HPOD_INVOKE_H

#include <stddef.h>

#include "spec.h"
#include "workload.h"

/* Who the attempt is. */
struct invoke_ctx {
	int		 trial;
	int		 attempt;
	long long	 seed;
	const char	*dir;		/* the attempt directory */
	const char	*token;
	const double	*x;		/* the point: spec->space->n values */
	int		 resolve;	/* argv[0] must exist on this machine */
};

/* What it runs; release with invoke_release(). */
struct invocation {
	char		**argv;		/* NULL-terminated */
	char		**env;		/* workload env, then HPO_* */
	int		 ranks;
	long		 global_batch;	/* 0 when the workload maps none */
	long		 local_batch;
	char		*metric_file;	/* where its metrics are read, in
					   its directory; NULL: stdout */
};

/*
 * Render one attempt.  Return 0, or -1 with err naming the file and key
 * (a placeholder with no value, a global batch size that does not divide
 * by the ranks, a program that is not on this machine when resolve is
 * set).
 */
int	 invoke_render(const struct campaign_spec *, const struct workload *,
	    const struct invoke_ctx *, struct invocation *, char *err,
	    size_t errlen);
void	 invoke_release(struct invocation *);
/*
 * Whether the local backend can run w's program (its launcher, when it
 * has one) on this machine: 0, or -1 with err naming the file and key.
 */
int	 invoke_runnable(const struct workload *, char *err, size_t errlen);

/*
 * The seed of trial number: the campaign's search seed and the trial
 * number give it, unless the point has a "seed" parameter.
 */
long long invoke_seed(const struct campaign_spec *, int number,
	    const double *x);
/*
 * The resources of an attempt at point x (x NULL: the spec's): in a
 * scaling campaign with scaling.local_batch they follow the batch size.
 */
void	 invoke_resources(const struct campaign_spec *, const double *x,
	    struct spec_resources *);
/* Set job's resources (nodes ... extra) as invoke_resources() gives them. */
struct sched_job;
void	 invoke_job_resources(const struct campaign_spec *, const double *x,
	    struct sched_job *);
/*
 * Set a pilot's job (nodes ... extra): one node and one task of the
 * spec's pilot.cpus and pilot.gpus for pilot.time_limit, the rest as
 * invoke_job_resources() gives them.
 */
void	 invoke_pilot_job(const struct campaign_spec *, struct sched_job *);
/* Ranks per node: GPUs per node, or tasks per node without GPUs. */
int	 invoke_ranks_per_node(const struct spec_resources *);
/* Ranks of a job: nodes times ranks per node. */
int	 invoke_ranks(const struct spec_resources *);

#endif
