/*
 * trial_cost.c: each trial's cost (all its attempts) and epochs.
 */
#include <math.h>
#include <string.h>

#include "guide.h"
#include "report_int.h"
#include "trial_cost.h"

/*
 * Sum the attempts of trial i.  g->attempts is in the order of their
 * trials' numbers (ledger_attempt_list()): a binary search finds the
 * trial's first, so that costing every trial is not quadratic.
 */
void
trial_cost(const struct guide *g, size_t i, struct account_cost *c)
{
	int	 num = g->trials[i].number;
	size_t	 k, lo = 0, hi = g->nattempts;

	memset(c, 0, sizeof(*c));
	while (lo < hi) {
		k = lo + (hi - lo) / 2;
		if (g->attempts[k].trial_number < num)
			lo = k + 1;
		else
			hi = k;
	}
	for (k = lo; k < g->nattempts && g->attempts[k].trial_number == num;
	    k++)
		account_attempt_add(&g->attempts[k], g->now, c);
}

/* The epochs of trial i's last attempt. */
double
trial_epochs(const struct guide *g, size_t i)
{
	return g->runs[i].epochs_run > 0 ? g->runs[i].epochs_run : NAN;
}

/* Add "per_trial". */
void
trial_cost_json(cJSON *root, const struct guide *g)
{
	struct account_cost	 c;
	cJSON			*arr = cJSON_AddArrayToObject(root, "per_trial");
	cJSON			*o;
	double			 e;
	size_t			 i;

	for (i = 0; i < g->ntrials; i++) {
		trial_cost(g, i, &c);
		e = trial_epochs(g, i);
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "trial", g->trials[i].number);
		report_json_number(o, "epochs", isfinite(e), e);
		cJSON_AddNumberToObject(o, "attempts", c.attempts);
		report_json_number(o, "node_hours", 1, c.node_seconds / 3600);
		report_json_number(o, "gpu_hours", 1, c.gpu_seconds / 3600);
		report_json_number(o, "cpu_hours", 1, c.cpu_seconds / 3600);
		cJSON_AddItemToArray(arr, o);
	}
}
