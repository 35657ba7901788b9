/*
 * hand_curves.h: a hand-made history of learning curves for the unit
 * tests of the stoppers (test_search_stop.c, test_search_target.c), held
 * in the caller's struct: up to HAND_MAXT trials of HAND_MAXP points.
 */
#ifndef HAND_CURVES_H
#define HAND_CURVES_H

#include <stddef.h>

#include "search.h"
#include "stop.h"

#define HAND_MAXT	16
#define HAND_MAXP	48

struct hand_curves {
	double		 steps[HAND_MAXT][HAND_MAXP];
	double		 vals[HAND_MAXT][HAND_MAXP];
	struct observation obs[HAND_MAXT];
	struct history	 h;
};

/* Start an empty history, of a goal to maximize or not. */
void		 hand_curves_init(struct hand_curves *c, int maximize);
/*
 * Add a trial in state st with n points, values v at steps s (at steps
 * 1 to n where s is NULL); its index.
 */
size_t		 hand_curves_add(struct hand_curves *c, enum obs_state st,
		    size_t n, const double *s, const double *v);
/* Append the point (step, v) to trial t and ask the stopper about it. */
enum stop_verdict hand_curves_report(const struct stopper *sp,
		    struct hand_curves *c, size_t t, double step, double v);
/* The same at trial t's next step, its number of points + 1. */
enum stop_verdict hand_curves_next(const struct stopper *sp,
		    struct hand_curves *c, size_t t, double v);

#endif
