/*
 * mtpe.c: multivariate TPE for parallel search with failures, hpod's
 * answer to the three ways Optuna's default TPE wastes GPU-hours:
 *
 * - failed trials (diverged, crashed, timed out) join the bad group as
 *   worse than any finished trial, so a region that diverges is avoided;
 *   a univariate model would blame every coordinate of a diverged point,
 *   so the density is joint (below);
 * - running trials join the bad group too (the constant liar), so that
 *   max_parallel suggestions made while trials run are not copies of one
 *   idea; gamma counts only the finished trials;
 * - the density of each group is joint over all parameters, as Optuna's
 *   multivariate=True: one product kernel per trial, the width of each
 *   coordinate 0.2 x range x n^(-1/(d+4)) clipped as the univariate one,
 *   so a candidate is drawn from one good trial's kernel in every
 *   coordinate at once and scored by log l(x) - log g(x);
 * - the model acts after max(3, min(d + 1, budget / 10)) finished trials
 *   instead of a fixed 10: d + 1 points span a d-dimensional space, and a
 *   small budget cannot afford a long random start;
 * - the start-up is a design, not independent draws: trial k of the
 *   start-up is point k of the campaign's scrambled Sobol' sequence (what
 *   sobol suggests), as BoTorch and SMAC start from a Sobol' design.  It
 *   matters most in parallel, where the first max_parallel suggestions
 *   are all made before any result: any 2^m of them from the first fall
 *   one in each 2^-m-th of every parameter's range, where 8 random draws
 *   leave a given eighth empty a third of the time ((7/8)^8).
 *
 * - above MTPE_EXACT_MAX trials in a group (only the bad group gets
 *   there: the good one has at most TPE_GAMMA_MAX) its kernels are merged
 *   into at most MTPE_CELLS cells of a grid (mtpe_grid.c), so that
 *   scoring a candidate costs the same from there on; at or below it the
 *   estimator is exact and the suggestions unchanged.
 *
 * cmtpe is mtpe that prefers the cheaper per step of suggestions of
 * about equal promise (cost.c): of the candidates within a factor 2 of
 * the best ratio, the cheapest, and in the start-up the cheaper of two
 * design points.
 *
 * A suggestion stays a pure function of the seed, the budget and the
 * history: draws come from a generator seeded with (seed, trials).
 *
 * With a log of what changed (the engine's obsbook gives one), the view
 * at one fidelity, the split and the merged bad group are kept between
 * suggestions (tpe_fold.c, joint): the view's step b is the min-th
 * largest reach, kept with the counts of the trials that reach it and
 * beyond and found again only when those say it moved; the fold sees
 * each trial as the view at b shows it and starts over when b moves.
 * A suggestion then costs what the new trials add, not a pass over all
 * of them, and is the same bit for bit.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define MTPE_CANDIDATES	24
#define MTPE_SIGMA0	0.2
#define MTPE_EXP_ZERO	-746.0	/* exp(x) == 0 below */

/* What mtpe keeps: how it treats the history, the fold, what it saw. */
struct mtpe_state {
	struct tpe_conf	 conf;		/* first: the state is a tpe_conf */
	struct tpe_fold	*fold;		/* NULL until a logged suggestion */
	uint64_t	 id;		/* the log the reaches follow */
	size_t		 nlog;		/* its entries looked at */
	int		 looked;	/* the history was looked at whole */
	double		*reach;		/* per trial, rung_trial_reach() */
	unsigned char	*curve;		/* per trial, 1: it has a curve */
	size_t		 nreach, cap;
	size_t		 ncount, ncurves;	/* reach >= 0, curves */
	double		 braw;		/* the min-th largest reach */
	int		 bvalid;	/* braw found */
	size_t		 nge, ngt;	/* reaches >= braw, > braw */
};

/* The start-up count for d parameters and a budget of trials (0: none). */
static size_t
mtpe_startup(size_t d, size_t budget)
{
	size_t n = d + 1;

	if (budget > 0 && budget / 10 < n)
		n = budget / 10;
	return n < 3 ? 3 : n;
}

/*
 * Start-up point number h->n: that point of the Sobol' sequence shifted
 * as seed says, or random's point beyond its dimensions.  Return 0.
 */
int
mtpe_design(struct search *s, uint64_t seed, const struct history *h,
    double *x)
{
	struct search other = *s;

	if (sobol_point(s->space, seed, h != NULL ? h->n : 0, x) == 0)
		return 0;
	other.seed = seed;
	return random_ops.suggest(&other, h, x);
}

/* Set the start-up count from the space and the budget. */
static void
mtpe_configure(struct search *s)
{
	struct tpe_conf *conf = s->state;

	conf->startup = mtpe_startup(s->space->n, s->budget);
}

/* The state of mtpe (cost_aware 0) or cmtpe (1). */
static int
mtpe_setup(struct search *s, int cost_aware, char *err, size_t errlen)
{
	struct mtpe_state *st;
	struct tpe_conf *conf;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return search_error(err, errlen, "%s: out of memory",
		    s->ops->name);
	conf = &st->conf;
	conf->failed_worst = 1;
	conf->liar = 1;
	conf->cost_aware = cost_aware;
	s->state = st;
	s->size = 0;
	mtpe_configure(s);
	return 0;
}

/* Free the state and its fold. */
static void
mtpe_free(struct search *s)
{
	struct mtpe_state *st = s->state;

	if (st != NULL) {
		tpe_fold_free(st->fold);
		cost_keep_free(st->conf.cost);
		free(st->reach);
		free(st->curve);
	}
	free(st);
}

/* Failed and running trials count; the start-up follows the dimension. */
static int
mtpe_init(struct search *s, char *err, size_t errlen)
{
	return mtpe_setup(s, 0, err, errlen);
}

/* As mtpe, per unit of predicted cost. */
static int
cmtpe_init(struct search *s, char *err, size_t errlen)
{
	return mtpe_setup(s, 1, err, errlen);
}

/* See tpe_int.h. */
int
mtpe_fit(const struct search *s, const struct history *h,
    const size_t *idx, size_t m, size_t maxexact, struct parzen *pz)
{
	double *xs, bw;
	size_t d = s->space->n, i;
	int rc = 0;

	bw = MTPE_SIGMA0 * pow((double)(m + 1), -1.0 / ((double)d + 4));
	if (m > maxexact)
		return mtpe_grid(s, h, idx, m, bw, MTPE_CELLS, pz);
	if ((xs = calloc(m + 1, sizeof(double))) == NULL)
		return -1;
	for (i = 0; i < d && rc == 0; i++)
		rc = parzen_fit(&pz[i], s, h, i, idx, m, xs, bw);
	free(xs);
	return rc;
}

/* See tpe_int.h. */
double
mtpe_logpdf(const struct parzen *pz, size_t d, const double *y, double *t)
{
	double mx = -INFINITY, sum = 0;
	size_t i, k, n = pz[0].n;

	for (k = 0; k < n; k++) {
		t[k] = log(pz[0].w[k]);
		for (i = 0; i < d; i++)
			t[k] += parzen_term(&pz[i], k, y[i]);
		if (t[k] > mx)
			mx = t[k];
	}
	for (k = 0; k < n; k++)
		if (t[k] - mx >= MTPE_EXP_ZERO)
			sum += exp(t[k] - mx);
	return mx + log(sum);
}

/* Count (sign 1) or uncount (-1) trial i's reach. */
static void
mtpe_count(struct mtpe_state *st, size_t i, int sign)
{
	double r = st->reach[i];

	if (r < 0)
		return;
	st->ncount += (size_t)sign;
	st->ncurves += (size_t)(sign * st->curve[i]);
	st->nge += (size_t)(sign * (r >= st->braw));
	st->ngt += (size_t)(sign * (r > st->braw));
}

/* Compare doubles for qsort, larger first. */
static int
mtpe_cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* Find braw over the kept reaches (min of them): 0 or -1 (memory). */
static int
mtpe_rank_reach(struct mtpe_state *st, size_t min)
{
	double *all;
	size_t i, n = 0;

	st->bvalid = 0;
	st->nge = st->ngt = 0;
	if (min == 0 || st->ncount < min)
		return 0;
	if ((all = calloc(st->ncount, sizeof(*all))) == NULL)
		return -1;
	for (i = 0; i < st->nreach; i++)
		if (st->reach[i] >= 0)
			all[n++] = st->reach[i];
	qsort(all, n, sizeof(*all), mtpe_cmp_desc);
	st->braw = all[min - 1];
	free(all);
	st->bvalid = 1;
	for (i = 0; i < st->nreach; i++)
		if (st->reach[i] >= 0) {
			st->nge += st->reach[i] >= st->braw;
			st->ngt += st->reach[i] > st->braw;
		}
	return 0;
}

/*
 * The step of mtpe's view of h (rung_view()'s b, 0 for the history
 * itself), following the log: each changed trial's reach is counted
 * anew, and the reaches are ranked again only when the counts say the
 * min-th largest moved.  Return 0 (*b set) or -1 (memory).
 */
static int
mtpe_step(struct mtpe_state *st, const struct history *h,
    const struct history_log *log, double *b)
{
	size_t min = st->conf.startup, k, i;
	int whole, c;
	void *p;

	whole = !st->looked || log->id != st->id || log->n < st->nlog ||
	    h->n < st->nreach;
	if (h->n + 1 > st->cap) {
		k = 2 * (h->n + 1);
		if ((p = realloc(st->reach, k * sizeof(*st->reach))) == NULL)
			return -1;
		st->reach = p;
		if ((p = realloc(st->curve, k * sizeof(*st->curve))) == NULL)
			return -1;
		st->curve = p;
		st->cap = k;
	}
	if (whole) {
		st->looked = 0;
		st->nreach = st->ncount = st->ncurves = 0;
		st->bvalid = 0;
		st->nge = st->ngt = 0;
	}
	for (; st->nreach < h->n; st->nreach++) {
		st->reach[st->nreach] = -1;
		st->curve[st->nreach] = 0;
	}
	for (k = whole ? 0 : st->nlog; k < (whole ? h->n : log->n); k++) {
		i = whole ? k : log->changed[k];
		if (i >= h->n)
			continue;
		mtpe_count(st, i, -1);
		st->reach[i] = rung_trial_reach(&h->obs[i], &c);
		st->curve[i] = (unsigned char)c;
		mtpe_count(st, i, 1);
	}
	st->looked = 1;
	st->id = log->id;
	st->nlog = log->n;
	if (!st->bvalid || st->nge < min || st->ngt >= min)
		if (mtpe_rank_reach(st, min) == -1) {
			st->looked = 0;
			return -1;
		}
	*b = st->bvalid && st->ncurves > 0 && isfinite(st->braw) ?
	    st->braw : 0;
	return 0;
}

/*
 * With a log: split with the fold at the view's step and, when the
 * bad group is merged (more than MTPE_EXACT_MAX trials), build g from
 * it.  Return 0 (*below set, g built), 1 while too few trials count, or
 * 2 when the caller splits and builds itself.
 */
static int
mtpe_fold_fit(struct search *s, const struct history *h, size_t **below,
    size_t *nb, size_t *na, struct parzen *g)
{
	struct mtpe_state *st = s->state;
	double bw, b;
	size_t d = s->space->n;
	int rc;

	if (s->log == NULL || mtpe_step(st, h, s->log, &b) == -1)
		return 2;
	if (st->fold == NULL &&
	    (st->fold = tpe_fold_new_joint(MTPE_CELLS)) == NULL)
		return 2;
	tpe_fold_set_view(st->fold, s, b);
	rc = tpe_fold_update(st->fold, s, &st->conf, h, s->log, below, nb,
	    na);
	if (rc != 0)
		return rc == 1 ? 1 : 2;
	/* Memory or a grid too full to keep: the caller builds it all. */
	bw = MTPE_SIGMA0 * pow((double)(*na + 1), -1.0 / ((double)d + 4));
	if (*na > MTPE_EXACT_MAX &&
	    (rc = tpe_fold_joint(st->fold, s, h, bw, g)) == 0)
		return 0;
	free(*below);
	return 2;
}

/*
 * Draw candidates from the joint good density, keep the best ratio (cmtpe:
 * the cheapest of those close to it).
 */
static int
mtpe_suggest(struct search *s, const struct history *h, double *x)
{
	struct tpe_conf *conf = s->state;
	struct parzen *l, *g;
	struct cost_model *cm = NULL;
	struct observation *view = NULL;
	struct history hv;
	const struct history *h0 = h;
	struct rng r;
	size_t *below, *above = NULL, nb, na, d = s->space->n, i, k, c;
	double *ys, *t, score[MTPE_CANDIDATES], cost[MTPE_CANDIDATES], *y;
	int rc = -1, kept;

	if (h == NULL || h->n == 0)
		return conf->cost_aware ? cost_startup(s, h, x) :
		    mtpe_design(s, s->seed, h, x);
	if ((g = calloc(d + 1, sizeof(*g))) == NULL)
		return random_ops.suggest(s, h, x);
	if ((kept = mtpe_fold_fit(s, h, &below, &nb, &na, g)) == 1) {
		free(g);
		return conf->cost_aware ? cost_startup(s, h, x) :
		    mtpe_design(s, s->seed, h, x);
	}
	/* The model sees the trials at the highest step enough reached. */
	if (kept == 2 && (view = calloc(h->n, sizeof(*view))) == NULL) {
		free(g);
		return random_ops.suggest(s, h, x);
	}
	if (kept == 2) {
		rung_view(s, h, conf->startup, view);
		hv = *h;
		hv.obs = view;
		h = &hv;
	}
	if (kept == 2 && tpe_split(h, conf, &below, &nb, &above, &na) != 0) {
		rc = conf->cost_aware ? cost_startup(s, h, x) :
		    mtpe_design(s, s->seed, h, x);
		free(view);
		free(g);
		return rc;
	}
	t = NULL;
	l = calloc(d, sizeof(*l));
	ys = calloc(MTPE_CANDIDATES * d, sizeof(*ys));
	if (l == NULL || ys == NULL ||
	    mtpe_fit(s, h, below, nb, MTPE_EXACT_MAX, l) == -1 ||
	    (kept == 2 && mtpe_fit(s, h, above, na, MTPE_EXACT_MAX, g) == -1))
		goto out;
	/* Scratch for the components of either group. */
	if ((t = calloc((l[0].n > g[0].n ? l[0].n : g[0].n) + 1,
	    sizeof(*t))) == NULL)
		goto out;
	if (conf->cost_aware)
		cm = cost_model_new(s->space, h0, &conf->cost, s->log);
	rng_seed(&r, s->seed ^ UINT64_C(0x3a7e5), h->n);
	for (c = 0; c < MTPE_CANDIDATES; c++) {
		y = ys + c * d;
		k = parzen_component(&l[0], &r);
		for (i = 0; i < d; i++)
			y[i] = tpe_snap(&s->space->params[i],
			    parzen_draw(&l[i], k, &r));
		score[c] = mtpe_logpdf(l, d, y, t) - mtpe_logpdf(g, d, y, t);
		cost[c] = cost_model_log(cm, y);
	}
	y = ys + cost_pick(score, cost, MTPE_CANDIDATES) * d;
	for (i = 0; i < d; i++)
		x[i] = tpe_value(&s->space->params[i], y[i]);
	rc = 0;
out:
	for (i = 0; l != NULL && i < d; i++)
		parzen_release(&l[i]);
	for (i = 0; g != NULL && i < d; i++)
		parzen_release(&g[i]);
	cost_model_free(cm);
	free(l);
	free(g);
	free(ys);
	free(t);
	free(below);
	free(above);
	if (rc != 0)
		rc = random_ops.suggest(s, h, x);
	free(view);
	return rc;
}

const struct search_ops mtpe_ops = {
	.name = "mtpe",
	.init = mtpe_init,
	.free = mtpe_free,
	.suggest = mtpe_suggest,
	.budget = mtpe_configure,
};

const struct search_ops cmtpe_ops = {
	.name = "cmtpe",
	.init = cmtpe_init,
	.free = mtpe_free,
	.suggest = mtpe_suggest,
	.budget = mtpe_configure,
};
