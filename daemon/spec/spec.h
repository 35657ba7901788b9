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

#include "sched_extra.h"
#include "search.h"
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
	struct sched_slurm_extra slurm;	/* reservation: owned */
};

/* How the learning rate moves from one batch size to another. */
enum lr_rule { LR_RULE_NONE, LR_RULE_LINEAR, LR_RULE_SQRT };

/*
 * A batch-size scaling campaign ("batch_sizes" and "scaling" in the spec):
 * each global batch size is tuned with its share of the trials, then its
 * best configuration is confirmed with `seeds` runs.  nbatch == 0: an
 * ordinary campaign.
 */
struct spec_scaling {
	long		*batch_sizes;	/* ascending, distinct */
	size_t		*batch_pos;	/* each one's index in the spec's
					   batch_sizes array */
	size_t		 nbatch;
	enum lr_rule	 lr_rule;
	char		*lr_param;	/* the learning rate's parameter */
	int		 trials_per_batch; /* tuning trials, transfer included */
	int		 seeds;		/* confirmation runs per batch size */
	int		 min_successes;	/* of them, to call it confirmed */
	long		 local_batch;	/* > 0: ranks = batch / local_batch */
	char		*batch_param;	/* set by spec_bind(): the workload's
					   global batch parameter, appended
					   last to the space as a choice */
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
	enum search_rank rank;		/* objective.rank */
	struct space	*space;
	struct workload_var *fixed;	/* owned names and values */
	size_t		 nfixed;
	char		*algorithm;
	uint64_t	 seed;
	size_t		 search_points;	/* a grid's points, else 0 */
	char		*stopper;	/* early stopping: "none", "asha", ... */
	struct stop_params stop;	/* its parameters */
	int		 stop_given;	/* search.stopper was in the spec */
	int		 recorded;	/* spec_parse_recorded(): a ledger's */
	/*
	 * A recorded spec that this hpod's checks refuse for a real reason
	 * (sp_hold()): "PATH: KEY: why", else "".  Its campaign is taken
	 * back held: its attempts are followed to their end and billed, no
	 * trial or attempt is started, and no search is set up.
	 */
	char		 hold[600];
	int		 stop_has_max;	/* ... with max_resource */
	int		 stop_has_grace; /* ... with warmup_steps */
	char		 stop_why[256];	/* why auto picked it, or "" */
	int		 max_trials;
	int		 max_parallel;
	int		 stop_on_target;
	double		 max_node_hours;	/* 0 = no cap */
	double		 max_gpu_hours;
	double		 max_wall_time;		/* seconds, 0 = no cap */
	struct spec_resources res;
	int		 retry_limit;	/* extra attempts after infra failures */
	int		 retry_timeout;	/* also retry TIMEOUT */
	char		*hardware;	/* what the trials ran on, or NULL */
	struct spec_scaling scaling;
	/*
	 * "dispatch": "pilot": trials run back to back inside a few pilot
	 * allocations (scheduler/pilot/); pilot_count 0: "job", one job each.
	 */
	struct spec_pilot {
		int	 count;		/* pilots at once, 0: dispatch "job" */
		int	 nodes;	/* one pilot's nodes */
		int	 cpus, gpus;	/* and each node's CPUs and GPUs */
		long	 time_limit;	/* a pilot's, seconds, 0 = none */
		int	 autosize;	/* "pilot": "auto" */
	} pilot;
	/*
	 * "dispatch": "chain" (Slurm only): each of the max_parallel lanes
	 * keeps its next job queued behind its running one, chained with
	 * --dependency=afterany, so Slurm starts it as the slot frees.
	 */
	int		 chain;
	/*
	 * Set by spec_bind(): the last step a trial's point may have (its
	 * epochs, or SPEC_STEP_MAX); a point past it keeps its value but
	 * not its step.
	 */
	double		 step_max;
	struct spec_prior {		/* warm start ("prior"), or kind NULL */
		char	*kind;		/* "optuna" or "ledger" */
		char	*path;		/* its file (relative to the spec's) */
		char	*name;		/* study or campaign, may be NULL */
	} prior;
};

/*
 * The bound on a point's step when a campaign's trials have no known last
 * epoch (fidelity steps, or epochs the workload does not take): past any
 * epoch count or step count a training run reaches.
 */
#define SPEC_STEP_MAX	1e9

/* Parse and validate a spec from text; path names it in errors. */
struct campaign_spec	*spec_parse(const char *text, size_t len,
			    const char *path, char *err, size_t errlen);
/*
 * The same for a spec a ledger recorded (to take a campaign back, report
 * or export it): the checks that only refuse a setting that would do
 * nothing (a stopper key another stopper reads, a stopper with no rung
 * before the last epoch) are left out, so that a campaign an older hpod
 * accepted and recorded is still taken back and billed.  One that a
 * check refuses for a real reason (a range whose width overflows, a
 * search that cannot be set up over the space, and at spec_bind() a
 * value its workload declares illegal) is returned with hold set to why:
 * its campaign is taken back held.
 */
struct campaign_spec	*spec_parse_recorded(const char *text, size_t len,
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

/*
 * A grid of more points than budget.max_trials (search_points >
 * max_trials) runs only its first ones: say so in buf, returned.
 */
const char	*spec_grid_cut(const struct campaign_spec *, char *buf,
		    size_t len);
/* "linear", "sqrt" or "none". */
const char	*spec_lr_rule_name(enum lr_rule);
/*
 * The learning rate for batch size `to`, given one that worked at `from`,
 * by the spec's rule (not clamped to the space).
 */
double		 spec_lr_transfer(const struct campaign_spec *, double lr,
		    long from, long to);
/*
 * The resources of a trial at global batch size `batch`: the spec's, or
 * with scaling.local_batch set, as many ranks as batch / local_batch (one
 * node, or whole nodes).  Strings are borrowed from the spec.  -1 with err
 * if the ranks do not fill whole nodes (spec_parse() checks every listed
 * batch size, so a bound spec never fails here).
 */
int		 spec_resources_for(const struct campaign_spec *, long batch,
		    struct spec_resources *, char *err, size_t errlen);

/* Parse "[D-]HH:MM:SS", "MM:SS" or minutes; -1 if malformed. */
long	 spec_parse_duration(const char *);
/* resources' Slurm keys as sbatch options ("--mem=4096M --exclusive"). */
void	 spec_slurm_sbatch(const struct sched_slurm_extra *, char *buf,
	    size_t len);

/*
 * The jobs `sbatch --test-only` is asked about for a Slurm campaign
 * (spec_test.c): every distinct shape the campaign submits.  They are
 * numbered 0 to spec_test_njobs() - 1: the trials' job (one per batch
 * size in a scaling campaign with scaling.local_batch), then the pilots'.
 * spec_test_job() sets job i (its name, shape, keys and
 * resources.sbatch_extra options) and what names it, and returns 0, or
 * -1 if job i has the shape of an earlier one (not to be asked again).
 */
struct spec_test_what {
	char	 key[64];	/* "resources", "batch_sizes[3] = 1024" */
	char	 shape[128];	/* "needs 64 nodes x 2 GPUs", or "" */
};
struct sched_job;
size_t	 spec_test_njobs(const struct campaign_spec *);
int	 spec_test_job(const struct campaign_spec *, size_t i,
	    struct sched_job *, struct spec_test_what *what);
/*
 * The controller's answer (rc and said as sched_slurm_test() gives them)
 * about the job what of the campaign read from path, the asked-th asked,
 * in words: a refusal naming path, campaign, key and shape ("PATH:
 * campaign 'NAME': batch_sizes[3] = 1024: needs 64 nodes x 2 GPUs;
 * sbatch --test-only refuses the job: ..."), why the controller was not
 * asked, or (rc 0, what the last asked) that it takes them all.
 */
void	 spec_test_say(const struct campaign_spec *, const char *path,
	    const struct spec_test_what *what, size_t asked, int rc,
	    const char *said, char *out, size_t len);

#endif
