/*
 * xmalloc.h: allocation (and asprintf) that cannot fail: on out of memory it says so on
 * stderr, with the size asked for, and aborts.  For memory whose lack no
 * caller could handle better; where a caller can report an error and go
 * on (a request, a report), check malloc's result instead.
 */
#ifndef HPOD_XMALLOC_H
#define HPOD_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
/*
 * p, made by another library's allocator (cJSON_Print, open_memstream):
 * if it is NULL, say "what: out of memory" and abort.
 */
void	*xneed(void *p, const char *what);

#endif
