/*
 * trial_cost.h: each trial's cost and epochs, in the report (JSON member
 * "per_trial") and in the HTML page's table of trials.  The cost of a
 * trial is that of all its attempts, as the campaign's cost counts them
 * (account_attempt_add()), so the trials' costs sum to the campaign's.
 */
#ifndef HPOD_TRIAL_COST_H
#define HPOD_TRIAL_COST_H

#include <cjson/cJSON.h>

#include "account.h"

struct guide;

/* The cost of the guide's trial i (an index of g->trials). */
void	 trial_cost(const struct guide *g, size_t i, struct account_cost *);
/*
 * The epochs trial i ran: the highest step of its last attempt's
 * objective; NAN if none.
 */
double	 trial_epochs(const struct guide *g, size_t i);
/*
 * Add "per_trial": [{"trial", "epochs", "attempts", "node_hours",
 * "gpu_hours", "cpu_hours"}], in the order of `hpoctl trials`; -1 if
 * memory ran out.
 */
int	 trial_cost_json(cJSON *root, const struct guide *g);

#endif
