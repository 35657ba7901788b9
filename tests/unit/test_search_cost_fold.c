/*
 * test_search_cost_fold.c: cmtpe's cost model kept between suggestions
 * and bounded (search/cost.c).  fold_campaign.c plays out a campaign of
 * NTRIALS trials over space_kinds_new()'s five parameters; a trial with
 * two points or more of its curve reports seconds per step, a smooth
 * function of its point with noise of its own.  At every comparison:
 *
 *   - the model kept with the log and one built from nothing answer the
 *     same bits at NPROBE points, with the same centres;
 *   - up to COST_CELLS trials with a cost, both answer the same bits as
 *     the model before it was bounded (ref_log() below: every trial a
 *     centre, relative to the median), so cmtpe's suggestions are the
 *     same as before;
 *   - beyond, the model has at most COST_CELLS centres and its answers
 *     differ from the unbounded model's by at most TOLERANCE (log of
 *     seconds per step: 10%), where the costs span a factor 8 (the
 *     worst seen is printed).
 *
 * Then NSUGGEST cmtpe suggestions with the log and without are the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold_campaign.h"
#include "search.h"
#include "space.h"
#include "space_kinds.h"
#include "tap.h"
#include "tpe_int.h"

#define NTRIALS		6000
#define DIM		FOLD_DIM
#define NPROBE		16
#define NSUGGEST	6
#define TOLERANCE	0.1
#define REF_WIDTH	0.15	/* cost.c's COST_WIDTH */
#define REF_PRIOR	0.05	/* cost.c's COST_PRIOR */

/* Seconds per step of trial i at x: smooth in x, with its own noise. */
static double
rate_of(const double *x, size_t i)
{
	return 5 * (1 + x[1]) * (1 + 0.2 * log(x[0] / 0.001)) *
	    (1 + 0.05 * x[3]) * (0.9 + 0.2 * (double)(i * 2654435761u %
	    1000) / 1000);
}

/* Set the seconds per step of the trials the log names since *seen. */
static void
rates_follow(struct fold_campaign *c, size_t *seen)
{
	struct observation *o;

	for (; *seen < c->nlog; (*seen)++) {
		o = &c->obs[c->log[*seen]];
		o->step_s = o->npoints >= 2 ? rate_of(o->x, c->log[*seen]) :
		    0;
	}
}

/* Compare doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The model before it was bounded, at internal point y: every trial with
 * a cost a centre, in order, relative to their median.
 */
static double
ref_log(const struct space *sp, const struct history *h, const double *y,
    size_t *nknown)
{
	const struct param_def *p;
	double *z, *sorted, med, sw = REF_PRIOR, swz = 0, w, e, u, yi, wd;
	size_t n = 0, k, m, i;

	for (k = 0; k < h->n; k++)
		n += h->obs[k].step_s > 0;
	*nknown = n;
	if (n < 3)
		return 0;
	z = calloc(n, sizeof(*z));
	sorted = calloc(n, sizeof(*sorted));
	if (z == NULL || sorted == NULL)
		abort();
	for (k = m = 0; k < h->n; k++)
		if (h->obs[k].step_s > 0)
			z[m] = sorted[m] = log(h->obs[k].step_s), m++;
	qsort(sorted, n, sizeof(double), cmp_double);
	med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] +
	    sorted[n / 2]);
	for (k = m = 0; k < h->n; k++) {
		if (h->obs[k].step_s <= 0)
			continue;
		e = 0;
		w = 1;
		for (i = 0; i < sp->n; i++) {
			p = &sp->params[i];
			yi = p->type == PARAM_CHOICE ? h->obs[k].x[i] :
			    tpe_to_internal(p, h->obs[k].x[i]);
			if (p->type == PARAM_CHOICE) {
				if (yi != y[i])
					w *= 0.5;
				continue;
			}
			wd = REF_WIDTH * (tpe_to_internal(p, p->max) -
			    tpe_to_internal(p, p->min));
			if (wd > 0) {
				u = (y[i] - yi) / wd;
				e += 0.5 * u * u;
			}
		}
		w *= exp(-e);
		sw += w;
		swz += w * (z[m++] - med);
	}
	free(z);
	free(sorted);
	return swz / sw;
}

/* NPROBE internal points drawn from r. */
static void
probes(const struct space *sp, struct rng *r, double *y)
{
	const struct param_def *p;
	size_t j, i;

	for (j = 0; j < NPROBE; j++)
		for (i = 0; i < sp->n; i++) {
			p = &sp->params[i];
			y[j * sp->n + i] = p->type == PARAM_CHOICE ?
			    (double)(rng_next(r) % p->nchoices) :
			    tpe_to_internal(p, p->min) + rng_uniform(r) *
			    (tpe_to_internal(p, p->max) -
			    tpe_to_internal(p, p->min));
		}
}

int
main(void)
{
	struct fold_campaign c;
	struct space *sp = space_kinds_new();
	struct cost_keep *keep = NULL;
	struct cost_model *kept, *built;
	struct search *s1, *s2;
	struct history h;
	struct history_log log;
	struct rng r;
	double y[NPROBE * DIM], a, b, ref, x1[DIM], x2[DIM];
	double worst = 0, below_worst = 0;
	size_t seen = 0, nknown = 0, j, checks = 0, below = 0, beyond = 0;
	size_t maxcentres = 0, same_kept = 1, same_below = 1, within = 1;
	int k, same;

	if (sp == NULL || fold_campaign_init(&c, NTRIALS, NTRIALS + 64,
	    16 * NTRIALS, FOLD_CURVES_ALL, 11) != 0) {
		printf("Bail out! out of memory\n");
		return 1;
	}
	rng_seed(&r, 5, 0);
	while (c.n < NTRIALS) {
		if (!fold_campaign_step(&c, &h, &log))
			continue;
		rates_follow(&c, &seen);
		/* Every 7th comparison the campaign offers, all beyond. */
		if (++checks % 7 != 0 && c.n < 5000)
			continue;
		kept = cost_model_new(sp, &h, &keep, &log);
		built = cost_model_new(sp, &h, NULL, NULL);
		if (cost_model_centres(kept) != cost_model_centres(built))
			same_kept = 0;
		probes(sp, &r, y);
		for (j = 0; j < NPROBE; j++) {
			a = cost_model_log(kept, y + j * DIM);
			b = cost_model_log(built, y + j * DIM);
			ref = ref_log(sp, &h, y + j * DIM, &nknown);
			if (memcmp(&a, &b, sizeof(a)) != 0)
				same_kept = 0;
			if (nknown <= COST_CELLS) {
				below += j == 0;
				if (memcmp(&a, &ref, sizeof(a)) != 0)
					same_below = 0;
				if (fabs(a - ref) > below_worst)
					below_worst = fabs(a - ref);
				continue;
			}
			beyond += j == 0;
			if (cost_model_centres(kept) > maxcentres)
				maxcentres = cost_model_centres(kept);
			if (fabs(a - ref) > worst)
				worst = fabs(a - ref);
			if (!(fabs(a - ref) <= TOLERANCE))
				within = 0;
		}
		cost_model_free(kept);
		cost_model_free(built);
	}
	printf("# %zu comparisons up to %d trials with a cost, %zu beyond "
	    "(%zu at the end); worst difference %g up to, %g beyond\n",
	    below, COST_CELLS, beyond, nknown, below_worst, worst);
	ok(below > 50 && beyond > 20, "the campaign crosses the threshold");
	ok(same_kept, "kept with the log and built from nothing: same bits");
	ok(same_below, "up to %d trials with a cost: the unbounded model's "
	    "bits", COST_CELLS);
	ok(maxcentres <= COST_CELLS && maxcentres > 0,
	    "at most %d centres beyond (%zu)", COST_CELLS, maxcentres);
	ok(within, "beyond: within %g of the unbounded model", TOLERANCE);

	/* cmtpe with the log and without suggests the same. */
	s1 = search_new("cmtpe", sp, 3, NULL, 0);
	s2 = search_new("cmtpe", sp, 3, NULL, 0);
	if (s1 == NULL || s2 == NULL) {
		printf("Bail out! no cmtpe\n");
		return 1;
	}
	same = 1;
	for (k = 0; k < NSUGGEST; k++) {
		fold_campaign_view(&c, &h, &log);
		if (search_suggest_logged(s1, &h, &log, x1) != 0 ||
		    search_suggest(s2, &h, x2) != 0 ||
		    memcmp(x1, x2, sizeof(x1)) != 0)
			same = 0;
		fold_campaign_add(&c, x1);
		rates_follow(&c, &seen);
	}
	ok(same, "%d cmtpe suggestions with the log and without: the same",
	    NSUGGEST);
	search_free(s1);
	search_free(s2);
	cost_keep_free(keep);
	fold_campaign_release(&c);
	space_free(sp);
	return tap_done();
}
