/*
 * guide_stats.c: the arithmetic of the guideline table and the report:
 * means, the olympic mean, standard deviation, rates and HPC AI500's
 * Valid FLOPS.  Pure functions, no ledger.
 */
#include <math.h>
#include <string.h>

#include "guide.h"

/* The plain mean; NAN for no value. */
double
guide_mean(const double *v, size_t n)
{
	double	 sum = 0;
	size_t	 i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/*
 * The olympic mean: drop one lowest and one highest value and average the
 * rest (MLPerf's scoring); with fewer than 3 values, the plain mean.
 */
double
guide_olympic_mean(const double *v, size_t n)
{
	double	 sum = 0, lo, hi;
	size_t	 i;

	if (n < 3)
		return guide_mean(v, n);
	lo = hi = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (sum - lo - hi) / (double)(n - 2);
}

/* The sample standard deviation (divided by n - 1); 0 under 2 values. */
double
guide_std(const double *v, size_t n)
{
	double	 m, ss = 0;
	size_t	 i;

	if (n < 2)
		return 0;
	m = guide_mean(v, n);
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)(n - 1));
}

/* Every summary of a set of values. */
void
guide_stats(const double *v, size_t n, struct guide_stats *s)
{
	size_t	 i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0)
		return;
	s->olympic_mean = guide_olympic_mean(v, n);
	s->mean = guide_mean(v, n);
	s->std = guide_std(v, n);
	s->min = s->max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->has_ci = guide_ci_t(v, n, GUIDE_LEVEL, &s->ci_low, &s->ci_high);
	/*
	 * What is summarised here (epochs, seconds) is never negative, nor
	 * is its mean: the interval stops at 0, where a few spread values
	 * (2, 4 and 10 epochs) would reach -5.
	 */
	if (s->has_ci && s->ci_low < 0)
		s->ci_low = 0;
}

/* successes / runs; NAN when there is no run. */
double
guide_rate(int successes, int runs)
{
	return runs > 0 ? (double)successes / runs : NAN;
}

/* Whether a value meets the target for the goal. */
int
guide_meets(double value, int maximize, double target)
{
	if (!isfinite(value))
		return 0;
	return maximize ? value >= target : value <= target;
}

/* HPC AI500's quality ratio: above 1 when the target was beaten. */
double
guide_quality_ratio(double achieved, int maximize, double target)
{
	if (maximize)
		return target != 0 ? achieved / target : NAN;
	return achieved != 0 ? target / achieved : NAN;
}

/* Valid FLOPS = FLOPS * q^n with n = 5 (HPC AI500). */
double
guide_valid_flops(double flops, double q)
{
	return flops * pow(q, 5);
}
