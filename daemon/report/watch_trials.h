/*
 * watch_trials.h: the table of trials of `hpoctl watch`: the running
 * trials and the most recent ones, as Ray Tune's progress table shows
 * them.
 */
#ifndef HPOD_WATCH_TRIALS_H
#define HPOD_WATCH_TRIALS_H

#include <stdio.h>

#include "ledger.h"

/* How many trials the table shows at most (the running ones first). */
#define WATCH_TRIALS_MAX	12

struct cJSON;

/*
 * Add the member "recent" to the snapshot root: an array of the running
 * trials and then the most recent others, newest first, each with its
 * number, state, attempts, host, elapsed_s, epoch (its last evaluation's
 * step), value (its best) and params.  Return 0, or -1 with err.
 */
int	 watch_trials_json(struct ledger *, const struct ledger_campaign *,
	    double now, struct cJSON *root, char *err, size_t errlen);
/* Print the table of a snapshot's "recent" member (nothing if none). */
void	 watch_trials_print(FILE *, const struct cJSON *snap);

#endif
