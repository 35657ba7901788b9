/*
 * json_dup.c: find a key held twice in parsed JSON (see json_dup.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dup.h"

/* Members compared pairwise up to this many; more are sorted first. */
#define JSON_DUP_PAIRWISE	16

static int
json_dup_cmp(const void *a, const void *b)
{
	return strcmp((*(const cJSON *const *)a)->string,
	    (*(const cJSON *const *)b)->string);
}

/*
 * The second member of object j whose key an earlier member has, or
 * NULL; j (a control request of up to 16 MiB) may have many, so that a
 * large one is sorted, not compared pair by pair.  Memory run out: NULL.
 */
static const cJSON *
json_dup_member(const cJSON *j)
{
	const cJSON	*c, *d, **v, *found = NULL;
	size_t		 n = 0, i;

	for (c = j->child; c != NULL; c = c->next)
		n++;
	if (n <= JSON_DUP_PAIRWISE) {
		for (c = j->child; c != NULL; c = c->next)
			for (d = j->child; d != c; d = d->next)
				if (strcmp(d->string, c->string) == 0)
					return c;
		return NULL;
	}
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return NULL;
	for (c = j->child, i = 0; c != NULL; c = c->next)
		v[i++] = c;
	qsort(v, n, sizeof(*v), json_dup_cmp);
	for (i = 1; i < n && found == NULL; i++)
		if (strcmp(v[i - 1]->string, v[i]->string) == 0)
			found = v[i];
	free(v);
	return found;
}

/* Walk j; path holds j's key path (at bytes) and is extended per member. */
static int
json_dup_walk(const cJSON *j, char *path, size_t len, size_t at)
{
	const cJSON	*c, *dup;
	int		 i = 0;

	if (cJSON_IsObject(j) && (dup = json_dup_member(j)) != NULL) {
		snprintf(path + at, len - at, "%s%s", at > 0 ? "." : "",
		    dup->string);
		return 1;
	}
	for (c = j->child; c != NULL; c = c->next, i++) {
		if (cJSON_IsObject(j))
			snprintf(path + at, len - at, "%s%s", at > 0 ? "." : "",
			    c->string);
		else
			snprintf(path + at, len - at, "[%d]", i);
		if ((cJSON_IsObject(c) || cJSON_IsArray(c)) &&
		    json_dup_walk(c, path, len, strlen(path)) == 1)
			return 1;
	}
	path[at] = '\0';
	return 0;
}

int
json_dup_find(const cJSON *j, char *path, size_t len)
{
	if (len == 0)
		return 0;
	path[0] = '\0';
	return j != NULL && json_dup_walk(j, path, len, 0);
}
