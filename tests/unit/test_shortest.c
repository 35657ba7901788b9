/*
 * test_shortest.c: space_shortest(), which writes every number of the
 * JSON reports, gives the shortest "%.*g" that reads back exactly: the
 * same text as trying every precision from 1 to 17, for costs such as a
 * report sums (seconds times an allocation over 3600), for numbers of
 * every magnitude drawn from random bits, and for awkward ones.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "tap.h"

/* The definition: the first precision from 1 up that reads back. */
static void
shortest_ref(double x, char *buf, size_t len)
{
	int	 prec;

	if (x == floor(x) && fabs(x) < 1e15) {
		snprintf(buf, len, "%.0f", x);
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
	snprintf(buf, len, "%.17g", x);
}

/* A double from 64 random bits (xorshift), NaNs left to the list. */
static double
random_double(uint64_t *s)
{
	double	 x;

	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	memcpy(&x, s, sizeof(x));
	return x;
}

/* Whether space_shortest() gives the definition's text for x. */
static int
same(double x)
{
	char	 a[64], b[64];

	space_shortest(x, a, sizeof(a));
	shortest_ref(x, b, sizeof(b));
	if (strcmp(a, b) == 0)
		return 1;
	printf("# %.17g: %s, not %s\n", x, a, b);
	return 0;
}

int
main(void)
{
	static const double odd[] = { 0.1, 0.5, 1.0 / 3, 2.0 / 3, 1e-300,
	    DBL_MIN, DBL_MAX, DBL_EPSILON, 5e-324, 0x1p-30, 0x1p-1074, 1e15,
	    1e15 + 0.5, 123456789012.345, -0.0291666666666667, 1e23, 9.5e-5,
	    0.3, 0.7 };
	uint64_t s = 88172645463325252ULL;
	size_t	 i, bad = 0;
	int	 k;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		bad += !same(odd[i]);
	for (k = -1074; k <= 1023; k++)
		bad += !same(ldexp(1, k)) + !same(nextafter(ldexp(1, k), 0)) +
		    !same(nextafter(ldexp(1, k), INFINITY));
	is_int(bad, 0, "powers of two, their neighbours and awkward numbers");
	bad = 0;
	for (i = 0; i < 100000; i++)
		bad += !same((double)(i % 9973) * (1 + i % 7) / 3600 +
		    (i % 3 ? 0 : 1e-3 * (double)i));
	is_int(bad, 0, "100,000 costs in hours");
	bad = 0;
	for (i = 0; i < 100000; i++) {
		double x = random_double(&s);

		if (isfinite(x))
			bad += !same(x);
	}
	is_int(bad, 0, "100,000 doubles from random bits");
	return tap_done();
}
