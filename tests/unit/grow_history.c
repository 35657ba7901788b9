/*
 * grow_history.c: a history the unit tests of TPE and MTPE grow one
 * trial at a time.
 */
#include <string.h>

#include "grow_history.h"
#include "search.h"

/* Append a trial (grow_history.h). */
void
grow_history_add(struct grow_history *t, const double *x, size_t dim,
    enum obs_state st, int has, double v)
{
	struct observation *o = &t->obs[t->h.n];

	memcpy(t->x[t->h.n], x, dim * sizeof(double));
	memset(o, 0, sizeof(*o));
	o->x = t->x[t->h.n];
	o->state = st;
	o->has_value = has;
	o->value = v;
	if (st == OBS_PRUNED) {
		t->steps[t->h.n][0] = 2;
		t->vals[t->h.n][0] = v;
		o->npoints = 1;
		o->steps = t->steps[t->h.n];
		o->values = t->vals[t->h.n];
	}
	t->h.n++;
	t->h.obs = t->obs;
}
