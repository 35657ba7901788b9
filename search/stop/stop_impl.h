/*
 * stop_impl.h: what a stopper file shares with the dispatch in stop.c.
 * Callers of stop.h never include it.
 *
 * Adding a stopper: write its file defining a `const struct stop_ops`,
 * declare it here and add it to the tables in stop.c.
 */
#ifndef HPOD_STOP_IMPL_H
#define HPOD_STOP_IMPL_H

#include "stop.h"

struct stop_ops {
	const char	*name;
	/* The keys of search.stopper it reads, NULL-terminated. */
	const char *const *keys;
	/* Check the parameters and set up s; 0, or -1 with err set. */
	int		(*init)(struct stopper *s, char *err, size_t errlen);
	/*
	 * As stop_decide_why(); *rule, set before, is changed only by a
	 * stopper of several rules when one stops the trial.
	 */
	enum stop_verdict (*decide)(const struct stopper *s,
			    const struct history *h, size_t trial, double step,
			    double value, const char **rule);
};

struct stopper {
	const struct stop_ops *ops;
	struct stop_params p;
	int		 nbrackets;	/* hyperband */
	long		 budget[64];	/* hyperband: trials per bracket */
	long		 total;
};

extern const struct stop_ops stop_none_ops;
extern const struct stop_ops asha_ops;
extern const struct stop_ops hyperband_ops;
extern const struct stop_ops median_ops;
extern const struct stop_ops target_ops;

/*
 * Value of observation o at its first point at or past step, or NaN if it
 * did not get there; *at gets that point's index.
 */
double	 stop_value_at(const struct observation *o, double step, size_t *at);

/*
 * The most hopeful value at step last of power laws a + b t^-c fitted to
 * n points (t ascending, >= 1; smaller y better), NaN when n < 3 or no fit
 * improves (powerlaw.c).
 */
double	 powerlaw_bound(const double *t, const double *y, size_t n,
	    double last);

#endif
