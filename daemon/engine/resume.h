/*
 * resume.h: taking back, in the foreground, a campaign that no process
 * drives any more: one whose `hpoctl run` was killed.  `hpoctl resume`
 * re-adopts its attempts and goes on; `hpoctl cancel --ledger` re-adopts
 * them and cancels it.  A campaign of the daemon is the daemon's, and one
 * whose foreground run is still alive is its own (a lock file says so).
 */
#ifndef HPOD_RESUME_H
#define HPOD_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"
#include "spec.h"

/*
 * Find campaign name_or_id in the ledger at path and check that it may be
 * taken back: still running, and run in the foreground.  Return its spec
 * as recorded (its id in *id), or NULL with err saying why.
 */
struct campaign_spec	*resume_spec(struct ledger *, const char *path,
			    const char *name_or_id, int64_t *id, char *err,
			    size_t errlen);

/*
 * Take the lock that says this process drives campaign id of the ledger
 * at path: an exclusive flock(2) on the file PATH.ID.lock, which holds
 * the pid and is released when the process ends, however it ends.
 * Return the descriptor to keep open, or -1 with err naming the process
 * that holds it.
 */
int	 resume_lock(const char *path, int64_t id, const char *name,
	    char *err, size_t errlen);
/* Release the lock of a campaign that ended, and remove its file. */
void	 resume_unlock(int fd, const char *path, int64_t id);

#endif
