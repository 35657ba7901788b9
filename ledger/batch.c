/*
 * batch.c: batched writes.  One write transaction per batch instead of
 * one per write: a campaign's writes of one loop iteration (a trial's
 * end, its metric points, the next trial's events) then cost one commit,
 * one set of file locks and one append of each changed page to the WAL.
 * Explicit transactions inside a batch become savepoints (ledger.c).
 */
#include <stdio.h>
#include <string.h>

#include "ledger_int.h"

/* Begin a batch unless a batch or another transaction is open (1 if begun). */
int
ledger_batch_open(struct ledger *l)
{
	if (l->batch || (l->flags & LEDGER_READONLY) ||
	    !sqlite3_get_autocommit(l->db))
		return 0;
	if (ledger_control(l, LQ_BEGIN, "BEGIN IMMEDIATE", "begin batch") ==
	    -1)
		return -1;
	l->batch = 1;
	return 1;
}

/*
 * Commit the open batch, if any.  A failed COMMIT may leave the
 * transaction open, or roll it back: it is rolled back here if SQLite did
 * not, so that a failed batch is always lost as a whole (what its writers
 * did is then as a crash at that point left it), never committed later
 * with writes of another.
 */
int
ledger_batch_flush(struct ledger *l)
{
	size_t n;

	if (!l->batch)
		return 0;
	if (l->nest > 0)
		return ledger_errorf(l, "commit batch: %d savepoints open",
		    l->nest);
	if (ledger_control(l, LQ_COMMIT, "COMMIT", "commit batch") == 0) {
		l->batch = 0;
		return 0;
	}
	if (!sqlite3_get_autocommit(l->db) &&
	    sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK) {
		n = strlen(l->err);
		snprintf(l->err + n, sizeof(l->err) - n, "; rollback: %s",
		    sqlite3_errmsg(l->db));
	}
	l->batch = !sqlite3_get_autocommit(l->db);
	return -1;
}
