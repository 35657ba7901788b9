/*
 * objective.c: the campaign's ranking of trials for the search.  By value
 * (the default) the history goes to the algorithm as it is.  By time to
 * target, a trial whose curve met the target counts as complete with a
 * value that ranks it ahead of every trial that did not, fewer steps to
 * the target first; trials that never met it keep their best value and
 * rank behind, as before.  Every algorithm that ranks by value (tpe,
 * mtpe, and auto's choice) thereby ranks by time to target.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_impl.h"

/* Offset that puts a trial on target ahead of every value. */
#define OBJECTIVE_AHEAD	1e12

/* Rewrite h's observations into out (h->n of them) ranked by time to target. */
void
search_time_to_target(const struct history *h, double target,
    struct observation *out)
{
	const struct observation *o;
	size_t i, k;
	double v;

	for (i = 0; i < h->n; i++) {
		o = &h->obs[i];
		out[i] = *o;
		for (k = 0; k < o->npoints; k++) {
			v = o->values[k];
			if (isnan(v) || (h->maximize ? v < target : v > target))
				continue;
			out[i].state = OBS_COMPLETE;
			out[i].has_value = 1;
			out[i].value = h->maximize ?
			    target + OBJECTIVE_AHEAD - o->steps[k] :
			    target - OBJECTIVE_AHEAD + o->steps[k];
			break;
		}
	}
}

/* Set how the history is ranked before each suggestion. */
void
search_set_objective(struct search *s, enum search_rank rank, double target)
{
	s->rank = rank;
	s->target = target;
}

/* Suggest from the history ranked as the campaign asks. */
int
search_suggest_ranked(struct search *s, const struct history *h, double *x)
{
	struct observation *obs;
	struct history r;
	int rc;

	/* auto's delegate ranks (auto.c). */
	if (s->rank != SEARCH_RANK_TIME_TO_TARGET || h->n == 0 ||
	    s->ops == &auto_ops)
		return s->ops->suggest(s, h, x);
	if ((obs = calloc(h->n, sizeof(*obs))) == NULL)
		return s->ops->suggest(s, h, x);
	search_time_to_target(h, s->target, obs);
	r = *h;
	r.obs = obs;
	/* A copy ranked otherwise: a kept model would not match it. */
	s->log = NULL;
	rc = s->ops->suggest(s, &r, x);
	free(obs);
	return rc;
}
