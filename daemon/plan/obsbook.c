/*
 * obsbook.c: the search history of a running campaign (see obsbook.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "obsbook.h"
#include "params.h"
#include "xmalloc.h"

struct obsbook {
	const struct space	*space;
	size_t			 n, cap;
	size_t			 nprior;	/* priors first, then trials */
	double			*xs;	/* n x space->n coordinates */
	struct observation	*obs;
	uint64_t		 logid;	/* this log's: a load starts one */
	size_t			*log;	/* indices changed, oldest first */
	size_t			 nlog, logcap;
};

/* An empty book. */
struct obsbook *
obsbook_new(const struct space *space)
{
	struct obsbook *b;

	b = xcalloc(1, sizeof(*b));
	b->space = space;
	b->logid = 1;
	return b;
}

/* Free the book. */
void
obsbook_free(struct obsbook *b)
{
	if (b == NULL)
		return;
	free(b->xs);
	free(b->obs);
	free(b->log);
	free(b);
}

/* Make room for one more trial, doubling the arrays. */
static void
obsbook_grow(struct obsbook *b)
{
	size_t dim = b->space->n, i;

	if (b->n < b->cap)
		return;
	b->cap = b->cap ? b->cap * 2 : 64;
	b->xs = xreallocarray(b->xs, b->cap * dim * sizeof(*b->xs) + 1, 1);
	b->obs = xreallocarray(b->obs, b->cap, sizeof(*b->obs));
	for (i = 0; i < b->n; i++)
		b->obs[i].x = b->xs + i * dim;
}

/*
 * Note that history index i changed.  The log is started afresh (a new
 * id: the search reads the whole history once) when it grows past four
 * entries per trial, so that it stays in proportion to the history.
 */
static void
obsbook_changed(struct obsbook *b, size_t i)
{
	if (b->nlog > 0 && b->log[b->nlog - 1] == i)
		return;
	if (b->nlog >= 4 * b->n + 1024) {
		b->nlog = 0;
		b->logid++;
	}
	if (b->nlog == b->logcap) {
		b->logcap = b->logcap ? b->logcap * 2 : 1024;
		b->log = xreallocarray(b->log, b->logcap, sizeof(*b->log));
	}
	b->log[b->nlog++] = i;
}

/* The search's state of a trial in the ledger's state. */
static enum obs_state
obsbook_state_of(enum trial_state st)
{
	switch (st) {
	case TRIAL_COMPLETED:
		return OBS_COMPLETE;
	case TRIAL_PRUNED:
		return OBS_PRUNED;
	case TRIAL_PENDING:
	case TRIAL_RUNNING:
		return OBS_RUNNING;
	default:
		return OBS_FAILED;
	}
}

/* Append a trial at the point params_json gives. */
static struct observation *
obsbook_append(struct obsbook *b, const char *label, const char *params_json,
    const char *name)
{
	struct observation	*o;
	double			*x;
	char			 err[256];

	obsbook_grow(b);
	x = b->xs + b->n * b->space->n;
	memset(x, 0, b->space->n * sizeof(*x));
	if (params_from_json(b->space, params_json, x, err, sizeof(err)) ==
	    -1)
		log_warnx("campaign '%s': %s: %s", name, label, err);
	obsbook_changed(b, b->n);
	o = &b->obs[b->n++];
	memset(o, 0, sizeof(*o));
	o->x = x;
	o->state = OBS_RUNNING;
	return o;
}

/* Rebuild the book from the ledger. */
int
obsbook_load(struct obsbook *b, struct ledger *l, int64_t campaign_id,
    const struct curves *cv, const char *name)
{
	struct ledger_trial	*t = NULL;
	struct observation	*o;
	size_t			 n = 0, i;

	struct ledger_prior	*p = NULL;
	size_t			 np = 0;
	char			 label[32];

	if (ledger_prior_list(l, campaign_id, &p, &np) == -1)
		return -1;
	if (ledger_trial_list(l, campaign_id, &t, &n) == -1) {
		ledger_prior_list_free(p, np);
		return -1;
	}
	b->n = 0;
	for (i = 0; i < np; i++) {
		snprintf(label, sizeof(label), "prior %d", p[i].number);
		o = obsbook_append(b, label, p[i].params_json, name);
		o->state = obsbook_state_of(trial_state_parse(p[i].state));
		o->has_value = p[i].has_value;
		o->value = p[i].value;
	}
	b->nprior = np;
	ledger_prior_list_free(p, np);
	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "trial %d", t[i].number);
		o = obsbook_append(b, label, t[i].params_json, name);
		o->state = obsbook_state_of(trial_state_parse(t[i].state));
		o->has_value = t[i].has_best;
		o->value = t[i].best;
		curves_fill(cv, t[i].number, o);
	}
	ledger_trial_list_free(t, n);
	/* A new history: a search that kept the old one starts over. */
	b->nlog = 0;
	b->logid++;
	return 0;
}

/* Append the next trial, running. */
void
obsbook_add(struct obsbook *b, int number, const char *params_json,
    const char *name)
{
	char	 label[32];

	snprintf(label, sizeof(label), "trial %d", number);
	obsbook_append(b, label, params_json, name);
}

/* Set a trial's state. */
void
obsbook_state(struct obsbook *b, int number, enum trial_state state)
{
	if (number >= 0 && (size_t)number < b->n - b->nprior) {
		b->obs[b->nprior + number].state = obsbook_state_of(state);
		obsbook_changed(b, b->nprior + (size_t)number);
	}
}

/* Set a trial's best value. */
void
obsbook_best(struct obsbook *b, int number, double best)
{
	if (number >= 0 && (size_t)number < b->n - b->nprior) {
		b->obs[b->nprior + number].has_value = 1;
		b->obs[b->nprior + number].value = best;
		obsbook_changed(b, b->nprior + (size_t)number);
	}
}

/* Point a trial's curve at its current points. */
void
obsbook_curve(struct obsbook *b, const struct curves *cv, int number)
{
	if (number >= 0 && (size_t)number < b->n - b->nprior) {
		curves_fill(cv, number, &b->obs[b->nprior + number]);
		obsbook_changed(b, b->nprior + (size_t)number);
	}
}

/* The trials' observations. */
struct observation *
obsbook_obs(struct obsbook *b, size_t *n)
{
	*n = b->n - b->nprior;
	return b->obs != NULL ? b->obs + b->nprior : NULL;
}

/* The priors, then the trials. */
struct observation *
obsbook_history(struct obsbook *b, size_t *n)
{
	*n = b->n;
	return b->obs;
}

/* What changed since the last load (see obsbook.h). */
void
obsbook_log(const struct obsbook *b, struct history_log *log)
{
	log->id = b->logid;
	log->changed = b->log;
	log->n = b->nlog;
}
