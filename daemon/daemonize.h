/*
 * daemonize.h: go to the background so that a start-up failure still
 * reaches the shell that started hpod, with exit status 1.
 *
 * daemonize_begin() forks: the parent waits until the child says it is
 * ready (exit 0) or exits without saying so (exit 1); the child, in a new
 * session, opens its resources with stderr still on the terminal, then
 * calls daemonize_ready().  Nothing is carried across the fork: the child
 * alone opens the ledger (SQLite connections and POSIX locks must not cross
 * a fork) and the event loop.
 */
#ifndef HPOD_DAEMONIZE_H
#define HPOD_DAEMONIZE_H

#include <stddef.h>

/* In the child, return the fd to pass to daemonize_ready(); -1 with err. */
int	 daemonize_begin(char *err, size_t errlen);
/*
 * Tell the waiting parent that start-up succeeded, and detach the standard
 * streams (to /dev/null); -1 with err if that fails.
 */
int	 daemonize_ready(int fd, char *err, size_t errlen);

#endif
