/*
 * tap.h: a minimal Test Anything Protocol producer for the unit tests.
 * Each test program includes it once, calls the checks, and returns
 * tap_done() from main().
 */
#ifndef HPOD_TAP_H
#define HPOD_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct tap_state {
	int	 n;
	int	 failed;
};
static struct tap_state tap;

static int tap_ok(int, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap.n++;
	if (!cond)
		tap.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap.n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define ok(cond, ...)	tap_ok(!!(cond), __VA_ARGS__)
#define is_int(a, b, name) do {						\
	long long a_ = (a), b_ = (b);					\
	if (!tap_ok(a_ == b_, "%s", name))				\
		printf("#   got %lld, expected %lld\n", a_, b_);	\
} while (0)
#define is_str(a, b, name) do {						\
	const char *a_ = (a), *b_ = (b);				\
	int eq_ = a_ && b_ ? strcmp(a_, b_) == 0 : a_ == b_;		\
	if (!tap_ok(eq_, "%s", name))					\
		printf("#   got '%s', expected '%s'\n",		\
		    a_ ? a_ : "(null)", b_ ? b_ : "(null)");		\
} while (0)
#define is_near(a, b, eps, name) do {					\
	double a_ = (a), b_ = (b);					\
	if (!tap_ok(fabs(a_ - b_) <= (eps), "%s", name))		\
		printf("#   got %.17g, expected %.17g\n", a_, b_);	\
} while (0)
#define like(s, sub, name) do {						\
	const char *s_ = (s), *sub_ = (sub);				\
	if (!tap_ok(s_ && strstr(s_, sub_) != NULL, "%s", name))	\
		printf("#   '%s' does not contain '%s'\n",		\
		    s_ ? s_ : "(null)", sub_);				\
} while (0)

static int
tap_done(void)
{
	printf("1..%d\n", tap.n);
	return tap.failed ? 1 : 0;
}

#endif
