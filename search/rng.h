/*
 * rng.h: a small counter-based pseudo-random generator (splitmix64 seeding
 * xoshiro256**), so that a stream can be derived from (seed, index) alone.
 */
#ifndef HPOD_RNG_H
#define HPOD_RNG_H

#include <stdint.h>

struct rng {
	uint64_t	s[4];
};

/* Seed the generator from a seed and a stream index (e.g. trial number). */
void	 rng_seed(struct rng *, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *);
/* Uniform double in [0, 1). */
double	 rng_uniform(struct rng *);
/* Standard normal deviate. */
double	 rng_normal(struct rng *);

#endif
