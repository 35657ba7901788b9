/*
 * test_search_mtpe_fold.c: what mtpe keeps of the history between
 * suggestions (search/tpe_fold.c's joint fold: the split and the bad
 * group merged into grid cells, search/mtpe_grid.c) equals a rebuild
 * from scratch, bit for bit.  A campaign of NTRIALS trials is played out
 * event by event as test_search_tpe_fold.c plays it (trials start, up
 * to PAR run at once and finish in random order, a few much later than
 * the others, completed often on tied values, failed or pruned; now and
 * then an old finished trial changes: a later best value, a retry, a
 * completed trial marked failed, one that jumps into the best 25, the
 * newest good one failing), with mtpe's treatment of the history
 * (failed and running trials in the bad group) and no learning curve.
 * After every event the folds take in the log of what changed; after
 * every event up to NDENSE trials, after every change and every CHECK
 * events beyond, their good group, the bad group's size and the merged
 * bad group (every cell's weight, centres, widths and probabilities, in
 * every parameter) must equal those of tpe_split() and mtpe_grid() over
 * the same history, and those of a fold that starts from nothing.  One
 * fold has mtpe's MTPE_CELLS cells, one only SMALL, so that its grid is
 * coarsened again and again while the fold lives.  At the end, with the
 * bad group merged (more than MTPE_EXACT_MAX trials), mtpe's and cmtpe's
 * suggestions with the log and without it are the same, suggestion
 * after suggestion.
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
#define SMALL		64	/* the small fold's cells */

struct campaign {
	struct observation	 obs[NTRIALS + 2 * NSUGGEST];
	double			 xs[(NTRIALS + 2 * NSUGGEST) * DIM];
	double			 steps[NTRIALS + 2 * NSUGGEST][4];
	double			 vals[NTRIALS + 2 * NSUGGEST][4];
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
	else if (k == 1)
		o->state = OBS_PRUNED;
	else {
		o->state = OBS_COMPLETE;
		o->has_value = 1;
		o->value = k < 6 ? 0.01 * (double)(rng_next(&c->r) % 40) :
		    0.1 + rng_uniform(&c->r);
	}
	/* Its curve: epochs 1 to 1-3 (a few reach 3), the last its value. */
	o->npoints = 0;
	if (k != 0) {
		o->npoints = k == 1 ? 1 : rng_next(&c->r) % 8 == 0 ? 3 : 2;
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
	/* Now and then a running trial reports its first epoch. */
	if (c->obs[c->run[k]].npoints == 0 && rng_next(&c->r) % 4 == 0) {
		c->steps[c->run[k]][0] = 1;
		c->vals[c->run[k]][0] = 0.5 + rng_uniform(&c->r);
		c->obs[c->run[k]].steps = c->steps[c->run[k]];
		c->obs[c->run[k]].values = c->vals[c->run[k]];
		c->obs[c->run[k]].npoints = 1;
		log_add(c, c->run[k]);
		return;
	}
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
 * Compare joint fold f of cells cells (updated with log) with
 * tpe_split() and mtpe_grid() over h; 1 when all agree, *na the bad
 * group's size.  *deferred counts the times the fold left the
 * estimator to its caller.
 */
static int
fold_check(struct tpe_fold *f, size_t cells, const struct search *s,
    const struct tpe_conf *conf, const struct history *h,
    const struct history_log *log, size_t *nap, size_t *deferred,
    size_t *viewed)
{
	struct parzen pf[DIM], pb[DIM];
	size_t *bf = NULL, *below = NULL, *above = NULL, nbf, naf, nb, na;
	size_t i;
	double bw;
	int rf, rs, rj, same = 1;

	struct observation *view;
	struct history hv;
	double b;

	/* mtpe's view at one fidelity, and the fold's at the same step. */
	if ((view = calloc(h->n + 1, sizeof(*view))) == NULL)
		return 0;
	b = rung_view(s, h, conf->startup, view);
	hv = *h;
	hv.obs = view;
	tpe_fold_set_view(f, s, b);
	rf = tpe_fold_update(f, s, conf, h, log, &bf, &nbf, &naf);
	rs = tpe_split(&hv, conf, &below, &nb, &above, &na);
	*nap = 0;
	if (b > 0)
		(*viewed)++;
	if (rf != rs || rf == -1) {
		free(view);
		return 0;
	}
	if (rf == 1) {
		free(view);
		return 1;
	}
	*nap = na;
	if (nbf != nb || naf != na || memcmp(bf, below, nb * sizeof(*bf)))
		same = 0;
	bw = 0.2 * pow((double)(na + 1), -1.0 / (DIM + 4));
	memset(pf, 0, sizeof(pf));
	memset(pb, 0, sizeof(pb));
	if (same) {
		rj = tpe_fold_joint(f, s, h, bw, pf);
		if (rj == 1)
			(*deferred)++;
		if (rj == -1 || mtpe_grid(s, &hv, above, na, bw, cells,
		    pb) == -1)
			same = 0;
		for (i = 0; same && rj == 0 && i < DIM; i++)
			if (!parzen_same(&pf[i], &pb[i]))
				same = 0;
	}
	for (i = 0; i < DIM; i++) {
		parzen_release(&pf[i]);
		parzen_release(&pb[i]);
	}
	free(bf);
	free(below);
	free(above);
	free(view);
	return same;
}

/* Fold every event in, as the engine would; 0 or -1. */
static int
fold_take(struct tpe_fold *f, const struct search *s,
    const struct tpe_conf *conf, const struct history *h,
    const struct history_log *log)
{
	struct observation *view;
	size_t *bl = NULL, nb, nab;

	if ((view = calloc(h->n + 1, sizeof(*view))) == NULL)
		return -1;
	tpe_fold_set_view(f, s, rung_view(s, h, conf->startup, view));
	free(view);
	if (tpe_fold_update(f, s, conf, h, log, &bl, &nb, &nab) == -1)
		return -1;
	free(bl);
	return 0;
}

/* Suggest NSUGGEST times with algo, with the log and without; differ. */
static int
suggest_both(struct campaign *c, struct space *sp, const char *algo,
    struct history *h, struct history_log *log)
{
	struct search *sl, *su;
	struct observation *o;
	double x[DIM], y[DIM];
	size_t k, i;
	int differ = 0;

	sl = search_new(algo, sp, 3, NULL, 0);
	su = search_new(algo, sp, 3, NULL, 0);
	if (sl == NULL || su == NULL)
		return -1;
	search_set_budget(sl, 2 * NTRIALS);
	search_set_budget(su, 2 * NTRIALS);
	for (k = 0; k < NSUGGEST; k++) {
		h->n = c->n;
		log->n = c->nlog;
		if (search_suggest_logged(sl, h, log, x) != 0 ||
		    search_suggest(su, h, y) != 0)
			return -1;
		differ += memcmp(x, y, sizeof(x)) != 0;
		/* The point suggested runs and completes. */
		trial_start(c);
		memcpy(&c->xs[DIM * (c->n - 1)], x, sizeof(x));
		trial_finish(c, c->n - 1);
		c->nrun--;
		/*
		 * The first to run a fourth epoch, best there: once mtpe's
		 * start-up count of them reach it, the view's step moves
		 * to 4 and they join the good group.
		 */
		o = &c->obs[c->n - 1];
		if (o->state == OBS_COMPLETE) {
			o->npoints = 4;
			for (i = 0; i < 4; i++) {
				c->steps[c->n - 1][i] = (double)(i + 1);
				c->vals[c->n - 1][i] = 1 - 0.1 * (double)i;
			}
			c->vals[c->n - 1][3] = o->value = -2;
			o->steps = c->steps[c->n - 1];
			o->values = c->vals[c->n - 1];
		}
		if (k % 4 == 3)
			trial_change(c);
	}
	search_free(sl);
	search_free(su);
	return differ;
}

int
main(void)
{
	static struct campaign c;
	struct tpe_fold *inc, *small, *fresh, *fsmall;
	struct tpe_conf conf;
	struct history_log log;
	struct history h;
	struct search *s;
	struct space *sp;
	size_t ev = 0, nchecks = 0, nbad = 0, na = 0, nch, deferred = 0;
	size_t dsmall = 0, viewed = 0;
	int differ;

	sp = space_kinds_new();
	s = search_new("mtpe", sp, 7, NULL, 0);
	inc = tpe_fold_new_joint(MTPE_CELLS);
	small = tpe_fold_new_joint(SMALL);
	fresh = tpe_fold_new_joint(MTPE_CELLS);
	fsmall = tpe_fold_new_joint(SMALL);
	c.log = calloc(8 * (2 * NTRIALS + 2 * NSUGGEST), sizeof(*c.log));
	if (s == NULL || inc == NULL || small == NULL || fresh == NULL ||
	    fsmall == NULL || c.log == NULL)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.failed_worst = 1;
	conf.liar = 1;
	conf.startup = 6;
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
			if (fold_take(inc, s, &conf, &h, &log) == -1 ||
			    fold_take(small, s, &conf, &h, &log) == -1)
				return 1;
			continue;
		}
		nchecks++;
		if (!fold_check(inc, MTPE_CELLS, s, &conf, &h, &log, &na,
		    &deferred, &viewed) || !fold_check(small, SMALL, s,
		    &conf, &h, &log, &na, &dsmall, &viewed)) {
			if (nbad++ == 0)
				printf("# event %zu (%zu trials): the fold "
				    "differs from a rebuild\n", ev, c.n);
			continue;
		}
		if (!fold_check(fresh, MTPE_CELLS, s, &conf, &h, NULL, &na,
		    &deferred, &viewed) || !fold_check(fsmall, SMALL, s,
		    &conf, &h, NULL, &na, &dsmall, &viewed))
			nbad++;
	}
	ok(nbad == 0, "the folds equal a rebuild at all %zu checks "
	    "(%zu events, %zu old trials changed)", nchecks, ev, c.nchanged);
	ok(na > MTPE_EXACT_MAX, "the bad group (%zu) ends merged", na);
	ok(c.nchanged > 20, "old trials changed (%zu)", c.nchanged);
	ok(viewed > nchecks, "the view moved trials to a step %zu times",
	    viewed);
	/* Only while the tail finds the grid full (SMALL: often). */
	ok(deferred < nchecks / 10, "the folds of %d cells left the "
	    "estimator to a rebuild %zu times in %zu checks (those of %d: "
	    "%zu)", MTPE_CELLS, deferred, nchecks, SMALL, dsmall);

	/* Whole suggestions: with the log and without, the same point. */
	differ = suggest_both(&c, sp, "mtpe", &h, &log);
	ok(differ == 0, "%d mtpe suggestions over %zu trials: the same "
	    "with and without the log", NSUGGEST, c.n);
	differ = suggest_both(&c, sp, "cmtpe", &h, &log);
	ok(differ == 0, "%d cmtpe suggestions over %zu trials: the same "
	    "with and without the log", NSUGGEST, c.n);
	search_free(s);
	tpe_fold_free(inc);
	tpe_fold_free(small);
	tpe_fold_free(fresh);
	tpe_fold_free(fsmall);
	free(c.log);
	space_free(sp);
	return tap_done();
}
