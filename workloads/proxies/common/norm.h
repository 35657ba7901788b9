/*
 * norm.h: standardizing a trainer's inputs, channel by channel, with the
 * statistics of its training set.
 */
#ifndef HPOD_PROXY_NORM_H
#define HPOD_PROXY_NORM_H

#include <stddef.h>

/*
 * Standardize each channel c of the ntrain positions of train and the
 * neval positions of eval (nch interleaved values a position) to
 * (x - mu[c]) / sd[c], mu[c] and sd[c] being the mean and standard
 * deviation of channel c over the training set alone; mu and sd hold nch
 * values each.
 */
void	 norm_sets(float *train, size_t ntrain, float *eval, size_t neval,
	    int nch, double *mu, double *sd);

#endif
