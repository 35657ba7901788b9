/*
 * ledger_tmp.h: a new ledger in a folder of its own under /tmp, for the
 * unit tests that fill one, and its removal; the folder alone, a ledger
 * opened or else a bail-out, and plain SQL on a file, for the tests that
 * make their own ledger files.
 */
#ifndef LEDGER_TMP_H
#define LEDGER_TMP_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"

/*
 * Make the folder /tmp/NAME.XXXXXX, its path in dir (dirsz bytes); 0, or
 * -1 after a TAP "Bail out!" line.  ledger_tmp_remove() removes it.
 */
int		 ledger_tmp_dir(const char *name, char *dir, size_t dirsz);
/* Remove the folder dir with all it holds. */
void		 ledger_tmp_remove(const char *dir);
/*
 * Open the ledger at path with flags (ledger_open()), or print a TAP
 * "Bail out!" line with the reason and exit 1.
 */
struct ledger	*ledger_tmp_open_file(const char *path, int flags);
/*
 * Run sql on the file at path with plain SQLite, outside the ledger
 * module (to make an old or a foreign file); 0, or -1 after a TAP
 * comment that names the file and the error.
 */
int		 ledger_tmp_sql(const char *path, const char *sql);
/*
 * Make the file at path a ledger of schema version, as an older hpod left
 * it: the first version migrations and user_version, with plain SQLite;
 * 0, or -1 after a TAP comment (ledger_tmp_sql()).
 */
int		 ledger_tmp_schema(const char *path, int version);
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
