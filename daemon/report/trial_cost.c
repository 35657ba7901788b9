/*
 * trial_cost.c: each trial's cost (all its attempts) and epochs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "report_alloc.h"
#include "report_int.h"
#include "space.h"
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

/* Write number v as report_json_number() would, or null. */
static void
trial_cost_number(FILE *f, const char *key, int has, double v, int last)
{
	char	 num[64];

	if (has && isfinite(v))
		space_shortest(v, num, sizeof(num));
	else
		snprintf(num, sizeof(num), "null");
	fprintf(f, "\t\t\t\"%s\":\t%s%s\n", key, num, last ? "" : ",");
}

/*
 * Add "per_trial" to the root object.  Its text is written here, as
 * cJSON_Print() lays out an array of objects one level down, and added
 * raw: a cJSON object of six members per trial (a dozen allocations and
 * as many frees each) was a quarter of the JSON report at 10^5 trials.
 * -1 if memory ran out.
 */
int
trial_cost_json(cJSON *root, const struct guide *g)
{
	struct account_cost	 c;
	char			*buf;
	size_t			 len, i;
	FILE			*f;
	double			 e;
	int			 rc;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return -1;

	fputc('[', f);
	for (i = 0; i < g->ntrials; i++) {
		trial_cost(g, i, &c);
		e = trial_epochs(g, i);
		fprintf(f, "%s{\n\t\t\t\"trial\":\t%d,\n", i ? ", " : "",
		    g->trials[i].number);
		trial_cost_number(f, "epochs", isfinite(e), e, 0);
		fprintf(f, "\t\t\t\"attempts\":\t%d,\n", c.attempts);
		trial_cost_number(f, "node_hours", 1, c.node_seconds / 3600, 0);
		trial_cost_number(f, "gpu_hours", 1, c.gpu_seconds / 3600, 0);
		trial_cost_number(f, "cpu_hours", 1, c.cpu_seconds / 3600, 1);
		fputs("\t\t}", f);
	}
	fputc(']', f);
	rc = report_memstream_close(f, &buf) == 0 &&
	    cJSON_AddRawToObject(root, "per_trial", buf) != NULL ? 0 : -1;
	free(buf);
	return rc;
}
