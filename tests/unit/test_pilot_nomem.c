/*
 * test_pilot_nomem.c: the pilot backend cannot see xmalloc; its own
 * pilot_strdup() copies (NULL stays NULL), and pilot_nomem(), for memory
 * no caller could go on without, says what ran out and aborts.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "child_err.h"
#include "pilot_int.h"
#include "tap.h"

/* Run out of memory queueing an event. */
static void
nomem(void *arg)
{
	pilot_nomem("queueing an event");
}

int
main(void)
{
	char	 buf[512], *s;
	int	 status;

	s = pilot_strdup("pilot-1");
	is_str(s, "pilot-1", "pilot_strdup copies");
	free(s);
	ok(pilot_strdup(NULL) == NULL, "pilot_strdup(NULL) is NULL");
	status = child_err(nomem, NULL, buf, sizeof(buf));
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "pilot_nomem aborts");
	is_str(buf, "hpod: pilot: out of memory queueing an event\n",
	    "  saying what ran out");
	return tap_done();
}
