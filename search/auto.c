/*
 * auto.c: the default search, which picks an algorithm from the space and
 * the budget when told the budget (or at its first suggestion, if never
 * told) and then delegates to it:
 *
 * - grid, when every parameter is discrete and the whole grid fits in the
 *   budget: nothing can beat trying every point once;
 * - sobol (random beyond sobol's dimensions), when the budget leaves the
 *   model fewer suggestions than its own start-up trials: a model that
 *   has no room to act only costs, and a low-discrepancy start covers
 *   the space more evenly than random draws;
 * - cmtpe otherwise: failed and running trials inform a joint model after
 *   a start-up tied to the dimension and the budget, fitted at the
 *   highest epoch that enough trials' curves reached (rung.c: in
 *   parallel it acts before the first trials finish), and of suggestions
 *   of nearly equal promise it makes the cheaper per step (mtpe, when
 *   no trial's cost per step is known or costs do not vary).
 *
 * The choice depends on the space and the budget alone, never on the
 * history, so a suggestion stays a pure function of seed and history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_impl.h"

struct auto_state {
	struct search	*inner;		/* NULL until the first suggestion */
	char		 reason[224];
};

/* Nothing chosen yet: the budget may still be set. */
static int
auto_init(struct search *s, char *err, size_t errlen)
{
	if ((s->state = calloc(1, sizeof(struct auto_state))) == NULL)
		return search_error(err, errlen, "auto: out of memory");
	s->size = 0;
	return 0;
}

/* Free the delegate and the state. */
static void
auto_free(struct search *s)
{
	struct auto_state *a = s->state;

	if (a != NULL)
		search_free(a->inner);
	free(a);
}

/* 1 if every parameter of the space is discrete. */
static int
auto_discrete(const struct space *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (sp->params[i].type == PARAM_FLOAT)
			return 0;
	return 1;
}

/* Create the delegate the space and budget call for. */
static int
auto_choose(struct search *s, struct auto_state *a)
{
	const struct space *sp = s->space;
	struct search *grid;
	size_t d = sp->n, startup = d + 1 < 3 ? 3 : d + 1;
	const char *name;

	if (auto_discrete(sp) && s->budget > 0 &&
	    (grid = search_new("grid", sp, s->seed, NULL, 0)) != NULL) {
		if (search_size(grid) > 0 && search_size(grid) <= s->budget) {
			snprintf(a->reason, sizeof(a->reason), "grid: all %zu "
			    "points of the discrete space fit in the budget of "
			    "%zu trials", search_size(grid), s->budget);
			a->inner = grid;
			return 0;
		}
		search_free(grid);
	}
	if (s->budget > 0 && s->budget < 2 * startup) {
		name = d <= SOBOL_MAXDIM ? "sobol" : "random";
		snprintf(a->reason, sizeof(a->reason), "%s: a budget of %zu "
		    "trials leaves a model of %zu parameter%s %zu suggestion%s "
		    "of its own after its %zu start-up trials, fewer than "
		    "those", name, s->budget, d, d == 1 ? "" : "s",
		    s->budget - startup, s->budget - startup == 1 ? "" : "s",
		    startup);
	} else {
		name = "cmtpe";
		snprintf(a->reason, sizeof(a->reason), "cmtpe: %s%zu "
		    "parameter%s leave%s a joint model room to act; failed and "
		    "running trials inform it, at the highest epoch enough "
		    "curves reached; of equal promise, the cheaper per epoch",
		    s->budget > 0 ? "the budget and " : "", d, d == 1 ? "" :
		    "s", d == 1 && s->budget == 0 ? "s" : "");
	}
	if ((a->inner = search_new(name, sp, s->seed, NULL, 0)) == NULL)
		return -1;
	search_set_budget(a->inner, s->budget);
	return 0;
}

/* Choose when told the budget, or at the first suggestion. */
static void
auto_budget(struct search *s)
{
	struct auto_state *a = s->state;

	if (a->inner == NULL)
		auto_choose(s, a);
}

/* Delegate to the algorithm chosen. */
static int
auto_suggest(struct search *s, const struct history *h, double *x)
{
	struct auto_state *a = s->state;

	if (a->inner == NULL && auto_choose(s, a) == -1)
		return random_ops.suggest(s, h, x);
	/* The delegate ranks: its model's view at one step must know how. */
	search_set_objective(a->inner, s->rank, s->target);
	return search_suggest_logged(a->inner, h, s->log, x);
}

/* What auto chose and why. */
const char *
auto_reason(const struct search *s, const char **name)
{
	const struct auto_state *a = s->state;

	*name = a->inner != NULL ? search_chosen(a->inner, NULL) : "auto";
	return a->reason;
}

const struct search_ops auto_ops = {
	.name = "auto",
	.init = auto_init,
	.free = auto_free,
	.suggest = auto_suggest,
	.budget = auto_budget,
};
