/*
 * json_nul.c: find \u0000 escapes in JSON text (see json_nul.h).
 */
#include <strings.h>

#include "json_nul.h"

#define JSON_NUL_ESC	"\\u0000"

/* Scan from the start, so that "in a string" is always known. */
size_t
json_nul_find(const char *text, size_t len, size_t from)
{
	size_t	 i;
	int	 in = 0;

	for (i = 0; i < len; i++) {
		if (!in) {
			in = text[i] == '"';
			continue;
		}
		if (text[i] == '"') {
			in = 0;
			continue;
		}
		if (text[i] != '\\' || i + 1 >= len)
			continue;
		if (i >= from && len - i >= 6 &&
		    strncasecmp(text + i, JSON_NUL_ESC, 6) == 0)
			return i;
		i++;	/* the escaped character */
	}
	return len;
}
