/*
 * test_search_sobol.c: unit tests of the Sobol' sequence: its first
 * points, the stratification of its first 2^m points, scrambling by the
 * seed, and the mapping onto parameters.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "search_impl.h"
#include "space.h"
#include "tap.h"

#define NPARAMS	6

/* Return a history of n trials with no data. */
static struct history
hist(size_t n)
{
	struct history h = { n, NULL, 0 };

	return h;
}

/*
 * The first eight points of the unscrambled two-dimensional sequence in
 * Gray-code order, as SciPy's documentation of qmc.Sobol lists them.
 */
static void
test_first_points(void)
{
	static const double want[8][2] = {
		{ 0, 0 }, { 0.5, 0.5 }, { 0.75, 0.25 }, { 0.25, 0.75 },
		{ 0.375, 0.375 }, { 0.875, 0.875 }, { 0.625, 0.125 },
		{ 0.125, 0.625 }
	};
	uint64_t i, g;
	int d, bad = 0;

	for (i = 0; i < 8; i++) {
		g = i ^ (i >> 1);
		for (d = 0; d < 2; d++)
			if (sobol_bits(g, d) * 0x1.0p-32 != want[i][d])
				bad++;
	}
	is_int(bad, 0, "first 8 points match the published sequence");
	is_int(sobol_bits(5, SOBOL_MAXDIM), 0, "no dimension past the last");
}

/* Each of the 2^m first points of a dimension has its own 2^-m interval. */
static void
test_stratified_1d(void)
{
	unsigned char seen[1024];
	uint64_t k;
	int d, m, bad = 0;

	for (d = 0; d < SOBOL_MAXDIM; d++)
		for (m = 1; m <= 10; m++) {
			memset(seen, 0, sizeof(seen));
			for (k = 0; k < (1ULL << m); k++)
				seen[sobol_bits(k, d) >> (32 - m)]++;
			for (k = 0; k < (1ULL << m); k++)
				if (seen[k] != 1)
					bad++;
		}
	is_int(bad, 0, "every dimension: first 2^m points stratify, m <= 10");
}

/* Build a space of n float parameters on [0, 1]. */
static struct space *
unit_space(int n)
{
	struct space *sp = space_new();
	char name[16];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		space_add_float(sp, name, 0, 1, SCALE_LINEAR, 0);
	}
	return sp;
}

/*
 * Scrambled by the seed, the first 256 points of the first two
 * parameters still form a (0, 8, 2)-net: every box of 2^-a by 2^-(8-a)
 * holds exactly one point.
 */
static void
test_scrambled_net(void)
{
	struct space *sp = unit_space(NPARAMS);
	struct search *s;
	struct history h;
	double x[256][NPARAMS];
	unsigned char seen[256];
	size_t k;
	int a, bad = 0, i, j;

	s = search_new("sobol", sp, 7, NULL, 0);
	ok(s != NULL, "sobol search created");
	for (k = 0; k < 256; k++) {
		h = hist(k);
		search_suggest(s, &h, x[k]);
	}
	for (a = 0; a <= 8; a++) {
		memset(seen, 0, sizeof(seen));
		for (k = 0; k < 256; k++) {
			i = (int)floor(x[k][0] * (1 << a));
			j = (int)floor(x[k][1] * (1 << (8 - a)));
			seen[(i << (8 - a)) | j]++;
		}
		for (k = 0; k < 256; k++)
			if (seen[k] != 1)
				bad++;
	}
	is_int(bad, 0, "scrambled: first 256 points form a (0,8,2)-net");
	ok(x[0][0] != 0 || x[0][1] != 0, "scrambled: first point off the corner");
	search_free(s);
	space_free(sp);
}

/* Same seed, same points; another seed, other points; history ignored. */
static void
test_determinism(void)
{
	struct space *sp = unit_space(3);
	struct search *a, *b, *c;
	struct history h;
	double xa[3], xb[3], xc[3];
	size_t k;
	int same = 1, differ = 0;

	a = search_new("sobol", sp, 42, NULL, 0);
	b = search_new("sobol", sp, 42, NULL, 0);
	c = search_new("sobol", sp, 43, NULL, 0);
	for (k = 0; k < 50; k++) {
		h = hist(k);
		search_suggest(a, &h, xa);
		search_suggest(b, &h, xb);
		search_suggest(c, &h, xc);
		same &= memcmp(xa, xb, sizeof(xa)) == 0;
		differ += memcmp(xa, xc, sizeof(xa)) != 0;
	}
	ok(same, "same seed: same 50 points");
	is_int(differ, 50, "another seed: every point differs");
	ok(search_size(a) == 0, "the sequence is unbounded");
	search_free(a);
	search_free(b);
	search_free(c);
	space_free(sp);
}

/* Ints, log floats and choices: in range, and every value gets its turn. */
static void
test_mapping(void)
{
	struct space *sp = space_new();
	struct value v[4] = { { 0, 16, NULL }, { 0, 32, NULL },
	    { 1, 0, "adam" }, { 0, 64, NULL } };
	struct search *s;
	struct history h;
	double x[3];
	int seen_c[4] = { 0 }, seen_i[8] = { 0 }, inrange = 1, all = 1;
	size_t k;
	char err[128];

	space_add_choice(sp, "opt", v, 4);
	space_add_int(sp, "layers", 1, 8, SCALE_LINEAR, 0);
	space_add_float(sp, "lr", 1e-4, 1e-1, SCALE_LOG, 0);
	s = search_new("sobol", sp, 3, err, sizeof(err));
	for (k = 0; k < 8; k++) {
		h = hist(k);
		search_suggest(s, &h, x);
		for (int i = 0; i < 3; i++)
			inrange &= space_contains(sp, i, x[i]);
		if (inrange) {
			seen_c[(int)x[0]]++;
			seen_i[(int)x[1] - 1]++;
		}
	}
	ok(inrange, "every coordinate is valid");
	for (k = 0; k < 4; k++)
		all &= seen_c[k] == 2;
	ok(all, "8 points: each of 4 choices twice");
	for (k = 0, all = 1; k < 8; k++)
		all &= seen_i[k] == 1;
	ok(all, "8 points: each of 8 integers once");
	search_free(s);
	space_free(sp);

	sp = unit_space(SOBOL_MAXDIM + 1);
	ok(search_new("sobol", sp, 1, err, sizeof(err)) == NULL,
	    "too many parameters refused");
	like(err, "at most 32", "too many parameters: message");
	space_free(sp);
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_first_points();
	test_stratified_1d();
	test_scrambled_net();
	test_determinism();
	test_mapping();
	return tap_done();
}
