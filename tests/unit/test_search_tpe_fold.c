/*
 * test_search_tpe_fold.c: what tpe keeps of the history between
 * suggestions (search/tpe_fold.c) equals a rebuild from scratch, bit for
 * bit.  A campaign of NTRIALS trials is played out event by event
 * (fold_campaign.c: trials start, up to FOLD_PAR run at once and finish
 * in random order, a few of them much later than the others (completed,
 * often on tied values; failed; pruned at some step), and now and then an
 * old finished trial changes (a later best value, a retry that runs and
 * finishes again, a completed trial marked failed, one that jumps into
 * the best 25, the newest good one failing), half of them among the
 * newest trials).  After every event the fold takes in the log of what
 * changed; after every event up to FOLD_NDENSE trials, after every change
 * and every FOLD_CHECK events beyond, its good group, the bad group's
 * size and every parameter's binned estimator (weights, centres, widths,
 * probabilities) must equal those of tpe_split() and
 * parzen_init_binned() over the same history, and those of a fold that
 * starts from nothing.  At the end, with the bad group binned (more than
 * PARZEN_EXACT_MAX trials), tpe's suggestions with the log and without it
 * are the same, suggestion after suggestion.
 */
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
		else if (!fold_parzen_same(&pf, &pb))
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
	struct fold_campaign c;
	struct tpe_fold *inc, *fresh;
	struct tpe_conf conf;
	struct history_log log;
	struct history h;
	struct search *s, *sl, *su;
	struct space *sp;
	double x[DIM], y[DIM];
	size_t nchecks = 0, nbad = 0, na = 0, k;
	int differ = 0;

	sp = space_kinds_new();
	s = search_new("tpe", sp, 7, NULL, 0);
	inc = tpe_fold_new();
	fresh = tpe_fold_new();
	if (s == NULL || inc == NULL || fresh == NULL ||
	    fold_campaign_init(&c, NTRIALS, NTRIALS + NSUGGEST,
	    8 * (NTRIALS + NSUGGEST), FOLD_CURVES_PRUNED, 15) == -1)
		return 1;
	memset(&conf, 0, sizeof(conf));
	conf.startup = 10;
	h.maximize = 0;
	log.id = 1;
	while (c.n < NTRIALS || c.nrun > 0) {
		if (!fold_campaign_step(&c, &h, &log)) {
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
				    "differs from a rebuild\n", c.nevents, c.n);
			continue;
		}
		if (!fold_check(fresh, s, &conf, &h, NULL, &na))
			nbad++;
	}
	ok(nbad == 0, "the fold equals a rebuild at all %zu checks "
	    "(%zu events, %zu old trials changed)", nchecks, c.nevents,
	    c.nchanged);
	ok(na > PARZEN_EXACT_MAX, "the bad group (%zu) ends binned", na);
	ok(c.nchanged > 20, "old trials changed (%zu)", c.nchanged);

	/* Whole suggestions: with the log and without, the same point. */
	sl = search_new("tpe", sp, 3, NULL, 0);
	su = search_new("tpe", sp, 3, NULL, 0);
	if (sl == NULL || su == NULL)
		return 1;
	for (k = 0; k < NSUGGEST; k++) {
		fold_campaign_view(&c, &h, &log);
		if (search_suggest_logged(sl, &h, &log, x) != 0 ||
		    search_suggest(su, &h, y) != 0)
			return 1;
		differ += memcmp(x, y, sizeof(x)) != 0;
		/* The point suggested runs and completes. */
		fold_campaign_add(&c, x);
		if (k % 4 == 3)
			fold_campaign_change(&c);
	}
	ok(differ == 0, "%d suggestions over %zu trials: the same with "
	    "and without the log", NSUGGEST, c.n);
	search_free(sl);
	search_free(su);
	search_free(s);
	tpe_fold_free(inc);
	tpe_fold_free(fresh);
	fold_campaign_release(&c);
	space_free(sp);
	return tap_done();
}
