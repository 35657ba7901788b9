/*
 * test_search_tpe_fold.c: what tpe keeps of the history between
 * suggestions (search/tpe_fold.c) equals a rebuild from scratch, bit for
 * bit.  A campaign of NTRIALS trials is played out event by event: trials
 * start, up to PAR run at once and finish in random order, a few of them
 * much later than the others (completed,
 * often on tied values; failed; pruned at some step), and now and then an
 * old finished trial changes (a later best value, a retry that runs and
 * finishes again, a completed trial marked failed, one that jumps into
 * the best 25, the newest good one failing), half of them among the
 * newest trials.  After every event the fold takes in the log of what
 * changed; after every event up to NDENSE trials, after every change and
 * every CHECK events beyond, its good group, the bad group's size and
 * every parameter's binned estimator (weights, centres, widths,
 * probabilities) must equal those of tpe_split() and
 * parzen_init_binned() over the same history, and those of a fold that
 * starts from nothing.  At the end, with the bad group binned (more than
 * PARZEN_EXACT_MAX trials), tpe's suggestions with the log and without it
 * are the same, suggestion after suggestion.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "search.h"
#include "space.h"
#include "space_kinds.h"
#include "tap.h"
#include "tpe_int.h"

#define NTRIALS		4800
#define DIM		5
#define PAR		8	/* trials running at once */
#define CHECK		40	/* events between comparisons */
#define NDENSE		1200	/* trials before which every event is */
#define NSUGGEST	12	/* suggestions compared at the end */

struct campaign {
	struct observation	 obs[NTRIALS + NSUGGEST];
	double			 xs[(NTRIALS + NSUGGEST) * DIM];
	double			 steps[NTRIALS + NSUGGEST][2];
	double			 vals[NTRIALS + NSUGGEST][2];
	size_t			 n;
	size_t			 run[PAR + 2];	/* running trials */
	size_t			 nrun;
	size_t			*log;
	size_t			 nlog;
	size_t			 nchanged;	/* old trials changed */
	struct rng		 r;
};

/* Note that trial i changed. */
static void
log_add(struct campaign *c, size_t i)
{
	c->log[c->nlog++] = i;
}

/* Start trial c->n at a point with many ties. */
static void
trial_start(struct campaign *c)
{
	double *x = &c->xs[DIM * c->n];
	struct observation *o = &c->obs[c->n];

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

/* Finish trial i: completed (ties in value), failed or pruned. */
static void
trial_finish(struct campaign *c, size_t i)
{
	struct observation *o = &c->obs[i];
	uint64_t k = rng_next(&c->r) % 10;

	if (k == 0)
		o->state = OBS_FAILED;
	else if (k == 1) {
		o->state = OBS_PRUNED;
		o->npoints = 1 + rng_next(&c->r) % 2;
		c->steps[i][0] = 1;
		c->steps[i][1] = (double)(2 + rng_next(&c->r) % 2);
		c->vals[i][0] = 1 + rng_uniform(&c->r);
		c->vals[i][1] = 0.5 + rng_uniform(&c->r);
		o->steps = c->steps[i];
		o->values = c->vals[i];
	} else {
		o->state = OBS_COMPLETE;
		o->has_value = 1;
		o->value = k < 6 ? 0.01 * (double)(rng_next(&c->r) % 40) :
		    0.1 + rng_uniform(&c->r);
	}
	log_add(c, i);
}

/* Change an old finished trial, as a late record or a retry would. */
static void
trial_change(struct campaign *c)
{
	size_t i = rng_next(&c->r) % (c->n - 2 * PAR), k;
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
		if (c->nrun > PAR)
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

/* One event: a start, a finish, now and then a change. */
static void
event(struct campaign *c)
{
	size_t k;

	if (c->nrun < PAR && c->n < NTRIALS && rng_next(&c->r) % 3 != 0) {
		trial_start(c);
		return;
	}
	if (c->n > 100 && rng_next(&c->r) % 30 == 0) {
		trial_change(c);
		return;
	}
	if (c->nrun == 0) {
		if (c->n < NTRIALS)
			trial_start(c);
		return;
	}
	k = rng_next(&c->r) % c->nrun;
	/* A few slow trials: the newest ones pile up behind them. */
	if (c->run[k] % 97 == 0 && c->n < NTRIALS &&
	    rng_next(&c->r) % 40 != 0)
		return;
	trial_finish(c, c->run[k]);
	c->run[k] = c->run[--c->nrun];
}

/* 1 if two estimators have the same components, bit for bit. */
static int
parzen_same(const struct parzen *a, const struct parzen *b)
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

/*
 * Compare fold f (updated with log) with tpe_split() and
 * parzen_init_binned() over h; 1 when all agree, *na the bad group's size.
 */
static int
fold_check(struct tpe_fold *f, const struct search *s,
    const struct tpe_conf *conf, const struct history *h,
    const struct history_log *log, size_t *nap)
{
	const struct param_def *p;
	struct parzen pf, pb;
	size_t *bf = NULL, *below = NULL, *above = NULL, nbf, naf, nb, na;
	size_t i, k;
	double *xs;
	int rf, rs, same = 1;

	rf = tpe_fold_update(f, s, conf, h, log, &bf, &nbf, &naf);
	rs = tpe_split(h, conf, &below, &nb, &above, &na);
	*nap = 0;
	if (rf != rs || rf == -1)
		return 0;
	if (rf == 1)
		return 1;
	*nap = na;
	if (nbf != nb || naf != na || memcmp(bf, below, nb * sizeof(*bf)))
		same = 0;
	xs = calloc(na + 1, sizeof(*xs));
	for (i = 0; same && xs != NULL && i < DIM; i++) {
		p = &s->space->params[i];
		for (k = 0; k < na; k++)
			xs[k] = p->type == PARAM_CHOICE ?
			    h->obs[above[k]].x[i] :
			    tpe_to_internal(p, h->obs[above[k]].x[i]);
		if (tpe_fold_estimator(f, s, h, i, &pf) == -1 ||
		    parzen_init_binned(&pb, p, xs, na, PARZEN_BINS) == -1)
			same = 0;
		else if (!parzen_same(&pf, &pb))
			same = 0;
		parzen_release(&pf);
		parzen_release(&pb);
	}
	if (xs == NULL)
		same = 0;
	free(xs);
	free(bf);
	free(below);
	free(above);
	return same;
}

int
main(void)
{
	static struct campaign c;
	struct tpe_fold *inc, *fresh;
	struct tpe_conf conf;
	struct history_log log;
	struct history h;
	struct search *s, *sl, *su;
	struct space *sp;
	double x[DIM], y[DIM];
	size_t ev = 0, nchecks = 0, nbad = 0, na = 0, nch, k;
	int differ = 0;

	sp = space_kinds_new();
	s = search_new("tpe", sp, 7, NULL, 0);
	inc = tpe_fold_new();
	fresh = tpe_fold_new();
	c.log = calloc(8 * (NTRIALS + NSUGGEST), sizeof(*c.log));
	if (s == NULL || inc == NULL || fresh == NULL || c.log == NULL)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.startup = 10;
	rng_seed(&c.r, 15, 0);
	h.obs = c.obs;
	h.maximize = 0;
	log.id = 1;
	log.changed = c.log;
	while (c.n < NTRIALS || c.nrun > 0) {
		nch = c.nchanged;
		event(&c);
		h.n = c.n;
		log.n = c.nlog;
		/*
		 * Every event while the history is short, then every
		 * change and now and then.
		 */
		if (++ev % CHECK != 0 && c.n > NDENSE && c.nchanged == nch) {
			/* Fold every event in, as the engine would. */
			size_t *bl = NULL, nb, nab;

			if (tpe_fold_update(inc, s, &conf, &h, &log, &bl, &nb,
			    &nab) == -1)
				return 1;
			free(bl);
			continue;
		}
		nchecks++;
		if (!fold_check(inc, s, &conf, &h, &log, &na)) {
			if (nbad++ == 0)
				printf("# event %zu (%zu trials): the fold "
				    "differs from a rebuild\n", ev, c.n);
			continue;
		}
		if (!fold_check(fresh, s, &conf, &h, NULL, &na))
			nbad++;
	}
	ok(nbad == 0, "the fold equals a rebuild at all %zu checks "
	    "(%zu events, %zu old trials changed)", nchecks, ev, c.nchanged);
	ok(na > PARZEN_EXACT_MAX, "the bad group (%zu) ends binned", na);
	ok(c.nchanged > 20, "old trials changed (%zu)", c.nchanged);

	/* Whole suggestions: with the log and without, the same point. */
	sl = search_new("tpe", sp, 3, NULL, 0);
	su = search_new("tpe", sp, 3, NULL, 0);
	if (sl == NULL || su == NULL)
		return 1;
	for (k = 0; k < NSUGGEST; k++) {
		h.n = c.n;
		log.n = c.nlog;
		if (search_suggest_logged(sl, &h, &log, x) != 0 ||
		    search_suggest(su, &h, y) != 0)
			return 1;
		differ += memcmp(x, y, sizeof(x)) != 0;
		/* The point suggested runs and completes. */
		trial_start(&c);
		memcpy(&c.xs[DIM * (c.n - 1)], x, sizeof(x));
		trial_finish(&c, c.n - 1);
		c.nrun--;
		if (k % 4 == 3)
			trial_change(&c);
	}
	ok(differ == 0, "%d suggestions over %zu trials: the same with "
	    "and without the log", NSUGGEST, c.n);
	search_free(sl);
	search_free(su);
	search_free(s);
	tpe_fold_free(inc);
	tpe_fold_free(fresh);
	free(c.log);
	space_free(sp);
	return tap_done();
}
