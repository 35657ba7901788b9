/*
 * importance.h: the parameters' importance of a campaign, in the report
 * (JSON member "importance") and on its HTML page.
 *
 * The importance is the first-order variance share (eta squared, the
 * main-effect term of a functional ANOVA) of each parameter over the
 * completed trials' values: the variance of the group means of the value,
 * grouping the trials by the parameter's value (a choice) or into up to
 * four equal-count bins (a number), divided by the variance of the
 * values.  It is not normalised and ignores interactions, so the shares
 * need not sum to 1; with few trials it is noisy and biased upward (each
 * group mean fits some noise), so under IMPORTANCE_MIN_TRIALS completed
 * trials (two per bin) there is none.
 */
#ifndef HPOD_IMPORTANCE_H
#define HPOD_IMPORTANCE_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct guide;

#define IMPORTANCE_MIN_TRIALS	8

/* The shares of one campaign; release with importance_release(). */
struct importance {
	size_t		 trials;	/* completed trials with a value */
	size_t		 n;		/* parameters */
	char		**names;	/* owned, in the trials' order */
	double		*share;		/* NAN where not computed */
};

/*
 * Compute the importance of g's parameters: the shares are NAN under
 * IMPORTANCE_MIN_TRIALS completed trials with a value.  -1 if memory ran
 * out (nothing to release then).
 */
int	 importance_compute(const struct guide *g, struct importance *);
void	 importance_release(struct importance *);
/*
 * Add "importance": {"method", "min_trials", "trials", "params": {name:
 * share}} to the report's tree; params is null under the minimum.
 */
void	 importance_json(cJSON *root, const struct importance *);
/*
 * The share of the variance of n values explained by their groups
 * (0..63): the variance of the group means, weighted by group size, over
 * the variance of the values (eta squared).  NAN under 3 values or
 * without variance.
 */
double	 importance_eta2(const double *val, const int *grp, size_t n);

#endif
