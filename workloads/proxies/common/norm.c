/*
 * norm.c: per-channel mean, standard deviation and standardization of the
 * proxy trainers' inputs.
 */
#include <math.h>

#include "norm.h"

/* The mean and standard deviation of each channel of x. */
static void
norm_stats(const float *x, size_t n, int nch, double *mu, double *sd)
{
	size_t	 i;
	int	 c;

	for (c = 0; c < nch; c++)
		mu[c] = sd[c] = 0;
	for (i = 0; i < n; i++)
		for (c = 0; c < nch; c++)
			mu[c] += x[i * nch + c];
	for (c = 0; c < nch; c++)
		mu[c] /= (double)n;
	for (i = 0; i < n; i++)
		for (c = 0; c < nch; c++)
			sd[c] += (x[i * nch + c] - mu[c]) *
			    (x[i * nch + c] - mu[c]);
	for (c = 0; c < nch; c++)
		sd[c] = sqrt(sd[c] / (double)n);
}

/* Standardize each channel of x with mu and sd. */
static void
norm_apply(float *x, size_t n, int nch, const double *mu, const double *sd)
{
	size_t	 i;
	int	 c;

	for (i = 0; i < n; i++)
		for (c = 0; c < nch; c++)
			x[i * nch + c] = (float)((x[i * nch + c] - mu[c]) /
			    sd[c]);
}

/* Standardize train and eval with the statistics of train. */
void
norm_sets(float *train, size_t ntrain, float *eval, size_t neval, int nch,
    double *mu, double *sd)
{
	norm_stats(train, ntrain, nch, mu, sd);
	norm_apply(train, ntrain, nch, mu, sd);
	norm_apply(eval, neval, nch, mu, sd);
}
