/*
 * spec_util.c: the building blocks of spec parsing: typed, range-checked
 * members of JSON objects, each error naming the file and the key path.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

/* Write "PATH: KEY: message" and return -1. */
int __attribute__((format(printf, 3, 4)))
sp_fail(struct sp *sp, const char *key, const char *fmt, ...)
{
	char	 msg[512];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (key != NULL && *key != '\0')
		snprintf(sp->err, sp->errlen, "%s: %s: %s", sp->path, key, msg);
	else
		snprintf(sp->err, sp->errlen, "%s: %s", sp->path, msg);
	return -1;
}

/* sp_hold(): see spec_int.h. */
int
sp_hold(struct sp *sp, struct campaign_spec *s, const char *key,
    const char *fmt, ...)
{
	char	 msg[512];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!s->recorded)
		return sp_fail(sp, key, "%s", msg);
	if (s->hold[0] == '\0')
		snprintf(s->hold, sizeof(s->hold), "%s: %s: %s", sp->path,
		    key, msg);
	return 0;
}

/* Join a key path: "budget" + "max_trials" = "budget.max_trials". */
const char *
sp_key(char *buf, size_t len, const char *parent, const char *key)
{
	if (parent == NULL || *parent == '\0')
		snprintf(buf, len, "%s", key);
	else
		snprintf(buf, len, "%s.%s", parent, key);
	return buf;
}

/* The JSON type of an item, for messages. */
const char *
sp_type(const cJSON *j)
{
	/* 1e400 parses as infinity: not "expected a number, got a number". */
	if (cJSON_IsNumber(j) && !isfinite(j->valuedouble))
		return "a number too large for a double";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsBool(j))
		return "a boolean";
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsObject(j))
		return "an object";
	return "null";
}

/* A parameter or campaign name: letters, digits, '_', '-', '.'. */
int
sp_name_ok(const char *s, size_t max)
{
	size_t	 i;

	if (*s == '\0' || strlen(s) > max || !isalpha((unsigned char)*s))
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("_-.", s[i]) ==
		    NULL)
			return 0;
	return 1;
}


/* Reject unknown and duplicate keys of an object. */
int
sp_keys(struct sp *sp, const cJSON *obj, const char *path,
    const char *const *allowed)
{
	const cJSON	*c, *d;
	char		 k[256], list[512];
	size_t		 i;

	for (c = obj->child; c != NULL; c = c->next) {
		for (d = obj->child; d != c; d = d->next)
			if (strcmp(d->string, c->string) == 0)
				return sp_fail(sp, sp_key(k, sizeof(k), path,
				    c->string), "duplicate key");
		if (allowed == NULL)
			continue;
		for (i = 0; allowed[i] != NULL; i++)
			if (strcmp(allowed[i], c->string) == 0)
				break;
		if (allowed[i] != NULL)
			continue;
		list[0] = '\0';
		for (i = 0; allowed[i] != NULL; i++) {
			if (i > 0)
				strncat(list, ", ", sizeof(list) - strlen(list)
				    - 1);
			strncat(list, allowed[i], sizeof(list) - strlen(list)
			    - 1);
		}
		return sp_fail(sp, sp_key(k, sizeof(k), path, c->string),
		    "unknown key (expected one of: %s)", list);
	}
	return 0;
}

/* Fetch an optional member that must be an object. */
int
sp_object(struct sp *sp, const cJSON *obj, const char *name,
    const char *path, int required, const cJSON **out)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(obj, name);
	char		 k[256];

	*out = NULL;
	if (j == NULL)
		return required ? sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "required") : 0;
	if (!cJSON_IsObject(j))
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "expected an object, got %s", sp_type(j));
	*out = j;
	return 0;
}

/*
 * Member name of obj (NULL: absent, or obj is NULL) into *j; -1 if it is
 * absent but required.
 */
static int
sp_member(struct sp *sp, const cJSON *obj, const char *name,
    const char *path, int required, const cJSON **j)
{
	char	 k[256];

	*j = obj ? cJSON_GetObjectItemCaseSensitive(obj, name) : NULL;
	if (*j == NULL && required)
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "required");
	return 0;
}

/* Fetch a string member into a fresh copy (or the default). */
int
sp_string(struct sp *sp, const cJSON *obj, const char *name, const char *path,
    int required, const char *def, char **out)
{
	const cJSON	*j;
	char		 k[256];

	if (sp_member(sp, obj, name, path, required, &j) == -1)
		return -1;
	if (j == NULL)
		*out = def ? strdup(def) : NULL;
	else if (!cJSON_IsString(j) || *j->valuestring == '\0')
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "expected a non-empty string, got %s", sp_type(j));
	else
		*out = strdup(j->valuestring);
	if (*out == NULL && (j != NULL || def != NULL))
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "out of memory");
	return 0;
}

/* Fetch a number member within [min, max]. */
int
sp_number(struct sp *sp, const cJSON *obj, const char *name, const char *path,
    double min, double max, double def, int *has, double *out)
{
	const cJSON	*j = obj ? cJSON_GetObjectItemCaseSensitive(obj, name)
			    : NULL;
	char		 k[256];

	if (has != NULL)
		*has = j != NULL;
	if (j == NULL) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "expected a number, got %s", sp_type(j));
	if (j->valuedouble < min || j->valuedouble > max)
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "%g is out of range [%g, %g]", j->valuedouble, min, max);
	*out = j->valuedouble;
	return 0;
}

/* Fetch an integer member within [min, max]. */
int
sp_int(struct sp *sp, const cJSON *obj, const char *name, const char *path,
    int required, long min, long max, long def, long *out)
{
	const cJSON	*j;
	char		 k[256];

	if (sp_member(sp, obj, name, path, required, &j) == -1)
		return -1;
	if (j == NULL) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsNumber(j) || j->valuedouble != floor(j->valuedouble))
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "expected an integer, got %s", cJSON_IsNumber(j) ?
		    "a fraction" : sp_type(j));
	if (j->valuedouble < min || j->valuedouble > max)
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "%.15g is out of range [%ld, %ld]", j->valuedouble, min,
		    max);
	*out = (long)j->valuedouble;
	return 0;
}

/* Fetch a boolean member. */
int
sp_bool(struct sp *sp, const cJSON *obj, const char *name, const char *path,
    int def, int *out)
{
	const cJSON	*j = obj ? cJSON_GetObjectItemCaseSensitive(obj, name)
			    : NULL;
	char		 k[256];

	if (j == NULL) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsBool(j))
		return sp_fail(sp, sp_key(k, sizeof(k), path, name),
		    "expected true or false, got %s", sp_type(j));
	*out = cJSON_IsTrue(j);
	return 0;
}

/*
 * Parse a duration as sbatch --time takes it: "M", "M:S", "H:M:S", "D-H",
 * "D-H:M" or "D-H:M:S"; return seconds, or -1.
 */
long
spec_parse_duration(const char *s)
{
	long	 f[3], days = -1;
	int	 n = 0;
	char	*end;

	if (s == NULL || !isdigit((unsigned char)*s))
		return -1;
	if (strchr(s, '-') != NULL) {
		errno = 0;
		days = strtol(s, &end, 10);
		if (*end != '-' || errno != 0 || days > 100000)
			return -1;
		s = end + 1;
	}
	for (;;) {
		if (!isdigit((unsigned char)*s) || n == 3)
			return -1;
		errno = 0;
		f[n++] = strtol(s, &end, 10);
		if (errno != 0 || f[n - 1] > 1000000)
			return -1;
		if (*end == '\0')
			break;
		if (*end != ':')
			return -1;
		s = end + 1;
	}
	if (days >= 0) {	/* D-H, D-H:M, D-H:M:S */
		return days * 86400 + f[0] * 3600 + (n > 1 ? f[1] * 60 : 0) +
		    (n > 2 ? f[2] : 0);
	}
	switch (n) {
	case 1:
		return f[0] * 60;
	case 2:
		return f[0] * 60 + f[1];
	default:
		return f[0] * 3600 + f[1] * 60 + f[2];
	}
}

/* Fetch a duration member (string or minutes) in seconds. */
int
sp_duration(struct sp *sp, const cJSON *obj, const char *name,
    const char *path, long *out)
{
	const cJSON	*j = obj ? cJSON_GetObjectItemCaseSensitive(obj, name)
			    : NULL;
	char		 k[256], got[96];

	*out = 0;
	if (j == NULL)
		return 0;
	if (cJSON_IsNumber(j) && j->valuedouble > 0 &&
	    j->valuedouble == floor(j->valuedouble) && j->valuedouble < 1e7)
		*out = (long)j->valuedouble * 60;
	else if (cJSON_IsString(j))
		*out = spec_parse_duration(j->valuestring);
	if (*out > 0)
		return 0;
	/* Say what was given: a huge number is not "not positive". */
	if (cJSON_IsString(j))
		snprintf(got, sizeof(got), "\"%.64s\"", j->valuestring);
	else if (cJSON_IsNumber(j))
		snprintf(got, sizeof(got), "%.15g", j->valuedouble);
	else
		snprintf(got, sizeof(got), "%s", sp_type(j));
	return sp_fail(sp, sp_key(k, sizeof(k), path, name),
	    "expected a positive duration as sbatch --time takes it "
	    "(M, M:S, H:M:S, D-H, D-H:M, D-H:M:S; fields up to 1000000, days "
	    "up to 100000) or minutes below 10000000, got %s", got);
}
