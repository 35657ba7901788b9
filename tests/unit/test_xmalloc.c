/*
 * test_xmalloc.c: the allocators that cannot fail (and xasprintf, xneed)
 * return memory, and when there is none say so on stderr and abort.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_err.h"
#include "tap.h"
#include "xmalloc.h"

/* Under ASan, a request too large returns NULL as libc's would. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* Ask for more than memory can hold, in one way per which (see main). */
static void
fail_one(void *arg)
{
	struct rlimit	 rl = { 64 << 20, 64 << 20 };
	int		 which = *(int *)arg;

	if (which == 0)
		(void)xreallocarray(NULL, SIZE_MAX / 2, 4);
	else if (which == 1)
		(void)xmalloc(SIZE_MAX / 2);
	else if (which == 2) {
		/* 256 MiB with the data segment limited to 64 MiB. */
		if (setrlimit(RLIMIT_DATA, &rl) == -1)
			_exit(2);
		(void)xasprintf("%*s", 256 << 20, "");
	} else
		(void)xneed(NULL, "cJSON_Print");
}

/* Run fail_one(which) in a child; how it ended, its stderr in buf. */
static int
child_fails(int which, char *buf, size_t len)
{
	return child_err(fail_one, &which, buf, len);
}

int
main(void)
{
	char	 buf[512], *s, *p;
	int	 status;

	p = xmalloc(16);
	memset(p, 1, 16);
	p = xreallocarray(p, 8, 4);
	ok(p != NULL, "xreallocarray grows");
	free(p);
	p = xcalloc(4, 4);
	ok(p != NULL && p[15] == 0, "xcalloc zeroes");
	free(p);
	s = xstrdup("ledger");
	is_str(s, "ledger", "xstrdup copies");
	free(s);

	status = child_fails(0, buf, sizeof(buf));
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "xreallocarray beyond memory aborts");
	like(buf, "reallocarray: out of memory (", "  saying so");
	status = child_fails(1, buf, sizeof(buf));
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "xmalloc beyond memory aborts");
	like(buf, "malloc: out of memory (", "  saying so");
	s = xasprintf("%s/%d", "runs", 7);
	is_str(s, "runs/7", "xasprintf formats");
	free(s);
	status = child_fails(2, buf, sizeof(buf));
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "xasprintf beyond memory aborts");
	like(buf, "asprintf: out of memory formatting '%*s'", "  saying so");
	ok(xneed(buf, "buf") == buf, "xneed passes memory on");
	status = child_fails(3, buf, sizeof(buf));
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "xneed of NULL aborts");
	is_str(buf, "cJSON_Print: out of memory\n", "  saying what ran out");
	return tap_done();
}
