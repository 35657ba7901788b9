/*
 * powerlaw.c: where a learning curve is heading, from a power law fitted
 * to its best values so far (the target stopper's "curve": "power").
 *
 * Learning curves flatten roughly as a power of the step: best(t) = a +
 * b t^-c with b >= 0 (Domhan et al. 2015 and the learning-curve
 * literature fit such families).  For each exponent c of a fixed set, a
 * and b come from least squares in closed form (a straight line in
 * x = t^-c); the prediction at the last step is a + b T^-c.  Of the fits
 * whose curve improves (b >= 0), the most hopeful prediction is kept:
 * the smallest exponent flattens slowest and promises most, so the bound
 * errs on the side of going on, as the linear rule's fastest rate does.
 *
 * Pure code; values in the "smaller is better" direction.
 */
#include <math.h>
#include <stddef.h>

#include "stop_impl.h"

/* The exponents tried, slowest flattening first. */
static const double powerlaw_exps[] = { 0.1, 0.25, 0.5, 1, 2 };

#define POWERLAW_NEXPS	(sizeof(powerlaw_exps) / sizeof(powerlaw_exps[0]))

/*
 * The most hopeful value at step last of the power laws fitted to the n
 * points (t[i], y[i]), t ascending and >= 1, smaller y better: NaN when
 * fewer than three points or no fit improves.
 */
double
powerlaw_bound(const double *t, const double *y, size_t n, double last)
{
	double best = NAN, c, mx, my, sxx, sxy, x, a, b, p;
	size_t i, k;

	if (n < 3 || !(last >= t[n - 1]))
		return NAN;
	for (k = 0; k < POWERLAW_NEXPS; k++) {
		c = powerlaw_exps[k];
		mx = my = 0;
		for (i = 0; i < n; i++) {
			mx += pow(t[i], -c);
			my += y[i];
		}
		mx /= (double)n;
		my /= (double)n;
		sxx = sxy = 0;
		for (i = 0; i < n; i++) {
			x = pow(t[i], -c) - mx;
			sxx += x * x;
			sxy += x * (y[i] - my);
		}
		if (!(sxx > 0))
			continue;
		b = sxy / sxx;
		if (!(b >= 0))
			continue;
		a = my - b * mx;
		p = a + b * pow(last, -c);
		if (isfinite(p) && (isnan(best) || p < best))
			best = p;
	}
	return best;
}
