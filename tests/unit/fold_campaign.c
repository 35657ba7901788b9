/*
 * fold_campaign.c: the campaign the tests of tpe's and mtpe's folds play
 * out event by event (fold_campaign.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold_campaign.h"
#include "rng.h"
#include "search.h"
#include "tpe_int.h"

/* Set a campaign up (fold_campaign.h). */
int
fold_campaign_init(struct fold_campaign *c, size_t ntrials, size_t cap,
    size_t logcap, enum fold_curves curves, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->obs = calloc(cap, sizeof(*c->obs));
	c->xs = calloc(cap * FOLD_DIM, sizeof(*c->xs));
	c->steps = calloc(cap, sizeof(*c->steps));
	c->vals = calloc(cap, sizeof(*c->vals));
	c->log = calloc(logcap, sizeof(*c->log));
	c->cap = cap;
	c->ntrials = ntrials;
	c->logcap = logcap;
	c->curves = curves;
	rng_seed(&c->r, seed, 0);
	if (c->obs == NULL || c->xs == NULL || c->steps == NULL ||
	    c->vals == NULL || c->log == NULL) {
		fold_campaign_release(c);
		return -1;
	}
	return 0;
}

/* Free what a campaign holds (fold_campaign.h). */
void
fold_campaign_release(struct fold_campaign *c)
{
	free(c->obs);
	free(c->xs);
	free(c->steps);
	free(c->vals);
	free(c->log);
	memset(c, 0, sizeof(*c));
}

/* Note that trial i changed; bail out when the log is full. */
static void
log_add(struct fold_campaign *c, size_t i)
{
	if (c->nlog == c->logcap) {
		printf("Bail out! the campaign's log is full (%zu)\n",
		    c->logcap);
		exit(1);
	}
	c->log[c->nlog++] = i;
}

/* Start trial c->n at a point with many ties. */
static void
trial_start(struct fold_campaign *c)
{
	double *x = &c->xs[FOLD_DIM * c->n];
	struct observation *o = &c->obs[c->n];

	if (c->n == c->cap) {
		printf("Bail out! the campaign is full (%zu trials)\n", c->cap);
		exit(1);
	}
	x[0] = rng_next(&c->r) % 3 == 0 ? 0.001 * (double)(1 +
	    rng_next(&c->r) % 5) : exp(log(0.001) + rng_uniform(&c->r) *
	    log(200));
	x[1] = (double)(rng_next(&c->r) % 3);
	x[2] = rng_next(&c->r) % 4 == 0 ? 0.9 : 0.85 + 0.1 *
	    rng_uniform(&c->r);
	x[3] = (double)(1 + rng_next(&c->r) % 9);
	x[4] = round(exp(log(8) + rng_uniform(&c->r) * log(64)));
	memset(o, 0, sizeof(*o));
	o->x = x;
	o->state = OBS_RUNNING;
	c->run[c->nrun++] = c->n;
	log_add(c, c->n++);
}

/* The two points of pruned trial i's curve (FOLD_CURVES_PRUNED). */
static void
curve_pruned(struct fold_campaign *c, size_t i)
{
	struct observation *o = &c->obs[i];

	o->npoints = 1 + rng_next(&c->r) % 2;
	c->steps[i][0] = 1;
	c->steps[i][1] = (double)(2 + rng_next(&c->r) % 2);
	c->vals[i][0] = 1 + rng_uniform(&c->r);
	c->vals[i][1] = 0.5 + rng_uniform(&c->r);
	o->steps = c->steps[i];
	o->values = c->vals[i];
}

/*
 * The curve of trial i, just ended (FOLD_CURVES_ALL): none if it failed,
 * else epochs 1 to 1-3 (a few reach 3), the last its value.
 */
static void
curve_all(struct fold_campaign *c, size_t i)
{
	struct observation *o = &c->obs[i];
	size_t k;

	o->npoints = 0;
	if (o->state == OBS_FAILED)
		return;
	o->npoints = o->state == OBS_PRUNED ? 1 :
	    rng_next(&c->r) % 8 == 0 ? 3 : 2;
	for (k = 0; k < o->npoints; k++) {
		c->steps[i][k] = (double)(k + 1);
		c->vals[i][k] = o->state == OBS_COMPLETE ?
		    o->value + 0.1 * (double)(o->npoints - 1 - k) +
		    0.05 * rng_uniform(&c->r) * (k > 0) :
		    1 + rng_uniform(&c->r);
	}
	o->steps = c->steps[i];
	o->values = c->vals[i];
}

/* Finish trial i: completed (ties in value), failed or pruned. */
static void
trial_finish(struct fold_campaign *c, size_t i)
{
	struct observation *o = &c->obs[i];
	uint64_t k = rng_next(&c->r) % 10;

	if (k == 0)
		o->state = OBS_FAILED;
	else if (k == 1) {
		o->state = OBS_PRUNED;
		if (c->curves == FOLD_CURVES_PRUNED)
			curve_pruned(c, i);
	} else {
		o->state = OBS_COMPLETE;
		o->has_value = 1;
		o->value = k < 6 ? 0.01 * (double)(rng_next(&c->r) % 40) :
		    0.1 + rng_uniform(&c->r);
	}
	if (c->curves == FOLD_CURVES_ALL)
		curve_all(c, i);
	log_add(c, i);
}

/* Change an old finished trial (fold_campaign.h). */
void
fold_campaign_change(struct fold_campaign *c)
{
	size_t i = rng_next(&c->r) % (c->n - 2 * FOLD_PAR), k;
	struct observation *o;

	/* Half of them among the newest, the trials not settled yet. */
	if (rng_next(&c->r) % 2 == 0)
		i = c->n - 1 - rng_next(&c->r) % 40;
	o = &c->obs[i];

	if (o->state == OBS_RUNNING)
		return;
	switch (rng_next(&c->r) % 5) {
	case 4:
		/* The best of the newest fails: the good group loses it. */
		for (i = k = c->n - 60; k < c->n; k++)
			if (c->obs[k].state == OBS_COMPLETE &&
			    (c->obs[i].state != OBS_COMPLETE ||
			    c->obs[k].value < c->obs[i].value))
				i = k;
		o = &c->obs[i];
		o->state = OBS_FAILED;
		break;
	case 0:
		if (o->state != OBS_COMPLETE)
			return;
		o->value *= 0.9;
		break;
	case 1:
		/* A retry: it runs again and finishes later. */
		if (c->nrun > FOLD_PAR)
			return;
		o->state = OBS_RUNNING;
		o->has_value = 0;
		o->npoints = 0;
		c->run[c->nrun++] = i;
		break;
	case 2:
		o->state = OBS_FAILED;
		break;
	default:
		/* Into the best 25. */
		o->state = OBS_COMPLETE;
		o->has_value = 1;
		o->value = -1 - rng_uniform(&c->r);
		break;
	}
	c->nchanged++;
	log_add(c, i);
}

/* Running trial i reports its first epoch (FOLD_CURVES_ALL). */
static void
trial_first_epoch(struct fold_campaign *c, size_t i)
{
	c->steps[i][0] = 1;
	c->vals[i][0] = 0.5 + rng_uniform(&c->r);
	c->obs[i].steps = c->steps[i];
	c->obs[i].values = c->vals[i];
	c->obs[i].npoints = 1;
	log_add(c, i);
}

/* One event: a start, a finish, now and then a change. */
static void
event(struct fold_campaign *c)
{
	size_t k;

	if (c->nrun < FOLD_PAR && c->n < c->ntrials &&
	    rng_next(&c->r) % 3 != 0) {
		trial_start(c);
		return;
	}
	if (c->n > 100 && rng_next(&c->r) % 30 == 0) {
		fold_campaign_change(c);
		return;
	}
	if (c->nrun == 0) {
		if (c->n < c->ntrials)
			trial_start(c);
		return;
	}
	k = rng_next(&c->r) % c->nrun;
	if (c->curves == FOLD_CURVES_ALL &&
	    c->obs[c->run[k]].npoints == 0 && rng_next(&c->r) % 4 == 0) {
		trial_first_epoch(c, c->run[k]);
		return;
	}
	/* A few slow trials: the newest ones pile up behind them. */
	if (c->run[k] % 97 == 0 && c->n < c->ntrials &&
	    rng_next(&c->r) % 40 != 0)
		return;
	trial_finish(c, c->run[k]);
	c->run[k] = c->run[--c->nrun];
}

/* Play one event; 1 when a comparison is due (fold_campaign.h). */
int
fold_campaign_step(struct fold_campaign *c, struct history *h,
    struct history_log *log)
{
	size_t nch = c->nchanged;

	event(c);
	fold_campaign_view(c, h, log);
	/*
	 * Every event while the history is short, then every change and
	 * now and then.
	 */
	return ++c->nevents % FOLD_CHECK == 0 || c->n <= FOLD_NDENSE ||
	    c->nchanged != nch;
}

/* Point a history and a log at the campaign (fold_campaign.h). */
void
fold_campaign_view(const struct fold_campaign *c, struct history *h,
    struct history_log *log)
{
	h->obs = c->obs;
	h->n = c->n;
	log->changed = c->log;
	log->n = c->nlog;
}

/* A trial that runs at x and finishes at once (fold_campaign.h). */
void
fold_campaign_add(struct fold_campaign *c, const double *x)
{
	trial_start(c);
	memcpy(&c->xs[FOLD_DIM * (c->n - 1)], x, FOLD_DIM * sizeof(*x));
	trial_finish(c, c->n - 1);
	c->nrun--;
}

/* Compare two estimators, bit for bit (fold_campaign.h). */
int
fold_parzen_same(const struct parzen *a, const struct parzen *b)
{
	if (a->n != b->n || a->nchoices != b->nchoices)
		return 0;
	if (memcmp(a->w, b->w, a->n * sizeof(double)) != 0)
		return 0;
	if (a->nchoices > 0)
		return memcmp(a->p, b->p, a->n * a->nchoices *
		    sizeof(double)) == 0;
	return memcmp(a->mu, b->mu, a->n * sizeof(double)) == 0 &&
	    memcmp(a->sigma, b->sigma, a->n * sizeof(double)) == 0;
}
