/*
 * tunable.c: which parameters of a workload may be tuned and their legal
 * values ("tunable"), and how its global batch size is split over the
 * ranks ("batch").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"

static const char *const tunable_keys[] = { "min", "max", "above", "below",
	"integer", "values", NULL };
static const char *const batch_keys[] = { "global", "local", NULL };

/* Read one optional bound of a tunable parameter. */
static int
tunable_bound(const struct workload *w, const cJSON *o, const char *key,
    const char *name, int *has, double *v, char *err, size_t errlen)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(o, key);

	*has = j != NULL;
	if (j == NULL)
		return 0;
	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble)) {
		snprintf(err, errlen, "%s: tunable.%s.%s: expected a number",
		    w->path, name, key);
		return -1;
	}
	*v = j->valuedouble;
	return 0;
}

/* Parse one tunable parameter: {"min": 0, "below": 1, ...} or {}. */
static int
tunable_one(const struct workload *w, struct workload_tunable *t,
    const cJSON *o, char *err, size_t errlen)
{
	const cJSON	*c, *vals;
	char		 at[256];
	size_t		 i, n;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: tunable.%s: expected an object "
		    "(min, max, above, below, integer, values)", w->path,
		    t->name);
		return -1;
	}
	snprintf(at, sizeof(at), "tunable.%s.", t->name);
	if (workload_keys_only(w, o, at, tunable_keys, 1, err, errlen) == -1)
		return -1;
	if (tunable_bound(w, o, "min", t->name, &t->has_min, &t->min, err,
	    errlen) == -1 || tunable_bound(w, o, "max", t->name, &t->has_max,
	    &t->max, err, errlen) == -1 || tunable_bound(w, o, "above",
	    t->name, &t->has_above, &t->above, err, errlen) == -1 ||
	    tunable_bound(w, o, "below", t->name, &t->has_below, &t->below, err,
	    errlen) == -1)
		return -1;
	if ((t->has_min && t->has_max && t->min > t->max) ||
	    (t->has_above && t->has_below && t->above >= t->below)) {
		snprintf(err, errlen, "%s: tunable.%s: empty range", w->path,
		    t->name);
		return -1;
	}
	c = cJSON_GetObjectItemCaseSensitive(o, "integer");
	if (c != NULL && !cJSON_IsBool(c)) {
		snprintf(err, errlen, "%s: tunable.%s.integer: expected true "
		    "or false", w->path, t->name);
		return -1;
	}
	t->integer = cJSON_IsTrue(c);
	vals = cJSON_GetObjectItemCaseSensitive(o, "values");
	if (vals == NULL)
		return 0;
	if (!cJSON_IsArray(vals) || (n = cJSON_GetArraySize(vals)) == 0) {
		snprintf(err, errlen, "%s: tunable.%s.values: expected a "
		    "non-empty array", w->path, t->name);
		return -1;
	}
	if ((t->values = calloc(n + 1, sizeof(*t->values))) == NULL)
		return workload_oom(w, err, errlen);
	i = 0;
	cJSON_ArrayForEach(c, vals) {
		snprintf(at, sizeof(at), "tunable.%s.values[%zu]", t->name, i);
		if (workload_scalar_read(w, c, at, &t->values[i], err,
		    errlen) == -1)
			return -1;
		i++;
	}
	return 0;
}

/* Parse the "tunable" object. */
int
workload_tunable_parse(struct workload *w, const cJSON *j, char *err,
    size_t errlen)
{
	const cJSON	*c;
	int		 rc;

	if ((rc = workload_object_read(w, j, "tunable", "of parameters", NULL,
	    err, errlen)) != 1)
		return rc;
	w->has_tunable = 1;
	if ((w->tunable = calloc(cJSON_GetArraySize(j) + 1,
	    sizeof(*w->tunable))) == NULL)
		return workload_oom(w, err, errlen);
	cJSON_ArrayForEach(c, j) {
		struct workload_tunable *t = &w->tunable[w->ntunable++];

		if ((t->name = strdup(c->string)) == NULL)
			return workload_oom(w, err, errlen);
		if (!workload_name_ok(c->string)) {
			snprintf(err, errlen, "%s: tunable.%s: not a parameter "
			    "name", w->path, c->string);
			return -1;
		}
		if (tunable_one(w, t, c, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* A default of a tunable parameter must be one of its legal values. */
int
workload_defaults_check(const struct workload *w, char *err, size_t errlen)
{
	const struct workload_tunable *t;
	char		 why[256], *end;
	double		 v;
	size_t		 i;

	for (i = 0; i < w->ndefaults; i++) {
		const struct workload_var *d = &w->defaults[i];

		if ((t = workload_tunable_find(w, d->name)) == NULL)
			continue;
		v = strtod(d->value, &end);
		if (workload_legal(t, *d->value == '\0' || *end != '\0', v,
		    d->value, why, sizeof(why)))
			continue;
		snprintf(err, errlen, "%s: defaults.%s: %s is not legal: %s",
		    w->path, d->name, d->value, why);
		return -1;
	}
	return 0;
}

/* Parse {"global": "batch_size", "local": "local_batch_size"}. */
int
workload_batch_parse(struct workload *w, const cJSON *j, char *err,
    size_t errlen)
{
	const cJSON	*g, *l;
	int		 rc;

	if ((rc = workload_object_read(w, j, "batch", "with global and local",
	    batch_keys, err, errlen)) != 1)
		return rc;
	g = cJSON_GetObjectItemCaseSensitive(j, "global");
	l = cJSON_GetObjectItemCaseSensitive(j, "local");
	if (!cJSON_IsString(g) || !workload_name_ok(g->valuestring)) {
		snprintf(err, errlen, "%s: batch.global: expected the name of "
		    "the global batch size parameter", w->path);
		return -1;
	}
	if (l != NULL && (!cJSON_IsString(l) ||
	    !workload_name_ok(l->valuestring))) {
		snprintf(err, errlen, "%s: batch.local: expected a placeholder "
		    "name", w->path);
		return -1;
	}
	if ((w->batch_global = strdup(g->valuestring)) == NULL ||
	    (w->batch_local = strdup(l ? l->valuestring :
	    "local_batch_size")) == NULL)
		return workload_oom(w, err, errlen);
	if (strcmp(w->batch_global, w->batch_local) == 0) {
		snprintf(err, errlen, "%s: batch.local: must differ from "
		    "batch.global", w->path);
		return -1;
	}
	return 0;
}

/* The declared legal values of a parameter. */
const struct workload_tunable *
workload_tunable_find(const struct workload *w, const char *name)
{
	size_t	 i;

	for (i = 0; i < w->ntunable; i++)
		if (strcmp(w->tunable[i].name, name) == 0)
			return &w->tunable[i];
	return NULL;
}

/* Describe t's numeric range in buf: "whole numbers in [1, 10000]". */
static void
tunable_range(const struct workload_tunable *t, char *buf, size_t len)
{
	char	 lo[32], hi[32];

	if (t->has_min)
		snprintf(lo, sizeof(lo), "[%g", t->min);
	else if (t->has_above)
		snprintf(lo, sizeof(lo), "(%g", t->above);
	else
		snprintf(lo, sizeof(lo), "(-inf");
	if (t->has_max)
		snprintf(hi, sizeof(hi), "%g]", t->max);
	else if (t->has_below)
		snprintf(hi, sizeof(hi), "%g)", t->below);
	else
		snprintf(hi, sizeof(hi), "inf)");
	snprintf(buf, len, "%s in %s, %s", t->integer ? "whole numbers" :
	    "numbers", lo, hi);
}

/* Is a value legal for a tunable parameter? */
int
workload_legal(const struct workload_tunable *t, int is_string, double num,
    const char *str, char *why, size_t whylen)
{
	size_t	 i, len;

	if (t->values != NULL) {
		for (i = 0; t->values[i] != NULL; i++) {
			if (is_string ? strcmp(t->values[i], str) == 0 :
			    strtod(t->values[i], NULL) == num)
				return 1;
		}
		snprintf(why, whylen, "must be one of ");
		for (i = 0; t->values[i] != NULL; i++) {
			len = strlen(why);
			snprintf(why + len, whylen - len, "%s%s", i ? ", " : "",
			    t->values[i]);
		}
		return 0;
	}
	if (is_string) {
		if (!t->has_min && !t->has_max && !t->has_above &&
		    !t->has_below && !t->integer)
			return 1;
		snprintf(why, whylen, "must be a number");
		return 0;
	}
	if (t->integer && num != floor(num))
		snprintf(why, whylen, "must be a whole number");
	else if (t->has_min && num < t->min)
		snprintf(why, whylen, "must be >= %g", t->min);
	else if (t->has_max && num > t->max)
		snprintf(why, whylen, "must be <= %g", t->max);
	else if (t->has_above && num <= t->above)
		snprintf(why, whylen, "must be > %g", t->above);
	else if (t->has_below && num >= t->below)
		snprintf(why, whylen, "must be < %g", t->below);
	else
		return 1;
	len = strlen(why);
	snprintf(why + len, whylen - len, " (allowed: ");
	len = strlen(why);
	tunable_range(t, why + len, whylen - len);
	len = strlen(why);
	snprintf(why + len, whylen - len, ")");
	return 0;
}
