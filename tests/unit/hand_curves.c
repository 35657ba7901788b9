/*
 * hand_curves.c: a hand-made history of learning curves for the unit
 * tests of the stoppers.
 */
#include <string.h>

#include "hand_curves.h"
#include "search.h"
#include "stop.h"

/* Start an empty history (hand_curves.h). */
void
hand_curves_init(struct hand_curves *c, int maximize)
{
	memset(c, 0, sizeof(*c));
	c->h.obs = c->obs;
	c->h.maximize = maximize;
}

/* Add a trial (hand_curves.h). */
size_t
hand_curves_add(struct hand_curves *c, enum obs_state st, size_t n,
    const double *s, const double *v)
{
	size_t t = c->h.n++, i;

	c->obs[t].state = st;
	c->obs[t].steps = c->steps[t];
	c->obs[t].values = c->vals[t];
	for (i = 0; i < n; i++) {
		c->steps[t][i] = s != NULL ? s[i] : (double)(i + 1);
		c->vals[t][i] = v[i];
	}
	c->obs[t].npoints = n;
	return t;
}

/* Append a point to trial t and ask the stopper (hand_curves.h). */
enum stop_verdict
hand_curves_report(const struct stopper *sp, struct hand_curves *c,
    size_t t, double step, double v)
{
	size_t n = c->obs[t].npoints++;

	c->steps[t][n] = step;
	c->vals[t][n] = v;
	return stop_decide(sp, &c->h, t, step, v);
}

/* Append a point at the next step (hand_curves.h). */
enum stop_verdict
hand_curves_next(const struct stopper *sp, struct hand_curves *c, size_t t,
    double v)
{
	return hand_curves_report(sp, c, t, (double)(c->obs[t].npoints + 1), v);
}
