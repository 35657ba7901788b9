/*
 * slurm_util.c: small helpers of the Slurm backend: memory that aborts on
 * exhaustion (as the local backend does), warnings, the clock.  They are
 * not ledger/xmalloc.h's xstrdup/xcalloc/xasprintf: this room sees only
 * scheduler/ (the Makefile's SEES_), and ledger/ may see no scheduler,
 * so no room both see could hold one copy.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm_int.h"

/* Duplicate s (NULL stays NULL); abort on exhaustion like the rest. */
char *
slurm_strdup(const char *s)
{
	char	*p;

	if (s == NULL)
		return NULL;
	if ((p = strdup(s)) == NULL) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return p;
}

/* Allocate zeroed memory or abort. */
void *
slurm_calloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n, size)) == NULL) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return p;
}

/* Format into a new string or abort. */
char * __attribute__((format(printf, 1, 2)))
slurm_printf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1) {
		fprintf(stderr, "hpod: slurm backend: out of memory\n");
		abort();
	}
	return s;
}

/* Free a NULL-terminated string array. */
void
slurm_strv_free(char **v)
{
	size_t	 i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Report a condition an operator should know about. */
void __attribute__((format(printf, 2, 3)))
slurm_warn(const struct slurm *b, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (b->opts.warn != NULL)
		b->opts.warn("slurm: %s", msg);
	else
		fprintf(stderr, "hpod: slurm: %s\n", msg);
}

/* The time now, in epoch seconds. */
double
slurm_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Copy a NULL-terminated string array. */
char **
slurm_strv_dup(const char *const *v)
{
	size_t	 n = 0, i;
	char	**c;

	while (v != NULL && v[n] != NULL)
		n++;
	c = slurm_calloc(n + 1, sizeof(*c));
	for (i = 0; i < n; i++)
		c[i] = slurm_strdup(v[i]);
	return c;
}

/* Take a hold on libslurm: work is about to go to a worker thread. */
void
slurm_hold_take(struct slurm_hold *h)
{
	h->n++;
}

/* Drop a hold: 1 if the teardown was asked for and this was the last. */
int
slurm_hold_drop(struct slurm_hold *h)
{
	if (h->n > 0)
		h->n--;
	if (h->n > 0 || h->fini != 1)
		return 0;
	h->fini = 2;
	return 1;
}

/* Ask for the teardown: 1 if no hold is left, else the last drop says. */
int
slurm_hold_fini(struct slurm_hold *h)
{
	if (h->fini == 0)
		h->fini = 1;
	if (h->n > 0 || h->fini != 1)
		return 0;
	h->fini = 2;
	return 1;
}
