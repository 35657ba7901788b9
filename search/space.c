/*
 * space.c: parameter space definition, validation and text formatting.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"

/* Integers beyond 2^53 are not all representable as doubles. */
#define SPACE_INT_LIMIT	9007199254740992.0

/* Allocate an empty space. */
struct space *
space_new(void)
{
	return calloc(1, sizeof(struct space));
}

/* Free the choice values of a parameter. */
static void
space_free_choices(struct value *v, size_t n)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++)
		free(v[i].str);
	free(v);
}

/* Free a space and everything it owns. */
void
space_free(struct space *sp)
{
	size_t i;

	if (sp == NULL)
		return;
	for (i = 0; i < sp->n; i++) {
		free(sp->params[i].name);
		space_free_choices(sp->params[i].choices,
		    sp->params[i].nchoices);
	}
	free(sp->params);
	free(sp);
}

/* Return the index of the parameter called name, or -1. */
int
space_find(const struct space *sp, const char *name)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (strcmp(sp->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * Add a parameter called name of type and scale, its other fields zero,
 * and return it; NULL, nothing added, if the name is empty or taken or
 * memory ran out.
 */
static struct param_def *
space_slot(struct space *sp, const char *name, enum param_type type,
    enum param_scale scale)
{
	struct param_def *p;

	if (name == NULL || *name == '\0' || space_find(sp, name) >= 0)
		return NULL;
	p = realloc(sp->params, (sp->n + 1) * sizeof(*p));
	if (p == NULL)
		return NULL;
	sp->params = p;
	p = &sp->params[sp->n];
	memset(p, 0, sizeof(*p));
	if ((p->name = strdup(name)) == NULL)
		return NULL;
	p->type = type;
	p->scale = scale;
	sp->n++;
	return p;
}

/* Add a float or int parameter after checking its bounds. */
static int
space_add_range(struct space *sp, const char *name, enum param_type type,
    double min, double max, enum param_scale scale, int steps)
{
	struct param_def *p;

	if (!isfinite(min) || !isfinite(max) || min > max || steps < 0)
		return -1;
	if (scale != SCALE_LINEAR && scale != SCALE_LOG)
		return -1;
	if (scale == SCALE_LOG && min <= 0)
		return -1;
	if (type == PARAM_INT && (min != floor(min) || max != floor(max) ||
	    fabs(min) > SPACE_INT_LIMIT || fabs(max) > SPACE_INT_LIMIT))
		return -1;
	if ((p = space_slot(sp, name, type, scale)) == NULL)
		return -1;
	p->min = min;
	p->max = max;
	p->steps = steps;
	return 0;
}

/* Add a float parameter; return 0, or -1 if the definition is invalid. */
int
space_add_float(struct space *sp, const char *name, double min, double max,
    enum param_scale scale, int steps)
{
	return space_add_range(sp, name, PARAM_FLOAT, min, max, scale, steps);
}

/* Add an int parameter; return 0, or -1 if the definition is invalid. */
int
space_add_int(struct space *sp, const char *name, double min, double max,
    enum param_scale scale, int steps)
{
	return space_add_range(sp, name, PARAM_INT, min, max, scale, steps);
}

/* Return 1 if two choice values are the same number or the same string. */
static int
space_value_equal(const struct value *a, const struct value *b)
{
	if (a->is_string != b->is_string)
		return 0;
	if (a->is_string)
		return strcmp(a->str, b->str) == 0;
	return a->num == b->num;
}

/* Return 1 if the n values are well formed and pairwise distinct. */
static int
space_values_valid(const struct value *v, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (v[i].is_string ? v[i].str == NULL : !isfinite(v[i].num))
			return 0;
		for (j = 0; j < i; j++)
			if (space_value_equal(&v[i], &v[j]))
				return 0;
	}
	return 1;
}

/* Add a choice parameter; return 0, or -1 if the definition is invalid. */
int
space_add_choice(struct space *sp, const char *name,
    const struct value *values, size_t n)
{
	struct param_def *p;
	struct value *v;
	size_t i;

	if (values == NULL || n == 0 || !space_values_valid(values, n))
		return -1;
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		v[i].is_string = values[i].is_string != 0;
		v[i].num = values[i].is_string ? 0 : values[i].num;
		if (values[i].is_string &&
		    (v[i].str = strdup(values[i].str)) == NULL) {
			space_free_choices(v, n);
			return -1;
		}
	}
	if ((p = space_slot(sp, name, PARAM_CHOICE, SCALE_LINEAR)) == NULL) {
		space_free_choices(v, n);
		return -1;
	}
	p->nchoices = n;
	p->choices = v;
	return 0;
}

/*
 * Return the point at fraction u of [lo, hi] on p's scale: geometric for
 * a log scale, arithmetic otherwise; not clamped.
 */
double
space_lerp(const struct param_def *p, double lo, double hi, double u)
{
	if (p->scale == SCALE_LOG)
		return exp(log(lo) * (1 - u) + log(hi) * u);
	return lo * (1 - u) + hi * u;
}

/* Return 1 if x is a valid coordinate for parameter i. */
int
space_contains(const struct space *sp, size_t i, double x)
{
	const struct param_def *p;

	if (i >= sp->n || !isfinite(x))
		return 0;
	p = &sp->params[i];
	switch (p->type) {
	case PARAM_FLOAT:
		return x >= p->min && x <= p->max;
	case PARAM_INT:
		return x >= p->min && x <= p->max && x == floor(x);
	case PARAM_CHOICE:
		return x >= 0 && x < (double)p->nchoices && x == floor(x);
	}
	return 0;
}

/* Write the shortest "%.*g" form of x that strtod reads back exactly. */
void
space_shortest(double x, char *tmp, size_t len)
{
	int prec, lo, hi;

	/* Whole numbers in full: 400, not 4e+02 (an int argument). */
	if (x == floor(x) && fabs(x) < 1e15) {
		snprintf(tmp, len, "%.0f", x);
		return;
	}
	/*
	 * More digits are never further from x, so the shortest is below
	 * 15 digits when 15 give x back, else 16 or 17: a report of 10^5
	 * costs (most need 16 or 17) tries 3 precisions a number, not 17.
	 */
	snprintf(tmp, len, "%.15g", x);
	lo = strtod(tmp, NULL) == x ? 1 : 16;
	hi = lo == 1 ? 15 : 17;
	for (prec = lo; prec < hi; prec++) {
		snprintf(tmp, len, "%.*g", prec, x);
		if (strtod(tmp, NULL) == x)
			return;
	}
	snprintf(tmp, len, "%.*g", hi, x);
}

/*
 * Write the text form of coordinate x of parameter i into buf; return the
 * length snprintf would return, or -1 if x is not a valid coordinate.
 */
int
space_format(const struct space *sp, size_t i, double x, char *buf,
    size_t len)
{
	const struct param_def *p;
	const struct value *v;
	char tmp[32];

	if (!space_contains(sp, i, x))
		return -1;
	p = &sp->params[i];
	switch (p->type) {
	case PARAM_FLOAT:
		space_shortest(x, tmp, sizeof(tmp));
		return snprintf(buf, len, "%s", tmp);
	case PARAM_INT:
		return snprintf(buf, len, "%lld", (long long)x);
	case PARAM_CHOICE:
		v = &p->choices[(size_t)x];
		if (v->is_string)
			return snprintf(buf, len, "%s", v->str);
		space_shortest(v->num, tmp, sizeof(tmp));
		return snprintf(buf, len, "%s", tmp);
	}
	return -1;
}
