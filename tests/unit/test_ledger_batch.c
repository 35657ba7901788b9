/*
 * test_ledger_batch.c: batched writes (ledger/batch.c).  A batch holds
 * its writes back from other readers until it is flushed, keeps an
 * explicit transaction inside it all or nothing (a savepoint), is
 * flushed, not lost, when the ledger is closed, and is rolled back whole
 * when its COMMIT fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ledger.h"
#include "ledger_int.h"
#include "tap.h"

static char tmpdir[64];
static char path[128];

/* How many rows a table has, as another connection sees them (-1: error). */
static int
rows(const char *table)
{
	char sql[128];
	sqlite3_stmt *st;
	sqlite3 *db;
	int n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n;
}

/* Insert a campaign named name; its id, or -1. */
static int64_t
campaign(struct ledger *l, const char *name)
{
	struct ledger_campaign c = { .name = (char *)name,
	    .workload = "w", .backend = "replay", .metric = "m",
	    .started = 1000, .max_trials = 1 };
	int64_t id;

	return ledger_campaign_insert(l, &c, &id) == 0 ? id : -1;
}

int
main(void)
{
	struct ledger *l;
	char err[512];
	int64_t id;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/hpod-batch.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/l.db", tmpdir);
	if ((l = ledger_open(path, 0, err, sizeof(err))) == NULL) {
		printf("Bail out! %s\n", err);
		return 1;
	}

	is_int(ledger_batch_flush(l), 0, "flush with no batch: nothing");
	is_int(ledger_batch_open(l), 1, "open a batch");
	is_int(ledger_batch_open(l), 0, "a second open joins it");
	id = campaign(l, "a");
	ok(id > 0, "write in the batch");
	ok(ledger_event(l, id, "progress", "one") == 0, "second write");
	is_int(rows("campaigns"), 0, "another reader sees nothing yet");

	/* An explicit transaction inside the batch is a savepoint. */
	ok(ledger_begin(l) == 0, "begin inside the batch");
	ok(campaign(l, "b") > 0, "write inside it");
	ok(ledger_batch_flush(l) == -1, "no flush inside a transaction");
	like(ledger_error(l), "savepoint", "the error says why");
	ok(ledger_rollback(l) == 0, "roll it back");
	ok(ledger_begin(l) == 0, "begin again");
	ok(campaign(l, "c") > 0, "write");
	ok(ledger_commit(l) == 0, "commit inside the batch");
	is_int(rows("campaigns"), 0, "still held back");

	ok(ledger_batch_flush(l) == 0, "flush");
	is_int(rows("campaigns"), 2, "both kept writes are seen");
	is_int(rows("campaigns WHERE name = 'b'"), 0,
	    "the rolled-back one is not");
	is_int(rows("events"), 1, "the event too");
	ok(ledger_batch_flush(l) == 0, "a second flush: nothing");

	/* Without a batch, ledger_begin() is a transaction of its own. */
	ok(ledger_begin(l) == 0 && campaign(l, "d") > 0 &&
	    ledger_commit(l) == 0, "a plain transaction");
	is_int(rows("campaigns"), 3, "committed at once");
	ok(ledger_begin(l) == 0, "begin a plain transaction");
	is_int(ledger_batch_open(l), 0, "no batch inside it");
	ok(campaign(l, "e") > 0 && ledger_commit(l) == 0, "commit it");
	is_int(rows("campaigns"), 4, "committed by its own commit");

	/*
	 * A COMMIT that fails rolls the whole batch back, even where SQLite
	 * leaves the transaction open (a deferred foreign key: an event of
	 * no campaign): nothing of it is committed later with another's.
	 */
	ok(sqlite3_exec(l->db, "PRAGMA defer_foreign_keys = ON", NULL, NULL,
	    NULL) == SQLITE_OK, "defer foreign keys to the commit");
	is_int(ledger_batch_open(l), 1, "open a batch");
	ok(campaign(l, "g") > 0, "a good write in it");
	ok(ledger_event(l, 999, "progress", "of no campaign") == 0,
	    "a write that fails at the commit");
	ok(ledger_batch_flush(l) == -1, "its flush fails");
	like(ledger_error(l), "commit batch", "the error says what failed");
	ok(sqlite3_get_autocommit(l->db), "no transaction is left open");
	is_int(ledger_batch_open(l), 1, "a new batch opens");
	ok(campaign(l, "h") > 0, "a write in it");
	ok(ledger_batch_flush(l) == 0, "and it commits");
	is_int(rows("campaigns WHERE name IN ('g', 'h')"), 1,
	    "of the two, only the new batch's write is in the ledger");
	sqlite3_exec(l->db, "PRAGMA defer_foreign_keys = OFF", NULL, NULL,
	    NULL);

	/* Closing the ledger keeps what a batch holds. */
	is_int(ledger_batch_open(l), 1, "open another batch");
	ok(campaign(l, "f") > 0, "write in it");
	ledger_close(l);
	is_int(rows("campaigns WHERE name = 'f'"), 1,
	    "closing the ledger flushed it");

	/* A read-only handle has nothing to batch. */
	if ((l = ledger_open(path, LEDGER_READONLY, err, sizeof(err))) ==
	    NULL)
		printf("Bail out! %s\n", err);
	is_int(ledger_batch_open(l), 0, "read-only: no batch");
	ledger_close(l);

	unlink(path);
	snprintf(err, sizeof(err), "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof(err), "%s-shm", path);
	unlink(err);
	rmdir(tmpdir);
	return tap_done();
}
