/*
 * guide_ci.c: the tolerances of the guideline table: Student's t
 * distribution (its CDF through the regularised incomplete beta
 * function, its quantiles by bisection), the t interval of a mean and
 * the Wilson score interval of a success rate.  Pure functions.
 */
#include <math.h>

#include "guide.h"

#define CI_EPS		1e-15
#define CI_TINY		1e-300
#define CI_ITER		300

/* Keep a Lentz term away from zero. */
static double
ci_nonzero(double v)
{
	return fabs(v) < CI_TINY ? CI_TINY : v;
}

/*
 * One step of the modified Lentz method with numerator num: update the
 * ratios *c and *d and return the factor d * c of the fraction's value.
 */
static double
ci_lentz(double num, double *c, double *d)
{
	*d = 1 / ci_nonzero(1 + num * *d);
	*c = ci_nonzero(1 + num / *c);
	return *d * *c;
}

/*
 * The continued fraction of the incomplete beta function (the modified
 * Lentz method); it converges quickly for x < (a + 1) / (a + b + 2).
 */
static double
ci_beta_cf(double a, double b, double x)
{
	double	 c = 1, d, h, step;
	int	 m, m2;

	d = 1 / ci_nonzero(1 - (a + b) * x / (a + 1));
	h = d;
	for (m = 1; m <= CI_ITER; m++) {
		m2 = 2 * m;
		/* The even step, then the odd one. */
		h *= ci_lentz(m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
		    &c, &d);
		step = ci_lentz(-(a + m) * (a + b + m) * x /
		    ((a + m2) * (a + m2 + 1)), &c, &d);
		h *= step;
		if (fabs(step - 1) < CI_EPS)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
double
guide_ibeta(double a, double b, double x)
{
	double	 front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * ci_beta_cf(a, b, x) / a;
	return 1 - front * ci_beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom. */
double
guide_t_cdf(double t, double df)
{
	double	 tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * guide_ibeta(df / 2, 0.5, df / (df + t * t));
	return t < 0 ? tail : 1 - tail;
}

/* The t with P(T <= t) = p, by bisection of the CDF. */
double
guide_t_quantile(double p, double df)
{
	double	 lo = -1e7, hi = 1e7, mid;
	int	 i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	for (i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fabs(lo)); i++) {
		mid = (lo + hi) / 2;
		if (guide_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The two-sided Student t interval at level (0.95) of the mean of n
 * values: mean +- t(1 - (1 - level) / 2, n - 1) * std / sqrt(n).  0 and
 * no interval under 2 values.
 */
int
guide_ci_t(const double *v, size_t n, double level, double *lo, double *hi)
{
	double	 m, h;

	if (n < 2)
		return 0;
	m = guide_mean(v, n);
	h = guide_t_quantile(1 - (1 - level) / 2, (double)(n - 1)) *
	    guide_std(v, n) / sqrt((double)n);
	*lo = m - h;
	*hi = m + h;
	return 1;
}

/*
 * The Wilson score interval of successes out of runs at the normal
 * quantile z (1.96 for 95%); 0 and no interval without a run.
 */
int
guide_ci_wilson(int successes, int runs, double z, double *lo, double *hi)
{
	double	 n = runs, p, z2 = z * z, c, h;

	if (runs <= 0)
		return 0;
	p = successes / n;
	c = (p + z2 / (2 * n)) / (1 + z2 / n);
	h = z / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	/* Exact at the ends: no success, or no failure. */
	*lo = successes == 0 ? 0 : fmax(0, c - h);
	*hi = successes == runs ? 1 : fmin(1, c + h);
	return 1;
}
