/*
 * xmalloc.c: malloc, calloc, reallocarray, strdup and asprintf that abort
 * with a message instead of returning NULL.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Say that n bytes (nmemb of size) could not be had, and abort. */
static _Noreturn void
xmalloc_fail(const char *what, size_t nmemb, size_t size)
{
	fprintf(stderr, "%s: out of memory (%zu x %zu bytes)\n", what, nmemb,
	    size);
	abort();
}

/* malloc(size), never NULL. */
void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size)) == NULL && size != 0)
		xmalloc_fail("malloc", 1, size);
	return p;
}

/* calloc(nmemb, size), never NULL. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if ((p = calloc(nmemb, size)) == NULL && nmemb != 0 && size != 0)
		xmalloc_fail("calloc", nmemb, size);
	return p;
}

/* reallocarray(p, nmemb, size), never NULL (overflow included). */
void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	void	*q;

	if ((q = reallocarray(p, nmemb, size)) == NULL && nmemb != 0 &&
	    size != 0)
		xmalloc_fail("reallocarray", nmemb, size);
	return q;
}

/* strdup(s), never NULL. */
char *
xstrdup(const char *s)
{
	char	*c;

	if ((c = strdup(s)) == NULL)
		xmalloc_fail("strdup", 1, strlen(s) + 1);
	return c;
}

/* asprintf(fmt, ...), never NULL. */
char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1) {
		fprintf(stderr, "asprintf: out of memory formatting '%s'\n",
		    fmt);
		abort();
	}
	return s;
}

/* p, never NULL: a NULL from what means memory ran out. */
void *
xneed(void *p, const char *what)
{
	if (p == NULL) {
		fprintf(stderr, "%s: out of memory\n", what);
		abort();
	}
	return p;
}
