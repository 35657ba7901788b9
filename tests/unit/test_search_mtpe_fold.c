/*
 * test_search_mtpe_fold.c: what mtpe keeps of the history between
 * suggestions (search/tpe_fold.c's joint fold: the split and the bad
 * group merged into grid cells, search/mtpe_grid.c) equals a rebuild
 * from scratch, bit for bit.  A campaign of NTRIALS trials is played out
 * event by event as test_search_tpe_fold.c plays it (fold_campaign.c:
 * trials start, up to FOLD_PAR run at once and finish in random order, a
 * few much later than the others, completed often on tied values, failed
 * or pruned; now and then an old finished trial changes: a later best
 * value, a retry, a completed trial marked failed, one that jumps into
 * the best 25, the newest good one failing), here with a learning curve
 * for every trial that reports one (FOLD_CURVES_ALL) and mtpe's
 * treatment of the history (failed and running trials in the bad
 * group).  After every event the folds take in the log of what changed;
 * after every event up to FOLD_NDENSE trials, after every change and
 * every FOLD_CHECK events beyond, their good group, the bad group's size
 * and the merged bad group (every cell's weight, centres, widths and
 * probabilities, in every parameter) must equal those of tpe_split()
 * and mtpe_grid() over the same history, and those of a fold that
 * starts from nothing.  One fold has mtpe's MTPE_CELLS cells, one only
 * SMALL, so that its grid is coarsened again and again while the fold
 * lives.  At the end, with the bad group merged (more than
 * MTPE_EXACT_MAX trials), mtpe's and cmtpe's suggestions with the log
 * and without it are the same, suggestion after suggestion.
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

#define NTRIALS		4800
#define DIM		FOLD_DIM
#define NSUGGEST	12	/* suggestions compared at the end */
#define SMALL		64	/* the small fold's cells */

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
			if (!fold_parzen_same(&pf[i], &pb[i]))
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
suggest_both(struct fold_campaign *c, struct space *sp, const char *algo,
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
		fold_campaign_view(c, h, log);
		if (search_suggest_logged(sl, h, log, x) != 0 ||
		    search_suggest(su, h, y) != 0)
			return -1;
		differ += memcmp(x, y, sizeof(x)) != 0;
		/* The point suggested runs and completes. */
		fold_campaign_add(c, x);
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
			fold_campaign_change(c);
	}
	search_free(sl);
	search_free(su);
	return differ;
}

int
main(void)
{
	struct fold_campaign c;
	struct tpe_fold *inc, *small, *fresh, *fsmall;
	struct tpe_conf conf;
	struct history_log log;
	struct history h;
	struct search *s;
	struct space *sp;
	size_t nchecks = 0, nbad = 0, na = 0, deferred = 0;
	size_t dsmall = 0, viewed = 0;
	int differ;

	sp = space_kinds_new();
	s = search_new("mtpe", sp, 7, NULL, 0);
	inc = tpe_fold_new_joint(MTPE_CELLS);
	small = tpe_fold_new_joint(SMALL);
	fresh = tpe_fold_new_joint(MTPE_CELLS);
	fsmall = tpe_fold_new_joint(SMALL);
	if (s == NULL || inc == NULL || small == NULL || fresh == NULL ||
	    fsmall == NULL || fold_campaign_init(&c, NTRIALS, NTRIALS + 2 *
	    NSUGGEST, 8 * (2 * NTRIALS + 2 * NSUGGEST), FOLD_CURVES_ALL,
	    15) == -1)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.failed_worst = 1;
	conf.liar = 1;
	conf.startup = 6;
	h.maximize = 0;
	log.id = 1;
	while (c.n < NTRIALS || c.nrun > 0) {
		if (!fold_campaign_step(&c, &h, &log)) {
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
				    "differs from a rebuild\n", c.nevents, c.n);
			continue;
		}
		if (!fold_check(fresh, MTPE_CELLS, s, &conf, &h, NULL, &na,
		    &deferred, &viewed) || !fold_check(fsmall, SMALL, s,
		    &conf, &h, NULL, &na, &dsmall, &viewed))
			nbad++;
	}
	ok(nbad == 0, "the folds equal a rebuild at all %zu checks "
	    "(%zu events, %zu old trials changed)", nchecks, c.nevents,
	    c.nchanged);
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
	fold_campaign_release(&c);
	space_free(sp);
	return tap_done();
}
