/*
 * tpe-suggest.c: the CPU time of one TPE suggestion over a history of N
 * finished trials (make bench).  The space is bench-search's (lr
 * log-uniform in [0.001, 0.2], batch_size in {32, 64, 128}, momentum
 * uniform in [0.85, 0.95]); the history holds N completed trials at
 * pseudo-random points with a smooth objective, as a long campaign would.
 *
 *   tpe-suggest N [REPS [ALGORITHM [costed]]]
 *
 * With "costed" every trial reports its seconds per step (cmtpe's cost
 * model then reads them: a smooth function of the batch size and the
 * learning rate with noise), as in a campaign whose trials all ran two
 * epochs or more.
 *
 * prints "N median_ms min_ms first_ms" over REPS suggestions (default 5)
 * of ALGORITHM (default tpe; mtpe and cmtpe take the same history), as
 * the engine asks for them: with the log of what changed
 * (search_suggest_logged()), each after one more trial completed.  The
 * median and the minimum are those suggestions', first_ms the first
 * suggestion's, over the N trials at once (tpe reads the whole history
 * then, and keeps it for the next ones: search/tpe_fold.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rng.h"
#include "search.h"
#include "space.h"
#include "tests/unit/space_kinds.h"

/* CPU seconds of this process. */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Order doubles. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	struct space *sp;
	struct search *s;
	struct observation *obs;
	struct history h;
	struct history_log hl;
	struct rng r;
	double *xs, x[3], *t, t0, first;
	size_t n, i, *changed;
	int reps, k, costed;

	if (argc < 2 || (n = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr,
		    "usage: tpe-suggest N [REPS [ALGORITHM [costed]]]\n");
		return 1;
	}
	reps = argc > 2 ? atoi(argv[2]) : 5;
	costed = argc > 4 && strcmp(argv[4], "costed") == 0;
	if (reps < 1)
		reps = 1;
	sp = space_new();
	space_add_float(sp, "lr", 0.001, 0.2, SCALE_LOG, 0);
	space_kinds_add_bs(sp, "batch_size");
	space_add_float(sp, "momentum", 0.85, 0.95, SCALE_LINEAR, 0);
	xs = calloc((n + (size_t)reps) * 3, sizeof(*xs));
	obs = calloc(n + (size_t)reps, sizeof(*obs));
	changed = calloc(n + (size_t)reps, sizeof(*changed));
	t = calloc((size_t)reps, sizeof(*t));
	if (xs == NULL || obs == NULL || changed == NULL || t == NULL)
		return 1;
	rng_seed(&r, 42, 0);
	for (i = 0; i < n + (size_t)reps; i++) {
		changed[i] = i;
		xs[3 * i] = exp(log(0.001) + rng_uniform(&r) * log(200));
		xs[3 * i + 1] = (double)(rng_next(&r) % 3);
		xs[3 * i + 2] = 0.85 + 0.1 * rng_uniform(&r);
		obs[i].x = &xs[3 * i];
		obs[i].state = OBS_COMPLETE;
		obs[i].has_value = 1;
		obs[i].value = fabs(log(xs[3 * i] / 0.03)) * 0.1 +
		    0.02 * xs[3 * i + 1] + fabs(xs[3 * i + 2] - 0.9) +
		    0.01 * rng_uniform(&r);
		if (costed)
			obs[i].step_s = 10 * (1 + xs[3 * i + 1]) *
			    (1 + 0.1 * log(xs[3 * i] / 0.001)) *
			    (0.9 + 0.2 * rng_uniform(&r));
	}
	h.n = n;
	h.obs = obs;
	h.maximize = 0;
	if ((s = search_new(argc > 3 ? argv[3] : "tpe", sp, 1, NULL, 0)) ==
	    NULL) {
		fprintf(stderr, "tpe-suggest: unknown algorithm\n");
		return 1;
	}
	hl.id = 1;
	hl.changed = changed;
	hl.n = n;
	t0 = cpu_now();
	if (search_suggest_logged(s, &h, &hl, x) != 0)
		return 1;
	first = (cpu_now() - t0) * 1000;
	for (k = 0; k < reps; k++) {
		/* One more trial completed since the last suggestion. */
		h.n = hl.n = n + (size_t)k + 1;
		t0 = cpu_now();
		if (search_suggest_logged(s, &h, &hl, x) != 0)
			return 1;
		t[k] = (cpu_now() - t0) * 1000;
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	printf("%zu %.3f %.3f %.3f\n", n, t[reps / 2], t[0], first);
	search_free(s);
	space_free(sp);
	free(xs);
	free(obs);
	free(changed);
	free(t);
	return 0;
}
