/*
 * guide.h: the guideline table of a campaign and the figures of its
 * time-to-solution report that come from single runs, computed from the
 * ledger alone (see hpoctl(1), "Reports and guideline tables").
 *
 * The table has one row per global batch size: ranks and local batch, the
 * hyperparameters found, epochs and time to target over the runs that
 * reached it (the confirmation runs of a scaling campaign, the trials of
 * an ordinary one), success rate, throughput, and the trials and cost
 * spent on it.  The report adds the time to solution of a scaling
 * campaign, the winning run and its cost, MLPerf-style figures and an
 * honesty checklist.  guide_format.c and guide_report.c render them.
 */
#ifndef HPOD_GUIDE_H
#define HPOD_GUIDE_H

#include <stddef.h>
#include <stdio.h>

#include "account.h"
#include "ledger.h"
#include "report.h"
#include "state.h"

/* Summary of a set of values; the members are meaningful when n > 0. */
struct guide_stats {
	size_t		 n;
	double		 olympic_mean;	/* without one min and one max */
	double		 mean;
	double		 std;		/* sample standard deviation */
	double		 min, max;
	int		 has_ci;	/* n >= 2 */
	double		 ci_low, ci_high;	/* Student t, GUIDE_LEVEL, of
					   the mean */
};

/* The level of every interval of the table and the normal quantile. */
#define GUIDE_LEVEL	0.95
#define GUIDE_Z		1.959963984540054

/*
 * Where a time to train counts from, bits or'ed over the runs of a
 * figure: MLPerf's run_start its trainer logged, else its attempt's start
 * (the job's launch and start-up in it: a workload that logs no
 * run_start, a ledger older than version 14).
 */
#define GUIDE_FROM_RUN_START	1
#define GUIDE_FROM_JOB_START	2

/* "run_start", "job_start", "mixed" for GUIDE_FROM_ bits, NULL for 0. */
const char	*guide_from_name(int from);

/* A trial as a run: its last attempt and what its curve says. */
struct guide_run {
	int		 trial;		/* number */
	int		 confirm;	/* a confirmation run */
	long		 batch;		/* trials.batch_size */
	enum trial_state state;		/* the trial's */
	int		 counts;	/* a run for the success rate */
	int		 reached;
	double		 epochs;	/* step of the first point on target */
	double		 ttt_s;		/* that point's time - its attempt's
					   run_start, else its start */
	int		 ttt_from;	/* GUIDE_FROM_ of ttt_s, 0: none */
	double		 value;		/* best value, NAN if none */
	int		 has_attempt;
	struct ledger_attempt *attempt;	/* the last one, borrowed */
	double		 run_s;		/* its run: start -> end (or now),
					   less suspended time */
	double		 epochs_run;	/* highest step of its objective */
	double		 train_samples;	/* per epoch, 0 if not reported */
	double		 samples_per_s;	/* 0 if unknown */
};

struct guide_row {
	long		 batch_size;
	int		 ranks;		/* 0 if unknown */
	long		 local_batch;
	char		*params_json;	/* hyperparameters found, or NULL */
	int		 params_trial;	/* whose they are, -1 if none */
	int		 confirmed;
	int		 candidates;	/* configurations confirmed (scaling) */
	int		 runs, successes;
	double		 success_rate;	/* NAN when runs == 0 */
	double		 rate_low, rate_high;	/* Wilson, when runs > 0 */
	struct guide_stats epochs;	/* of the runs that reached */
	struct guide_stats ttt;		/* time to target, seconds */
	int		 ttt_from;	/* GUIDE_FROM_ bits of its runs' */
	double		 samples_per_s;	/* mean over the runs, 0 if none */
	int		 trials_tuning, trials_confirm;
	struct account_cost tuning, confirm, total;
	double		*epochs_list;	/* of the runs that reached */
	size_t		 nepochs;
	double		 done_at;	/* confirmed: its last run's end */
	int		 done_trial;
	long		 key;		/* trials.batch_size of its trials */
};

/* One line of the honesty checklist. */
struct guide_check {
	const char	*item;
	int		 ok;
	char		 detail[512];
};
#define GUIDE_NCHECKS	4

struct campaign_spec;

/* What the report and the table say; release with guide_release(). */
struct guide {
	struct ledger_campaign c;	/* owned copy */
	struct campaign_spec *spec;	/* parsed from c.spec_json, or NULL */
	/*
	 * The campaign's account; for a scaling campaign, its time to
	 * solution is the confirmed one (has_tts ... below), and the first
	 * trial on target is kept in first_reach.
	 */
	struct account	 acct;
	int		 has_first_reach;
	int		 first_reach;
	double		 now;
	int		 scaling;	/* a batch-size scaling campaign */
	const char	*lr_rule;	/* scaling: "linear", "sqrt", "none" */
	char		*lr_param;
	int		 seeds, min_successes;
	char		*hardware;	/* the spec's "hardware", or NULL */
	char		*batch_param;	/* the global batch parameter */
	long		 default_batch;	/* of trials without one, or 0 */
	double		 flops_per_sample;	/* 0 if not declared */
	struct ledger_trial *trials;
	size_t		 ntrials;
	struct ledger_attempt *attempts;
	size_t		 nattempts;
	struct ledger_metric *points;	/* the objective's, by attempt, step:
					   guide_load_points() */
	size_t		 npoints;
	struct guide_run *runs;		/* one per trial, same order */
	struct guide_row *rows;		/* by batch size */
	size_t		 nrows;
	int		 total_trials;
	struct account_cost total;
	char		**hosts;	/* distinct hosts of the attempts */
	size_t		 nhosts;

	/* Time to solution (a scaling campaign: first confirmed size). */
	int		 has_tts;
	double		 tts_s;
	int		 tts_trial;
	const struct guide_row *tts_row; /* scaling only, else NULL */

	/* The winning run, its cost and the tuning overhead. */
	const struct guide_run *winner;	/* NULL if none */
	struct account_cost winner_cost;
	double		 overhead;	/* total / winner, 0 if unknown */
	const char	*overhead_unit;	/* "gpu_hours", "node_hours", ... */

	/* MLPerf-style figures. */
	struct guide_stats ttt;		/* time to train of ttt_from runs */
	const char	*ttt_from;	/* "confirm" or "reached" */
	int		 ttt_clock;	/* GUIDE_FROM_ bits of their ttt_s */
	int		 reached_runs;
	double		 models_per_min;	/* 0 if none */
	int		 has_flops;
	double		 flops, valid_flops, quality_ratio;

	struct guide_check checks[GUIDE_NCHECKS];

	/* A table of published results (guide_mllog()): no ledger, no cost. */
	int		 published;
	const char	*epoch_unit;	/* "epochs", "samples" (openfold's
					   logs) or "steps" (a campaign's
					   workload of fidelity steps), or
					   step_unit */
	char		*step_unit;	/* the workload's step_unit, or
					   NULL */
	int		 nsets;		/* result folders read */
};

/*
 * Compute everything for campaign c at time now.  Return 0, or -1 with err
 * (a ledger error, or memory ran out: report_alloc.h); a spec that does
 * not parse any more leaves the scaling figures out.
 */
int	 guide_compute(struct ledger *, const struct ledger_campaign *c,
	    double now, struct guide *, char *err, size_t errlen);
void	 guide_release(struct guide *);
/*
 * Read the objective's points into g->points (guide_compute() leaves them
 * out: the text, JSON and CSV reports need one summary per attempt); 0,
 * or -1 with err.
 */
int	 guide_load_points(struct ledger *, struct guide *, char *err,
	    size_t errlen);

/* The plain mean; NAN for no value. */
double	 guide_mean(const double *, size_t);
/* The mean without one min and one max (MLPerf); plain under 3 values. */
double	 guide_olympic_mean(const double *, size_t);
/* The sample standard deviation (n - 1); 0 under 2 values. */
double	 guide_std(const double *, size_t);
/* All of the above, min, max and the t interval of the mean. */
void	 guide_stats(const double *, size_t, struct guide_stats *);
/* The regularised incomplete beta function I_x(a, b). */
double	 guide_ibeta(double a, double b, double x);
/* Student's t: P(T <= t) with df degrees of freedom, and its inverse. */
double	 guide_t_cdf(double t, double df);
double	 guide_t_quantile(double p, double df);
/*
 * The two-sided Student t interval at level of the mean of n values; 0
 * (nothing set) under 2 values.
 */
int	 guide_ci_t(const double *, size_t n, double level, double *lo,
	    double *hi);
/* The Wilson score interval at normal quantile z; 0 without a run. */
int	 guide_ci_wilson(int successes, int runs, double z, double *lo,
	    double *hi);
/* successes / runs; NAN when runs == 0. */
double	 guide_rate(int successes, int runs);
/* Whether value meets target for the goal. */
int	 guide_meets(double value, int maximize, double target);
/*
 * The quality ratio of HPC AI500's Valid FLOPS: achieved / target when
 * maximizing, target / achieved when minimizing.
 */
double	 guide_quality_ratio(double achieved, int maximize, double target);
/* FLOPS * q^5 (HPC AI500, n = 5). */
double	 guide_valid_flops(double flops, double q);

/*
 * The guideline tables of published MLPerf results (guide_mllog.c): the
 * result folders dirs (result_*.txt, scored by score.h with rule) grouped
 * by benchmark, one table each in *out (*n of them, by name), and by
 * global batch size, one row each: runs, successes, epochs to target and
 * time to train of the runs that reached it, and the hyperparameters the
 * logs declare (their opt_* keys).  The lines each log skipped and a log
 * cut short are warned on warn (score_warn(); NULL: not).  Return 0, or -1
 * with err naming the folder or file at fault.  guide_release() each, then
 * free(*out).
 */
struct score_rule;
int	 guide_mllog(char **dirs, int n, const struct score_rule *,
	    FILE *warn, struct guide **out, size_t *nout, char *err,
	    size_t errlen);

/* The report's parts that come from the guide (guide_report.c). */
struct cJSON;
void	 guide_report_json(struct cJSON *root, const struct guide *);
void	 guide_report_text(FILE *, const struct guide *);
void	 guide_report_csv_head(FILE *);
void	 guide_report_csv_row(FILE *, const struct guide *);

/*
 * Render the table (guide_format.c): text, csv, json, markdown or rcp;
 * the result is malloc'ed, NULL if memory ran out (report_alloc.h).
 */
char	*guide_table(const struct guide *, enum report_format);
/* The table as the tree `--table --format json` prints; cJSON_Delete() it. */
/*
 * Where the guideline table's times to target count from, a sentence
 * for its head (guide_format.c), or NULL when it has none.
 */
const char	*guide_table_from_text(const struct guide *);
struct cJSON	*guide_table_json(const struct guide *);

#endif
