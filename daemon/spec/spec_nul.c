/*
 * spec_nul.c: refuse a NUL character in a campaign spec.
 *
 * cJSON decodes the escape \u0000 into a C string that ends there, so
 * "a\u0000/../x" would silently become "a".  Before the spec is parsed, its
 * text is searched for the escape (and for raw NUL bytes); when one is
 * found, a copy with U+FFFF in its place is parsed only to name the key
 * that holds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_nul.h"
#include "spec_int.h"

#define SP_NUL_MARK	"\\uffff"
#define SP_NUL_UTF8	"\xef\xbf\xbf"

/* The key path of the first string (or key) holding the mark, into buf. */
static int
sp_nul_find(const cJSON *j, const char *path, char *buf, size_t len)
{
	const cJSON	*c;
	char		 key[256];
	int		 i = 0;

	if (cJSON_IsString(j) && j->valuestring != NULL &&
	    strstr(j->valuestring, SP_NUL_UTF8) != NULL) {
		snprintf(buf, len, "%s", path);
		return 1;
	}
	for (c = j->child; c != NULL; c = c->next, i++) {
		if (cJSON_IsObject(j) && c->string != NULL) {
			if (strstr(c->string, SP_NUL_UTF8) != NULL) {
				snprintf(buf, len, "%s%sa key", path,
				    *path ? ": " : "");
				return 1;
			}
			sp_key(key, sizeof(key), path, c->string);
		} else
			snprintf(key, sizeof(key), "%s[%d]", path, i);
		if (sp_nul_find(c, key, buf, len))
			return 1;
	}
	return 0;
}

/* Refuse a NUL byte or a \u0000 escape in text; 0 if there is none. */
int
sp_nul_check(struct sp *sp, const char *text, size_t len)
{
	cJSON	*root;
	char	*copy, where[256];
	size_t	 at;
	int	 found;

	if (memchr(text, '\0', len) != NULL)
		return sp_fail(sp, NULL, "a NUL byte at offset %zu",
		    (size_t)((const char *)memchr(text, '\0', len) - text));
	if ((at = json_nul_find(text, len, 0)) == len)
		return 0;
	if ((copy = malloc(len)) == NULL)
		return sp_fail(sp, NULL, "out of memory");
	memcpy(copy, text, len);
	for (; at < len; at = json_nul_find(copy, len, at + 6))
		memcpy(copy + at, SP_NUL_MARK, 6);
	root = cJSON_ParseWithLength(copy, len);
	free(copy);
	found = root != NULL && sp_nul_find(root, "", where, sizeof(where));
	cJSON_Delete(root);
	if (found && where[0] != '\0')
		return sp_fail(sp, where, "a NUL character (\\u0000) is not "
		    "allowed in a string");
	return sp_fail(sp, NULL, "a NUL character (\\u0000) is not allowed "
	    "in a string");
}
