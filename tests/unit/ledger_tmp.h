/*
 * ledger_tmp.h: a new ledger in a folder of its own under /tmp, for the
 * unit tests that fill one, and its removal.
 */
#ifndef LEDGER_TMP_H
#define LEDGER_TMP_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"

/*
 * Make the folder /tmp/NAME.XXXXXX (its path in dir, dirsz bytes) and
 * open a new ledger l.db in it.  On failure print a TAP "Bail out!" line
 * and return NULL.  ledger_tmp_close() closes the ledger.
 */
struct ledger	*ledger_tmp_open(const char *name, char *dir, size_t dirsz);
/*
 * Insert a running campaign NAME of max_trials trials (workload "w", the
 * local backend, metric eval_error, started at 1000) into l; its id.
 */
int64_t		 ledger_tmp_campaign(struct ledger *l, const char *name,
		    int max_trials);
/*
 * Insert trial number of campaign cid into l, pending, its parameters
 * params_json, created at 1000 + number; its id.
 */
int64_t		 ledger_tmp_trial(struct ledger *l, int64_t cid, int number,
		    char *params_json);
/*
 * Insert attempt k of trial tid (its number trial) into l: token
 * "tok-TRIAL-K", folder "/nowhere/TRIAL/K", created at 1000 + trial;
 * its id.
 */
int64_t		 ledger_tmp_attempt(struct ledger *l, int64_t tid, int trial,
		    int k);
/* Close l and remove the folder dir with all it holds. */
void		 ledger_tmp_close(struct ledger *l, const char *dir);

#endif
