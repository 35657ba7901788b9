/*
 * batch.c: batched writes.  One write transaction per batch instead of
 * one per write: a campaign's writes of one loop iteration (a trial's
 * end, its metric points, the next trial's events) then cost one commit,
 * one set of file locks and one append of each changed page to the WAL.
 * Explicit transactions inside a batch become savepoints (ledger.c).
 */
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

/* Commit the open batch, if any. */
int
ledger_batch_flush(struct ledger *l)
{
	int rc;

	if (!l->batch)
		return 0;
	if (l->nest > 0)
		return ledger_errorf(l, "commit batch: %d savepoints open",
		    l->nest);
	rc = ledger_control(l, LQ_COMMIT, "COMMIT", "commit batch");
	/* A failed COMMIT may leave the transaction open, or roll it back. */
	l->batch = !sqlite3_get_autocommit(l->db);
	return rc;
}
