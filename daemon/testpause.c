/*
 * testpause.c: test-only pause points (see testpause.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testpause.h"

/* Stop the process if HPOD_TEST_PAUSE lists point. */
void
testpause_at(const char *point)
{
	const char	*v = getenv("HPOD_TEST_PAUSE"), *p;
	size_t		 n = strlen(point);

	for (p = v; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
		p += strspn(p, ",");
		if (strncmp(p, point, n) == 0 && (p[n] == ',' || p[n] == '\0')) {
			fprintf(stderr, "test pause: %s (pid %ld)\n", point,
			    (long)getpid());
			fflush(stderr);
			raise(SIGSTOP);
			return;
		}
	}
}
