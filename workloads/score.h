/*
 * score.h: score MLPerf result logs (MLLOG) the way the MLPerf HPC rules
 * do: one run's time to train and whether it reached the quality target,
 * and a set of runs' olympic mean.
 *
 * A run is the part of a log between its run_start and run_stop events;
 * evaluations outside it are ignored.  A log cut short before its run_stop
 * (a run that died) is scored as the MLCommons scorer does: aborted, the
 * target not reached, with its partial curve (best, evaluations) and no
 * time to train.  A malformed line (garbage, half-written) is skipped and
 * counted, never fatal; an evaluation whose value is NaN (Python writes
 * it) counts as an evaluation that never meets the target.  Whether a run reached the target is
 * decided from its evaluations of the benchmark's metric, never from the
 * status its run_stop claims.  Pure code: nothing is printed.
 */
#ifndef HPOD_SCORE_H
#define HPOD_SCORE_H

#include <stddef.h>
#include <stdio.h>

enum score_goal { SCORE_MIN, SCORE_MAX };

/*
 * What reaching the target means, as given on the command line: each part
 * that is set overrides the benchmark's own (see score.c).
 */
struct score_rule {
	const char	*metric;	/* NULL: the benchmark's */
	int		 has_goal;
	enum score_goal	 goal;
	int		 has_target;
	double		 target;
};

/* A line that was skipped, and why. */
struct score_skip {
	unsigned long	 line;
	char		 why[256];
};

/* The skipped lines a run keeps the details of; more are only counted. */
#define SCORE_SKIPS_KEPT	5

/* One scored run.  score_run_release() frees file and hparams. */
struct score_run {
	char		*file;		/* the name it was read as */
	char		 benchmark[128];	/* submission_benchmark, "" if none */
	int		 has_gbs;
	double		 gbs;		/* global_batch_size */
	char		 metric[64];
	enum score_goal	 goal;
	double		 target;
	const char	*epoch_unit;	/* "epochs", or "samples" (openfold) */
	int		 runs_required;	/* for a set to score */
	int		 evals;		/* evaluations between start and stop */
	int		 has_best;
	double		 best;
	int		 reached;
	int		 has_epochs;
	double		 epochs;	/* epoch_num of the first on target */
	int		 stopped;	/* the log has its run_stop */
	double		 ttt_ms;	/* run_stop - run_start (stopped) */
	char		 status[32];	/* run_stop's status, "" if none;
					   "aborted" without a run_stop */
	size_t		 skipped;	/* malformed lines skipped */
	struct score_skip skips[SCORE_SKIPS_KEPT];	/* the first ones */
	char		*hparams;	/* the opt_* keys logged, a JSON
					   object */
};

/* A set of runs scored together. */
struct score_set {
	size_t		 runs;
	size_t		 converged;
	size_t		 required;	/* runs the rules require */
	int		 has_mean;
	double		 mean_s;	/* olympic mean time to train */
	double		 mean_min;	/* the same in minutes */
	size_t		 fastest, slowest;	/* runs dropped (has_mean) */
	int		 has_epochs;
	double		 mean_epochs;	/* olympic mean epochs to target */
	int		 scores;
	char		 reason[160];	/* why not, "" when it scores */
};

/*
 * Score the log read from f, called name in messages.  Return 0, or -1
 * with err ("NAME:LINE: ..." or "NAME: ...") when the log has no
 * run_start, two run_starts or run_stops, or its target is unknown.
 */
int	 score_stream(FILE *f, const char *name, const struct score_rule *,
	    struct score_run *, char *err, size_t errlen);
/* Score the file at path, as score_stream(). */
int	 score_file(const char *path, const struct score_rule *,
	    struct score_run *, char *err, size_t errlen);
void	 score_run_release(struct score_run *);

/*
 * Score the result_*.txt files of dir, in version order, into a malloc'ed
 * array *runs of *n (release each run, then free the array).  Return 0, or
 * -1 with err naming dir or the file at fault.
 */
int	 score_dir(const char *dir, const struct score_rule *,
	    struct score_run **runs, size_t *n, char *err, size_t errlen);

/*
 * Warn on f, as "PROG: warning: FILE:LINE: why; line skipped", about the
 * lines of run r that were skipped (the first SCORE_SKIPS_KEPT, then a
 * count) and about a log cut short; the run is scored all the same.
 */
void	 score_warn(FILE *f, const char *prog, const struct score_run *r);

/*
 * Score a set of n runs the MLPerf way: drop the fastest and the slowest,
 * average the rest; one run that missed the target may be the one dropped
 * as slowest, more make the set invalid.  Return 0, or -1 with err when the
 * runs are of different benchmarks or targets.
 */
int	 score_summary(const struct score_run *, size_t n, struct score_set *,
	    char *err, size_t errlen);

#endif
