/*
 * weights.c: a proxy trainer's parameter array, its gradient and its
 * optimizer state: layout, allocation, initialisation.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"
#include "weights.h"

/* He, Xavier or zero initialisation of the segments of p from s. */
static void
weights_init(struct weights *p, const int *fanin, int nseg, int out,
    uint64_t *s)
{
	size_t	 i;
	int	 seg;

	for (seg = 0; seg < nseg; seg++) {
		double	 sd = fanin[seg] ? sqrt(2.0 / fanin[seg]) : 0;

		if (seg == out)		/* linear output: Xavier, not He */
			sd = sqrt(1.0 / fanin[seg]);
		for (i = p->off[seg]; i < p->off[seg + 1]; i++)
			p->w[i] = (float)(sd * rng_normal(s));
	}
}

/* Lay out, allocate and initialise p; 0 or -1 (see weights.h). */
int
weights_alloc(struct weights *p, const size_t *size, const int *fanin,
    int nseg, int out, uint64_t *s)
{
	size_t	 np;
	int	 seg;

	memset(p, 0, sizeof(*p));
	if (nseg > WEIGHTS_MAX_SEG)
		return -1;
	for (seg = 0; seg < nseg; seg++)
		p->off[seg + 1] = p->off[seg] + size[seg];
	np = p->off[nseg];
	p->w = calloc(np, sizeof(float));
	p->g = calloc(np, sizeof(float));
	p->m = calloc(np, sizeof(float));
	p->v = calloc(np, sizeof(float));
	if (p->w == NULL || p->g == NULL || p->m == NULL || p->v == NULL)
		return -1;
	weights_init(p, fanin, nseg, out, s);
	return 0;
}

/* Free what weights_alloc allocated. */
void
weights_free(struct weights *p)
{
	free(p->w);
	free(p->g);
	free(p->m);
	free(p->v);
}
