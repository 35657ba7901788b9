/*
 * keys.c: what the readers of a workload spec (workload.c, tunable.c,
 * reader.c) share: the refusal of an unknown key, an array of argument
 * templates, and the message for memory that ran out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dup.h"
#include "workload_int.h"

/* Say that memory ran out while reading w's spec; return -1. */
int
workload_oom(const struct workload *w, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory", w->path);
	return -1;
}

/* Write "a, b or c" for the NULL-terminated keys to buf. */
static void
workload_keys_list(const char *const *keys, char *buf, size_t len)
{
	size_t	 i, at;

	buf[0] = '\0';
	for (i = 0; keys[i] != NULL; i++) {
		at = strlen(buf);
		snprintf(buf + at, len - at, "%s%s", i == 0 ? "" :
		    keys[i + 1] == NULL ? " or " : ", ", keys[i]);
	}
}

/*
 * Refuse a member of object o that is not one of keys: "FILE: ATKEY:
 * unknown key", followed by " (expected a, b or c)" when list is set.
 */
int
workload_keys_only(const struct workload *w, const cJSON *o, const char *at,
    const char *const *keys, int list, char *err, size_t errlen)
{
	const cJSON	*c;
	char		 expected[256];
	size_t		 i;

	for (c = o->child; c != NULL; c = c->next) {
		for (i = 0; keys[i] != NULL; i++)
			if (strcmp(c->string, keys[i]) == 0)
				break;
		if (keys[i] != NULL)
			continue;
		workload_keys_list(keys, expected, sizeof(expected));
		snprintf(err, errlen, "%s: %s%s: unknown key%s%s%s", w->path,
		    at, c->string, list ? " (expected " : "",
		    list ? expected : "", list ? ")" : "");
		return -1;
	}
	return 0;
}

/*
 * Refuse a key held twice by an object of the spec: cJSON keeps both and
 * finds the first, so the other (the one edited last, perhaps) would be
 * ignored without a word.
 */
int
workload_keys_unique(const struct workload *w, const cJSON *root, char *err,
    size_t errlen)
{
	char	 path[512];

	if (json_dup_find(root, path, sizeof(path)) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s: duplicate key", w->path, path);
	return -1;
}

/*
 * Read key's array of argument templates (j, NULL for none) into a
 * NULL-terminated vector *out, owned by w once set.
 */
int
workload_templates_read(const struct workload *w, const cJSON *j,
    const char *key, char ***out, char *err, size_t errlen)
{
	const cJSON	*c;
	size_t		 i = 0;

	if (j != NULL && !cJSON_IsArray(j)) {
		snprintf(err, errlen, "%s: %s: expected an array of strings",
		    w->path, key);
		return -1;
	}
	if ((*out = calloc((j ? (size_t)cJSON_GetArraySize(j) : 0) + 1,
	    sizeof(**out))) == NULL)
		return workload_oom(w, err, errlen);
	cJSON_ArrayForEach(c, j) {
		if (!cJSON_IsString(c) || !workload_template_ok(c->valuestring)) {
			snprintf(err, errlen, "%s: %s[%zu]: expected a string "
			    "with balanced {placeholders}", w->path, key, i);
			return -1;
		}
		if (((*out)[i++] = strdup(c->valuestring)) == NULL)
			return workload_oom(w, err, errlen);
	}
	return 0;
}

/*
 * The text of scalar j (a number or a string) in *out; -1 with "FILE: AT:
 * expected a number or a string" for anything else, or out of memory.
 */
int
workload_scalar_read(const struct workload *w, const cJSON *j,
    const char *at, char **out, char *err, size_t errlen)
{
	if (!cJSON_IsString(j) && !(cJSON_IsNumber(j) &&
	    isfinite(j->valuedouble))) {
		snprintf(err, errlen, "%s: %s: expected a number or a string",
		    w->path, at);
		return -1;
	}
	if ((*out = workload_scalar(j)) == NULL)
		return workload_oom(w, err, errlen);
	return 0;
}

/*
 * The optional object j at key: 0 if absent, 1 if an object whose members
 * are all in keys (NULL: any), -1 with "FILE: KEY: expected an object
 * WHAT" or an unknown member's error.
 */
int
workload_object_read(const struct workload *w, const cJSON *j,
    const char *key, const char *what, const char *const *keys, char *err,
    size_t errlen)
{
	char	 at[64];

	if (j == NULL)
		return 0;
	if (!cJSON_IsObject(j)) {
		snprintf(err, errlen, "%s: %s: expected an object %s", w->path,
		    key, what);
		return -1;
	}
	snprintf(at, sizeof(at), "%s.", key);
	if (keys != NULL && workload_keys_only(w, j, at, keys, 1, err,
	    errlen) == -1)
		return -1;
	return 1;
}

/*
 * The string member key of o in *out: a non-empty one when def is NULL,
 * else any string or def when absent; -1 with "FILE: KEY: expected a
 * (non-empty) string", or out of memory.
 */
int
workload_text_read(const struct workload *w, const cJSON *o, const char *key,
    const char *def, char **out, char *err, size_t errlen)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(o, key);

	if (def == NULL ? !cJSON_IsString(j) || *j->valuestring == '\0' :
	    j != NULL && !cJSON_IsString(j)) {
		snprintf(err, errlen, "%s: %s: expected a %sstring", w->path,
		    key, def == NULL ? "non-empty " : "");
		return -1;
	}
	if ((*out = strdup(j != NULL ? j->valuestring : def)) == NULL)
		return workload_oom(w, err, errlen);
	return 0;
}

/* 1 if s may name a placeholder: not empty, no brace, blank or '='. */
int
workload_name_ok(const char *s)
{
	return *s != '\0' && strpbrk(s, "{} \t\n=") == NULL;
}
