/*
 * scaling.c: the plan of a batch-size scaling campaign (see scaling.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "params.h"
#include "scaling_int.h"
#include "search.h"
#include "state.h"
#include "xmalloc.h"

struct lane {
	long		 batch;
	struct search	*search;	/* over the space without the batch */
	int		 exhausted;	/* its search has nothing more */
};

struct scaling {
	const struct campaign_spec *s;
	struct space	 view;		/* borrowed parameters, batch last */
	struct lane	*lanes;
	size_t		 nlanes;
	int		 bi;		/* the batch parameter's index */
	int		 li;		/* the learning rate's, or -1 */
	int		*lane_of;	/* by trial number */
	unsigned char	*role_of;
	size_t		 nnoted;
};

static const char *const role_names[] = { "search", "transfer", "confirm" };

/* The ledger's name of a role. */
const char *
scaling_role_name(enum scaling_role r)
{
	return role_names[r];
}

/* A role by name; -1 if unknown. */
int
scaling_role_parse(const char *s)
{
	int	 i;

	for (i = 0; i < 3; i++)
		if (s != NULL && strcmp(s, role_names[i]) == 0)
			return i;
	return -1;
}

/* Create the plan. */
struct scaling *
scaling_new(const struct campaign_spec *s, char *err, size_t errlen)
{
	struct scaling	*sc;
	size_t		 i;

	if (s->scaling.nbatch == 0 || s->scaling.batch_param == NULL ||
	    s->space->n == 0 || strcmp(s->space->params[s->space->n - 1].name,
	    s->scaling.batch_param) != 0) {
		snprintf(err, errlen, "%s: not a bound scaling campaign",
		    s->path);
		return NULL;
	}
	if ((sc = calloc(1, sizeof(*sc))) == NULL ||
	    (sc->lanes = calloc(s->scaling.nbatch, sizeof(*sc->lanes))) ==
	    NULL) {
		free(sc);
		snprintf(err, errlen, "%s: out of memory", s->path);
		return NULL;
	}
	sc->s = s;
	sc->bi = (int)s->space->n - 1;
	sc->li = s->scaling.lr_rule == LR_RULE_NONE ? -1 :
	    space_find(s->space, s->scaling.lr_param);
	sc->view.n = s->space->n - 1;
	sc->view.params = s->space->params;
	sc->nlanes = s->scaling.nbatch;
	for (i = 0; i < sc->nlanes; i++) {
		sc->lanes[i].batch = s->scaling.batch_sizes[i];
		/* Lane 0 draws what an ordinary campaign would. */
		sc->lanes[i].search = search_new(s->algorithm, &sc->view,
		    s->seed + i * 0x9e3779b97f4a7c15ULL, err, errlen);
		if (sc->lanes[i].search == NULL) {
			scaling_free(sc);
			return NULL;
		}
	}
	return sc;
}

/* Free the plan. */
void
scaling_free(struct scaling *sc)
{
	size_t	 i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc->nlanes; i++)
		search_free(sc->lanes[i].search);
	free(sc->lanes);
	free(sc->lane_of);
	free(sc->role_of);
	free(sc);
}

/* The lane of a batch size. */
int
scaling_lane(const struct scaling *sc, long batch)
{
	size_t	 i;

	for (i = 0; i < sc->nlanes; i++)
		if (sc->lanes[i].batch == batch)
			return (int)i;
	return -1;
}

/* Remember a trial's lane and role. */
void
scaling_note(struct scaling *sc, int number, int lane, enum scaling_role r)
{
	size_t	 n = (size_t)number + 1, i;

	if (number < 0)
		return;
	if (n > sc->nnoted) {
		sc->lane_of = xreallocarray(sc->lane_of, n,
		    sizeof(*sc->lane_of));
		sc->role_of = xreallocarray(sc->role_of, n, 1);
		for (i = sc->nnoted; i < n; i++) {
			sc->lane_of[i] = -1;
			sc->role_of[i] = ROLE_SEARCH;
		}
		sc->nnoted = n;
	}
	sc->lane_of[number] = lane;
	sc->role_of[number] = (unsigned char)r;
}

/* A trial's lane, or -1. */
int
scaling_lane_of(const struct scaling *sc, int number)
{
	return number >= 0 && (size_t)number < sc->nnoted ?
	    sc->lane_of[number] : -1;
}

/* A trial's role. */
enum scaling_role
scaling_role_of(const struct scaling *sc, int number)
{
	return number >= 0 && (size_t)number < sc->nnoted ?
	    (enum scaling_role)sc->role_of[number] : ROLE_SEARCH;
}

/* The first step of a curve that meets the target. */
int
scaling_reached_step(const struct campaign_spec *s,
    const struct observation *o, double *step)
{
	size_t	 i;

	if (!s->has_target)
		return 0;
	for (i = 0; i < o->npoints; i++)
		if (s->maximize ? o->values[i] >= s->target :
		    o->values[i] <= s->target) {
			*step = o->steps[i];
			return 1;
		}
	return 0;
}

/* 1 if the trial is still to end. */
static int
scaling_active(const struct ledger_trial *t)
{
	return trial_state_active(trial_state_parse(t->state));
}

/* Plan a confirmation run of lane l's candidate. */
static void
scaling_plan_confirm(const struct scaling *sc, const struct ledger_trial *t,
    int l, const struct lane_view *v, struct scaling_plan *p)
{
	p->role = ROLE_CONFIRM;
	p->from_trial = t[v->next].number;
	if (v->next_rank > 1)
		snprintf(p->why, sizeof(p->why), "batch size %ld: "
		    "confirmation run %d of %d of trial %d's configuration "
		    "(candidate %d: the ones before failed)",
		    sc->lanes[l].batch, v->next_confirms + 1,
		    sc->s->scaling.seeds, p->from_trial, v->next_rank);
	else
		snprintf(p->why, sizeof(p->why), "batch size %ld: "
		    "confirmation run %d of %d of trial %d's configuration",
		    sc->lanes[l].batch, v->next_confirms + 1,
		    sc->s->scaling.seeds, p->from_trial);
}

/*
 * Plan lane l's first trial from the best configuration of the nearest
 * smaller batch size that has one; 0 if none has.
 */
static int
scaling_plan_transfer(struct scaling *sc, const struct ledger_trial *t,
    size_t n, const struct curves *cv, int l, struct scaling_plan *p)
{
	const struct param_def	*pd;
	struct lane_view	 v;
	double			 lr = 0;
	int			 k;
	char			 a[32], b[32];

	for (k = l - 1; k >= 0; k--) {
		scaling_lane_view(sc->s, t, n, cv, sc->lanes[k].batch, &v);
		if (v.source >= 0 && scaling_point(sc->s, &t[v.source],
		    p->x) == 0)
			break;
	}
	if (k < 0)
		return 0;
	p->role = ROLE_TRANSFER;
	p->from_trial = t[v.source].number;
	p->x[sc->bi] = l;
	if (sc->li < 0) {
		snprintf(p->why, sizeof(p->why), "batch size %ld: starts from "
		    "trial %d (batch size %ld), learning rate kept (rule none)",
		    sc->lanes[l].batch, p->from_trial, sc->lanes[k].batch);
		return 1;
	}
	pd = &sc->s->space->params[sc->li];
	lr = p->x[sc->li];
	p->x[sc->li] = spec_lr_transfer(sc->s, lr, sc->lanes[k].batch,
	    sc->lanes[l].batch);
	p->x[sc->li] = fmin(fmax(p->x[sc->li], pd->min), pd->max);
	space_shortest(lr, a, sizeof(a));
	space_shortest(p->x[sc->li], b, sizeof(b));
	snprintf(p->why, sizeof(p->why), "batch size %ld: starts from trial "
	    "%d (batch size %ld), %s %s -> %s (%s rule%s)", sc->lanes[l].batch,
	    p->from_trial, sc->lanes[k].batch, pd->name, a, b,
	    spec_lr_rule_name(sc->s->scaling.lr_rule),
	    p->x[sc->li] == pd->max || p->x[sc->li] == pd->min ?
	    ", clamped to the space" : "");
	return 1;
}

/* Plan a tuning trial of lane l from its search; 0 if it has no more. */
static int
scaling_plan_search(struct scaling *sc, const struct ledger_trial *t,
    size_t n, const struct curves *cv, int l, struct scaling_plan *p)
{
	struct observation	*obs;
	struct history		 h;
	double			*xs;
	size_t			 i, k = 0, dim = sc->s->space->n;
	int			 rc;

	obs = xcalloc(n + 1, sizeof(*obs));
	xs = xcalloc(n * dim + 1, sizeof(*xs));
	for (i = 0; i < n; i++) {
		struct observation *o = &obs[k];

		if (t[i].batch_size != sc->lanes[l].batch ||
		    scaling_role_parse(t[i].role) == ROLE_CONFIRM)
			continue;
		o->x = xs + k * dim;
		scaling_point(sc->s, &t[i], xs + k * dim);
		if (trial_state_parse(t[i].state) == TRIAL_COMPLETED)
			o->state = OBS_COMPLETE;
		else if (trial_state_parse(t[i].state) == TRIAL_PRUNED)
			o->state = OBS_PRUNED;
		else if (scaling_active(&t[i]))
			o->state = OBS_RUNNING;
		else
			o->state = OBS_FAILED;
		o->has_value = t[i].has_best;
		o->value = t[i].best;
		curves_fill(cv, t[i].number, o);
		k++;
	}
	h.n = k;
	h.obs = obs;
	h.maximize = sc->s->maximize;
	rc = search_suggest(sc->lanes[l].search, &h, p->x);
	free(obs);
	free(xs);
	if (rc != 0) {
		sc->lanes[l].exhausted = 1;
		return 0;
	}
	p->x[sc->bi] = l;
	p->role = ROLE_SEARCH;
	p->from_trial = -1;
	if ((int)k < sc->s->scaling.trials_per_batch)
		snprintf(p->why, sizeof(p->why), "batch size %ld: tuning trial "
		    "%zu of %d", sc->lanes[l].batch, k + 1,
		    sc->s->scaling.trials_per_batch);
	else
		snprintf(p->why, sizeof(p->why), "batch size %ld: tuning trial "
		    "%zu: no configuration left to confirm reached the "
		    "target", sc->lanes[l].batch, k + 1);
	return 1;
}

/*
 * Whether lane l's tuning has ended: its trials_per_batch tuning trials
 * exist (or its search has nothing more), and a candidate passed, is being
 * confirmed or, not tried yet, reached the target, or its share of the
 * budget has no room for more tuning beside a confirmation.
 */
static int
scaling_tuned(const struct scaling *sc, size_t l, const struct lane_view *v)
{
	const struct spec_scaling *ss = &sc->s->scaling;

	if (sc->lanes[l].exhausted)
		return 1;
	if (v->tune < ss->trials_per_batch)
		return 0;
	return v->fresh || v->passed >= 0 || v->next_confirms > 0 ||
	    v->tune + v->confirm + ss->seeds >= sc->s->max_trials /
	    (int)sc->nlanes;
}

/* Decide the next trial. */
enum scaling_verdict
scaling_next(struct scaling *sc, const struct ledger_trial *t, size_t n,
    const struct curves *cv, struct scaling_plan *p)
{
	const struct spec_scaling *ss = &sc->s->scaling;
	struct lane_view	*lv;
	size_t			 l;
	int			 done = 1, open = 1, tuned;
	enum scaling_verdict	 v = SCALING_WAIT;

	lv = xcalloc(sc->nlanes, sizeof(*lv));
	for (l = 0; l < sc->nlanes; l++)
		scaling_lane_view(sc->s, t, n, cv, sc->lanes[l].batch, &lv[l]);
	memset(p->why, 0, sizeof(p->why));
	p->from_trial = -1;
	/* Confirmation runs first: they end a batch size. */
	for (l = 0; l < sc->nlanes; l++) {
		if (!scaling_tuned(sc, l, &lv[l]) || lv[l].tune_active > 0 ||
		    lv[l].next < 0 || lv[l].next_confirms >= ss->seeds)
			continue;
		p->lane = (int)l;
		p->batch = sc->lanes[l].batch;
		if (scaling_point(sc->s, &t[lv[l].next], p->x) == -1)
			continue;
		scaling_plan_confirm(sc, t, (int)l, &lv[l], p);
		v = SCALING_NEW;
		goto out;
	}
	for (l = 0; l < sc->nlanes; l++) {
		tuned = scaling_tuned(sc, l, &lv[l]);
		if (!tuned || lv[l].tune_active > 0 || lv[l].next >= 0 ||
		    lv[l].confirm_active > 0)
			done = 0;
		if (!open)
			continue;
		if (!tuned && lv[l].tune >= ss->trials_per_batch &&
		    lv[l].tune_active > 0) {
			/* Wait for its runs before tuning beyond its trials. */
			open = lv[l].source >= 0;
			continue;
		}
		if (!tuned) {
			p->lane = (int)l;
			p->batch = sc->lanes[l].batch;
			if ((l > 0 && lv[l].tune == 0 && scaling_plan_transfer(sc,
			    t, n, cv, (int)l, p)) || scaling_plan_search(sc, t,
			    n, cv, (int)l, p)) {
				v = SCALING_NEW;
				goto out;
			}
			/* Its search is exhausted: the lane is tuned. */
			tuned = 1;
		}
		/* The next lane opens on a result of this one. */
		open = (tuned || lv[l].tune >= ss->trials_per_batch) &&
		    (lv[l].source >= 0 || lv[l].tune_active == 0);
	}
	if (done)
		v = SCALING_DONE;
out:
	free(lv);
	return v;
}
