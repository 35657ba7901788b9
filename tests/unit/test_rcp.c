/*
 * test_rcp.c: the tolerances of the guideline table (Student t and
 * Wilson intervals) and the arithmetic of reference convergence points,
 * on hand-made cases whose every figure was derived on paper (with the
 * printed t tables: t(0.975; 2) = 4.302653, t(0.95; 5) = 2.015048).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "rcp.h"
#include "tap.h"

/* Student's t and the intervals. */
static void
test_intervals(void)
{
	double	 v3[] = { 3, 4, 5 }, lo = 0, hi = 0;
	double	 one[] = { 7 };

	is_near(guide_t_cdf(0, 3), 0.5, 1e-12, "t cdf at 0 is 1/2");
	/* df 1 is Cauchy: P(T <= 1) = 3/4. */
	is_near(guide_t_cdf(1, 1), 0.75, 1e-10, "t cdf, df 1 (Cauchy)");
	/* df 2: P(T <= t) = 1/2 + t / (2 sqrt(2 + t^2)). */
	is_near(guide_t_cdf(-1.5, 2), 0.5 - 1.5 / (2 * sqrt(4.25)), 1e-10,
	    "t cdf, df 2, closed form");
	is_near(guide_t_quantile(0.975, 2), 4.302653, 1e-6,
	    "t quantile 0.975, df 2");
	is_near(guide_t_quantile(0.975, 4), 2.776445, 1e-6,
	    "t quantile 0.975, df 4");
	is_near(guide_t_quantile(0.05, 5), -2.015048, 1e-6,
	    "t quantile 0.05, df 5");
	ok(guide_ci_t(v3, 3, 0.95, &lo, &hi), "t interval of 3 values");
	/* mean 4, s 1: 4 -+ 4.302653 / sqrt(3). */
	is_near(lo, 4 - 4.302653 / sqrt(3), 1e-6, "t interval low");
	is_near(hi, 4 + 4.302653 / sqrt(3), 1e-6, "t interval high");
	ok(!guide_ci_t(one, 1, 0.95, &lo, &hi), "no t interval of 1 value");
	ok(guide_ci_wilson(2, 5, GUIDE_Z, &lo, &hi), "Wilson of 2 of 5");
	is_near(lo, 0.117622, 1e-5, "Wilson 2/5 low");
	is_near(hi, 0.769276, 1e-5, "Wilson 2/5 high");
	ok(guide_ci_wilson(5, 5, GUIDE_Z, &lo, &hi) && hi == 1 &&
	    fabs(lo - 0.565518) < 1e-5, "Wilson 5/5: [0.5655, 1]");
	ok(!guide_ci_wilson(0, 0, GUIDE_Z, &lo, &hi), "no Wilson of 0 runs");
}

/* A point of bs with n copies of epochs values. */
static struct rcp_point
pt(const char *bench, double bs, const double *ep, size_t n)
{
	struct rcp_point p;

	memset(&p, 0, sizeof(p));
	p.key = strdup("k");
	p.benchmark = strdup(bench);
	p.bs = bs;
	p.n = n;
	p.epochs = malloc(n * sizeof(double));
	memcpy(p.epochs, ep, n * sizeof(double));
	return p;
}

/*
 * One point of 6 runs {8 9 10 10 11 12}: olympic mean 10, population
 * stdev sqrt(10/6); reference runs 6 - 2 = 4, submission runs 5 - 2 = 3,
 * df 5: Min Epochs = 10 - 2.015048 * sqrt(5/3) * sqrt(1/4 + 1/3).
 */
static void
test_one_point(void)
{
	double		 ref[] = { 8, 9, 10, 10, 11, 12 };
	double		 pass[] = { 12, 7.5, 8.2, 8.8, 8.5 };
	double		 fail[] = { 7, 7.5, 7.8, 8, 9 };
	double		 miss1[] = { 9, INFINITY, 9, 9.5, 10 };
	double		 miss2[] = { 9, INFINITY, 9, INFINITY, 10 };
	double		 want = 10 - 2.015048 * sqrt(5.0 / 3) *
			    sqrt(1.0 / 4 + 1.0 / 3);
	struct rcp_point *p = malloc(sizeof(*p));
	struct rcp_set	 set;
	struct rcp_verdict v;

	*p = pt("x", 64, ref, 6);
	rcp_set_init(&set, p, 1, 5);
	is_near(set.pts[0].mean, 10, 1e-12, "RCP mean is the olympic mean");
	is_near(set.pts[0].stdev, sqrt(10.0 / 6), 1e-12,
	    "RCP stdev is the population one");
	is_near(set.pts[0].min_epochs, want, 1e-4,
	    "Min Epochs by the one-sided t test (8.0131)");
	rcp_check(&set, 64, pass, 5, 0, &v);
	ok(v.pass && v.how == RCP_FOUND, "olympic 8.5 >= 8.013 passes");
	is_near(v.subm_mean, 8.5, 1e-12, "submission olympic mean");
	is_near(v.norm, 10 / 8.5, 1e-12, "normalisation 10 / 8.5");
	rcp_check(&set, 64, fail, 5, 0, &v);
	ok(!v.pass, "olympic 7.767 < 8.013 fails");
	is_near(v.norm, 10 / (23.3 / 3), 1e-12, "its normalisation");
	rcp_check(&set, 64, miss1, 5, 0, &v);
	ok(v.converged && v.pass && fabs(v.subm_mean - 9.5) < 1e-12,
	    "one run not converged is dropped as the slowest");
	is_near(v.norm, 10 / 9.5, 1e-12, "and normalises by 10 / 9.5");
	rcp_check(&set, 64, miss2, 5, 0, &v);
	ok(!v.converged && !v.pass, "two runs not converged fail");
	rcp_release(&set);
}

/*
 * Points with equal runs (stdev 0, so Min Epochs = mean): BS 50 mean 12,
 * BS 100 mean 10, BS 200 mean 30, BS 300 mean 20.  Pruning drops 50
 * (below the fastest, 100) and 200 (30 > 15, the interpolation of 100
 * and 300).
 */
static void
test_prune_interp(void)
{
	double		 e12[] = { 12, 12, 12 }, e10[] = { 10, 10, 10 };
	double		 e30[] = { 30, 30, 30 }, e20[] = { 20, 20, 20 };
	double		 s14[] = { 14, 14, 14, 14, 14 };
	double		 s16[] = { 16, 16, 16, 16, 16 };
	double		 s11[] = { 11, 11, 11, 11, 11 };
	double		 s9[] = { 9, 9, 9, 9, 9 };
	struct rcp_point *p = malloc(4 * sizeof(*p));
	struct rcp_set	 set;
	struct rcp_verdict v;

	p[0] = pt("x", 200, e30, 3);
	p[1] = pt("x", 50, e12, 3);
	p[2] = pt("x", 300, e20, 3);
	p[3] = pt("x", 100, e10, 3);
	rcp_set_init(&set, p, 4, 5);
	ok(set.pts[0].bs == 50 && set.pts[3].bs == 300, "sorted by BS");
	ok(set.pts[0].pruned && !set.pts[1].pruned && set.pts[2].pruned &&
	    !set.pts[3].pruned, "pruned: 50 (below the fastest) and 200");
	rcp_check(&set, 200, s14, 5, 0, &v);
	ok(v.how == RCP_INTERP && !v.pass && v.ref.mean == 15,
	    "BS 200 pruned: interpolated mean 15, 14 fails");
	rcp_check(&set, 200, s16, 5, 0, &v);
	ok(v.how == RCP_INTERP && v.pass && v.norm == 1,
	    "16 passes, no normalisation");
	rcp_check(&set, 200, s16, 5, 1, &v);
	ok(v.how == RCP_FOUND && !v.pass && v.ref.mean == 30,
	    "full RCPs: BS 200 found, 16 < 30 fails");
	rcp_check(&set, 150, s14, 5, 0, &v);
	ok(v.how == RCP_INTERP && v.pass && v.ref.mean == 12.5 &&
	    v.norm == 1, "BS 150: interpolated 12.5, 14 passes");
	rcp_check(&set, 50, s11, 5, 0, &v);
	ok(v.how == RCP_SMALLER && v.pass, "BS 50 below every kept point: "
	    "11 >= 10 of BS 100 passes");
	rcp_check(&set, 50, s9, 5, 0, &v);
	ok(v.how == RCP_SMALLER && !v.pass, "9 < 10 fails");
	rcp_check(&set, 400, s16, 5, 0, &v);
	ok(v.how == RCP_MISSING && !v.pass, "BS 400 above every point fails");
	rcp_release(&set);
}

/* The real MLCommons file. */
static void
test_load(void)
{
	struct rcp_set	 set;
	char		 err[512];
	size_t		 i, kept = 0;

	ok(rcp_load("tests/fixtures/rcp/rcps_cosmoflow.json", NULL, 10, &set,
	    err, sizeof(err)) == 0, "loads rcps_cosmoflow.json");
	is_int(set.n, 5, "5 batch sizes");
	for (i = 0; i < set.n; i++)
		kept += !set.pts[i].pruned;
	/* 32: 7.9; 64 and 128 lie above the line from 32 to 512. */
	ok(kept == 3 && !set.pts[0].pruned && set.pts[1].pruned &&
	    set.pts[2].pruned, "pruned: 64 and 128");
	rcp_release(&set);
	ok(rcp_load("tests/fixtures/rcp/rcps_cosmoflow.json", "deepcam", 5,
	    &set, err, sizeof(err)) == -1 && strstr(err, "no entry for "
	    "benchmark 'deepcam'") != NULL, "another benchmark: %s", err);
}

int
main(void)
{
	test_intervals();
	test_one_point();
	test_prune_interp();
	test_load();
	return tap_done();
}
