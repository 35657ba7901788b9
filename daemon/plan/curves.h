/*
 * curves.h: the learning curves of a campaign's trials as the search and
 * the stopper see them: the objective's points of each trial's latest
 * attempt that reported any, by step, and whether the trial completed.
 *
 * The engine adds every point it records in the ledger and marks every
 * trial that completes; after a restart curves_load() rebuilds the same
 * content from the ledger, so that decisions do not depend on whether
 * the daemon was restarted.  Keeping them in memory spares a read of
 * every metric point of the campaign for each decision.
 */
#ifndef HPOD_CURVES_H
#define HPOD_CURVES_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"
#include "search.h"

struct curves;

struct curves	*curves_new(void);
/*
 * From now on a repeated step keeps its best value (maximize: the
 * highest) and that value's time, as the ledger keeps the objective's;
 * by default it keeps the first.
 */
void		 curves_keep_best(struct curves *, int maximize);
void		 curves_free(struct curves *);

/*
 * Replace the content with what the ledger holds for the campaign: the
 * points of metric and the trials that completed.  0, or -1 (ledger
 * error, see ledger_error()).
 */
int	 curves_load(struct curves *, struct ledger *, int64_t campaign_id,
	    const char *metric);
/*
 * Add a point of trial number `trial` from attempt attempt_id, as the
 * ledger keeps it: a repeated step of the same attempt is ignored (or
 * taken if better: curves_keep_best()), and a later attempt's first
 * point replaces an earlier attempt's curve.
 * time: when the point was recorded (seconds), as the ledger has it.
 */
void	 curves_add(struct curves *, int trial, int64_t attempt_id,
	    double step, double value, double time);
/* Mark trial number `trial` completed. */
void	 curves_complete(struct curves *, int trial);
/* 1 if the trial completed. */
int	 curves_completed(const struct curves *, int trial);
/*
 * Point o's curve at trial's points (steps ascending); the arrays are
 * borrowed until the next change.  A trial without points gets none.
 * o->step_s: seconds per step from its first point to its last (0 with
 * fewer than two points).
 */
void	 curves_fill(const struct curves *, int trial, struct observation *o);

#endif
