/*
 * json_dup.c: find a key held twice in parsed JSON (see json_dup.h).
 */
#include <stdio.h>
#include <string.h>

#include "json_dup.h"

/* Walk j; path holds j's key path (at bytes) and is extended per member. */
static int
json_dup_walk(const cJSON *j, char *path, size_t len, size_t at)
{
	const cJSON	*c, *d;
	int		 i = 0;

	for (c = j->child; c != NULL; c = c->next, i++) {
		if (cJSON_IsObject(j)) {
			snprintf(path + at, len - at, "%s%s", at > 0 ? "." : "",
			    c->string);
			for (d = j->child; d != c; d = d->next)
				if (strcmp(d->string, c->string) == 0)
					return 1;
		} else
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
