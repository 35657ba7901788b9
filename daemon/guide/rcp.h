/*
 * rcp.h: reference convergence points (RCPs) the way MLCommons'
 * mlperf_logging rcp_checker uses them (see hpoctl(1), "rcp-check").
 *
 * An RCP file is a JSON object of entries, each with "Benchmark", "BS"
 * (global batch size) and "Epochs to converge" (one number per reference
 * run): MLCommons' rcps_*.json or hpod's own `report --table --format
 * rcp`.  Each point's mean is the olympic mean of its epochs (one lowest
 * and one highest dropped), its stdev the population standard deviation
 * of all of them, and its "Min Epochs" the smallest submission mean that
 * a one-sided two-sample Student t test (equal variances, alpha 0.05)
 * cannot tell faster than the reference.  Pruning keeps the points that
 * lie on the fast side of the interpolation of their neighbours.
 * A set of submission runs passes when its olympic mean of epochs to
 * converge is at least the Min Epochs of the point of its batch size, or
 * of the interpolation between the nearest points around it.  Pure
 * arithmetic but for rcp_load().
 */
#ifndef HPOD_RCP_H
#define HPOD_RCP_H

#include <stddef.h>

/* One reference point and its statistics. */
struct rcp_point {
	char		*key;		/* the entry's name, or "" */
	char		*benchmark;
	double		 bs;
	double		*epochs;	/* sorted */
	size_t		 n;
	int		 runs;		/* hpod.runs of an export, else n */
	double		 mean;		/* olympic */
	double		 stdev;		/* population, all runs */
	double		 min_epochs;
	double		 max_speedup;	/* mean / min_epochs */
	int		 pruned;	/* dropped by the pruning */
};

/* The points of one benchmark, by batch size. */
struct rcp_set {
	struct rcp_point *pts;
	size_t		 n;
	int		 subm_runs;	/* runs of a submission */
};

/* Where the reference of a check came from. */
enum rcp_how {
	RCP_FOUND,		/* a point of the batch size */
	RCP_INTERP,		/* interpolated between two points */
	RCP_SMALLER,		/* below every point: the smallest one's */
	RCP_MISSING,		/* above every point */
	RCP_NONE		/* no point at all */
};

struct rcp_verdict {
	int		 pass;
	enum rcp_how	 how;
	int		 converged;	/* a set with at most one miss */
	double		 subm_mean;	/* olympic, INFINITY if not */
	struct rcp_point ref;		/* what was compared: borrowed
					   strings, no epochs */
	double		 norm;		/* ref.mean / subm_mean, at least 1 */
	char		 msg[160];
};

/*
 * Read the entries of benchmark (NULL: the first entry's) from the RCP
 * file at path into set, with subm_runs submission runs (> 2) for the
 * statistics.  Return 0, or -1 with err naming the file and key.
 */
int	 rcp_load(const char *path, const char *benchmark, int subm_runs,
	    struct rcp_set *, char *err, size_t errlen);
/*
 * Read every entry of the RCP file at path into a malloc'ed array *pts of
 * *n, in file order (free each key, benchmark and epochs, then the
 * array).  Return 0, or -1 with err.
 */
int	 rcp_read(const char *path, struct rcp_point **pts, size_t *n,
	    char *err, size_t errlen);
/* Build a set from points (taken over: rcp_release() frees them). */
void	 rcp_set_init(struct rcp_set *, struct rcp_point *, size_t n,
	    int subm_runs);
void	 rcp_release(struct rcp_set *);

/*
 * The smallest mean of n_subm submission runs that a one-sided t test
 * at alpha 0.05 does not find faster than a reference of mean, stdev and
 * n_ref runs (a bisection to 1e-4, as rcp_checker does).
 */
double	 rcp_min_mean(double mean, double stdev, int n_ref, int n_subm);
/*
 * Sort a point's epochs and fill its mean, stdev, Min Epochs and Max
 * Speedup for submissions of subm_runs runs.
 */
void	 rcp_point_stats(struct rcp_point *, int subm_runs);
/* The olympic mean of n sorted values (INFINITY counts as a value). */
double	 rcp_olympic(const double *sorted, size_t n);

/*
 * Check n submission epochs (INFINITY: a run that did not converge) of
 * batch size bs against the set, pruned points only unless full.
 */
void	 rcp_check(const struct rcp_set *, double bs, const double *epochs,
	    size_t n, int full, struct rcp_verdict *);
/* The name of how. */
const char *rcp_how_name(enum rcp_how);

#endif
