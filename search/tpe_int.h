/*
 * tpe_int.h: what tpe.c shares with the multivariate variant in mtpe.c:
 * the Parzen estimator of one parameter (parzen.c, parzen_bin.c) and the
 * split of the history into a good and a bad group.  Callers of search.h
 * never include it.
 */
#ifndef HPOD_TPE_INT_H
#define HPOD_TPE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "search_impl.h"

/* A Parzen estimator over one parameter, in its internal coordinates. */
struct parzen {
	size_t		 n;		/* components, the prior last */
	double		*w;		/* normalized weights */
	double		*mu, *sigma;	/* numeric parameters */
	double		*logw;		/* log w, per component */
	double		*lognorm;	/* log sigma, per numeric component */
	double		*logmass;	/* log of its mass within the bounds */
	double		*t;		/* scratch of parzen_logpdf() */
	double		*p;		/* n x nchoices probabilities */
	size_t		 nchoices;	/* 0 for numeric parameters */
	double		 low, high;	/* bounds, in internal space */
	int		 quantized;	/* integers on a linear scale */
};

/* The prior's weight, beside each trial's (at most 1). */
#define PARZEN_PRIOR	1.0
/* The newest trials weighted 1, the older ones ramped down. */
#define PARZEN_FLAT	25
/*
 * Above this many trials a univariate estimator is binned into
 * PARZEN_BINS bins (parzen_bin.c), at or below it exact.  A build with
 * -DPARZEN_EXACT_MAX=0 bins every estimator (make bench-search then
 * shows what binning does to the search).
 */
#ifndef PARZEN_EXACT_MAX
#define PARZEN_EXACT_MAX 4096
#endif
#define PARZEN_BINS	1024

/* The good group's largest size, gamma(n) = min(ceil(n / 10), 25). */
#define TPE_GAMMA_MAX	25

/*
 * A ranked trial: sort key (a, b), then its history index; also a
 * component's centre (a, b = 0) and index, to sort the centres.
 */
struct tpe_rank {
	double		 a, b;
	size_t		 i;
};

/* How a TPE variant treats the history (tpe: all 0). */
struct tpe_conf {
	int		 failed_worst;	/* failed trials join the bad group */
	int		 liar;		/* running trials join the bad group */
	size_t		 startup;	/* random suggestions before the model */
	int		 cost_aware;	/* cmtpe: per unit of predicted cost */
	struct cost_keep *cost;		/* cmtpe: the known costs kept */
};

/*
 * The cost per step of a configuration, learnt from the history's
 * observations' step_s (cost.c): NULL while too few trials have one.
 */
struct cost_model;
struct cost_keep;
/*
 * With keep non-NULL, the known costs are kept in *keep between calls,
 * following log (NULL: read every trial); free with cost_keep_free().
 * Up to COST_CELLS trials with a cost the model has one centre each;
 * beyond, one per cell of a grid of at most COST_CELLS cells.
 */
#define COST_CELLS	4096
struct cost_model *cost_model_new(const struct space *,
	    const struct history *, struct cost_keep **keep,
	    const struct history_log *log);
size_t	 cost_model_centres(const struct cost_model *);
void	 cost_keep_free(struct cost_keep *);
/* log(predicted seconds per step at internal y / the median's), or 0. */
double	 cost_model_log(const struct cost_model *, const double *y);
void	 cost_model_free(struct cost_model *);
/*
 * Of n candidates with acquisition score[] and log cost[], the index of
 * the cheapest whose score is within COST_TOLERANCE of the best (the
 * higher score, then the first, among equally cheap ones).
 */
size_t	 cost_pick(const double *score, const double *cost, size_t n);
/*
 * A start-up point for cmtpe: mtpe's design point, or once costs are
 * known the cheaper of it and the point of a second design (another
 * shift).  Return as search_suggest().
 */
int	 cost_startup(struct search *, const struct history *, double *x);
/*
 * mtpe's start-up point number h->n: that point of the Sobol' sequence
 * shifted as seed says (sobol's own with the campaign's seed), random's
 * beyond SOBOL_MAXDIM parameters.  Return 0.
 */
int	 mtpe_design(struct search *, uint64_t seed, const struct history *h,
	    double *x);

/*
 * mtpe's view of h at one fidelity, BOHB's (rung.c): out (h->n
 * observations, borrowing h's arrays) is h with every trial whose curve
 * reached step b complete at its best value up to b, b the highest step
 * at which at least min trials have a value.  Return b, 0 when no step
 * has min values (out is h's copy), -1 when memory runs out (likewise).
 */
double	 rung_view(const struct search *, const struct history *h,
	    size_t min, struct observation *out);
/*
 * What rung_view() counts of o to find b: the last step of its curve at
 * which it has a value (*curve 1), infinity for a complete trial without
 * a curve, -1 if it does not count.
 */
double	 rung_trial_reach(const struct observation *o, int *curve);
/*
 * Observation o as rung_view() at step b (> 0) shows it: o itself or
 * tmp, set.
 */
const struct observation *rung_view_one(const struct search *,
	    const struct observation *o, int maximize, double b,
	    struct observation *tmp);

/*
 * Build the estimator of parameter p from the internal coordinates of
 * the m trials in xs (chronological order).  mvsigma > 0 gives every
 * trial's component that width (times the range) instead of the
 * distance to its neighbours, as a multivariate estimator does.
 * Return 0 or -1 (memory).
 */
int	 parzen_init(struct parzen *, const struct param_def *p,
	    const double *xs, size_t m, double mvsigma);
void	 parzen_release(struct parzen *);
/*
 * The same estimator with its kernels merged into at most 3 nbins + 1
 * components (nbins > 100; parzen_bin.c says how and how close).
 * Return 0 or -1 (memory).
 */
int	 parzen_init_binned(struct parzen *, const struct param_def *p,
	    const double *xs, size_t m, size_t nbins);
/* Set the bounds (internal space) and quantized of p's estimator. */
void	 parzen_bounds(struct parzen *, const struct param_def *p);
/* Compute logw, lognorm and logmass of w, mu and sigma; 0 or -1. */
int	 parzen_norms(struct parzen *);
/* Log density (log mass for integers and choices) of the estimator at y. */
double	 parzen_logpdf(struct parzen *, double y);
/* Draw a component index by weight. */
size_t	 parzen_component(const struct parzen *, struct rng *);
/* Draw one internal coordinate from component k. */
double	 parzen_draw(const struct parzen *, size_t k, struct rng *);
/* Draw one internal coordinate from the estimator. */
double	 parzen_sample(const struct parzen *, struct rng *);
/* Log density of component k at y, its weight left out. */
double	 parzen_term(const struct parzen *, size_t k, double y);

/*
 * Build the estimator of parameter i of s's space over the m trials of h
 * at idx (history indices), xs a scratch of m + 1 doubles, mvsigma as
 * parzen_init()'s; binned when mvsigma is 0 and m > PARZEN_EXACT_MAX.
 * Return 0 or -1 (memory).
 */
int	 parzen_fit(struct parzen *, const struct search *s,
	    const struct history *h, size_t i, const size_t *idx, size_t m,
	    double *xs, double mvsigma);

/* Weights of n trials in chronological order, as Optuna's default. */
void	 tpe_weights(double *w, size_t n);

/*
 * Above this many trials in a group mtpe merges the group's joint
 * kernels into at most MTPE_CELLS cells of a grid (mtpe_grid.c), at or
 * below it exact.  A build with -DMTPE_EXACT_MAX=0 merges every group
 * (make bench-search then shows what merging does to the search).
 */
#ifndef MTPE_EXACT_MAX
#define MTPE_EXACT_MAX	4096
#endif
#define MTPE_CELLS	4096

/*
 * mtpe's joint estimator of the m trials of h at idx: one estimator per
 * parameter, all with the same components in the same order, each
 * trial's kernel bw times the range wide; exact when m <= maxexact,
 * merged into cells (mtpe_grid()) above.  Return 0 or -1 (memory).
 */
int	 mtpe_fit(const struct search *, const struct history *h,
	    const size_t *idx, size_t m, size_t maxexact, struct parzen *pz);
/*
 * The same kernels merged into at most maxcells occupied cells of a grid
 * (mtpe_grid.c says how and how close), the prior last.  Return 0 or -1.
 */
int	 mtpe_grid(const struct search *, const struct history *h,
	    const size_t *idx, size_t m, double bw, size_t maxcells,
	    struct parzen *pz);
/*
 * The cells of mtpe_grid(), kept between suggestions by a joint fold
 * (tpe_fold_new_joint()): trials are added one at a time at their
 * position in the group, the weights applied by mgrid_estimator().
 */
struct mgrid;

/* A grid of at most maxcells cells over s's space, at its finest; NULL. */
struct mgrid *mgrid_new(const struct search *s, size_t maxcells);
void	 mgrid_free(struct mgrid *);
/* Empty the cells; fine: back to the finest bins too. */
void	 mgrid_clear(struct mgrid *, int fine);
/* Halve the bins of the finest parameter and empty; -1 if none can. */
int	 mgrid_coarsen(struct mgrid *);
/* Copy src into dst (made with the same space and maxcells); 0 or -1. */
int	 mgrid_copy(struct mgrid *dst, const struct mgrid *src);
/*
 * Add the trial at internal coordinates y (d of them, key a scratch of
 * d), position pos in the group, flat (weight 1) or ramped.  Positions
 * must come in increasing order.  Return 0, or 1 when every cell is
 * taken (the grid is then as before, the trial not added).
 */
int	 mgrid_add(struct mgrid *, const double *y, size_t pos, int flat,
	    uint32_t *key);
/*
 * The joint estimator (d of pz) of the m trials added, kernels bw times
 * the range wide, the prior last.  Return 0 or -1 (memory).
 */
int	 mgrid_estimator(const struct mgrid *, size_t m, double bw,
	    struct parzen *pz);

/* Joint log density of mtpe's estimators pz (d of them) at y; t scratch. */
double	 mtpe_logpdf(const struct parzen *pz, size_t d, const double *y,
	    double *t);

/* Internal coordinate of a value of numeric parameter p, and back. */
double	 tpe_to_internal(const struct param_def *p, double x);
double	 tpe_from_internal(const struct param_def *p, double y);
/* Internal coordinate of what would run for a draw y of p (rounded). */
double	 tpe_snap(const struct param_def *p, double y);
/* The value of p to suggest for a snapped internal coordinate y. */
double	 tpe_value(const struct param_def *p, double y);

/* Order ranked trials by (a, b), then by history index (qsort's). */
int	 tpe_rank_cmp(const void *, const void *);
/*
 * Rank key of observation o in *r (smaller is better): return 1 for a
 * finished trial that counts, 2 for a running one that joins the bad
 * group (the liar), 0 if it does not count; *good is 0 for a trial that
 * may never be in the good group.
 */
int	 tpe_key(const struct observation *o, int maximize,
	    const struct tpe_conf *conf, struct tpe_rank *r, int *good);
/* Move the best k of the n ranked trials to rk[0..k-1], best first. */
void	 tpe_best(struct tpe_rank *rk, size_t n, size_t k);

/*
 * The kernels of one parameter's group of trials, summed per bin
 * (parzen_bin.c): added one trial at a time in chronological order, at
 * its position pos in the group; the trial weights (which depend on the
 * group's final size) are applied by pbins_estimator(), so that the sums
 * of the older trials can be kept from one suggestion to the next.  A
 * choice parameter has one bin per value.
 */
struct pbin {
	size_t		 count;		/* trials in the bin */
	size_t		 first, last;	/* positions of the first and last
					   trial in (value, position) order */
	double		 vfirst, vlast;	/* their internal coordinates */
	double		 r0[3], r1[3];	/* ramped trials: sums of f and of
					   pos f, f = 1, d, d^2, d the
					   distance to the bin's centre */
	double		 f[3];		/* flat trials: sums of f */
};

struct pbins {
	size_t		 nbins;
	int		 choice;	/* bins are a choice's values */
	double		 low, high;	/* bounds, in internal space */
	struct pbin	*b;
};

/* Bins over parameter p (nbins of them, a choice: one per value); 0/-1. */
int	 pbins_init(struct pbins *, const struct param_def *p, size_t nbins);
void	 pbins_release(struct pbins *);
/* Copy src into dst (initialized over the same parameter). */
void	 pbins_copy(struct pbins *dst, const struct pbins *src);
/*
 * Add the trial at internal coordinate v, position pos in its group,
 * flat (weight 1) or ramped.  Positions must come in increasing order.
 */
void	 pbins_add(struct pbins *, double v, size_t pos, int flat);
/*
 * The estimator of the m trials added to b (b's bins are changed: the
 * prior's centre joins them).  Return 0 or -1 (memory).
 */
int	 pbins_estimator(struct parzen *, const struct param_def *p,
	    struct pbins *b, size_t m);

/*
 * What tpe keeps of the history between suggestions (tpe_fold.c): the
 * trials up to a cut, ranked and, for the bad group, summed into bins.
 */
struct tpe_fold;

struct tpe_fold *tpe_fold_new(void);
void	 tpe_fold_free(struct tpe_fold *);
/*
 * Bring f up to date with h, log saying what changed since the last call
 * (a log f has not seen makes it start over), and split as tpe_split()
 * does for conf: *below (nb trials, the good group, history order,
 * caller frees) and the bad group's size *na.  Return 1 while fewer
 * than conf->startup trials count (nothing allocated), 0, or -1
 * (memory: f starts over at the next call).
 */
int	 tpe_fold_update(struct tpe_fold *, const struct search *s,
	    const struct tpe_conf *conf, const struct history *h,
	    const struct history_log *log, size_t **below, size_t *nb,
	    size_t *na);
/*
 * Make f see every trial as rung_view_one() at step b shows it (b 0:
 * as it is); a b other than the last one makes f start over.
 */
void	 tpe_fold_set_view(struct tpe_fold *, const struct search *s,
	    double b);
/*
 * A fold for mtpe: its settled bad trials are kept in the cells of an
 * mgrid of at most maxcells cells (mtpe_grid.c) instead of bins.
 */
struct tpe_fold *tpe_fold_new_joint(size_t maxcells);
/*
 * After tpe_fold_update() of a joint fold: mtpe's merged estimator of
 * the bad group (d of pz, kernels bw times the range wide), the same as
 * mtpe_grid() over its trials gives.  Return 0, 1 when the fold cannot
 * give it (a cap no grid keeps: the caller builds it itself; the fold
 * starts over, coarser, at the next update), or -1 (memory).
 */
int	 tpe_fold_joint(struct tpe_fold *, const struct search *s,
	    const struct history *h, double bw, struct parzen *pz);
/*
 * After tpe_fold_update(): the binned estimator of parameter i over the
 * bad group, the same as parzen_init_binned() over its trials' internal
 * coordinates in history order gives.  Return 0 or -1 (memory).
 */
int	 tpe_fold_estimator(struct tpe_fold *, const struct search *s,
	    const struct history *h, size_t i, struct parzen *pz);

/*
 * Split the history as conf says: *below (nb trials, the good group) and
 * *above (na, the bad one), both in history order, caller frees both.
 * Return 1 while fewer than conf->startup trials count (nothing
 * allocated), 0, or -1 (memory).
 */
int	 tpe_split(const struct history *h, const struct tpe_conf *conf,
	    size_t **below, size_t *nb, size_t **above, size_t *na);

#endif
