/*
 * constraint.c: rules between two numeric parameters of a workload
 * ("constraints": [["batch_size", "<=", "train_samples"]]), which no
 * range of one parameter alone can say: a proxy refuses a batch larger
 * than its training set on every trial.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"

/* The operators, in enum workload_op's order. */
static const char *const constraint_ops[] = { "<=", "<", ">=", ">" };

/* Does a op b hold? */
int
workload_constraint_holds(const struct workload_constraint *c, double a,
    double b)
{
	switch (c->op) {
	case WORKLOAD_LE:
		return a <= b;
	case WORKLOAD_LT:
		return a < b;
	case WORKLOAD_GE:
		return a >= b;
	case WORKLOAD_GT:
		return a > b;
	}
	return 0;
}

/* Is a bounded from above? */
int
workload_constraint_upper(const struct workload_constraint *c)
{
	return c->op == WORKLOAD_LE || c->op == WORKLOAD_LT;
}

/* "a <= b". */
void
workload_constraint_text(const struct workload_constraint *c, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s %s %s", c->a, constraint_ops[c->op], c->b);
}

/* One side of constraint i: a parameter name (a tunable one if listed). */
static int
constraint_name(const struct workload *w, const cJSON *j, size_t i,
    size_t at, char **out, char *err, size_t errlen)
{
	if (!cJSON_IsString(j) || !workload_name_ok(j->valuestring)) {
		snprintf(err, errlen, "%s: constraints[%zu][%zu]: expected a "
		    "parameter name", w->path, i, at);
		return -1;
	}
	if (w->has_tunable && workload_tunable_find(w, j->valuestring) ==
	    NULL) {
		snprintf(err, errlen, "%s: constraints[%zu][%zu]: '%s' is not "
		    "a tunable parameter", w->path, i, at, j->valuestring);
		return -1;
	}
	if ((*out = strdup(j->valuestring)) == NULL)
		return workload_oom(w, err, errlen);
	return 0;
}

/* Parse one [a, op, b]. */
static int
constraint_one(const struct workload *w, struct workload_constraint *c,
    const cJSON *j, size_t i, char *err, size_t errlen)
{
	const cJSON	*op;
	size_t		 k;

	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != 3) {
		snprintf(err, errlen, "%s: constraints[%zu]: expected "
		    "[parameter, operator, parameter]", w->path, i);
		return -1;
	}
	if (constraint_name(w, cJSON_GetArrayItem(j, 0), i, 0, &c->a, err,
	    errlen) == -1 || constraint_name(w, cJSON_GetArrayItem(j, 2), i,
	    2, &c->b, err, errlen) == -1)
		return -1;
	op = cJSON_GetArrayItem(j, 1);
	for (k = 0; k < sizeof(constraint_ops) / sizeof(constraint_ops[0]);
	    k++)
		if (cJSON_IsString(op) &&
		    strcmp(op->valuestring, constraint_ops[k]) == 0)
			break;
	if (k == sizeof(constraint_ops) / sizeof(constraint_ops[0])) {
		snprintf(err, errlen, "%s: constraints[%zu][1]: expected one "
		    "of <=, <, >=, >", w->path, i);
		return -1;
	}
	c->op = (enum workload_op)k;
	if (strcmp(c->a, c->b) == 0) {
		snprintf(err, errlen, "%s: constraints[%zu]: compares %s with "
		    "itself", w->path, i, c->a);
		return -1;
	}
	return 0;
}

/* Parse the "constraints" array. */
int
workload_constraints_parse(struct workload *w, const cJSON *j, char *err,
    size_t errlen)
{
	const cJSON	*c;

	if (j == NULL)
		return 0;
	if (!cJSON_IsArray(j)) {
		snprintf(err, errlen, "%s: constraints: expected an array of "
		    "[parameter, operator, parameter]", w->path);
		return -1;
	}
	if ((w->constraints = calloc((size_t)cJSON_GetArraySize(j) + 1,
	    sizeof(*w->constraints))) == NULL)
		return workload_oom(w, err, errlen);
	cJSON_ArrayForEach(c, j) {
		w->nconstraints++;
		if (constraint_one(w, &w->constraints[w->nconstraints - 1], c,
		    w->nconstraints - 1, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* The numeric default of name, or 0 when it has none. */
static int
constraint_default(const struct workload *w, const char *name, double *v)
{
	char	*end;
	size_t	 i;

	for (i = 0; i < w->ndefaults; i++)
		if (strcmp(w->defaults[i].name, name) == 0) {
			*v = strtod(w->defaults[i].value, &end);
			return *w->defaults[i].value != '\0' && *end == '\0';
		}
	return 0;
}

/* The defaults must keep every constraint. */
int
workload_constraints_check(const struct workload *w, char *err,
    size_t errlen)
{
	const struct workload_constraint *c;
	char		 rule[256];
	double		 a, b;
	size_t		 i;

	for (i = 0; i < w->nconstraints; i++) {
		c = &w->constraints[i];
		if (!constraint_default(w, c->a, &a) ||
		    !constraint_default(w, c->b, &b) ||
		    workload_constraint_holds(c, a, b))
			continue;
		workload_constraint_text(c, rule, sizeof(rule));
		snprintf(err, errlen, "%s: defaults: %s %g and %s %g break "
		    "constraints[%zu] (%s)", w->path, c->a, a, c->b, b, i, rule);
		return -1;
	}
	return 0;
}
