/*
 * tpe_fold.c: what tpe keeps of the history between suggestions, so that
 * a suggestion costs what the new trials add, not a pass over all of
 * them (issue 15).
 *
 * A suggestion needs the good group (the best gamma(n) <= 25 trials) and
 * the bad group's binned estimator per parameter (parzen_bin.c): sums per
 * bin, each trial weighted a + slope pos by its position pos in the bad
 * group (older ones) or 1 (the PARZEN_FLAT newest), a and slope set by
 * the group's size.  The sums are linear in the weights, so a bin keeps
 * the sums of f and pos f (struct pbins) and the weights are applied when
 * the estimator is built; what stays is to know which trials are settled
 * for good.  The history is cut in two:
 *
 * - below the cut, the settled trials: finished, ranked once (their key
 *   is kept, to tell a real change from a repeated notice), the good
 *   ones in a list of at most 25, the bad ones summed into the kept bins
 *   at their position, each followed by at least PARZEN_FLAT bad trials
 *   (so it stays ramped whatever comes later);
 * - from the cut on, the tail: ranked again at every suggestion, its bad
 *   trials added to a copy of the kept bins.  The cut moves past a
 *   trial once it is finished and, if bad, followed by PARZEN_FLAT bad
 *   ones, so the tail is the newest 25 bad trials plus whatever still
 *   runs among them.
 *
 * The good group is the best gamma(n) of the settled good list and the
 * tail: O(tail) per suggestion, not O(n).  The log of what changed
 * (search.h, an obsbook's) says which trials to look at again: a change
 * to a settled trial that changes its key, a settled good trial pushed
 * out of the good group (it would join the bad group at an old position,
 * shifting every later one), or a settled bad trial that should now be
 * good makes the fold start over with one pass over the history, as
 * every suggestion did before.  Those are rare: a settled good trial is
 * pushed out only when a new one enters the best 25, some 25 ln(n / 25)
 * times over n trials whose values come in random order.
 *
 * Why not an order-statistic tree and sums with removals: the good
 * group is at most 25 trials and a bad trial never becomes good (unless
 * its key changes), so the only removals are these rare ones, and
 * floating-point sums with removals would drift, while sums added in
 * position order, whichever way they are built, give the same bits:
 * tpe_fold_estimator() equals parzen_init_binned() over the bad group
 * bit for bit (test_search_tpe_fold.c), and a suggestion is the same
 * with or without the log.
 *
 * mtpe's fold (tpe_fold_new_joint()) keeps its settled bad trials in the
 * cells of mtpe_grid.c's grid instead, at their positions in the same
 * way, and tpe_fold_joint() adds the tail's to a copy: the same bits as
 * mtpe_grid() over the bad group (test_search_mtpe_fold.c).  The grid's
 * bins stay while the fold lives: a fold that starts over goes back to
 * the finest, and when a settled trial finds every cell taken the grid
 * is coarsened (as mtpe_grid() does) and the fold starts over with it;
 * every finer grid was already too full for trials that are all still
 * in the bad group, so a rebuild coarsens as far.  When only the tail
 * finds every cell taken, the grid stays (the tail's trials may still
 * leave the bad group) and that suggestion builds the estimator itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

/* What was seen of a settled trial: its key and role. */
struct fold_seen {
	double		 a, b;
	int		 c, good;
};

/* A trial of the tail, as this suggestion ranks it. */
struct fold_tail {
	struct tpe_rank	 r;		/* r.i: its history index */
	int		 c, good;	/* as tpe_key() */
	int		 in_good;	/* in the good group */
};

struct tpe_fold {
	int		 started;	/* 0: start over at the next update */
	uint64_t	 id;		/* the log folded in */
	size_t		 nlog;		/* its entries looked at */
	size_t		 n;		/* history length seen */
	size_t		 d;		/* parameters */
	size_t		 cut;		/* trials below are settled */
	struct fold_seen *seen;		/* cut of them */
	size_t		 seencap;
	size_t		 nfin, ngood, ncount;	/* settled: as tpe_split() */
	size_t		 nsb;		/* settled bad trials */
	struct tpe_rank	 floor;		/* the best of them */
	struct tpe_rank	 good[TPE_GAMMA_MAX];	/* settled good, best first */
	size_t		 ngset;
	struct pbins	*base;		/* per parameter: the settled bad */
	struct pbins	*work;		/* per parameter: scratch */
	struct fold_tail *tail;		/* this suggestion's */
	size_t		 ntail, t0, tailcap;
	struct tpe_rank	*cand;		/* candidates for the good group */
	size_t		 candcap;
	size_t		 m;		/* the bad group's size */
	int		 ready;		/* allocated for a space */
	size_t		 jcells;	/* joint fold: the grid's cap, or 0 */
	struct mgrid	*jbase, *jwork;	/* joint: the settled bad, scratch */
	double		*jy;		/* joint: d coordinates */
	uint32_t	*jkey;		/* joint: d bins */
	int		 jfull;		/* joint: no grid can keep them */
	const struct search *vs;	/* the view's search, or NULL */
	double		 vb;		/* its step (rung_view_one()), 0 */
};

/* An empty fold. */
struct tpe_fold *
tpe_fold_new(void)
{
	return calloc(1, sizeof(struct tpe_fold));
}

/* An empty fold for mtpe (see tpe_int.h). */
struct tpe_fold *
tpe_fold_new_joint(size_t maxcells)
{
	struct tpe_fold *f;

	if ((f = tpe_fold_new()) != NULL)
		f->jcells = maxcells;
	return f;
}

/* Free the fold. */
void
tpe_fold_free(struct tpe_fold *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; f->base != NULL && i < f->d; i++) {
		pbins_release(&f->base[i]);
		pbins_release(&f->work[i]);
	}
	free(f->base);
	free(f->work);
	mgrid_free(f->jbase);
	mgrid_free(f->jwork);
	free(f->jy);
	free(f->jkey);
	free(f->seen);
	free(f->tail);
	free(f->cand);
	free(f);
}

/* The bins of every parameter of s's space; 0 or -1. */
static int
fold_alloc(struct tpe_fold *f, const struct search *s)
{
	size_t i;

	f->d = s->space->n;
	if (f->jcells > 0) {
		f->jbase = mgrid_new(s, f->jcells);
		f->jwork = mgrid_new(s, f->jcells);
		f->jy = calloc(f->d + 1, sizeof(*f->jy));
		f->jkey = calloc(f->d + 1, sizeof(*f->jkey));
		if (f->jbase == NULL || f->jwork == NULL || f->jy == NULL ||
		    f->jkey == NULL)
			return -1;
		f->ready = 1;
		return 0;
	}
	if ((f->base = calloc(f->d + 1, sizeof(*f->base))) == NULL ||
	    (f->work = calloc(f->d + 1, sizeof(*f->work))) == NULL)
		goto fail;
	for (i = 0; i < f->d; i++)
		if (pbins_init(&f->base[i], &s->space->params[i],
		    PARZEN_BINS) == -1 || pbins_init(&f->work[i],
		    &s->space->params[i], PARZEN_BINS) == -1)
			goto fail;
	f->ready = 1;
	return 0;
fail:
	for (i = 0; f->base != NULL && f->work != NULL && i < f->d; i++) {
		pbins_release(&f->base[i]);
		pbins_release(&f->work[i]);
	}
	free(f->base);
	free(f->work);
	f->base = f->work = NULL;
	return -1;
}

/*
 * Forget everything settled; a joint fold's grid back to its finest
 * bins, or (coarser) to its next coarser ones.
 */
static void
fold_restart(struct tpe_fold *f, int coarser)
{
	size_t i;

	f->cut = f->nfin = f->ngood = f->ncount = f->nsb = f->ngset = 0;
	f->nlog = f->n = 0;
	if (f->jcells > 0) {
		if (!coarser) {
			mgrid_clear(f->jbase, 1);
			f->jfull = 0;
		} else if (mgrid_coarsen(f->jbase) == -1) {
			mgrid_clear(f->jbase, 0);
			f->jfull = 1;
		}
		return;
	}
	for (i = 0; f->base != NULL && i < f->d; i++)
		memset(f->base[i].b, 0, f->base[i].nbins *
		    sizeof(*f->base[i].b));
}

/* Forget everything settled. */
static void
fold_reset(struct tpe_fold *f)
{
	fold_restart(f, 0);
}

/* Grow *p (of *cap elements of size sz) to hold n; 0 or -1. */
static int
fold_grow(void **p, size_t *cap, size_t n, size_t sz)
{
	void *q;
	size_t c = *cap ? *cap : 64;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	if ((q = realloc(*p, c * sz)) == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* See tpe_int.h. */
void
tpe_fold_set_view(struct tpe_fold *f, const struct search *s, double b)
{
	if (memcmp(&b, &f->vb, sizeof(b)) != 0)
		f->started = 0;
	f->vs = s;
	f->vb = b;
}

/* Trial i of h as the fold's view shows it (tmp may be set). */
static const struct observation *
fold_obs(const struct tpe_fold *f, const struct history *h, size_t i,
    struct observation *tmp)
{
	if (f->vb > 0 && f->vs != NULL)
		return rung_view_one(f->vs, &h->obs[i], h->maximize, f->vb,
		    tmp);
	return &h->obs[i];
}

/* 1 if settled trial i's key or role is no longer the one seen. */
static int
fold_changed(const struct tpe_fold *f, const struct history *h,
    const struct tpe_conf *conf, size_t i)
{
	const struct fold_seen *sn = &f->seen[i];
	struct observation tmp;
	struct tpe_rank r;
	int c, good;

	memset(&r, 0, sizeof(r));
	c = tpe_key(fold_obs(f, h, i, &tmp), h->maximize, conf, &r, &good);
	if (c != sn->c)
		return 1;
	return c != 0 && (good != sn->good || memcmp(&r.a, &sn->a,
	    sizeof(r.a)) != 0 || memcmp(&r.b, &sn->b, sizeof(r.b)) != 0);
}

/* The internal coordinate of parameter i of observation o. */
static double
fold_coord(const struct search *s, const struct observation *o, size_t i)
{
	const struct param_def *p = &s->space->params[i];

	return p->type == PARAM_CHOICE ? o->x[i] : tpe_to_internal(p, o->x[i]);
}

/* Rank the tail, the trials from the cut on; 0 or -1. */
static int
fold_scan(struct tpe_fold *f, const struct history *h,
    const struct tpe_conf *conf)
{
	struct observation tmp;
	struct fold_tail *t;
	size_t i;

	if (fold_grow((void **)&f->tail, &f->tailcap, h->n - f->cut + 1,
	    sizeof(*f->tail)) == -1)
		return -1;
	f->ntail = f->t0 = 0;
	for (i = f->cut; i < h->n; i++) {
		t = &f->tail[f->ntail++];
		memset(t, 0, sizeof(*t));
		t->c = tpe_key(fold_obs(f, h, i, &tmp), h->maximize, conf,
		    &t->r, &t->good);
		t->r.i = i;
	}
	return 0;
}

/*
 * Settle trial t of the tail: bad (at the next position) or good.
 * Return 0, or 1 when a joint fold's grid has no cell left for it.
 */
static int
fold_settle(struct tpe_fold *f, const struct search *s,
    const struct history *h, const struct fold_tail *t)
{
	struct fold_seen *sn = &f->seen[t->r.i];
	size_t i, j;

	sn->a = t->r.a;
	sn->b = t->r.b;
	sn->c = t->c;
	sn->good = t->good;
	f->nfin += t->c == 1;
	f->ncount += t->c != 0;
	f->ngood += t->c != 0 && t->good;
	f->cut++;
	if (t->c == 0)
		return 0;
	if (t->in_good) {
		/* Kept best first. */
		for (j = f->ngset++; j > 0 &&
		    tpe_rank_cmp(&t->r, &f->good[j - 1]) < 0; j--)
			f->good[j] = f->good[j - 1];
		f->good[j] = t->r;
		return 0;
	}
	if (f->jcells > 0) {
		for (i = 0; i < f->d; i++)
			f->jy[i] = fold_coord(s, &h->obs[t->r.i], i);
		if (!f->jfull && mgrid_add(f->jbase, f->jy, f->nsb, 0,
		    f->jkey) == 1)
			return 1;
	}
	for (i = 0; f->jcells == 0 && i < f->d; i++)
		pbins_add(&f->base[i], fold_coord(s, &h->obs[t->r.i], i),
		    f->nsb, 0);
	if (f->nsb++ == 0 || tpe_rank_cmp(&t->r, &f->floor) < 0)
		f->floor = t->r;
	return 0;
}

/*
 * Choose the good group over the settled good list and the tail: its
 * size in *nbg, its members marked; return 1 when what is settled does
 * not hold any more (start over), 0, or -1 (memory).
 */
static int
fold_good(struct tpe_fold *f, const struct tpe_conf *conf, size_t *nbg,
    size_t *nfin)
{
	struct fold_tail *t;
	size_t nc = 0, ngood = f->ngood, k, nb, settled = 0, nbad = 0;

	*nfin = f->nfin;
	if (fold_grow((void **)&f->cand, &f->candcap, f->ngset + f->ntail +
	    1, sizeof(*f->cand)) == -1)
		return -1;
	memcpy(f->cand, f->good, f->ngset * sizeof(*f->cand));
	nc = f->ngset;
	for (k = 0; k < f->ntail; k++) {
		t = &f->tail[k];
		if (t->c == 0)
			continue;
		*nfin += t->c == 1;
		ngood += t->good;
		f->cand[nc++] = t->r;
	}
	if (*nfin < conf->startup)
		return 0;
	nb = (size_t)ceil(0.1 * (double)*nfin);
	if (nb > TPE_GAMMA_MAX)
		nb = TPE_GAMMA_MAX;
	if (nb > ngood)
		nb = ngood;
	tpe_best(f->cand, nc, nb);
	for (k = 0; k < nb; k++)
		if (f->cand[k].i < f->cut)
			settled++;
		else
			f->tail[f->cand[k].i - f->cut].in_good = 1;
	/* A settled good one pushed out, a settled bad one that is good. */
	if (settled != f->ngset || (f->nsb > 0 && nb > 0 &&
	    tpe_rank_cmp(&f->cand[nb - 1], &f->floor) > 0))
		return 1;
	for (k = 0; k < f->ntail; k++)
		nbad += f->tail[k].c != 0 && !f->tail[k].in_good;
	/* The settled bad trials stay ramped only behind PARZEN_FLAT. */
	if (f->nsb > 0 && nbad < PARZEN_FLAT)
		return 1;
	*nbg = nb;
	f->m = f->ncount + nc - f->ngset - nb;
	return 0;
}

/*
 * Move the cut past the tail's trials that are settled for good: finished
 * and, if bad, followed by PARZEN_FLAT bad ones.  0, 1 when a joint
 * fold's grid is full (start over coarser), or -1.
 */
static int
fold_advance(struct tpe_fold *f, const struct search *s,
    const struct history *h, size_t nfin)
{
	const struct fold_tail *t;
	struct observation tmp;
	size_t k, nbad = 0, seen = 0;
	int bad;

	/* Below gamma's top, the good group may still grow: settle none. */
	if (ceil(0.1 * (double)nfin) < TPE_GAMMA_MAX)
		return 0;
	if (fold_grow((void **)&f->seen, &f->seencap, h->n + 1,
	    sizeof(*f->seen)) == -1)
		return -1;
	for (k = 0; k < f->ntail; k++)
		nbad += f->tail[k].c != 0 && !f->tail[k].in_good;
	for (k = 0; k < f->ntail; k++) {
		t = &f->tail[k];
		if (fold_obs(f, h, t->r.i, &tmp)->state == OBS_RUNNING)
			break;
		bad = t->c != 0 && !t->in_good;
		if (bad && nbad - seen - 1 < PARZEN_FLAT)
			break;
		seen += bad;
		if (fold_settle(f, s, h, t) == 1)
			return 1;
	}
	f->t0 = k;
	return 0;
}

/* Bring the fold up to date and split (see tpe_int.h). */
int
tpe_fold_update(struct tpe_fold *f, const struct search *s,
    const struct tpe_conf *conf, const struct history *h,
    const struct history_log *log, size_t **below, size_t *nb, size_t *na)
{
	size_t k, i, nbg = 0, nfin, *bl;
	int rc;

	if (!f->ready && fold_alloc(f, s) == -1)
		return -1;
	if (log == NULL || !f->started || log->id != f->id ||
	    log->n < f->nlog || h->n < f->n)
		fold_reset(f);
	f->started = 0;
	f->id = log != NULL ? log->id : 0;
	for (k = f->nlog; log != NULL && k < log->n && f->cut > 0; k++) {
		i = log->changed[k];
		if (i < f->cut && fold_changed(f, h, conf, i))
			fold_reset(f);
	}
	f->nlog = log != NULL ? log->n : 0;
	f->n = h->n;
	for (;;) {
		if (fold_scan(f, h, conf) == -1)
			return -1;
		if ((rc = fold_good(f, conf, &nbg, &nfin)) == -1)
			return -1;
		if (rc == 1) {
			fold_reset(f);
			f->n = h->n;
			continue;
		}
		if (nfin < conf->startup) {
			f->started = log != NULL;
			return 1;
		}
		if ((rc = fold_advance(f, s, h, nfin)) == -1)
			return -1;
		if (rc == 0)
			break;
		/* A joint fold's grid too full: start over, coarser. */
		k = f->nlog;
		fold_restart(f, 1);
		f->nlog = k;
		f->n = h->n;
	}
	if ((bl = calloc(nbg + 1, sizeof(*bl))) == NULL)
		return -1;
	for (k = 0; k < nbg; k++)
		bl[k] = f->cand[k].i;
	/* The good group in history order, as tpe_split() gives it. */
	for (k = 1; k < nbg; k++)
		for (i = k; i > 0 && bl[i - 1] > bl[i]; i--) {
			size_t x = bl[i];

			bl[i] = bl[i - 1];
			bl[i - 1] = x;
		}
	*below = bl;
	*nb = nbg;
	*na = f->m;
	f->started = log != NULL;
	return 0;
}

/* The bad group's estimator of parameter i (see tpe_int.h). */
int
tpe_fold_estimator(struct tpe_fold *f, const struct search *s,
    const struct history *h, size_t i, struct parzen *pz)
{
	const struct fold_tail *t;
	size_t k, pos = f->nsb, nramp = f->m > PARZEN_FLAT ?
	    f->m - PARZEN_FLAT : 0;

	pbins_copy(&f->work[i], &f->base[i]);
	for (k = f->t0; k < f->ntail; k++) {
		t = &f->tail[k];
		if (t->c == 0 || t->in_good)
			continue;
		pbins_add(&f->work[i], fold_coord(s, &h->obs[t->r.i], i), pos,
		    pos >= nramp);
		pos++;
	}
	return pbins_estimator(pz, &s->space->params[i], &f->work[i], f->m);
}

/* mtpe's estimator of the bad group from a joint fold (see tpe_int.h). */
int
tpe_fold_joint(struct tpe_fold *f, const struct search *s,
    const struct history *h, double bw, struct parzen *pz)
{
	const struct fold_tail *t;
	size_t k, i, pos = f->nsb, nramp = f->m > PARZEN_FLAT ?
	    f->m - PARZEN_FLAT : 0;

	if (f->jcells == 0 || f->jfull)
		return 1;
	if (mgrid_copy(f->jwork, f->jbase) == -1)
		return -1;
	for (k = f->t0; k < f->ntail; k++) {
		t = &f->tail[k];
		if (t->c == 0 || t->in_good)
			continue;
		for (i = 0; i < f->d; i++)
			f->jy[i] = fold_coord(s, &h->obs[t->r.i], i);
		if (mgrid_add(f->jwork, f->jy, pos, pos >= nramp,
		    f->jkey) == 1)
			return 1;
		pos++;
	}
	return mgrid_estimator(f->jwork, f->m, bw, pz);
}
