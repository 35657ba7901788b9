/*
 * weights.h: a proxy trainer's parameters, every one in a single array
 * so that an optimizer is one loop over segments (layers), with the
 * gradient and the optimizer's state beside them.
 */
#ifndef HPOD_PROXY_WEIGHTS_H
#define HPOD_PROXY_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#define WEIGHTS_MAX_SEG	16	/* the most segments a model may have */

struct weights {
	size_t	 off[WEIGHTS_MAX_SEG + 1];	/* where segment i starts */
	float	*w;		/* parameters */
	float	*g;		/* gradient accumulated over a batch */
	float	*m, *v;		/* optimizer state, zero at first */
};

/*
 * Lay out nseg segments of size[i] parameters end to end in p, allocate
 * its arrays and initialise the parameters from s: He for a weight of
 * fan-in fanin[i], Xavier for the linear output segment out, 0 for a bias
 * (fan-in 0).  Return 0, or -1 when memory runs out; weights_free() in
 * both cases.
 */
int	 weights_alloc(struct weights *p, const size_t *size,
	    const int *fanin, int nseg, int out, uint64_t *s);
/* Free what weights_alloc allocated. */
void	 weights_free(struct weights *p);

#endif
