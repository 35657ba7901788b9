/*
 * watch.h: `hpoctl watch [--interval s] [--ledger file] campaign`, a live
 * view of one campaign: its trials by state, the best value so far, the
 * cost so far, the time elapsed and when it will reach its budget at the
 * current rate.  The daemon and `--ledger` answer with the same snapshot.
 */
#ifndef HPOD_WATCH_H
#define HPOD_WATCH_H

#include <stddef.h>

#include "config.h"
#include "ledger.h"

/*
 * The campaign's progress now, as JSON text in *out (malloc'ed).  Return
 * 0, 1 if there is no such campaign (err says so), -1 on a ledger error.
 */
int	 watch_snapshot(struct ledger *, const char *campaign, char **out,
	    char *err, size_t errlen);

/* Run the command; argv[0] is "watch".  Return the exit status. */
int	 watch_command(int argc, char **argv, const struct config *);

#endif
