/*
 * lockfile.h: the daemon's lock on its ledger.  One hpod per ledger: a
 * second one (another socket, same ledger) would resume the same
 * campaigns and run every trial twice.  The lock is an flock(2) on
 * LEDGER.lock beside the ledger, which holds the owner's pid; the kernel
 * drops it when the owner exits, however it exits.
 */
#ifndef HPOD_LOCKFILE_H
#define HPOD_LOCKFILE_H

#include <stddef.h>

/*
 * Take the lock of the ledger at path and write our pid into it.  Return
 * the descriptor that holds it (keep it open), or -1 with err naming the
 * ledger and, when known, the pid of the process holding it.
 */
int	 lockfile_take(const char *ledger, char *err, size_t errlen);
/* Record a new owner's pid (after a fork) in the lock held by fd. */
void	 lockfile_set_pid(int fd);

#endif
