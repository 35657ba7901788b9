/*
 * norm.h: standardizing a trainer's inputs, channel by channel, with the
 * statistics of its training set.
 */
#ifndef HPOD_PROXY_NORM_H
#define HPOD_PROXY_NORM_H

#include <stddef.h>

/*
 * The mean mu[c] and standard deviation sd[c] of each of the nch channels
 * of x, which holds n positions of nch interleaved values.
 */
void	 norm_stats(const float *x, size_t n, int nch, double *mu,
	    double *sd);
/* Standardize each channel c of x (as above) to (x - mu[c]) / sd[c]. */
void	 norm_apply(float *x, size_t n, int nch, const double *mu,
	    const double *sd);

#endif
