/*
 * search.c: dispatch from an algorithm name to its implementation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_impl.h"

/* The known algorithms, in the order search_algorithms() lists them. */
static const struct search_ops *const search_table[] = {
	&grid_ops,
	&random_ops,
	&sobol_ops,
	&tpe_ops,
	&mtpe_ops,
	&cmtpe_ops,
	&auto_ops,
};

#define SEARCH_NALGOS	(sizeof(search_table) / sizeof(search_table[0]))

/* Their names; kept in step with search_table by the assertion below. */
static const char *const search_names[] = {
	"grid",
	"random",
	"sobol",
	"tpe",
	"mtpe",
	"cmtpe",
	"auto",
	NULL
};

_Static_assert(sizeof(search_names) / sizeof(search_names[0]) ==
    SEARCH_NALGOS + 1, "search_names and search_table differ in length");

/* Write a formatted message to err (if any) and return -1. */
int
search_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Return the index of name among the NULL-terminated names, or -1. */
int
search_name_index(const char *const *names, const char *name)
{
	size_t i;

	for (i = 0; name != NULL && names[i] != NULL; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

/* Return the operations of the algorithm called name, or NULL. */
static const struct search_ops *
search_lookup(const char *name)
{
	int i = search_name_index(search_names, name);

	return i < 0 ? NULL : search_table[i];
}

/* Return 1 if algorithm names a known search algorithm. */
int
search_known(const char *algorithm)
{
	return search_lookup(algorithm) != NULL;
}

/* Return the NULL-terminated list of known algorithm names. */
const char *const *
search_algorithms(void)
{
	return search_names;
}

/* Create a search of the named algorithm over space, or NULL with err set. */
struct search *
search_new(const char *algorithm, const struct space *sp, uint64_t seed,
    char *err, size_t errlen)
{
	const struct search_ops *ops;
	struct search *s;

	if ((ops = search_lookup(algorithm)) == NULL) {
		search_error(err, errlen, "search: unknown algorithm '%s'",
		    algorithm != NULL ? algorithm : "");
		return NULL;
	}
	if (sp == NULL || sp->n == 0) {
		search_error(err, errlen, "%s: the space has no parameters",
		    ops->name);
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL) {
		search_error(err, errlen, "%s: out of memory", ops->name);
		return NULL;
	}
	s->ops = ops;
	s->space = sp;
	s->seed = seed;
	if (ops->init(s, err, errlen) == -1) {
		search_free(s);
		return NULL;
	}
	return s;
}

/* Free a search and its state. */
void
search_free(struct search *s)
{
	if (s == NULL)
		return;
	if (s->ops->free != NULL)
		s->ops->free(s);
	else
		free(s->state);
	free(s);
}

/* Propose the next point; return 0, or 1 when nothing is left to propose. */
int
search_suggest(struct search *s, const struct history *h, double *x)
{
	return search_suggest_logged(s, h, NULL, x);
}

/* As search_suggest(), with what changed since the last call. */
int
search_suggest_logged(struct search *s, const struct history *h,
    const struct history_log *log, double *x)
{
	int rc;

	s->log = log;
	rc = search_suggest_ranked(s, h, x);
	s->log = NULL;
	return rc;
}

/* Set the number of trials the campaign may run (0: unknown). */
void
search_set_budget(struct search *s, size_t budget)
{
	s->budget = budget;
	if (s->ops->budget != NULL)
		s->ops->budget(s);
}

/* Return the algorithm that runs and why (see search.h). */
const char *
search_chosen(const struct search *s, const char **reason)
{
	const char *why = "", *name = s->ops->name;

	if (s->ops == &auto_ops)
		why = auto_reason(s, &name);
	if (reason != NULL)
		*reason = why;
	return name;
}

/* Return the number of distinct points the search can propose, 0 if any. */
size_t
search_size(const struct search *s)
{
	return s->size;
}
