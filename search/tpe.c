/*
 * tpe.c: the Tree-structured Parzen Estimator (Bergstra et al. 2011), with
 * the defaults of Optuna's TPESampler (3.x, univariate):
 *
 * - the first TPE_STARTUP suggestions are random search's, and so is any
 *   suggestion while fewer than TPE_STARTUP trials have finished;
 * - the finished trials are ranked, best first: completed ones by their
 *   value, then pruned ones by the highest step they reached (higher
 *   first) and their value there, then completed ones that reported
 *   nothing;
 * - trials that failed (diverged, crashed, timed out, were cancelled) are
 *   left out, as Optuna leaves them out: a failure says that a point did
 *   not finish, not how good it is, and a univariate model would blame
 *   every coordinate of a diverged point (a high learning rate diverges
 *   with a high momentum, and is the best one with a low momentum);
 * - under Hyperband, only the trials of the bracket the new trial runs in
 *   count (other_bracket, set by stop_mark_brackets()), as under Optuna's
 *   HyperbandPruner: a bracket that stops nothing before a late rung
 *   would otherwise fill the good group with trials that merely survived;
 * - the best gamma(n) = min(ceil(n / 10), 25) of the n ranked trials form
 *   the "good" group l, the others the "bad" group g;
 * - each parameter gets, per group, a Parzen estimator (parzen.c): one
 *   truncated Gaussian per trial centred on its value, plus a prior
 *   centred on the range with the range as its width, each width the
 *   larger distance to its sorted neighbours clipped to
 *   [range / min(100, n + 1), range];
 *   weights equal up to 25 trials, older ones ramped down beyond;
 *   log-scale parameters live in log space, integers are rounded and
 *   weighted by the mass of their unit interval, choices are categorical
 *   with a prior weight spread over every value;
 * - 24 candidates drawn from l, the one maximizing log l - log g wins;
 * - a group of more than PARZEN_EXACT_MAX (4,096) trials, in practice
 *   the bad one, gets a binned estimator (parzen_bin.c), so that a
 *   candidate's score costs the same at 10^6 trials as at 10^4.
 *
 * Running trials are ignored.  Draws come from a generator seeded with
 * (seed, number of trials), so a suggestion is a pure function of the
 * seed and the history.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define TPE_STARTUP	10
#define TPE_CANDIDATES	24
#define TPE_FLAT	PARZEN_FLAT

/* The state of tpe: its configuration, then what it keeps. */
struct tpe_state {
	struct tpe_conf	 conf;		/* first: tpe_split() reads it */
	struct tpe_fold	*fold;		/* NULL until a logged suggestion */
};

/* Order ranked trials by (a, b), then by history index. */
int
tpe_rank_cmp(const void *pa, const void *pb)
{
	const struct tpe_rank *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * Rank key of a trial, smaller is better; return 1 for a finished trial
 * that counts, 2 for a running one that joins the bad group (the liar),
 * 0 if the trial does not count (running or failed, unless conf says
 * otherwise; of another bracket).  *good is 0 for a trial that may never
 * be in the good group.
 */
int
tpe_key(const struct observation *o, int maximize,
    const struct tpe_conf *conf, struct tpe_rank *r, int *good)
{
	double sign = maximize ? -1 : 1, v;

	*good = 1;
	if (o->other_bracket)
		return 0;
	switch (o->state) {
	case OBS_RUNNING:
		if (!conf->liar)
			return 0;
		/* The constant liar: worse than anything finished. */
		r->a = INFINITY;
		r->b = 1;
		*good = 0;
		return 2;
	case OBS_FAILED:
		if (!conf->failed_worst)
			return 0;
		/* Diverged or crashed: as bad as a trial can be. */
		r->a = INFINITY;
		r->b = 0;
		*good = 0;
		return 1;
	case OBS_COMPLETE:
		if (o->has_value && isfinite(o->value)) {
			r->a = -INFINITY;
			r->b = sign * o->value;
			return 1;
		}
		break;
	case OBS_PRUNED:
		if (o->npoints > 0) {
			v = o->values[o->npoints - 1];
			r->a = -o->steps[o->npoints - 1];
			r->b = isnan(v) ? INFINITY : sign * v;
		} else {
			r->a = 1;
			r->b = 0;
		}
		return 1;
	}
	r->a = INFINITY;
	r->b = 0;
	*good = 0;
	return 1;
}

/* Weights of n trials in chronological order, as Optuna's default. */
void
tpe_weights(double *w, size_t n)
{
	size_t i, nramp;

	if (n < TPE_FLAT) {
		for (i = 0; i < n; i++)
			w[i] = 1;
		return;
	}
	nramp = n - TPE_FLAT;
	for (i = 0; i < nramp; i++)
		w[i] = nramp == 1 ? 1.0 / (double)n : 1.0 / (double)n +
		    (1 - 1.0 / (double)n) * (double)i / (double)(nramp - 1);
	for (i = nramp; i < n; i++)
		w[i] = 1;
}

/* Internal coordinate of a value of numeric parameter p. */
double
tpe_to_internal(const struct param_def *p, double x)
{
	return p->scale == SCALE_LOG ? log(x) : x;
}

/* Value of numeric parameter p at internal coordinate y. */
double
tpe_from_internal(const struct param_def *p, double y)
{
	double v;

	v = p->scale == SCALE_LOG ? exp(y) : y;
	if (p->type == PARAM_INT)
		v = round(v);
	return fmin(fmax(v, p->min), p->max);
}

/* Internal coordinate of what would run for a draw y of p (rounded). */
double
tpe_snap(const struct param_def *p, double y)
{
	double v;

	if (p->type == PARAM_CHOICE)
		return y;
	v = tpe_from_internal(p, y);
	return p->type == PARAM_INT && p->scale == SCALE_LINEAR ? v :
	    tpe_to_internal(p, v);
}

/* The value of p to suggest for a snapped internal coordinate y. */
double
tpe_value(const struct param_def *p, double y)
{
	return p->type == PARAM_CHOICE || (p->type == PARAM_INT &&
	    p->scale == SCALE_LINEAR) ? y : tpe_from_internal(p, y);
}

/*
 * The internal coordinates of the na trials above, parameter after
 * parameter (na each), in one pass over the history, or NULL when the
 * bad group is exact (or out of memory: each parameter reads its own).
 */
static double *
tpe_columns(const struct search *s, const struct history *h,
    const size_t *above, size_t na)
{
	const struct param_def *p;
	const double *x;
	double *cols;
	size_t d = s->space->n, i, k;

	if (na <= PARZEN_EXACT_MAX ||
	    (cols = calloc(d * na, sizeof(double))) == NULL)
		return NULL;
	for (k = 0; k < na; k++) {
		x = h->obs[above[k]].x;
		for (i = 0; i < d; i++) {
			p = &s->space->params[i];
			cols[i * na + k] = p->type == PARAM_CHOICE ? x[i] :
			    tpe_to_internal(p, x[i]);
		}
	}
	return cols;
}

/*
 * The best of TPE_CANDIDATES draws from l by log l - log g, each scored as
 * what would be run (the rounded value); return it as the parameter's
 * value.
 */
static double
tpe_pick(const struct param_def *p, struct parzen *l, struct parzen *g,
    struct rng *r)
{
	double y, score, best = -INFINITY, besty = 0;
	size_t k;

	for (k = 0; k < TPE_CANDIDATES; k++) {
		y = tpe_snap(p, parzen_sample(l, r));
		score = parzen_logpdf(l, y) - parzen_logpdf(g, y);
		if (k == 0 || score > best) {
			best = score;
			besty = y;
		}
	}
	return tpe_value(p, besty);
}

/*
 * The bad group a parameter is chosen against: the trials above (na of
 * them) with their coordinates in cols (parameter after parameter, na
 * each) unless NULL, or, when fold is not NULL, the binned group that
 * fold keeps.
 */
struct tpe_bad {
	const size_t	*above;
	size_t		 na;
	const double	*cols;
	struct tpe_fold	*fold;
};

/*
 * The estimator g of parameter i over the bad group bad, xs a scratch of
 * bad->na + 1 coordinates when neither cols nor fold has them.  0 or -1.
 */
static int
tpe_bad_fit(struct parzen *g, const struct search *s,
    const struct history *h, size_t i, const struct tpe_bad *bad,
    double *xs)
{
	if (bad->fold != NULL)
		return tpe_fold_estimator(bad->fold, s, h, i, g);
	if (bad->cols != NULL)
		return parzen_init_binned(g, &s->space->params[i],
		    bad->cols + i * bad->na, bad->na, PARZEN_BINS);
	return parzen_fit(g, s, h, i, bad->above, bad->na, xs, 0);
}

/*
 * Choose parameter i from the good trials (indices below, nb of them) and
 * the bad group bad: the best of TPE_CANDIDATES draws from l by
 * log l - log g.  Return 0 or -1 (memory).
 */
static int
tpe_param(const struct search *s, const struct history *h, size_t i,
    const size_t *below, size_t nb, const struct tpe_bad *bad,
    struct rng *r, double *out)
{
	const struct param_def *p = &s->space->params[i];
	struct parzen l, g;
	double *xs;
	/* The scratch serves the bad group too when it is read here. */
	size_t m = bad->fold != NULL || bad->cols != NULL || nb > bad->na ?
	    nb : bad->na;
	int rc = -1;

	memset(&l, 0, sizeof(l));
	memset(&g, 0, sizeof(g));
	if ((xs = calloc(m + 1, sizeof(double))) == NULL)
		return -1;
	if (parzen_fit(&l, s, h, i, below, nb, xs, 0) == -1 ||
	    tpe_bad_fit(&g, s, h, i, bad, xs) == -1)
		goto out;
	*out = tpe_pick(p, &l, &g, r);
	rc = 0;
out:
	parzen_release(&l);
	parzen_release(&g);
	free(xs);
	return rc;
}

/* Optuna's defaults: failed and running trials left out, 10 start-up. */
static int
tpe_init(struct search *s, char *err, size_t errlen)
{
	struct tpe_state *st;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return search_error(err, errlen, "tpe: out of memory");
	st->conf.startup = TPE_STARTUP;
	s->state = st;
	s->size = 0;
	return 0;
}

/* Free the state and what it keeps. */
static void
tpe_free(struct search *s)
{
	struct tpe_state *st = s->state;

	if (st != NULL)
		tpe_fold_free(st->fold);
	free(st);
}

/*
 * Move the best k of the n ranked trials to rk[0..k-1], in order: a
 * sorted window of at most TPE_GAMMA_MAX that each trial enters only if
 * it beats the worst there, n log k instead of sorting all n.
 */
void
tpe_best(struct tpe_rank *rk, size_t n, size_t k)
{
	struct tpe_rank t;
	size_t i, j, have = 0;

	for (i = 0; i < n && k > 0; i++) {
		if (have == k && tpe_rank_cmp(&rk[i], &rk[k - 1]) >= 0)
			continue;
		t = rk[i];
		/* Room for it: the worst of a full window leaves it. */
		j = have < k ? have++ : k - 1;
		if (j != i)
			rk[i] = rk[j];
		for (; j > 0 && tpe_rank_cmp(&t, &rk[j - 1]) < 0; j--)
			rk[j] = rk[j - 1];
		rk[j] = t;
	}
}

/* Split the ranked trials into good and bad (see tpe_int.h). */
int
tpe_split(const struct history *h, const struct tpe_conf *conf,
    size_t **pbelow, size_t *pnb, size_t **pabove, size_t *pna)
{
	struct tpe_rank *rk;
	size_t *below, *above, n = 0, nfin = 0, ngood = 0, nb, na, i;
	unsigned char *group;	/* per trial: 0 left out, 1 bad, 2 good */
	int good, c;

	if (h == NULL || h->n == 0)
		return 1;
	if ((rk = calloc(h->n, sizeof(*rk))) == NULL)
		return -1;
	for (i = 0; i < h->n; i++)
		if ((c = tpe_key(&h->obs[i], h->maximize, conf, &rk[n],
		    &good)) != 0) {
			rk[n++].i = i;
			ngood += good;
			nfin += c == 1;
		}
	if (nfin < conf->startup) {
		free(rk);
		return 1;
	}
	/* Gamma counts the finished trials: the liars only join g. */
	nb = (size_t)ceil(0.1 * (double)nfin);
	if (nb > TPE_GAMMA_MAX)
		nb = TPE_GAMMA_MAX;
	if (nb > ngood)
		nb = ngood;
	na = n - nb;
	below = calloc(nb + 1, sizeof(*below));
	above = calloc(na + 1, sizeof(*above));
	group = calloc(h->n, 1);
	if (below != NULL && above != NULL && group != NULL)
		tpe_best(rk, n, nb);
	if (below == NULL || above == NULL || group == NULL) {
		free(below);
		free(above);
		free(group);
		free(rk);
		return -1;
	}
	/* Both groups in history order: mark each trial, then one pass. */
	for (i = 0; i < n; i++)
		group[rk[i].i] = i < nb ? 2 : 1;
	for (i = 0, nb = na = 0; i < h->n; i++)
		if (group[i] == 2)
			below[nb++] = i;
		else if (group[i] == 1)
			above[na++] = i;
	free(group);
	free(rk);
	*pbelow = below;
	*pabove = above;
	*pnb = nb;
	*pna = na;
	return 0;
}

/*
 * With a log of what changed (the engine's obsbook gives one), keep the
 * history folded between suggestions (tpe_fold.c): a suggestion then
 * costs what the new trials add, not a pass over all of them, once the
 * bad group is binned.  Return as search_suggest(), or 2 when the
 * history is not binned yet (the caller splits it itself).
 */
static int
tpe_suggest_fold(struct search *s, const struct history *h, double *x)
{
	struct tpe_state *st = s->state;
	struct tpe_bad bad = { NULL, 0, NULL, NULL };
	struct rng r;
	size_t *below, nb, na, i;
	int rc;

	if (st->fold == NULL && (st->fold = tpe_fold_new()) == NULL)
		return 2;
	rc = tpe_fold_update(st->fold, s, &st->conf, h, s->log, &below, &nb,
	    &na);
	if (rc == 1)
		return random_ops.suggest(s, h, x);
	if (rc == -1)
		return 2;
	if (na <= PARZEN_EXACT_MAX) {
		free(below);
		return 2;
	}
	bad.fold = st->fold;
	rng_seed(&r, s->seed ^ UINT64_C(0x7e5), h->n);
	for (i = 0, rc = 0; i < s->space->n && rc == 0; i++)
		if (tpe_param(s, h, i, below, nb, &bad, &r, &x[i]) == -1)
			rc = random_ops.suggest(s, h, x);
	free(below);
	return rc;
}

/* Split the history into good and bad, then choose each parameter. */
static int
tpe_suggest(struct search *s, const struct history *h, double *x)
{
	struct tpe_bad bad = { NULL, 0, NULL, NULL };
	struct rng r;
	size_t *below, *above, nb, na, i;
	double *cols;
	int rc = 0;

	if (s->log != NULL && h != NULL && (rc = tpe_suggest_fold(s, h,
	    x)) != 2)
		return rc;
	rc = 0;
	if (tpe_split(h, s->state, &below, &nb, &above, &na) != 0)
		return random_ops.suggest(s, h, x);
	cols = tpe_columns(s, h, above, na);
	bad.above = above;
	bad.na = na;
	bad.cols = cols;
	rng_seed(&r, s->seed ^ UINT64_C(0x7e5), h->n);
	for (i = 0; i < s->space->n && rc == 0; i++)
		if (tpe_param(s, h, i, below, nb, &bad, &r, &x[i]) == -1)
			rc = random_ops.suggest(s, h, x);
	free(cols);
	free(below);
	free(above);
	return rc;
}

const struct search_ops tpe_ops = {
	.name = "tpe",
	.init = tpe_init,
	.free = tpe_free,
	.suggest = tpe_suggest,
};

