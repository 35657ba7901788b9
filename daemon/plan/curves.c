/*
 * curves.c: the learning curves of a campaign's trials (see curves.h).
 */
#include <stdlib.h>
#include <string.h>

#include "curves.h"
#include "state.h"
#include "xmalloc.h"

struct curve {
	int64_t		 attempt_id;	/* whose points these are */
	int		 completed;
	size_t		 n, cap;
	double		*steps, *values, *times;
};

struct curves {
	size_t		 n;		/* trials 0 .. n-1 */
	struct curve	*c;
	int		 keep_best;	/* a repeated step keeps its best */
	int		 maximize;
};

/* Allocate an empty set of curves. */
struct curves *
curves_new(void)
{
	struct curves *cs;

	cs = xcalloc(1, sizeof(*cs));
	return cs;
}

/* A repeated step keeps its best value (maximize: the highest). */
void
curves_keep_best(struct curves *cs, int maximize)
{
	cs->keep_best = 1;
	cs->maximize = maximize;
}

/* Forget every curve. */
static void
curves_clear(struct curves *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].steps);
		free(cs->c[i].values);
		free(cs->c[i].times);
	}
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}

/* Free the curves. */
void
curves_free(struct curves *cs)
{
	if (cs == NULL)
		return;
	curves_clear(cs);
	free(cs);
}

/* Return trial's curve, growing the table to hold it; NULL if trial < 0. */
static struct curve *
curves_get(struct curves *cs, int trial)
{
	size_t n;

	if (trial < 0)
		return NULL;
	if ((size_t)trial >= cs->n) {
		n = (size_t)trial + 1;
		cs->c = xreallocarray(cs->c, n, sizeof(*cs->c));
		memset(cs->c + cs->n, 0, (n - cs->n) * sizeof(*cs->c));
		cs->n = n;
	}
	return &cs->c[trial];
}

/*
 * Add a point, keeping the steps sorted and the first value of a step,
 * or its best (curves_keep_best()).
 */
void
curves_add(struct curves *cs, int trial, int64_t attempt_id, double step,
    double value, double time)
{
	struct curve *c;
	size_t i;

	if ((c = curves_get(cs, trial)) == NULL || attempt_id < c->attempt_id)
		return;
	if (attempt_id > c->attempt_id) {
		c->attempt_id = attempt_id;
		c->n = 0;
	}
	for (i = c->n; i > 0 && c->steps[i - 1] >= step; i--)
		if (c->steps[i - 1] == step) {
			if (cs->keep_best && (cs->maximize ?
			    value > c->values[i - 1] : value < c->values[i - 1])) {
				c->values[i - 1] = value;
				c->times[i - 1] = time;
			}
			return;
		}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->steps = xreallocarray(c->steps, c->cap, sizeof(double));
		c->values = xreallocarray(c->values, c->cap, sizeof(double));
		c->times = xreallocarray(c->times, c->cap, sizeof(double));
	}
	memmove(c->steps + i + 1, c->steps + i, (c->n - i) * sizeof(double));
	memmove(c->values + i + 1, c->values + i, (c->n - i) *
	    sizeof(double));
	memmove(c->times + i + 1, c->times + i, (c->n - i) * sizeof(double));
	c->steps[i] = step;
	c->values[i] = value;
	c->times[i] = time;
	c->n++;
}

/* Mark a trial completed. */
void
curves_complete(struct curves *cs, int trial)
{
	struct curve *c;

	if ((c = curves_get(cs, trial)) != NULL)
		c->completed = 1;
}

/* Return 1 if the trial completed. */
int
curves_completed(const struct curves *cs, int trial)
{
	return trial >= 0 && (size_t)trial < cs->n && cs->c[trial].completed;
}

/* Point o's curve at the trial's points. */
void
curves_fill(const struct curves *cs, int trial, struct observation *o)
{
	const struct curve *c;

	o->npoints = 0;
	o->steps = o->values = NULL;
	o->step_s = 0;
	if (trial < 0 || (size_t)trial >= cs->n)
		return;
	c = &cs->c[trial];
	o->npoints = c->n;
	o->steps = c->steps;
	o->values = c->values;
	/* Seconds per step between its first and its last point. */
	if (c->n >= 2 && c->steps[c->n - 1] > c->steps[0] &&
	    c->times[c->n - 1] > c->times[0])
		o->step_s = (c->times[c->n - 1] - c->times[0]) /
		    (c->steps[c->n - 1] - c->steps[0]);
}

/*
 * Rebuild the curves of a campaign from the ledger: its points but the
 * late ones (logged past a prune), which the search never acted on.
 */
int
curves_load(struct curves *cs, struct ledger *l, int64_t campaign_id,
    const char *metric)
{
	struct ledger_trial *t = NULL;
	struct ledger_metric *m = NULL;
	size_t nt = 0, nm = 0, i;

	if (ledger_trial_list(l, campaign_id, &t, &nt) == -1)
		return -1;
	if (ledger_metric_list(l, campaign_id, metric, &m, &nm) == -1) {
		ledger_trial_list_free(t, nt);
		return -1;
	}
	curves_clear(cs);
	for (i = 0; i < nt; i++)
		if (trial_state_parse(t[i].state) == TRIAL_COMPLETED)
			curves_complete(cs, t[i].number);
	for (i = 0; i < nm; i++)
		if (!m[i].late)
			curves_add(cs, m[i].trial_number, m[i].attempt_id,
			    m[i].step, m[i].value, m[i].time);
	ledger_trial_list_free(t, nt);
	ledger_metric_list_free(m, nm);
	return 0;
}
