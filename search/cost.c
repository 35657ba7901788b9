/*
 * cost.c: what a configuration costs per step, learnt from the campaign's
 * own trials, and how cmtpe (cost-aware mtpe) uses it.
 *
 * A trial's seconds per step are known after its second point (running
 * trials count: their rate is known long before they end).  The model is
 * a kernel regression of log(seconds per step) over the trials' internal
 * coordinates (Nadaraya-Watson, a Gaussian product kernel of width
 * COST_WIDTH x the range of each numeric parameter; a choice that
 * differs halves a trial's weight), shrunk towards the median by a
 * prior weight and answered relative to the median: cost_model_log() is
 * 0 for a configuration of typical cost, log 2 for one twice as dear.
 *
 * Bounded: what is known is kept between suggestions with the history's
 * log (struct cost_keep), and beyond COST_CELLS trials with a cost they
 * are merged into the cells of a grid of at most COST_CELLS cells, one
 * kernel centre each, so a suggestion does not read every trial.  Up to
 * COST_CELLS the model is the one above, bit for bit.
 *
 * The rule: the cost per step decides only between suggestions of about
 * equal promise.  Of the candidates whose acquisition (log l/g) is
 * within a factor 2 of the best, cmtpe takes the cheapest; in the
 * start-up, where every point is equally promising, the cheaper of the
 * points of two Sobol' designs (mtpe's and one shifted otherwise), so no
 * point becomes impossible and no region's density changes by more than
 * that factor 2.  Dividing the acquisition by the cost outright
 * (expected improvement per second, Snoek et al. 2012) lets the cost
 * outvote the model: on CIFAR-10 the cheapest quarter of configurations
 * per epoch reaches the target in 2 of 66 runs against 11 to 13 for the
 * others.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpe_int.h"

#define COST_WIDTH	0.15	/* kernel width, fraction of the range */
#define COST_PRIOR	0.05	/* weight of the median, in kernel units */
#define COST_MIN	3	/* trials with a known cost before it acts */
#define COST_TOLERANCE	M_LN2	/* "nearly the best": within a factor 2 */
#define COST_FIX	16777216.0	/* 2^24: fixed point of the cell sums */

struct cost_model {
	const struct space *space;
	size_t		 n;
	double		*y;		/* n x d internal coordinates */
	double		*z;		/* log rate less the median's */
	double		*cnt;		/* trials of each centre, NULL: 1 */
	double		*width;		/* d kernel widths, 0 for choices */
};

/*
 * The known costs kept between suggestions, following the log: each
 * trial's step_s as last seen, the list of those known, and beyond
 * COST_CELLS of them the grid's cells.  A cell sums its trials' count,
 * log rate and place in the cell in fixed point (integers: the sums do
 * not depend on the order trials came and went, so kept and rebuilt
 * are the same bits).
 */
struct cost_keep {
	uint64_t	 id;		/* the log followed */
	size_t		 nlog;		/* its entries looked at */
	int		 started;	/* 1: following a log */
	double		*rate;		/* per trial, step_s seen (0: none) */
	size_t		*pos;		/* per trial, its place in known */
	size_t		 n, cap;	/* trials seen, allocated */
	size_t		*known;		/* trials with a cost, any order */
	size_t		 nknown;
	size_t		 ncells;	/* 0: no grid (choices too many) */
	size_t		*bins;		/* d bins per parameter */
	int64_t		*cnt;		/* ncells trials */
	int64_t		*sz;		/* ncells sums of log rate */
	int64_t		*sy;		/* ncells x d sums of place */
	int64_t		 total;		/* sum of every known log rate */
};

/* Compare doubles for qsort. */
static int
cost_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Compare trial indices for qsort. */
static int
cost_cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Free the model. */
void
cost_model_free(struct cost_model *cm)
{
	if (cm == NULL)
		return;
	free(cm->y);
	free(cm->z);
	free(cm->cnt);
	free(cm->width);
	free(cm);
}

/* The internal coordinates of a trial at x into y. */
static void
cost_internal(const struct space *sp, const double *x, double *y)
{
	const struct param_def *p;
	size_t i;

	for (i = 0; i < sp->n; i++) {
		p = &sp->params[i];
		y[i] = p->type == PARAM_CHOICE ? x[i] :
		    tpe_to_internal(p, x[i]);
	}
}

/* A model of n centres with kernel widths set, or NULL. */
static struct cost_model *
cost_model_alloc(const struct space *sp, size_t n, int counted)
{
	struct cost_model *cm;
	const struct param_def *p;
	size_t d = sp->n, i;

	if ((cm = calloc(1, sizeof(*cm))) == NULL)
		return NULL;
	cm->space = sp;
	cm->y = calloc(n * d + 1, sizeof(double));
	cm->z = calloc(n + 1, sizeof(double));
	cm->cnt = counted ? calloc(n + 1, sizeof(double)) : NULL;
	cm->width = calloc(d + 1, sizeof(double));
	if (cm->y == NULL || cm->z == NULL || cm->width == NULL ||
	    (counted && cm->cnt == NULL)) {
		cost_model_free(cm);
		return NULL;
	}
	for (i = 0; i < d; i++) {
		p = &sp->params[i];
		if (p->type != PARAM_CHOICE)
			cm->width[i] = COST_WIDTH * (tpe_to_internal(p, p->max) -
			    tpe_to_internal(p, p->min));
	}
	return cm;
}

/*
 * The model of every trial of idx[] (n of them, ascending), one centre
 * each, answered relative to their median: the model before it was
 * bounded, which it stays up to COST_CELLS trials.
 */
static struct cost_model *
cost_model_exact(const struct space *sp, const struct history *h,
    const size_t *idx, size_t n)
{
	struct cost_model *cm;
	double *sorted, med;
	size_t d = sp->n, k;

	if ((cm = cost_model_alloc(sp, n, 0)) == NULL)
		return NULL;
	if ((sorted = calloc(n, sizeof(double))) == NULL) {
		cost_model_free(cm);
		return NULL;
	}
	for (k = 0; k < n; k++) {
		cost_internal(sp, h->obs[idx[k]].x, cm->y + k * d);
		cm->z[k] = sorted[k] = log(h->obs[idx[k]].step_s);
	}
	cm->n = n;
	qsort(sorted, n, sizeof(double), cost_cmp);
	med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] +
	    sorted[n / 2]);
	free(sorted);
	for (k = 0; k < n; k++)
		cm->z[k] -= med;
	return cm;
}

/* Free what is kept. */
void
cost_keep_free(struct cost_keep *ck)
{
	if (ck == NULL)
		return;
	free(ck->rate);
	free(ck->pos);
	free(ck->known);
	free(ck->bins);
	free(ck->cnt);
	free(ck->sz);
	free(ck->sy);
	free(ck);
}

/*
 * Fresh keeping for space sp, its grid the finest with the same bins for
 * every numeric parameter and at most COST_CELLS cells (none when the
 * choices alone take more), or NULL.
 */
static struct cost_keep *
cost_keep_new(const struct space *sp)
{
	struct cost_keep *ck;
	size_t d = sp->n, i, b, cells, choices = 1, numeric = 0, c;

	if ((ck = calloc(1, sizeof(*ck))) == NULL ||
	    (ck->bins = calloc(d + 1, sizeof(size_t))) == NULL) {
		free(ck);
		return NULL;
	}
	for (i = 0; i < d; i++)
		if (sp->params[i].type == PARAM_CHOICE) {
			if (choices <= COST_CELLS)
				choices *= sp->params[i].nchoices;
		} else
			numeric++;
	if (choices > COST_CELLS)
		return ck;
	for (b = 1;; b++) {
		for (cells = choices, c = 0; c < numeric &&
		    cells <= COST_CELLS; c++)
			cells *= b + 1;
		if (cells > COST_CELLS || numeric == 0)
			break;
	}
	for (cells = 1, i = 0; i < d; i++) {
		ck->bins[i] = sp->params[i].type == PARAM_CHOICE ?
		    sp->params[i].nchoices : b;
		cells *= ck->bins[i];
	}
	ck->cnt = calloc(cells, sizeof(int64_t));
	ck->sz = calloc(cells, sizeof(int64_t));
	ck->sy = calloc(cells * d + 1, sizeof(int64_t));
	if (ck->cnt == NULL || ck->sz == NULL || ck->sy == NULL) {
		cost_keep_free(ck);
		return NULL;
	}
	ck->ncells = cells;
	return ck;
}

/*
 * Trial x's cell, and its place in it along each parameter in fixed
 * point into place[] (0 for a choice).
 */
static size_t
cost_cell(const struct cost_keep *ck, const struct space *sp,
    const double *x, int64_t *place)
{
	const struct param_def *p;
	double lo, hi, u, b;
	size_t i, cell = 0;

	for (i = 0; i < sp->n; i++) {
		p = &sp->params[i];
		place[i] = 0;
		if (p->type == PARAM_CHOICE) {
			b = x[i] < 0 ? 0 : x[i] >= (double)p->nchoices ?
			    (double)p->nchoices - 1 : floor(x[i]);
		} else {
			lo = tpe_to_internal(p, p->min);
			hi = tpe_to_internal(p, p->max);
			u = hi > lo ? (tpe_to_internal(p, x[i]) - lo) /
			    (hi - lo) * (double)ck->bins[i] : 0;
			u = u < 0 ? 0 : u >= (double)ck->bins[i] ?
			    nextafter((double)ck->bins[i], 0) : u;
			b = floor(u);
			place[i] = (int64_t)llround((u - b) * COST_FIX);
		}
		cell = cell * ck->bins[i] + (size_t)b;
	}
	return cell;
}

/*
 * Add (sign 1) or take away (-1) a trial at x of cost rate from the
 * cells.  Return -1 out of memory.
 */
static int
cost_keep_cell(struct cost_keep *ck, const struct space *sp,
    const double *x, double rate, int sign)
{
	int64_t place[64], *pl, zf;
	size_t d = sp->n, i, cell;

	if (ck->ncells == 0)
		return 0;
	pl = d <= 64 ? place : calloc(d, sizeof(int64_t));
	if (pl == NULL)
		return -1;
	cell = cost_cell(ck, sp, x, pl);
	zf = (int64_t)llround(log(rate) * COST_FIX);
	ck->cnt[cell] += sign;
	ck->sz[cell] += sign * zf;
	ck->total += sign * zf;
	for (i = 0; i < d; i++)
		ck->sy[cell * d + i] += sign * pl[i];
	if (pl != place)
		free(pl);
	return 0;
}

/* Trial k's cost seen as rate (0: unknown).  Return -1 out of memory. */
static int
cost_keep_set(struct cost_keep *ck, const struct space *sp,
    const struct history *h, size_t k, double rate)
{
	double *r;
	size_t cap, j, *q;

	if (k >= ck->cap) {
		for (cap = ck->cap ? ck->cap : 64; cap <= k; cap *= 2)
			;
		if ((r = reallocarray(ck->rate, cap, sizeof(double))) == NULL)
			return -1;
		ck->rate = r;
		if ((q = reallocarray(ck->pos, cap, sizeof(size_t))) == NULL)
			return -1;
		ck->pos = q;
		if ((q = reallocarray(ck->known, cap, sizeof(size_t))) == NULL)
			return -1;
		ck->known = q;
		memset(ck->rate + ck->cap, 0, (cap - ck->cap) *
		    sizeof(double));
		ck->cap = cap;
	}
	if (k >= ck->n)
		ck->n = k + 1;
	if (!(rate > 0) || !isfinite(rate))
		rate = 0;
	if (ck->rate[k] == rate)
		return 0;
	if (ck->rate[k] > 0) {
		if (cost_keep_cell(ck, sp, h->obs[k].x, ck->rate[k], -1) != 0)
			return -1;
		j = ck->known[--ck->nknown];
		ck->known[ck->pos[k]] = j;
		ck->pos[j] = ck->pos[k];
	}
	if (rate > 0) {
		if (cost_keep_cell(ck, sp, h->obs[k].x, rate, 1) != 0)
			return -1;
		ck->pos[k] = ck->nknown;
		ck->known[ck->nknown++] = k;
	}
	ck->rate[k] = rate;
	return 0;
}

/*
 * Bring *ckp up to history h: what the log names since the last call,
 * or every trial (no log, a new one, one cut short).  Return -1 out of
 * memory (*ckp freed).
 */
static int
cost_keep_update(struct cost_keep **ckp, const struct space *sp,
    const struct history *h, const struct history_log *log)
{
	struct cost_keep *ck = *ckp;
	size_t k, from;
	int rc = 0;

	if (ck == NULL || log == NULL || !ck->started || log->id != ck->id ||
	    log->n < ck->nlog || h->n < ck->n) {
		cost_keep_free(ck);
		if ((ck = *ckp = cost_keep_new(sp)) == NULL)
			return -1;
		for (k = 0; k < h->n && rc == 0; k++)
			rc = cost_keep_set(ck, sp, h, k, h->obs[k].step_s);
	} else {
		from = ck->n;
		for (k = ck->nlog; k < log->n && rc == 0; k++)
			if (log->changed[k] < h->n)
				rc = cost_keep_set(ck, sp, h, log->changed[k],
				    h->obs[log->changed[k]].step_s);
		for (k = from; k < h->n && rc == 0; k++)
			rc = cost_keep_set(ck, sp, h, k, h->obs[k].step_s);
	}
	if (rc != 0) {
		cost_keep_free(ck);
		*ckp = NULL;
		return -1;
	}
	ck->started = log != NULL;
	ck->id = log != NULL ? log->id : 0;
	ck->nlog = log != NULL ? log->n : 0;
	return 0;
}

/*
 * The model of what is kept: one centre per trial up to COST_CELLS
 * trials (or with no grid); beyond, one per cell taken, at its trials'
 * mean place, weighted by their count, answered relative to the mean
 * log rate (the centre matters only through COST_PRIOR's pull, nil
 * beside thousands of trials).
 */
static struct cost_model *
cost_keep_model(const struct cost_keep *ck, const struct space *sp,
    const struct history *h)
{
	struct cost_model *cm;
	const struct param_def *p;
	size_t *idx, d = sp->n, c, i, n = 0, rest;
	double mean, lo, hi;

	if (ck->nknown < COST_MIN)
		return NULL;
	if (ck->nknown <= COST_CELLS || ck->ncells == 0) {
		if ((idx = malloc(ck->nknown * sizeof(size_t))) == NULL)
			return NULL;
		memcpy(idx, ck->known, ck->nknown * sizeof(size_t));
		qsort(idx, ck->nknown, sizeof(size_t), cost_cmp_index);
		cm = cost_model_exact(sp, h, idx, ck->nknown);
		free(idx);
		return cm;
	}
	for (c = 0; c < ck->ncells; c++)
		n += ck->cnt[c] > 0;
	if ((cm = cost_model_alloc(sp, n, 1)) == NULL)
		return NULL;
	mean = (double)ck->total / COST_FIX / (double)ck->nknown;
	for (c = 0; c < ck->ncells; c++) {
		if (ck->cnt[c] <= 0)
			continue;
		cm->cnt[cm->n] = (double)ck->cnt[c];
		cm->z[cm->n] = (double)ck->sz[c] / COST_FIX /
		    (double)ck->cnt[c] - mean;
		for (rest = c, i = d; i-- > 0; rest /= ck->bins[i]) {
			p = &sp->params[i];
			if (p->type == PARAM_CHOICE) {
				cm->y[cm->n * d + i] =
				    (double)(rest % ck->bins[i]);
				continue;
			}
			lo = tpe_to_internal(p, p->min);
			hi = tpe_to_internal(p, p->max);
			cm->y[cm->n * d + i] = lo + (hi - lo) *
			    ((double)(rest % ck->bins[i]) +
			    (double)ck->sy[c * d + i] / COST_FIX /
			    (double)ck->cnt[c]) / (double)ck->bins[i];
		}
		cm->n++;
	}
	return cm;
}

/*
 * The model of the history's known costs (h may be NULL), or NULL while
 * fewer than COST_MIN trials have one (or out of memory): no opinion yet.
 * With keep (may be NULL), what is known is kept in *keep between calls
 * and follows log, so a call costs what changed, not a pass over every
 * trial; the model has at most COST_CELLS centres and is the same bits
 * whether kept or built from nothing.
 */
struct cost_model *
cost_model_new(const struct space *sp, const struct history *h,
    struct cost_keep **keep, const struct history_log *log)
{
	struct cost_keep *own = NULL, **ckp = keep != NULL ? keep : &own;
	struct cost_model *cm;

	if (h == NULL || cost_keep_update(ckp, sp, h, keep != NULL ?
	    log : NULL) != 0)
		return NULL;
	cm = cost_keep_model(*ckp, sp, h);
	cost_keep_free(own);
	return cm;
}

/* The model's kernel centres (0 with none). */
size_t
cost_model_centres(const struct cost_model *cm)
{
	return cm != NULL ? cm->n : 0;
}

/*
 * log(predicted seconds per step at internal point y / the median's),
 * 0 with no model.
 */
double
cost_model_log(const struct cost_model *cm, const double *y)
{
	const struct param_def *p;
	double sw = COST_PRIOR, swz = 0, e, w, u;
	size_t d, i, k;

	if (cm == NULL)
		return 0;
	d = cm->space->n;
	for (k = 0; k < cm->n; k++) {
		e = 0;
		w = 1;
		for (i = 0; i < d; i++) {
			p = &cm->space->params[i];
			if (p->type == PARAM_CHOICE) {
				if (cm->y[k * d + i] != y[i])
					w *= 0.5;
			} else if (cm->width[i] > 0) {
				u = (y[i] - cm->y[k * d + i]) / cm->width[i];
				e += 0.5 * u * u;
			}
		}
		w *= exp(-e);
		if (cm->cnt != NULL)
			w *= cm->cnt[k];
		sw += w;
		swz += w * cm->z[k];
	}
	return swz / sw;
}

/*
 * The cheapest candidate of nearly the best acquisition: within
 * COST_TOLERANCE of it, and rated by the model more likely good than bad
 * (l > g, a score over 0) unless it is the best.
 */
size_t
cost_pick(const double *score, const double *cost, size_t n)
{
	double best = -INFINITY, floor;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (i == 0 || score[i] > best)
			best = score[i];
	floor = fmax(best - COST_TOLERANCE, fmin(best, 0));
	for (i = 0; i < n; i++)
		if (score[i] >= floor && (score[k] < floor ||
		    cost[i] < cost[k] || (cost[i] == cost[k] &&
		    score[i] > score[k])))
			k = i;
	return k;
}

/*
 * A start-up suggestion: mtpe's design point, or, once costs are known,
 * the cheaper of it and the same point of a second design (another
 * shift).
 */
int
cost_startup(struct search *s, const struct history *h, double *x)
{
	struct cost_model *cm;
	double *x2, *y, c1, c2;
	size_t d = s->space->n;

	if (mtpe_design(s, s->seed, h, x) != 0 ||
	    (cm = cost_model_new(s->space, h,
	    &((struct tpe_conf *)s->state)->cost, s->log)) == NULL)
		return 0;
	x2 = calloc(d + 1, sizeof(*x2));
	y = calloc(d + 1, sizeof(*y));
	if (x2 != NULL && y != NULL &&
	    mtpe_design(s, s->seed ^ UINT64_C(0xc0575), h, x2) == 0) {
		cost_internal(s->space, x, y);
		c1 = cost_model_log(cm, y);
		cost_internal(s->space, x2, y);
		c2 = cost_model_log(cm, y);
		if (c2 < c1)
			memcpy(x, x2, d * sizeof(*x));
	}
	free(x2);
	free(y);
	cost_model_free(cm);
	return 0;
}
