/*
 * median.c: the median stopping rule (Golovin et al. 2017, Google Vizier).
 *
 * A trial that reported at step s (s >= warmup_steps) stops if its best
 * value so far is strictly worse than the median, over the other
 * completed trials that reached step s, of their running averages (the
 * mean of their values at steps up to s).  Fewer than warmup_trials such
 * trials: it goes on.
 */
#include <math.h>
#include <stdlib.h>

#include "search_impl.h"
#include "stop_impl.h"

/* Order doubles for qsort. */
static int
median_double_cmp(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

/* Mean of o's values at steps up to s, NaN if it never reached s. */
static double
median_running_average(const struct observation *o, double s)
{
	double sum = 0;
	size_t i, n = 0;

	if (o->npoints == 0 || o->steps[o->npoints - 1] < s)
		return NAN;
	for (i = 0; i < o->npoints && o->steps[i] <= s; i++) {
		sum += o->values[i];
		n++;
	}
	return n > 0 ? sum / (double)n : NAN;
}

/* Compare the trial's best so far with the median of the others. */
static enum stop_verdict
median_decide(const struct stopper *s, const struct history *h, size_t trial,
    double step, double value, const char **rule)
{
	const struct observation *o = &h->obs[trial];
	double best = value, *avg, med, v;
	size_t i, n = 0;
	int worse;

	if (step < s->p.warmup_steps)
		return STOP_CONTINUE;
	for (i = 0; i < o->npoints && o->steps[i] <= step; i++)
		if (h->maximize ? o->values[i] > best : o->values[i] < best)
			best = o->values[i];
	if ((avg = calloc(h->n + 1, sizeof(double))) == NULL)
		return STOP_CONTINUE;
	for (i = 0; i < h->n; i++) {
		if (i == trial || h->obs[i].state != OBS_COMPLETE)
			continue;
		v = median_running_average(&h->obs[i], step);
		if (!isnan(v))
			avg[n++] = v;
	}
	if (n == 0 || n < (size_t)s->p.warmup_trials) {
		free(avg);
		return STOP_CONTINUE;
	}
	qsort(avg, n, sizeof(double), median_double_cmp);
	med = n % 2 ? avg[n / 2] : 0.5 * (avg[n / 2 - 1] + avg[n / 2]);
	free(avg);
	worse = h->maximize ? best < med : best > med;
	return worse ? STOP_PRUNE : STOP_CONTINUE;
}

/* Nothing beyond the common checks. */
static int
median_init(struct stopper *s, char *err, size_t errlen)
{
	if (s->p.warmup_trials < 0)
		return search_error(err, errlen, "median: warmup_trials must "
		    "be >= 0");
	return 0;
}

static const char *const median_keys[] = { "warmup_trials",
	"warmup_steps", NULL };

const struct stop_ops median_ops = {
	.name = "median",
	.keys = median_keys,
	.init = median_init,
	.decide = median_decide,
};
