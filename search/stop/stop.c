/*
 * stop.c: dispatch from a stopper name to its implementation, defaults,
 * and what the stoppers share (rung arithmetic, curve look-up).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_impl.h"
#include "stop_impl.h"

/* The known stoppers, in the order stop_algorithms() lists them. */
static const struct stop_ops *const stop_table[] = {
	&stop_none_ops,
	&asha_ops,
	&hyperband_ops,
	&median_ops,
	&target_ops,
};

#define STOP_NALGOS	(sizeof(stop_table) / sizeof(stop_table[0]))

/* Their names; kept in step with stop_table by the assertion below. */
static const char *const stop_names[] = {
	"none",
	"asha",
	"hyperband",
	"median",
	"target",
	NULL
};

_Static_assert(sizeof(stop_names) / sizeof(stop_names[0]) ==
    STOP_NALGOS + 1, "stop_names and stop_table differ in length");

/* Never stop. */
static enum stop_verdict
none_decide(const struct stopper *s, const struct history *h, size_t trial,
    double step, double value, const char **rule)
{
	return STOP_CONTINUE;
}

/* Nothing to check. */
static int
none_init(struct stopper *s, char *err, size_t errlen)
{
	return 0;
}

static const char *const none_keys[] = { NULL };

const struct stop_ops stop_none_ops = {
	.name = "none",
	.keys = none_keys,
	.init = none_init,
	.decide = none_decide,
};

/* Return the operations of the stopper called name, or NULL. */
static const struct stop_ops *
stop_lookup(const char *name)
{
	int i = search_name_index(stop_names, name);

	return i < 0 ? NULL : stop_table[i];
}

/* Return 1 if name is a known stopper. */
int
stop_known(const char *name)
{
	return stop_lookup(name) != NULL;
}

/* Return the NULL-terminated list of stopper names. */
const char *const *
stop_algorithms(void)
{
	return stop_names;
}

/*
 * Return the keys of search.stopper (besides "algorithm") that the stopper
 * called name reads, NULL-terminated, or NULL for an unknown name.
 */
const char *const *
stop_keys(const char *name)
{
	const struct stop_ops *ops = stop_lookup(name);

	return ops != NULL ? ops->keys : NULL;
}

/* Fill the default parameters. */
void
stop_defaults(struct stop_params *p)
{
	memset(p, 0, sizeof(*p));
	p->min_resource = 1;
	p->max_resource = 0;
	p->eta = 3;
	p->warmup_trials = 5;
	p->warmup_steps = 0;
}

/* Create a stopper, or NULL with err set. */
struct stopper *
stop_new(const char *name, const struct stop_params *p, char *err,
    size_t errlen)
{
	const struct stop_ops *ops;
	struct stopper *s;

	if ((ops = stop_lookup(name)) == NULL) {
		search_error(err, errlen, "stopper: unknown algorithm '%s'",
		    name != NULL ? name : "");
		return NULL;
	}
	if (!(p->min_resource > 0) || !isfinite(p->min_resource)) {
		search_error(err, errlen, "%s: min_resource must be > 0",
		    ops->name);
		return NULL;
	}
	if (p->max_resource < 0 || !isfinite(p->max_resource)) {
		search_error(err, errlen, "%s: max_resource must be >= 0",
		    ops->name);
		return NULL;
	}
	if (p->eta < 2) {
		search_error(err, errlen, "%s: eta must be >= 2", ops->name);
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL) {
		search_error(err, errlen, "%s: out of memory", ops->name);
		return NULL;
	}
	s->ops = ops;
	s->p = *p;
	s->nbrackets = 1;
	if (ops->init(s, err, errlen) == -1) {
		free(s);
		return NULL;
	}
	return s;
}

/* Free a stopper. */
void
stop_free(struct stopper *s)
{
	free(s);
}

/* Return the stopper's name. */
const char *
stop_name(const struct stopper *s)
{
	return s->ops->name;
}

/* Decide whether trial goes on after reporting value at step. */
enum stop_verdict
stop_decide(const struct stopper *s, const struct history *h, size_t trial,
    double step, double value)
{
	return stop_decide_why(s, h, trial, step, value, NULL);
}

/* As stop_decide(); *rule gets the rule that stopped the trial, or "". */
enum stop_verdict
stop_decide_why(const struct stopper *s, const struct history *h,
    size_t trial, double step, double value, const char **rule)
{
	const char *none;

	if (rule == NULL)
		rule = &none;
	*rule = "";
	if (s == NULL || h == NULL || trial >= h->n || !isfinite(step))
		return STOP_CONTINUE;
	return s->ops->decide(s, h, trial, step, value, rule);
}

/* Mark the observations of another bracket than trial's. */
void
stop_mark_brackets(const struct stopper *s, struct observation *obs,
    size_t n, size_t trial)
{
	size_t i;
	int b;

	b = s != NULL ? stop_bracket(s, trial) : 0;
	for (i = 0; i < n; i++)
		obs[i].other_bracket = s != NULL && s->nbrackets > 1 &&
		    stop_bracket(s, i) != b;
}

/* Return the number of brackets. */
int
stop_nbrackets(const struct stopper *s)
{
	return s->nbrackets;
}

/*
 * Return the step of rung k of a bracket: min_resource * eta^(bracket +
 * k), or -1 when it is at or past max_resource (a trial ends there anyway).
 */
double
stop_rung(const struct stopper *s, int bracket, int k)
{
	double r = s->p.min_resource;
	int i;

	if (bracket < 0 || k < 0)
		return -1;
	for (i = 0; i < bracket + k; i++) {
		r *= s->p.eta;
		if (r > 1e15)
			return -1;
	}
	if (s->p.max_resource > 0 && r >= s->p.max_resource)
		return -1;
	return r;
}

/* Value of o at its first point at or past step, NaN if none. */
double
stop_value_at(const struct observation *o, double step, size_t *at)
{
	size_t i;

	for (i = 0; i < o->npoints; i++)
		if (o->steps[i] >= step) {
			if (at != NULL)
				*at = i;
			return o->values[i];
		}
	return NAN;
}
