/*
 * rng.c: xoshiro256** seeded by splitmix64 from a (seed, stream) pair.
 */
#include <math.h>
#include <stdint.h>

#include "rng.h"

#define RNG_GOLDEN	0x9e3779b97f4a7c15ULL

/* Return the splitmix64 finaliser of z, a bijection of 64-bit words. */
static uint64_t
rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Advance a splitmix64 state and return its next output. */
static uint64_t
rng_splitmix(uint64_t *x)
{
	*x += RNG_GOLDEN;
	return rng_mix(*x);
}

/* Rotate x left by k bits. */
static uint64_t
rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/*
 * Seed the generator from a seed and a stream index.  For a fixed seed,
 * distinct streams give distinct splitmix64 states, and the other way round.
 */
void
rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x;
	int i;

	x = seed ^ rng_mix(stream + RNG_GOLDEN);
	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix(&x);
}

/* Return the next 64-bit output of xoshiro256**. */
uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result, t;

	result = rng_rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Return a uniform double in [0, 1) made of the top 53 bits of a draw. */
double
rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Return a standard normal deviate by the Box-Muller transform. */
double
rng_normal(struct rng *r)
{
	double u1, u2;

	u1 = 1.0 - rng_uniform(r);	/* in (0, 1], so log() is finite */
	u2 = rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
