/*
 * spec_space.c: a campaign spec's parameters: "space", the searched ones
 * (float, int or choice, each with its range, scale and steps), and
 * "fixed", the constant ones.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "spec_int.h"

static const char *const param_keys[] = { "type", "min", "max", "scale",
	"steps", "values", NULL };

/* Parse parameter k of type "choice": its values only. */
static int
sp_choice(struct sp *sp, struct space *space, const cJSON *p, const char *k)
{
	const cJSON	*vals, *v;
	struct value	*cv;
	char		 kk[320];
	size_t		 n, i, j;
	int		 rc;

	vals = cJSON_GetObjectItemCaseSensitive(p, "values");
	if (cJSON_GetObjectItemCaseSensitive(p, "min") ||
	    cJSON_GetObjectItemCaseSensitive(p, "max") ||
	    cJSON_GetObjectItemCaseSensitive(p, "scale") ||
	    cJSON_GetObjectItemCaseSensitive(p, "steps")) {
		sp_fail(sp, k, "a choice takes only 'values'");
		return -1;
	}
	if (!cJSON_IsArray(vals) || cJSON_GetArraySize(vals) == 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "values"),
		    "expected a non-empty array");
		return -1;
	}
	n = cJSON_GetArraySize(vals);
	if ((cv = calloc(n, sizeof(*cv))) == NULL)
		return sp_fail(sp, k, "out of memory");
	i = 0;
	cJSON_ArrayForEach(v, vals) {
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
			cv[i].num = v->valuedouble;
		else if (cJSON_IsString(v)) {
			cv[i].is_string = 1;
			cv[i].str = v->valuestring;
		} else {
			snprintf(kk, sizeof(kk), "%s.values[%zu]", k, i);
			sp_fail(sp, kk, "expected a number or a string, "
			    "got %s", sp_type(v));
			free(cv);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (cv[j].is_string == cv[i].is_string &&
			    (cv[i].is_string ? strcmp(cv[j].str,
			    cv[i].str) == 0 : cv[j].num == cv[i].num))
				break;
		if (j < i) {
			snprintf(kk, sizeof(kk), "%s.values[%zu]", k, i);
			sp_fail(sp, kk, "duplicate value");
			free(cv);
			return -1;
		}
		i++;
	}
	errno = 0;
	rc = space_add_choice(space, strchr(k, '.') + 1, cv, n);
	free(cv);
	if (rc == -1)
		sp_fail(sp, k, errno == ENOMEM ? "out of memory" :
		    "invalid choice");
	return rc;
}

/* Parse one parameter of the space. */
static int
sp_param(struct sp *sp, struct campaign_spec *s, const cJSON *p,
    const char *k)
{
	struct space	*space = s->space;
	char		*type = NULL, *scale = NULL, kk[320];
	double		 min, max;
	long		 steps;
	int		 rc = -1, has_min, has_max, log;

	if (!cJSON_IsObject(p))
		return sp_fail(sp, k, "expected an object, got %s",
		    sp_type(p));
	if (sp_keys(sp, p, k, param_keys) == -1 ||
	    sp_string(sp, p, "type", k, 1, NULL, &type) == -1)
		goto out;
	if (strcmp(type, "choice") == 0) {
		rc = sp_choice(sp, space, p, k);
		goto out;
	}
	if (strcmp(type, "float") != 0 && strcmp(type, "int") != 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "type"),
		    "expected \"float\", \"int\" or \"choice\", got \"%s\"",
		    type);
		goto out;
	}
	if (cJSON_GetObjectItemCaseSensitive(p, "values") != NULL) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "values"),
		    "only a choice takes values");
		goto out;
	}
	if (sp_number(sp, p, "min", k, -HUGE_VAL, HUGE_VAL, 0, &has_min,
	    &min) == -1 || sp_number(sp, p, "max", k, -HUGE_VAL, HUGE_VAL, 0,
	    &has_max, &max) == -1 ||
	    sp_string(sp, p, "scale", k, 0, "linear", &scale) == -1 ||
	    sp_int(sp, p, "steps", k, 0, 2, 10000, 0, &steps) == -1)
		goto out;
	if (!has_min || !has_max) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, has_min ? "max" : "min"),
		    "required");
		goto out;
	}
	if (strcmp(scale, "linear") != 0 && strcmp(scale, "log") != 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "scale"),
		    "expected \"linear\" or \"log\", got \"%s\"", scale);
		goto out;
	}
	log = strcmp(scale, "log") == 0;
	if (min > max) {
		sp_fail(sp, k, "min (%g) must be <= max (%g)", min, max);
		goto out;
	}
	if (min == max) {
		sp_fail(sp, k, "empty range [%g, %g]; use \"fixed\" for a "
		    "constant", min, max);
		goto out;
	}
	/* The searches map [min, max] through its width: it must exist. */
	if (!isfinite(min) || !isfinite(max)) {
		sp_fail(sp, k, "the range [%g, %g] is wider than the largest "
		    "number (its width max - min overflows); narrow it or use "
		    "scale \"log\"", min, max);
		goto out;
	}
	if (!log && !isfinite(max - min) && sp_hold(sp, s, k, "the range "
	    "[%g, %g] is wider than the largest number (its width max - min "
	    "overflows); narrow it or use scale \"log\"", min, max) == -1)
		goto out;
	if (log && min <= 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "min"),
		    "must be > 0 for scale \"log\" (got %g)", min);
		goto out;
	}
	if (type[0] == 'i' && (min != floor(min) || max != floor(max))) {
		sp_fail(sp, k, "int bounds must be integers (got %g, %g)", min,
		    max);
		goto out;
	}
	/* The search keeps an int as a double: exact only up to 2^53. */
	if (type[0] == 'i' && (fabs(min) > 9007199254740992.0 ||
	    fabs(max) > 9007199254740992.0)) {
		sp_fail(sp, k, "int bounds must be within +-2^53 "
		    "(9007199254740992; got %g, %g)", min, max);
		goto out;
	}
	errno = 0;
	rc = type[0] == 'i' ?
	    space_add_int(space, strchr(k, '.') + 1, min, max,
	    log ? SCALE_LOG : SCALE_LINEAR, (int)steps) :
	    space_add_float(space, strchr(k, '.') + 1, min, max,
	    log ? SCALE_LOG : SCALE_LINEAR, (int)steps);
	if (rc == -1)
		sp_fail(sp, k, errno == ENOMEM ? "out of memory" :
		    "invalid parameter");
out:
	free(type);
	free(scale);
	return rc;
}

/* Parse the space object. */
int
sp_space(struct sp *sp, struct campaign_spec *s, const cJSON *obj)
{
	const cJSON	*p;
	char		 k[256];

	if (obj == NULL || obj->child == NULL)
		return sp_fail(sp, "space", "expected at least one parameter");
	if (sp_keys(sp, obj, "space", NULL) == -1)
		return -1;
	cJSON_ArrayForEach(p, obj) {
		snprintf(k, sizeof(k), "space.%s", p->string);
		if (!sp_name_ok(p->string, 63) || strchr(p->string, '.'))
			return sp_fail(sp, k, "a parameter name is a letter "
			    "followed by letters, digits, '_' or '-'");
		if (sp_param(sp, s, p, k) == -1)
			return -1;
	}
	return 0;
}

/* Parse the fixed parameters: numbers or strings. */
int
sp_fixed(struct sp *sp, struct campaign_spec *s, const cJSON *obj)
{
	const cJSON	*p;
	char		 k[256], num[64];
	size_t		 i = 0;

	if (obj == NULL)
		return 0;
	if (sp_keys(sp, obj, "fixed", NULL) == -1)
		return -1;
	if (cJSON_GetArraySize(obj) == 0)
		return 0;
	if ((s->fixed = calloc(cJSON_GetArraySize(obj), sizeof(*s->fixed))) ==
	    NULL)
		return sp_fail(sp, "fixed", "out of memory");
	cJSON_ArrayForEach(p, obj) {
		snprintf(k, sizeof(k), "fixed.%s", p->string);
		if (!sp_name_ok(p->string, 63))
			return sp_fail(sp, k, "a parameter name is a letter "
			    "followed by letters, digits, '_' or '-'");
		if (space_find(s->space, p->string) != -1)
			return sp_fail(sp, k, "also defined in space");
		if (cJSON_IsNumber(p) && isfinite(p->valuedouble))
			space_shortest(p->valuedouble, num, sizeof(num));
		else if (!cJSON_IsString(p))
			return sp_fail(sp, k, "expected a number or a string, "
			    "got %s", sp_type(p));
		s->fixed[i].name = strdup(p->string);
		s->fixed[i].value = strdup(cJSON_IsString(p) ? p->valuestring :
		    num);
		s->nfixed = ++i;
		if (s->fixed[i - 1].name == NULL ||
		    s->fixed[i - 1].value == NULL)
			return sp_fail(sp, k, "out of memory");
	}
	return 0;
}
