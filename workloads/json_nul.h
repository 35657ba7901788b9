/*
 * json_nul.h: find the escape \u0000 inside the strings of JSON text.
 * cJSON decodes it into a C string that silently ends there, so text that
 * holds one is refused before it is parsed (specs, control requests).
 */
#ifndef HPOD_JSON_NUL_H
#define HPOD_JSON_NUL_H

#include <stddef.h>

/*
 * Offset of the first \u0000 escape inside a string of text at or after
 * from, or len if there is none.  Nothing is assumed about the text's
 * validity; a raw NUL byte is not looked for (memchr() does that).
 */
size_t	 json_nul_find(const char *text, size_t len, size_t from);

#endif
