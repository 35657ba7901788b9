/*
 * random.c: random search.  Point k, k being the number of trials already
 * made, is drawn from a generator seeded with (seed, k) alone, so it does
 * not depend on what the history contains.
 */
#include <math.h>
#include <stdint.h>

#include "rng.h"
#include "search_impl.h"

/* Return a uniform integer in [0, n), n > 0, without modulo bias. */
static uint64_t
random_below(struct rng *r, uint64_t n)
{
	uint64_t threshold, v;

	threshold = -n % n;		/* 2^64 mod n */
	do
		v = rng_next(r);
	while (v < threshold);
	return v % n;
}

/* Draw a float coordinate, uniform or log-uniform in [min, max]. */
static double
random_float(struct rng *r, const struct param_def *p)
{
	double v;

	v = space_lerp(p, p->min, p->max, rng_uniform(r));
	return fmin(fmax(v, p->min), p->max);
}

/* Draw an int coordinate, uniform or log-uniform in [min, max]. */
static double
random_int(struct rng *r, const struct param_def *p)
{
	double u, v;

	if (p->scale == SCALE_LINEAR)
		v = p->min + (double)random_below(r,
		    (uint64_t)(p->max - p->min) + 1);
	else {
		u = rng_uniform(r);
		v = floor(space_lerp(p, p->min, p->max + 1, u));
	}
	return fmin(fmax(v, p->min), p->max);
}

/* Nothing to prepare: the size is unbounded and there is no state. */
static int
random_init(struct search *s, char *err, size_t errlen)
{
	s->size = 0;
	return 0;
}

/* Write point number history->n, drawn from the stream (seed, n). */
static int
random_suggest(struct search *s, const struct history *h, double *x)
{
	const struct space *sp = s->space;
	const struct param_def *p;
	struct rng r;
	size_t i;

	rng_seed(&r, s->seed, h != NULL ? h->n : 0);
	for (i = 0; i < sp->n; i++) {
		p = &sp->params[i];
		switch (p->type) {
		case PARAM_FLOAT:
			x[i] = random_float(&r, p);
			break;
		case PARAM_INT:
			x[i] = random_int(&r, p);
			break;
		case PARAM_CHOICE:
			x[i] = (double)random_below(&r, p->nchoices);
			break;
		}
	}
	return 0;
}

const struct search_ops random_ops = {
	.name = "random",
	.init = random_init,
	.free = NULL,
	.suggest = random_suggest,
};
