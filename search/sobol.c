/*
 * sobol.c: a Sobol' low-discrepancy sequence for space-filling sweeps.
 *
 * Point k, k being the number of trials already made, is the k-th point of
 * the sequence in its natural (not Gray-code) order, with the direction
 * numbers of Joe and Kuo (2008, file new-joe-kuo-6.21201) for up to
 * SOBOL_MAXDIM parameters.  Every coordinate is scrambled by a random
 * digital shift: its 32 bits are XORed with a word drawn from the campaign
 * seed alone.  The shift keeps the net property (any 2^m consecutive
 * points from k = 0 fall one in each of the 2^m elementary intervals of a
 * coordinate) and moves the first point off the corner of the space.
 * Point k depends only on the seed and k; mtpe's start-up suggests the
 * same points (sobol_point()).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "rng.h"
#include "search_impl.h"

#define SOBOL_BITS	32

/*
 * Joe-Kuo primitive polynomials and initial direction numbers for
 * dimensions 2 to SOBOL_MAXDIM: the degree s, the coefficients a and the
 * s initial odd numbers m_1 .. m_s.  Dimension 1 is van der Corput's.
 */
static const struct {
	unsigned	 s, a;
	unsigned	 m[8];
} sobol_jk[SOBOL_MAXDIM - 1] = {
	{ 1, 0, { 1 } },
	{ 2, 1, { 1, 3 } },
	{ 3, 1, { 1, 3, 1 } },
	{ 3, 2, { 1, 1, 1 } },
	{ 4, 1, { 1, 1, 3, 3 } },
	{ 4, 4, { 1, 3, 5, 13 } },
	{ 5, 2, { 1, 1, 5, 5, 17 } },
	{ 5, 4, { 1, 1, 5, 5, 5 } },
	{ 5, 7, { 1, 1, 7, 11, 19 } },
	{ 5, 11, { 1, 1, 5, 1, 1 } },
	{ 5, 13, { 1, 1, 1, 3, 11 } },
	{ 5, 14, { 1, 3, 5, 5, 31 } },
	{ 6, 1, { 1, 3, 3, 9, 7, 49 } },
	{ 6, 13, { 1, 1, 1, 15, 21, 21 } },
	{ 6, 16, { 1, 3, 1, 13, 27, 49 } },
	{ 6, 19, { 1, 1, 1, 15, 7, 5 } },
	{ 6, 22, { 1, 3, 1, 15, 13, 25 } },
	{ 6, 25, { 1, 1, 5, 5, 19, 61 } },
	{ 7, 1, { 1, 3, 7, 11, 23, 15, 103 } },
	{ 7, 4, { 1, 3, 7, 13, 13, 15, 69 } },
	{ 7, 7, { 1, 1, 3, 13, 7, 35, 63 } },
	{ 7, 8, { 1, 3, 5, 9, 1, 25, 53 } },
	{ 7, 14, { 1, 3, 1, 13, 9, 35, 107 } },
	{ 7, 19, { 1, 3, 1, 5, 27, 61, 31 } },
	{ 7, 21, { 1, 1, 5, 11, 19, 41, 61 } },
	{ 7, 28, { 1, 3, 5, 3, 3, 13, 69 } },
	{ 7, 31, { 1, 1, 7, 13, 1, 19, 1 } },
	{ 7, 32, { 1, 3, 7, 5, 13, 19, 59 } },
	{ 7, 37, { 1, 1, 3, 9, 25, 29, 41 } },
	{ 7, 41, { 1, 3, 5, 13, 23, 1, 55 } },
	{ 7, 42, { 1, 3, 7, 3, 13, 59, 17 } },
};

/* Fill the direction numbers of dimension d (0-based). */
static void
sobol_directions(uint32_t *v, size_t d)
{
	unsigned s, a, j, k;

	if (d == 0) {
		for (j = 0; j < SOBOL_BITS; j++)
			v[j] = (uint32_t)1 << (SOBOL_BITS - 1 - j);
		return;
	}
	s = sobol_jk[d - 1].s;
	a = sobol_jk[d - 1].a;
	for (j = 0; j < s; j++)
		v[j] = (uint32_t)sobol_jk[d - 1].m[j] << (SOBOL_BITS - 1 - j);
	for (j = s; j < SOBOL_BITS; j++) {
		v[j] = v[j - s] ^ (v[j - s] >> s);
		for (k = 1; k < s; k++)
			if ((a >> (s - 1 - k)) & 1)
				v[j] ^= v[j - k];
	}
}

/* Return coordinate d of point k of the unscrambled sequence, as bits. */
uint32_t
sobol_bits(uint64_t k, size_t d)
{
	uint32_t v[SOBOL_BITS], x = 0;
	unsigned j;

	if (d >= SOBOL_MAXDIM)
		return 0;
	sobol_directions(v, d);
	for (j = 0; j < SOBOL_BITS && k != 0; j++, k >>= 1)
		if (k & 1)
			x ^= v[j];
	return x;
}

/* Map a unit coordinate u in [0, 1) onto parameter p. */
static double
sobol_map(const struct param_def *p, double u)
{
	double v;

	switch (p->type) {
	case PARAM_FLOAT:
		v = space_lerp(p, p->min, p->max, u);
		return fmin(fmax(v, p->min), p->max);
	case PARAM_INT:
		if (p->scale == SCALE_LOG)
			v = floor(space_lerp(p, p->min, p->max + 1, u));
		else
			v = p->min + floor(u * (p->max - p->min + 1));
		return fmin(fmax(v, p->min), p->max);
	case PARAM_CHOICE:
		v = floor(u * (double)p->nchoices);
		return fmin(v, (double)p->nchoices - 1);
	}
	return p->min;
}

/* Check the dimension; a point depends only on the seed and its number. */
static int
sobol_init(struct search *s, char *err, size_t errlen)
{
	if (s->space->n > SOBOL_MAXDIM)
		return search_error(err, errlen, "sobol: the space has %zu "
		    "parameters; at most %d are supported", s->space->n,
		    SOBOL_MAXDIM);
	s->state = NULL;
	s->size = 0;
	return 0;
}

/*
 * Write point k of the sequence over sp, each coordinate shifted by a
 * word drawn from seed; return 0, or -1 (x untouched) beyond
 * SOBOL_MAXDIM parameters.
 */
int
sobol_point(const struct space *sp, uint64_t seed, uint64_t k, double *x)
{
	struct rng r;
	uint32_t shift;
	size_t d;

	if (sp->n > SOBOL_MAXDIM)
		return -1;
	rng_seed(&r, seed, UINT64_C(0x50b01));
	for (d = 0; d < sp->n; d++) {
		shift = (uint32_t)(rng_next(&r) >> 32);
		x[d] = sobol_map(&sp->params[d],
		    (double)(shift ^ sobol_bits(k, d)) * 0x1.0p-32);
	}
	return 0;
}

/* Write point number history->n of the shifted sequence. */
static int
sobol_suggest(struct search *s, const struct history *h, double *x)
{
	return sobol_point(s->space, s->seed, h != NULL ? h->n : 0, x) == 0 ?
	    0 : random_ops.suggest(s, h, x);
}

const struct search_ops sobol_ops = {
	.name = "sobol",
	.init = sobol_init,
	.free = NULL,
	.suggest = sobol_suggest,
};
