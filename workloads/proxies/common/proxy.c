/*
 * proxy.c: the pieces the proxy trainers share: option parsing, the
 * splitmix64 generator, mlperf_logging lines and a diverged run's end.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proxy.h"

/* Who is running: part of the process's top-level state. */
static struct {
	const char	*prog;
	const char	*file;
} proxystate = { "proxy", "proxy.c" };

/* Name the program and its source file for messages and MLLOG lines. */
void
proxy_init(const char *prog, const char *file)
{
	proxystate.prog = prog;
	proxystate.file = file;
}

/* The program's name, for messages. */
const char *
proxy_prog(void)
{
	return proxystate.prog;
}

/* Complain about the value of option name and exit 64. */
_Noreturn void
bad_option(const char *name, const char *arg, const char *why)
{
	fprintf(stderr, "%s: --%s '%s': %s\n", proxystate.prog, name, arg,
	    why);
	exit(EXIT_USAGE);
}

/* Parse a finite real number in [min, max] for option name. */
double
parse_real(const char *name, const char *arg, double min, double max)
{
	char	*end;
	double	 d;

	errno = 0;
	d = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(d))
		bad_option(name, arg, "not a finite number");
	if (d < min || d > max) {
		char	why[96];

		snprintf(why, sizeof(why), "must be in [%g, %g]", min, max);
		bad_option(name, arg, why);
	}
	return d;
}

/* Parse an integer in [min, max]; "32" and "32.0" are both accepted. */
int
parse_int(const char *name, const char *arg, int min, int max)
{
	double	 d;

	d = parse_real(name, arg, min, max);
	if (d != floor(d))
		bad_option(name, arg, "not an integer");
	return (int)d;
}

/* Parse an unsigned 64-bit seed for option name. */
uint64_t
parse_seed(const char *name, const char *arg)
{
	char			*end;
	unsigned long long	 u;

	errno = 0;
	u = strtoull(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || arg[0] == '-' ||
	    arg[0] == '+' || arg[0] == ' ')
		bad_option(name, arg, "not an unsigned 64-bit integer");
	return u;
}

/* Return the index of arg in the n names, or exit 64 naming option name. */
int
parse_word(const char *name, const char *arg, const char *const *names,
    int n)
{
	char	 why[96];
	int	 i;

	for (i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	snprintf(why, sizeof(why), "must be %s", names[0]);
	for (i = 1; i < n; i++)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
		    "%s%s", i == n - 1 ? " or " : ", ", names[i]);
	bad_option(name, arg, why);
}

/* Advance a splitmix64 state and return the next 64 random bits. */
uint64_t
rng_next(uint64_t *s)
{
	uint64_t	 z;

	z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A seed for stream number stream derived from seed. */
uint64_t
rng_stream(uint64_t seed, uint64_t stream)
{
	uint64_t	 s = seed ^ (stream * 0xd1342543de82ef95ULL);

	return rng_next(&s);
}

/* A uniform number in (0, 1). */
double
rng_uniform(uint64_t *s)
{
	return ((rng_next(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* A standard normal number (Box-Muller, one of the pair). */
double
rng_normal(uint64_t *s)
{
	double	 u = rng_uniform(s), v = rng_uniform(s);

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* Shuffle perm[0..n) with a Fisher-Yates pass driven by s. */
void
shuffle(int *perm, int n, uint64_t *s)
{
	int	 i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)(rng_next(s) % (uint64_t)(i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* Milliseconds since the epoch, as mlperf_logging's time_ms. */
long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Format d as the shortest JSON number that reads back as d. */
void
json_num(char *buf, size_t len, double d)
{
	int	 prec;

	if (!isfinite(d)) {
		snprintf(buf, len, "%s", d > 0 ? "1e308" : d < 0 ? "-1e308" :
		    "null");
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, len, "%.17g", d);
}

/*
 * Print one mlperf_logging event; value is a JSON text, meta either empty
 * or JSON members to add after "lineno".
 */
void
mllog(const char *type, const char *key, const char *value, int line,
    const char *meta)
{
	printf(":::MLLOG {\"namespace\": \"\", \"time_ms\": %lld, "
	    "\"event_type\": \"%s\", \"key\": \"%s\", \"value\": %s, "
	    "\"metadata\": {\"file\": \"%s\", \"lineno\": %d%s%s}}\n",
	    now_ms(), type, key, value, proxystate.file, line,
	    *meta ? ", " : "", meta);
	fflush(stdout);
}

/* A POINT_IN_TIME event of a number at epoch and, if step >= 0, step. */
void
mllog_value(const char *key, double value, int epoch, long step, int line)
{
	char	 num[32], meta[64];

	json_num(num, sizeof(num), value);
	if (step >= 0)
		snprintf(meta, sizeof(meta), "\"epoch_num\": %d, "
		    "\"step_num\": %ld", epoch, step);
	else
		snprintf(meta, sizeof(meta), "\"epoch_num\": %d", epoch);
	mllog("POINT_IN_TIME", key, num, line, meta);
}

/* A POINT_IN_TIME event of a count. */
void
mllog_uint(const char *key, unsigned long long u, int line)
{
	char	 buf[32];

	snprintf(buf, sizeof(buf), "%llu", u);
	mllog("POINT_IN_TIME", key, buf, line, "");
}

/* A POINT_IN_TIME event of a number. */
void
mllog_real(const char *key, double d, int line)
{
	char	 buf[32];

	json_num(buf, sizeof(buf), d);
	mllog("POINT_IN_TIME", key, buf, line, "");
}

/* A POINT_IN_TIME event of a string, which needs no JSON escape. */
void
mllog_string(const char *key, const char *s, int line)
{
	char	 buf[64];

	snprintf(buf, sizeof(buf), "\"%s\"", s);
	mllog("POINT_IN_TIME", key, buf, line, "");
}

/* Report that training diverged at epoch: stderr, run_stop, exit status 2. */
int
diverged(int epoch, const char *what, double value, int line)
{
	char	 num[32];

	if (isnan(value))
		snprintf(num, sizeof(num), "nan");
	else if (isinf(value))
		snprintf(num, sizeof(num), "inf");
	else
		snprintf(num, sizeof(num), "%.3g", value);
	fprintf(stderr, "%s: diverged at epoch %d (%s %s)\n", proxystate.prog,
	    epoch, what, num);
	mllog("INTERVAL_END", "run_stop", "null", line,
	    "\"status\": \"aborted\"");
	return EXIT_DIVERGED;
}
