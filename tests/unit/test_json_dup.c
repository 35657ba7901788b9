/*
 * test_json_dup.c: json_dup_find() names the key an object holds twice,
 * at any depth, whether the object is small (compared pair by pair) or
 * large (sorted), and finds none where there is none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_dup.h"
#include "tap.h"

/* The duplicate's path in text, or "" for none. */
static const char *
dup_of(const char *text)
{
	static char	 path[256];
	cJSON		*j = cJSON_Parse(text);

	if (j == NULL)
		return "(not JSON)";
	if (json_dup_find(j, path, sizeof(path)) == 0)
		path[0] = '\0';
	cJSON_Delete(j);
	return path;
}

/* An object of n keys k0..k(n-1), then extra (", ..." or ""). */
static char *
wide(int n, const char *extra)
{
	size_t	 len = (size_t)n * 24 + strlen(extra) + 64, at;
	char	*s = malloc(len);
	int	 i;

	if (s == NULL)
		abort();
	at = (size_t)snprintf(s, len, "{\"a\": [1, {\"w\": {");
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(s + at, len - at, "%s\"k%d\": %d",
		    i ? ", " : "", i, i);
	snprintf(s + at, len - at, "%s}}]}", extra);
	return s;
}

int
main(void)
{
	char	*t;

	is_str(dup_of("{\"a\": 1, \"b\": {\"c\": [1, 2]}}"), "",
	    "no key twice: none");
	is_str(dup_of("{\"a\": 1, \"a\": 2}"), "a", "a top-level key twice");
	is_str(dup_of("{\"a\": {\"b\": 1, \"c\": 2, \"b\": 3}}"), "a.b",
	    "in a nested object");
	is_str(dup_of("{\"a\": [{\"x\": 1}, {\"y\": 1, \"y\": 2}]}"),
	    "a[1].y", "in an array's object");
	is_str(dup_of("{\"a\": {\"b\": 1}, \"c\": {\"b\": 1}}"), "",
	    "the same key in two objects is no duplicate");
	is_str(dup_of("[{\"a\": 1}, {\"a\": 1, \"a\": 1}]"), "[1].a",
	    "an array at the top");
	t = wide(16, ", \"k3\": 0");
	is_str(dup_of(t), "a[1].w.k3", "17 members, sorted: found");
	free(t);
	t = wide(5000, ", \"k4999\": 0");
	is_str(dup_of(t), "a[1].w.k4999", "5001 members: found");
	free(t);
	t = wide(5000, "");
	is_str(dup_of(t), "", "5000 members, each once: none");
	free(t);
	{
		char	 small[4];
		cJSON	*j = cJSON_Parse("{\"abcdef\": {\"x\": 1, \"x\": 2}}");

		ok(json_dup_find(j, small, sizeof(small)) == 1 &&
		    strcmp(small, "abc") == 0, "a path longer than the buffer "
		    "is cut, not overrun");
		cJSON_Delete(j);
	}
	return tap_done();
}
