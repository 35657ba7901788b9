/*
 * rcp.c: reference convergence points and the check of a submission
 * against them (see rcp.h).  The arithmetic follows mlperf_logging's
 * rcp_checker: olympic means, population standard deviations, the
 * bisection for the smallest acceptable mean, the pruning of slow points,
 * linear interpolation of mean and stdev between batch sizes, and the
 * normalisation factor of a submission faster than the reference mean.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "rcp.h"
#include "xmalloc.h"

#define RCP_ALPHA	0.05
#define RCP_TOLERANCE	0.0001

static const char *const rcp_hows[] = {
	"found", "interpolated", "smaller", "missing", "none"
};

/* The name of how. */
const char *
rcp_how_name(enum rcp_how h)
{
	return rcp_hows[h];
}

/* Compare two doubles for qsort(). */
static int
rcp_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The olympic mean of sorted values; the plain mean under 3. */
double
rcp_olympic(const double *v, size_t n)
{
	double	 sum = 0;
	size_t	 i, lo = n >= 3 ? 1 : 0, hi = n >= 3 ? n - 1 : n;

	if (n == 0)
		return NAN;
	for (i = lo; i < hi; i++)
		sum += v[i];
	return sum / (double)(hi - lo);
}

/* The population standard deviation (divided by n). */
static double
rcp_pstd(const double *v, size_t n)
{
	double	 m = 0, ss = 0;
	size_t	 i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)n);
}

/*
 * The one-sided p value that a mean of n1 runs is below a mean of n2
 * runs, both with standard deviation s (the pooled t test).
 */
static double
rcp_p_below(double m1, double m2, double s, int n1, int n2)
{
	double	 t = (m1 - m2) / (s * sqrt(1.0 / n1 + 1.0 / n2));

	/* The two-sided p halved below, its complement above: the CDF. */
	return guide_t_cdf(t, (double)(n1 + n2 - 2));
}

/* The smallest acceptable submission mean (see rcp.h). */
double
rcp_min_mean(double mean, double stdev, int n_ref, int n_subm)
{
	double	 lo = 0, hi = mean, mid = mean / 2;

	if (stdev == 0 || n_ref < 1 || n_subm < 1 || n_ref + n_subm < 3)
		return mean;
	while (hi - lo > RCP_TOLERANCE) {
		/* rcp_checker passes the reference's runs with the mid. */
		if (rcp_p_below(mid, mean, stdev, n_ref, n_subm) > RCP_ALPHA)
			hi = mid;
		else
			lo = mid;
		mid = (lo + hi) / 2;
	}
	return mid;
}

/* Fill a point's statistics from its epochs. */
void
rcp_point_stats(struct rcp_point *p, int subm_runs)
{
	qsort(p->epochs, p->n, sizeof(*p->epochs), rcp_cmp);
	p->mean = rcp_olympic(p->epochs, p->n);
	p->stdev = rcp_pstd(p->epochs, p->n);
	p->min_epochs = rcp_min_mean(p->mean, p->stdev, (int)p->n - 2,
	    subm_runs - 2);
	p->max_speedup = p->min_epochs > 0 ? p->mean / p->min_epochs : 1;
}

/* The point interpolated at bs between lo and hi (no epochs). */
static void
rcp_interp(const struct rcp_point *lo, const struct rcp_point *hi,
    double bs, int subm_runs, struct rcp_point *out)
{
	double	 f = (bs - lo->bs) / (hi->bs - lo->bs);

	memset(out, 0, sizeof(*out));
	out->key = (char *)"";
	out->benchmark = lo->benchmark;
	out->bs = bs;
	out->mean = lo->mean + f * (hi->mean - lo->mean);
	out->stdev = lo->stdev + f * (hi->stdev - lo->stdev);
	/* rcp_checker counts twice the submission runs for the reference. */
	out->min_epochs = rcp_min_mean(out->mean, out->stdev, subm_runs * 2,
	    subm_runs - 2);
	out->max_speedup = out->min_epochs > 0 ? out->mean / out->min_epochs :
	    1;
}

/*
 * Prune: drop the points below the batch size of the fastest one, then
 * every point slower than the interpolation of its kept neighbours.
 */
static void
rcp_prune(struct rcp_set *set)
{
	struct rcp_point	 ip;
	size_t			*keep, nk = 0, i, fast = 0;

	if (set->n == 0)
		return;
	for (i = 1; i < set->n; i++)
		if (set->pts[i].mean < set->pts[fast].mean)
			fast = i;
	keep = xcalloc(set->n, sizeof(*keep));
	for (i = 0; i < set->n; i++) {
		set->pts[i].pruned = i < fast;
		if (i >= fast)
			keep[nk++] = i;
	}
	i = 1;
	while (nk >= 3 && i < nk - 1) {
		rcp_interp(&set->pts[keep[i - 1]], &set->pts[keep[i + 1]],
		    set->pts[keep[i]].bs, set->subm_runs, &ip);
		if (set->pts[keep[i]].mean > ip.mean) {
			set->pts[keep[i]].pruned = 1;
			memmove(keep + i, keep + i + 1, (nk - i - 1) *
			    sizeof(*keep));
			nk--;
		} else
			i++;
	}
	free(keep);
}

/* Sort points by batch size for qsort(). */
static int
rcp_point_cmp(const void *a, const void *b)
{
	const struct rcp_point *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* Build a set from points, taken over. */
void
rcp_set_init(struct rcp_set *set, struct rcp_point *pts, size_t n,
    int subm_runs)
{
	size_t	 i;

	set->pts = pts;
	set->n = n;
	set->subm_runs = subm_runs;
	if (n == 0)
		return;
	qsort(pts, n, sizeof(*pts), rcp_point_cmp);
	for (i = 0; i < n; i++)
		rcp_point_stats(&pts[i], subm_runs);
	rcp_prune(set);
}

/* Free a set. */
void
rcp_release(struct rcp_set *set)
{
	size_t	 i;

	for (i = 0; i < set->n; i++) {
		free(set->pts[i].key);
		free(set->pts[i].benchmark);
		free(set->pts[i].epochs);
	}
	free(set->pts);
	memset(set, 0, sizeof(*set));
}

/* Compare the submission mean with ref and fill the verdict. */
static void
rcp_eval(const struct rcp_point *ref, struct rcp_verdict *v)
{
	v->ref = *ref;
	v->ref.epochs = NULL;
	v->ref.n = 0;
	v->norm = ref->mean / v->subm_mean;
	if (!(v->norm >= 1))
		v->norm = 1;
	v->pass = v->subm_mean >= ref->min_epochs;
}

/* Check a submission against the set. */
void
rcp_check(const struct rcp_set *set, double bs, const double *epochs,
    size_t n, int full, struct rcp_verdict *v)
{
	const struct rcp_point	*lo = NULL, *hi = NULL, *min = NULL, *p;
	struct rcp_point	 ip;
	double			*s;
	size_t			 i, miss = 0;

	memset(v, 0, sizeof(*v));
	v->how = RCP_NONE;
	v->subm_mean = INFINITY;
	v->norm = 1;
	s = xcalloc(n ? n : 1, sizeof(*s));
	for (i = 0; i < n; i++) {
		s[i] = epochs[i];
		miss += !isfinite(s[i]);
	}
	qsort(s, n, sizeof(*s), rcp_cmp);
	v->converged = miss <= 1 && n >= 3;
	if (v->converged)
		v->subm_mean = rcp_olympic(s, n);
	free(s);
	if (!v->converged) {
		snprintf(v->msg, sizeof(v->msg), n < 3 ? "fewer than 3 runs" :
		    "insufficient convergence: %zu of %zu runs did not "
		    "converge", miss, n);
		return;
	}
	for (i = 0; i < set->n; i++) {
		p = &set->pts[i];
		if (p->pruned && !full)
			continue;
		if (min == NULL)
			min = p;
		if (p->bs == bs) {
			v->how = RCP_FOUND;
			rcp_eval(p, v);
			snprintf(v->msg, sizeof(v->msg), "RCP found");
			return;
		}
		if (p->bs < bs)
			lo = p;
		else if (hi == NULL)
			hi = p;
	}
	if (lo != NULL && hi != NULL) {
		v->how = RCP_INTERP;
		rcp_interp(lo, hi, bs, set->subm_runs, &ip);
		rcp_eval(&ip, v);
		snprintf(v->msg, sizeof(v->msg), "RCP interpolated between "
		    "batch sizes %g and %g", lo->bs, hi->bs);
	} else if (hi != NULL) {
		v->how = RCP_SMALLER;
		rcp_eval(min, v);
		if (v->pass)
			snprintf(v->msg, sizeof(v->msg), "no RCP, but slower "
			    "convergence than at the smallest batch size %g",
			    min->bs);
		else
			snprintf(v->msg, sizeof(v->msg), "missing RCP: submit "
			    "one with BS = %g", bs);
	} else if (lo != NULL) {
		v->how = RCP_MISSING;
		snprintf(v->msg, sizeof(v->msg), "missing RCP: submit one "
		    "with BS = %g", bs);
	} else
		snprintf(v->msg, sizeof(v->msg), "no RCP at all");
}
