/*
 * scaling_lane.c: what the trials of a batch size say about its
 * candidate configurations (see scaling_int.h): which confirmation runs
 * belong to which candidate, which candidate passed or was abandoned, and
 * the order in which candidates are confirmed.
 *
 * Candidates are ranked by what all the evidence says about reliability:
 * each run of a configuration (its tuning run and its confirmation runs)
 * and, at half weight, each ended tuning run of a neighbouring
 * configuration (every parameter within a tenth of its range, log ranges
 * measured in logs) is a trial of its success; the success probability is
 * estimated as (successes + 1) / (runs + 2) and the epochs to target as
 * the mean over the successes.  The smallest expected epochs / probability
 * ranks first; a candidate that never reached the target ranks after
 * those that did, by its best value.  Ties go to the older trial.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "params.h"
#include "scaling_int.h"
#include "search.h"
#include "state.h"
#include "xmalloc.h"

#define NEIGHBOUR	0.1	/* of each parameter's range */

/* What is known of one candidate. */
struct cand {
	int	 i;		/* index in the trial list */
	double	*x;
	int	 confirms, active, ok, bad;	/* its confirmation runs */
	int	 first_confirm;	/* number of its first, or -1 */
	int	 reached;	/* its tuning run reached the target */
	double	 score;		/* expected epochs / P(success); INFINITY */
};

/* Read trial t's point into x. */
int
scaling_point(const struct campaign_spec *s, const struct ledger_trial *t,
    double *x)
{
	char	 err[256];

	if (params_from_json(s->space, t->params_json, x, err,
	    sizeof(err)) == -1) {
		log_warnx("campaign '%s': trial %d: %s", s->name, t->number,
		    err);
		return -1;
	}
	return 0;
}

/* 1 if the trial is still to end. */
static int
lane_active(const struct ledger_trial *t)
{
	return trial_state_active(trial_state_parse(t->state));
}

/* Whether a trial reached the target, and at which step (NAN unknown). */
static int
lane_reached(const struct campaign_spec *s, const struct ledger_trial *t,
    const struct curves *cv, double *step)
{
	struct observation	 o;

	*step = NAN;
	memset(&o, 0, sizeof(o));
	curves_fill(cv, t->number, &o);
	if (scaling_reached_step(s, &o, step))
		return 1;
	if (t->has_best && s->has_target && (s->maximize ?
	    t->best >= s->target : t->best <= s->target)) {
		/* Its curve not kept: the step of its best value bounds it. */
		if (t->best_step > 0)
			*step = t->best_step;
		return 1;
	}
	return t->reached;
}

/* A coordinate in [0, 1] of its parameter's range. */
static double
lane_unit(const struct param_def *pd, double v)
{
	if (pd->type == PARAM_CHOICE)
		return pd->nchoices > 1 ? v / (double)(pd->nchoices - 1) : 0;
	if (pd->max <= pd->min)
		return 0;
	if (pd->scale == SCALE_LOG && pd->min > 0 && v > 0)
		return (log(v) - log(pd->min)) / (log(pd->max) - log(pd->min));
	return (v - pd->min) / (pd->max - pd->min);
}

/* Whether two points are neighbours (the batch size, last, left out). */
static int
lane_near(const struct campaign_spec *s, const double *a, const double *b)
{
	const struct param_def	*pd;
	size_t			 k;

	for (k = 0; k + 1 < s->space->n; k++) {
		pd = &s->space->params[k];
		if (pd->type == PARAM_CHOICE ? a[k] != b[k] :
		    fabs(lane_unit(pd, a[k]) - lane_unit(pd, b[k])) >
		    NEIGHBOUR + 1e-12)
			return 0;
	}
	return 1;
}

/* Whether two points are the same configuration. */
static int
lane_same(const struct campaign_spec *s, const double *a, const double *b)
{
	size_t	 k;

	for (k = 0; k + 1 < s->space->n; k++)
		if (a[k] != b[k])
			return 0;
	return 1;
}

/* Count one run of weight w into the evidence. */
static void
lane_evidence(int ok, double step, double w, double *runs, double *succ,
    double *esum, double *ew)
{
	*runs += w;
	if (!ok)
		return;
	*succ += w;
	if (isfinite(step)) {
		*esum += w * step;
		*ew += w;
	}
}

/* Rank candidate c from the lane's runs. */
static void
lane_score(const struct campaign_spec *s, const struct ledger_trial *t,
    size_t n, const struct curves *cv, long batch, double **xs,
    struct cand *c)
{
	double	 runs = 0, succ = 0, esum = 0, ew = 0, step, w;
	size_t	 i;
	int	 ok, conf;

	for (i = 0; i < n; i++) {
		if (t[i].batch_size != batch || xs[i] == NULL ||
		    lane_active(&t[i]) ||
		    trial_state_parse(t[i].state) == TRIAL_CANCELLED)
			continue;
		conf = scaling_role_parse(t[i].role) == ROLE_CONFIRM;
		if (lane_same(s, xs[i], c->x))
			w = 1;
		else if (!conf && lane_near(s, xs[i], c->x))
			w = 0.5;
		else
			continue;
		ok = lane_reached(s, &t[i], cv, &step);
		lane_evidence(ok, step, w, &runs, &succ, &esum, &ew);
	}
	c->score = succ > 0 && ew > 0 ? (esum / ew) / ((succ + 1) /
	    (runs + 2)) : INFINITY;
}

/*
 * Whether candidate a ranks before b: the smaller score, then (neither
 * reached) the better value, then the older trial.
 */
static int
lane_before(const struct campaign_spec *s, const struct ledger_trial *t,
    const struct cand *a, const struct cand *b)
{
	const struct ledger_trial *ta = &t[a->i], *tb = &t[b->i];

	if (a->score != b->score)
		return a->score < b->score;
	if (ta->best != tb->best)
		return s->maximize ? ta->best > tb->best : ta->best < tb->best;
	return ta->number < tb->number;
}

/*
 * The candidates of lane batch: the distinct points of its tuning trials
 * with a result (into c; xs[i] the point of trial i, in buf), each with
 * what its confirmation runs did; counts the lane's runs into v.  Returns
 * the number of candidates.
 */
static size_t
lane_gather(const struct campaign_spec *s, const struct ledger_trial *t,
    size_t n, const struct curves *cv, long batch, double **xs, double *buf,
    struct cand *c, struct lane_view *v)
{
	size_t		 i, k, nc = 0, dim = s->space->n;
	double		 step;

	for (i = 0; i < n; i++) {
		if (t[i].batch_size != batch)
			continue;
		if (scaling_point(s, &t[i], buf + i * dim) == 0)
			xs[i] = buf + i * dim;
		if (scaling_role_parse(t[i].role) == ROLE_CONFIRM) {
			v->confirm++;
			v->confirm_active += lane_active(&t[i]);
			continue;
		}
		v->tune++;
		v->tune_active += lane_active(&t[i]);
		/* Diverged, crashed or cancelled runs are no configuration. */
		if (xs[i] == NULL || !t[i].has_best ||
		    trial_state_parse(t[i].state) == TRIAL_FAILED ||
		    trial_state_parse(t[i].state) == TRIAL_CANCELLED)
			continue;
		for (k = 0; k < nc && !lane_same(s, xs[c[k].i], xs[i]); k++)
			;
		if (k < nc)
			continue;	/* the same configuration again */
		c[nc].i = (int)i;
		c[nc].x = xs[i];
		c[nc].first_confirm = -1;
		nc++;
	}
	/* Each confirmation run belongs to the candidate of its point. */
	for (i = 0; i < n; i++) {
		if (t[i].batch_size != batch || xs[i] == NULL ||
		    scaling_role_parse(t[i].role) != ROLE_CONFIRM)
			continue;
		for (k = 0; k < nc && !lane_same(s, c[k].x, xs[i]); k++)
			;
		if (k == nc)
			continue;
		if (c[k].confirms++ == 0)
			c[k].first_confirm = t[i].number;
		if (lane_active(&t[i]))
			c[k].active++;
		else if (lane_reached(s, &t[i], cv, &step))
			c[k].ok++;
		else
			c[k].bad++;
	}
	return nc;
}

/*
 * The lane's next candidate to confirm: the open one (being confirmed),
 * else the best not tried yet if there is room (after a failure, only
 * one that reached the target).
 */
static void
lane_next(const struct campaign_spec *s, const struct ledger_trial *t,
    const struct cand *c, size_t nc, int open, int tried, int room,
    struct lane_view *v)
{
	size_t	 k;

	if (v->passed < 0 && open >= 0) {
		v->next = c[open].i;
		v->next_confirms = c[open].confirms;
		v->next_rank = tried;
	} else if (v->passed < 0 && room) {
		/*
		 * The best candidate not tried yet, if the share allows;
		 * after a failure, only one that reached the target.
		 */
		for (k = 0; k < nc; k++)
			if (c[k].confirms == 0 && (tried == 0 ||
			    c[k].reached) && (open < 0 ||
			    lane_before(s, t, &c[k], &c[open])))
				open = (int)k;
		if (open >= 0) {
			v->next = c[open].i;
			v->next_rank = tried + 1;
		}
	}
}

/* Fill the view of lane batch. */
void
scaling_lane_view(const struct campaign_spec *s, const struct ledger_trial *t,
    size_t n, const struct curves *cv, long batch, struct lane_view *v)
{
	const struct spec_scaling *ss = &s->scaling;
	struct cand	*c;
	double		**xs, *buf, step;
	size_t		 k, nc, dim = s->space->n;
	int		 open = -1, best = -1, last = -1, tried = 0;
	int		 share, room, go_on;

	memset(v, 0, sizeof(*v));
	v->passed = v->next = v->source = -1;
	xs = xcalloc(n + 1, sizeof(*xs));
	buf = xcalloc(n * dim + 1, sizeof(*buf));
	c = xcalloc(n + 1, sizeof(*c));
	nc = lane_gather(s, t, n, cv, batch, xs, buf, c, v);
	share = s->max_trials / (int)ss->nbatch;
	room = v->tune + v->confirm + ss->seeds <= share;
	for (k = 0; k < nc; k++) {
		c[k].reached = lane_reached(s, &t[c[k].i], cv, &step);
		if (c[k].confirms == 0)
			v->fresh |= c[k].reached;
	}
	/*
	 * Another candidate can follow a failing one: one on target is left
	 * to confirm, or there is room to tune on (see scaling_tuned()).
	 */
	go_on = room && (v->fresh || v->tune + v->confirm + ss->seeds <
	    share);
	for (k = 0; k < nc; k++)
		if (c[k].confirms > 0 && (last < 0 || c[k].first_confirm >
		    c[last].first_confirm))
			last = (int)k;
	for (k = 0; k < nc; k++) {
		lane_score(s, t, n, cv, batch, xs, &c[k]);
		if (best < 0 || lane_before(s, t, &c[k], &c[best]))
			best = (int)k;
		if (c[k].confirms == 0)
			continue;
		tried++;
		if (c[k].confirms >= ss->seeds && c[k].active == 0 &&
		    c[k].ok >= ss->min_successes)
			v->passed = c[k].i;
		else if (c[k].bad <= ss->seeds - ss->min_successes ||
		    (!go_on && (int)k == last && c[k].confirms < ss->seeds)) {
			/*
			 * Still able to pass, or the last one tried, doomed,
			 * with nothing to follow it: its seeds are all run,
			 * for the table.
			 */
			if (open < 0 || c[k].first_confirm <
			    c[open].first_confirm)
				open = (int)k;
		}
	}
	lane_next(s, t, c, nc, open, tried, room, v);
	v->source = v->passed >= 0 ? v->passed : v->next >= 0 ? v->next :
	    best >= 0 ? c[best].i : -1;
	free(c);
	free(buf);
	free(xs);
}
