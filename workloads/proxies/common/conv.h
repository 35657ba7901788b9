/*
 * conv.h: the backward pass of one tap of a convolution, shared by the
 * proxy trainers' hand-written backprop.
 */
#ifndef HPOD_PROXY_CONV_H
#define HPOD_PROXY_CONV_H

/*
 * Backpropagate the gradient d (nout channels) of one tap of a
 * convolution whose input was a (nin channels) and whose kernel at that
 * tap is wk (nin x nout): add the kernel's gradient to gk and the gradient
 * carried back to the input to da.  The parameters are restrict so that
 * the compiler may vectorize the kernel gradient; inline so that it sees
 * the trainer's constant channel counts.
 */
static inline void
conv_tap_backward(float *restrict gk, float *restrict da,
    const float *restrict a, const float *restrict wk,
    const float *restrict d, int nin, int nout)
{
	int	 ci, co;

	for (ci = 0; ci < nin; ci++) {
		float	 s = 0;

		for (co = 0; co < nout; co++)
			gk[ci * nout + co] += a[ci] * d[co];
		for (co = 0; co < nout; co++)
			s += wk[ci * nout + co] * d[co];
		da[ci] += s;
	}
}

#endif
