/*
 * discard.c: taking back a ledger that a refused run created and left
 * empty, without ever removing one that holds a campaign or that another
 * process has open.
 *
 * Safety rests on two locks SQLite already takes.  In WAL mode every
 * connection that has read the ledger holds a SHARED lock on its file
 * until it closes, so a connection that gets the EXCLUSIVE lock knows
 * that nobody else has read it, let alone recorded anything in it.  The
 * discard takes that lock (locking_mode EXCLUSIVE keeps it to the close),
 * checks that no campaign is recorded, leaves WAL mode for no journal at
 * all (the -wal file is checkpointed and removed while the path is still
 * its own, and nothing is left that its close would remove by name) and
 * unlinks the -shm and then the ledger while holding it.  A process that opened
 * the same file meanwhile cannot read it before the lock is released,
 * and then finds it unlinked: ledger_open() checks that before it puts
 * the file in WAL mode (ledger_unmoved()), and opens the path again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger_int.h"

/* Run sql on db; its single text or integer result in out, or -1. */
static int
discard_one(sqlite3 *db, const char *sql, char *out, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) !=
	    NULL) {
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st,
		    0));
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Remove the ledger at path if nobody else has it open and it holds no
 * campaign: 1 if it was removed, 0 if it is kept.
 */
static int
discard_path(const char *path)
{
	sqlite3	*db = NULL;
	char	 out[32], side[4096];
	int	 moved = 1, removed = 0;

	if (strlen(path) + sizeof("-shm") > sizeof(side) ||
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return 0;
	}
	/*
	 * No busy timeout: a connection elsewhere keeps the ledger.  The
	 * count is the first read, which takes the EXCLUSIVE lock; only an
	 * empty ledger leaves WAL mode (with no journal: nothing is left to
	 * remove by name at the close), and only if the path is still its.
	 */
	if (sqlite3_exec(db, "PRAGMA locking_mode = EXCLUSIVE", NULL, NULL,
	    NULL) != SQLITE_OK ||
	    discard_one(db, "SELECT count(*) FROM campaigns", out,
	    sizeof(out)) == -1 || strcmp(out, "0") != 0 ||
	    discard_one(db, "PRAGMA journal_mode = OFF", out,
	    sizeof(out)) == -1 || strcmp(out, "off") != 0 ||
	    sqlite3_file_control(db, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) != SQLITE_OK || moved)
		goto out;
	snprintf(side, sizeof(side), "%s-shm", path);
	if (unlink(side) == 0 || access(side, F_OK) == -1)
		removed = unlink(path) == 0;
out:
	sqlite3_close(db);
	return removed;
}

/* ledger_discard(): see ledger.h. */
int
ledger_discard(struct ledger *l)
{
	char	*path;
	int	 created, removed = 0;

	if (l == NULL)
		return 0;
	created = l->created && !(l->flags & LEDGER_READONLY);
	path = created ? strdup(ledger_path(l)) : NULL;
	ledger_close(l);
	if (path != NULL)
		removed = discard_path(path);
	free(path);
	return removed;
}
