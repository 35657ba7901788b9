/*
 * grow_history.h: a history the unit tests of TPE and MTPE grow one
 * trial at a time, held in the caller's struct (calloc'ed: it is large):
 * up to GROW_MAXT trials of up to 4 parameters.
 */
#ifndef GROW_HISTORY_H
#define GROW_HISTORY_H

#include <stddef.h>

#include "search.h"

#define GROW_MAXT	128

struct grow_history {
	double		 x[GROW_MAXT][4];
	double		 steps[GROW_MAXT][1], vals[GROW_MAXT][1];
	struct observation obs[GROW_MAXT];
	struct history	 h;
};

/*
 * Append a trial at x (dim coordinates) in state st, with the value v if
 * has; a pruned trial gets the one point (step 2, v) as its curve.
 */
void	grow_history_add(struct grow_history *t, const double *x, size_t dim,
	    enum obs_state st, int has, double v);

#endif
