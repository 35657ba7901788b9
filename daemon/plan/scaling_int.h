/*
 * scaling_int.h: what scaling.c (the plan) and scaling_lane.c (what a
 * lane's trials say about its candidates) share.
 */
#ifndef HPOD_SCALING_INT_H
#define HPOD_SCALING_INT_H

#include "scaling.h"

/*
 * One lane as its trials leave it.  A candidate is a tuning trial that
 * ran (not failed or cancelled); its confirmation runs are the lane's
 * confirm trials with its parameters.  A candidate passes when its
 * scaling.seeds runs have ended and min_successes of them reached the
 * target; it is abandoned as soon as too many failed for that.  Indices
 * are into the trial list; -1 for none.
 */
struct lane_view {
	int	 tune, tune_active;	/* tuning trials, still running */
	int	 confirm, confirm_active;	/* confirmation runs */
	int	 passed;	/* the candidate that passed */
	int	 next;		/* the candidate to confirm now (in progress,
				   else the best untried one that fits the
				   lane's share of the budget) */
	int	 next_confirms;	/* confirmation runs of next so far */
	int	 next_rank;	/* next is the rank-th candidate tried (1...) */
	int	 source;	/* the configuration larger batch sizes
				   start from: passed, next, else the best */
	int	 fresh;	/* an untried candidate reached the target */
};

/* Fill the view of lane batch from the trials and their curves. */
void	 scaling_lane_view(const struct campaign_spec *,
	    const struct ledger_trial *, size_t n, const struct curves *,
	    long batch, struct lane_view *);
/* Read trial t's point into x; -1 (logged) if its parameters do not parse. */
int	 scaling_point(const struct campaign_spec *, const struct ledger_trial *,
	    double *x);

#endif
