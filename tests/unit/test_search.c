/*
 * test_search.c: unit tests of the parameter space, the generator and the
 * grid and random searches.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "search.h"
#include "space.h"
#include "tap.h"

#define NDRAWS	10000

/* Return a number choice value. */
static struct value
num(double x)
{
	struct value v = { 0, x, NULL };

	return v;
}

/* Return a string choice value. */
static struct value
str(const char *s)
{
	struct value v = { 1, 0, (char *)s };

	return v;
}

/* Return a history of n trials with no data. */
static struct history
hist(size_t n)
{
	struct history h = { n, NULL, 0 };

	return h;
}

/* Compare two doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Check that each bad definition is refused and leaves the space as it was. */
static void
test_space_validation(void)
{
	struct space *sp;
	struct value v2[2];

	sp = space_new();
	ok(sp != NULL, "space_new");
	is_int(space_add_float(sp, "lr", 1e-4, 1e-1, SCALE_LOG, 0), 0,
	    "add log float");
	is_int(space_add_float(sp, "", 0, 1, SCALE_LINEAR, 0), -1,
	    "reject empty name");
	is_int(space_add_float(sp, NULL, 0, 1, SCALE_LINEAR, 0), -1,
	    "reject NULL name");
	is_int(space_add_int(sp, "lr", 0, 1, SCALE_LINEAR, 0), -1,
	    "reject duplicate name");
	is_int(space_add_float(sp, "a", 2, 1, SCALE_LINEAR, 0), -1,
	    "reject min > max");
	is_int(space_add_float(sp, "a", 0, INFINITY, SCALE_LINEAR, 0), -1,
	    "reject infinite bound");
	is_int(space_add_float(sp, "a", NAN, 1, SCALE_LINEAR, 0), -1,
	    "reject NaN bound");
	is_int(space_add_float(sp, "a", 0, 1, SCALE_LOG, 0), -1,
	    "reject log scale with min 0");
	is_int(space_add_int(sp, "a", -1, 8, SCALE_LOG, 0), -1,
	    "reject log scale with min < 0");
	is_int(space_add_int(sp, "a", 1.5, 8, SCALE_LINEAR, 0), -1,
	    "reject non-integral int min");
	is_int(space_add_int(sp, "a", 1, 8.25, SCALE_LINEAR, 0), -1,
	    "reject non-integral int max");
	is_int(space_add_float(sp, "a", 0, 1, SCALE_LINEAR, -1), -1,
	    "reject negative steps");
	is_int(space_add_choice(sp, "a", v2, 0), -1, "reject empty choice");
	v2[0] = num(32);
	v2[1] = num(32);
	is_int(space_add_choice(sp, "a", v2, 2), -1,
	    "reject duplicate choice numbers");
	v2[0] = str("adam");
	v2[1] = str("adam");
	is_int(space_add_choice(sp, "a", v2, 2), -1,
	    "reject duplicate choice strings");
	is_int(sp->n, 1, "failed additions leave the space unchanged");
	v2[0] = str("32");
	v2[1] = num(32);
	is_int(space_add_choice(sp, "bs", v2, 2), 0,
	    "string \"32\" and number 32 are distinct");
	is_int(space_add_int(sp, "n", 4, 4, SCALE_LINEAR, 0), 0,
	    "accept int with min == max");
	is_int(space_find(sp, "bs"), 1, "find bs");
	is_int(space_find(sp, "n"), 2, "find n");
	is_int(space_find(sp, "nope"), -1, "find unknown name");
	space_free(sp);
}

/* Check the text form of coordinates and the refusal of invalid ones. */
static void
test_space_format(void)
{
	struct space *sp;
	struct value v[3];
	char buf[64];
	int n;

	sp = space_new();
	space_add_float(sp, "lr", 1e-5, 1, SCALE_LOG, 0);
	space_add_int(sp, "layers", -3, 12, SCALE_LINEAR, 0);
	v[0] = num(32);
	v[1] = str("sgd");
	v[2] = num(0.1);
	space_add_choice(sp, "mix", v, 3);

	space_format(sp, 0, 0.1, buf, sizeof(buf));
	is_str(buf, "0.1", "0.1 formats as 0.1");
	space_format(sp, 0, 1e-4, buf, sizeof(buf));
	is_str(buf, "0.0001", "1e-4 formats as 0.0001");
	space_format(sp, 0, 1e-5, buf, sizeof(buf));
	is_str(buf, "1e-05", "1e-5 formats as 1e-05");
	n = space_format(sp, 0, 1.0 / 3, buf, sizeof(buf));
	ok(strtod(buf, NULL) == 1.0 / 3, "1/3 reads back exactly (%s)", buf);
	is_int(n, strlen(buf), "return value is the length");
	space_format(sp, 0, 0.1 + 0.2, buf, sizeof(buf));
	is_str(buf, "0.30000000000000004", "0.1+0.2 keeps its 17 digits");
	space_format(sp, 1, 7, buf, sizeof(buf));
	is_str(buf, "7", "int 7");
	space_format(sp, 1, -3, buf, sizeof(buf));
	is_str(buf, "-3", "int -3");
	space_format(sp, 2, 0, buf, sizeof(buf));
	is_str(buf, "32", "choice number 32");
	space_format(sp, 2, 1, buf, sizeof(buf));
	is_str(buf, "sgd", "choice string as is");
	space_format(sp, 2, 2, buf, sizeof(buf));
	is_str(buf, "0.1", "choice number 0.1");
	is_int(space_format(sp, 1, 12, buf, 2), 2,
	    "truncated output returns the full length");
	is_str(buf, "1", "truncated output is terminated");

	is_int(space_format(sp, 0, 2, buf, sizeof(buf)), -1,
	    "float above max rejected");
	is_int(space_format(sp, 0, 1e-6, buf, sizeof(buf)), -1,
	    "float below min rejected");
	is_int(space_format(sp, 0, NAN, buf, sizeof(buf)), -1,
	    "NaN rejected");
	is_int(space_format(sp, 1, 2.5, buf, sizeof(buf)), -1,
	    "non-integral int rejected");
	is_int(space_format(sp, 1, 13, buf, sizeof(buf)), -1,
	    "int above max rejected");
	is_int(space_format(sp, 2, 3, buf, sizeof(buf)), -1,
	    "choice index n rejected");
	is_int(space_format(sp, 2, -1, buf, sizeof(buf)), -1,
	    "negative choice index rejected");
	is_int(space_format(sp, 2, 0.5, buf, sizeof(buf)), -1,
	    "fractional choice index rejected");
	is_int(space_format(sp, 3, 0, buf, sizeof(buf)), -1,
	    "parameter index out of range rejected");
	ok(space_contains(sp, 0, 1e-5) && space_contains(sp, 0, 1),
	    "float bounds are inside");
	space_free(sp);
}

/* Check the dispatch: names, unknown algorithms, empty spaces. */
static void
test_dispatch(void)
{
	const char *const *names;
	struct space *sp;
	struct search *s;
	char err[128];
	size_t i;

	names = search_algorithms();
	is_str(names[0], "grid", "first algorithm is grid");
	is_str(names[1], "random", "second algorithm is random");
	is_str(names[2], "sobol", "third algorithm is sobol");
	is_str(names[3], "tpe", "fourth algorithm is tpe");
	is_str(names[4], "mtpe", "fifth algorithm is mtpe");
	is_str(names[5], "cmtpe", "sixth algorithm is cmtpe");
	is_str(names[6], "auto", "seventh algorithm is auto");
	ok(names[7] == NULL, "list ends after auto");
	ok(!search_known("annealing") && !search_known(NULL),
	    "unknown names are not known");
	sp = space_new();
	err[0] = '\0';
	ok(search_new("grid", sp, 1, err, sizeof(err)) == NULL,
	    "empty space refused");
	like(err, "no parameters", "empty space message");
	space_add_float(sp, "x", 0, 1, SCALE_LINEAR, 0);
	for (i = 0; names[i] != NULL; i++) {
		ok(search_known(names[i]), "'%s' is known", names[i]);
		s = search_new(names[i], sp, 1, err, sizeof(err));
		ok(s != NULL, "'%s' can be created", names[i]);
		is_str(s != NULL ? search_chosen(s, NULL) : "", names[i],
		    "  and runs under its name (table and names in step)");
		search_free(s);
	}
	ok(search_new("annealing", sp, 1, err, sizeof(err)) == NULL,
	    "unknown algorithm refused");
	is_str(err, "search: unknown algorithm 'annealing'",
	    "unknown algorithm message");
	ok(search_new("annealing", sp, 1, NULL, 0) == NULL,
	    "a NULL error buffer is allowed");
	space_free(sp);
}

/* Check the order and content of a small mixed grid. */
static void
test_grid_mixed(void)
{
	struct space *sp;
	struct search *s;
	struct history h;
	struct value v[2];
	double x[3], lr[3] = { 1e-3, 1e-2, 1e-1 };
	char err[128];
	size_t k;
	int good = 1;

	sp = space_new();
	v[0] = str("adam");
	v[1] = num(32);
	space_add_choice(sp, "opt", v, 2);
	space_add_int(sp, "layers", 1, 3, SCALE_LINEAR, 0);
	space_add_float(sp, "lr", 1e-3, 1e-1, SCALE_LOG, 3);
	s = search_new("grid", sp, 0, err, sizeof(err));
	ok(s != NULL, "grid over choice x int x log-float");
	is_int(search_size(s), 18, "grid size is 2 * 3 * 3");
	for (k = 0; k < 18; k++) {
		h = hist(k);
		if (search_suggest(s, &h, x) != 0 ||
		    x[0] != (double)(k / 9) ||
		    x[1] != (double)(1 + (k / 3) % 3) ||
		    fabs(x[2] - lr[k % 3]) > 1e-15 * lr[k % 3]) {
			good = 0;
			printf("# point %zu: %g %g %g\n", k, x[0], x[1], x[2]);
		}
	}
	ok(good, "all 18 points in order, last parameter fastest");
	h = hist(0);
	search_suggest(s, &h, x);
	ok(x[2] == 1e-3, "log axis starts exactly at min");
	h = hist(2);
	search_suggest(s, &h, x);
	ok(x[2] == 1e-1, "log axis ends exactly at max");
	h = hist(18);
	is_int(search_suggest(s, &h, x), 1, "exhausted grid returns 1");
	h = hist(1000);
	is_int(search_suggest(s, &h, x), 1, "far past the end returns 1");
	search_free(s);
	space_free(sp);
}

/* Return the values of the single axis of a one-parameter grid. */
static size_t
grid_axis(const struct space *sp, double *out, size_t max)
{
	struct search *s;
	struct history h;
	char err[128];
	size_t k, n;

	if ((s = search_new("grid", sp, 0, err, sizeof(err))) == NULL)
		return 0;
	n = search_size(s);
	for (k = 0; k < n && k < max; k++) {
		h = hist(k);
		search_suggest(s, &h, &out[k]);
	}
	search_free(s);
	return n;
}

/* Check the axes built from steps, scales and defaults. */
static void
test_grid_axes(void)
{
	struct space *sp;
	double a[16];
	char err[128];
	size_t n;

	sp = space_new();
	space_add_float(sp, "f", 0, 1, SCALE_LINEAR, 0);
	n = grid_axis(sp, a, 16);
	ok(n == 5 && a[0] == 0 && a[1] == 0.25 && a[2] == 0.5 &&
	    a[3] == 0.75 && a[4] == 1, "float defaults to 5 even steps");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "i", 1, 100, SCALE_LINEAR, 4);
	n = grid_axis(sp, a, 16);
	ok(n == 4 && a[0] == 1 && a[1] == 34 && a[2] == 67 && a[3] == 100,
	    "int with 4 steps: 1 34 67 100");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "i", 1, 1000, SCALE_LOG, 4);
	n = grid_axis(sp, a, 16);
	ok(n == 4 && a[0] == 1 && a[1] == 10 && a[2] == 100 && a[3] == 1000,
	    "log int with 4 steps: 1 10 100 1000");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "i", 1, 3, SCALE_LINEAR, 10);
	n = grid_axis(sp, a, 16);
	ok(n == 3 && a[0] == 1 && a[1] == 2 && a[2] == 3,
	    "int steps are deduplicated");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "i", -2, 2, SCALE_LINEAR, 0);
	n = grid_axis(sp, a, 16);
	ok(n == 5 && a[0] == -2 && a[4] == 2, "int without steps: every value");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "n", 0, 5000, SCALE_LINEAR, 0);
	ok(search_new("grid", sp, 0, err, sizeof(err)) == NULL,
	    "5001 integer values refused");
	is_str(err, "grid: parameter 'n' has 5001 integer values; set steps",
	    "message names the parameter");
	space_free(sp);

	sp = space_new();
	space_add_int(sp, "a", 1, 1000, SCALE_LINEAR, 0);
	space_add_int(sp, "b", 1, 1000, SCALE_LINEAR, 0);
	space_add_int(sp, "c", 1, 1000, SCALE_LINEAR, 0);
	ok(search_new("grid", sp, 0, err, sizeof(err)) == NULL,
	    "10^9 points refused");
	like(err, "10000000", "message states the limit");
	space_free(sp);
}

/* Return a space with every kind of parameter, for the random tests. */
static struct space *
random_space(void)
{
	struct space *sp;
	struct value v[3];

	sp = space_new();
	space_add_float(sp, "mom", -1, 1, SCALE_LINEAR, 0);
	space_add_float(sp, "lr", 1e-5, 1e-1, SCALE_LOG, 0);
	space_add_int(sp, "layers", 1, 4, SCALE_LINEAR, 0);
	space_add_int(sp, "bs", 1, 64, SCALE_LOG, 0);
	v[0] = str("adam");
	v[1] = str("sgd");
	v[2] = num(0.5);
	space_add_choice(sp, "opt", v, 3);
	return sp;
}

/* Check determinism and independence from the history's contents. */
static void
test_random_determinism(void)
{
	struct space *sp;
	struct search *a, *b, *c;
	struct observation obs[5];
	struct history h;
	double x[5], y[5], z[5], junk[5] = { 0.5, 0.01, 2, 7, 1 };
	double steps[2] = { 1, 2 }, vals[2] = { 0.3, 0.9 };
	char err[128];
	size_t k, i;
	int same = 1, differ = 0;

	sp = random_space();
	a = search_new("random", sp, 42, err, sizeof(err));
	b = search_new("random", sp, 42, err, sizeof(err));
	c = search_new("random", sp, 43, err, sizeof(err));
	ok(a != NULL && b != NULL && c != NULL, "random searches created");
	is_int(search_size(a), 0, "random search is unbounded");
	for (k = 0; k < 100; k++) {
		h = hist(k);
		search_suggest(a, &h, x);
		search_suggest(b, &h, y);
		search_suggest(c, &h, z);
		if (memcmp(x, y, sizeof(x)) != 0)
			same = 0;
		if (x[0] != z[0])
			differ++;
	}
	ok(same, "same seed and history length: same suggestions");
	is_int(differ, 100, "different seed: different suggestions");

	h = hist(5);
	search_suggest(a, &h, x);
	for (i = 0; i < 5; i++) {
		obs[i].x = junk;
		obs[i].state = i % 2 ? OBS_COMPLETE : OBS_FAILED;
		obs[i].has_value = 1;
		obs[i].value = (double)i;
		obs[i].npoints = 2;
		obs[i].steps = steps;
		obs[i].values = vals;
	}
	h.obs = obs;
	h.maximize = 1;
	search_suggest(a, &h, y);
	ok(memcmp(x, y, sizeof(x)) == 0,
	    "suggestion k does not depend on the history's contents");
	h = hist(6);
	search_suggest(a, &h, z);
	ok(memcmp(x, z, sizeof(x)) != 0, "suggestion k+1 differs from k");
	search_free(a);
	search_free(b);
	search_free(c);
	space_free(sp);
}

/* Check that draws stay inside the space and have the expected spread. */
static void
test_random_distribution(void)
{
	struct space *sp;
	struct search *s;
	struct history h;
	static double lr[NDRAWS];
	double x[5], med;
	char err[128];
	size_t k, i, bad = 0;
	int seen[5] = { 0 }, bs_min = 0, bs_max = 0, opt[3] = { 0 };

	sp = random_space();
	s = search_new("random", sp, 7, err, sizeof(err));
	for (k = 0; k < NDRAWS; k++) {
		h = hist(k);
		search_suggest(s, &h, x);
		for (i = 0; i < sp->n; i++)
			if (!space_contains(sp, i, x[i]))
				bad++;
		lr[k] = x[1];
		seen[(int)x[2]]++;
		bs_min |= x[3] == 1;
		bs_max |= x[3] == 64;
		opt[(int)x[4]]++;
	}
	is_int(bad, 0, "10000 draws are all inside the space");
	qsort(lr, NDRAWS, sizeof(lr[0]), cmp_double);
	med = (lr[NDRAWS / 2 - 1] + lr[NDRAWS / 2]) / 2;
	/* log10 of the sample median has a standard error near 0.02. */
	is_near(log10(med), -3, 0.1,
	    "log-float median is near the geometric mean 1e-3");
	ok(seen[1] > 0 && seen[4] > 0, "int draws reach both endpoints");
	ok(seen[1] > 2000 && seen[2] > 2000 && seen[3] > 2000 &&
	    seen[4] > 2000, "int draws are spread over [1, 4]");
	ok(bs_min && bs_max, "log-int draws reach both endpoints");
	ok(opt[0] > 3000 && opt[1] > 3000 && opt[2] > 3000,
	    "choice draws are spread over every value");
	search_free(s);
	space_free(sp);
}

/* Check the generator's moments and its dependence on seed and stream. */
static void
test_rng(void)
{
	struct rng r, q;
	double u, sum = 0, nsum = 0, nsq = 0, lo = 1, hi = 0, mean;
	int i, n = 100000;

	rng_seed(&r, 1, 0);
	for (i = 0; i < n; i++) {
		u = rng_uniform(&r);
		sum += u;
		lo = fmin(lo, u);
		hi = fmax(hi, u);
	}
	ok(lo >= 0 && hi < 1, "uniform draws lie in [0, 1)");
	is_near(sum / n, 0.5, 0.005, "uniform mean is near 0.5");
	rng_seed(&r, 1, 0);
	for (i = 0; i < n; i++) {
		u = rng_normal(&r);
		nsum += u;
		nsq += u * u;
	}
	mean = nsum / n;
	is_near(mean, 0, 0.02, "normal mean is near 0");
	is_near(nsq / n - mean * mean, 1, 0.03, "normal variance is near 1");
	rng_seed(&r, 1, 0);
	rng_seed(&q, 1, 0);
	ok(rng_next(&r) == rng_next(&q), "same seed and stream: same draw");
	rng_seed(&r, 1, 0);
	rng_seed(&q, 1, 1);
	ok(rng_next(&r) != rng_next(&q), "another stream: another draw");
	rng_seed(&r, 1, 0);
	rng_seed(&q, 2, 0);
	ok(rng_next(&r) != rng_next(&q), "another seed: another draw");
}

/* Run every group of checks and report the TAP plan. */
int
main(void)
{
	test_space_validation();
	test_space_format();
	test_dispatch();
	test_grid_mixed();
	test_grid_axes();
	test_random_determinism();
	test_random_distribution();
	test_rng();
	return tap_done();
}
