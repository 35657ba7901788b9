/*
 * test_ledger_discard.c: ledger_discard() (ledger/discard.c) removes the
 * ledger its handle created only when it holds no campaign and no other
 * connection has it open; one that was there, one with a campaign and
 * one another handle reads stay, whole.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

static char dir[64], path[128], side[160];

/* Whether path with suffix (or "") exists. */
static int
there(const char *suffix)
{
	snprintf(side, sizeof(side), "%s%s", path, suffix);
	return access(side, F_OK) == 0;
}

/* Campaigns in the ledger at path, read by a handle of its own. */
static int
campaigns(void)
{
	struct ledger_campaign *cs = NULL;
	struct ledger *l;
	size_t n = 0;
	char err[512];

	if ((l = ledger_open(path, LEDGER_READONLY, err, sizeof(err))) ==
	    NULL || ledger_campaign_list(l, NULL, &cs, &n) == -1)
		n = (size_t)-1;
	ledger_campaign_list_free(cs, n == (size_t)-1 ? 0 : n);
	ledger_close(l);
	return (int)n;
}

int
main(void)
{
	struct ledger *l, *other;
	sqlite3 *early;
	int moved = 0;

	if (ledger_tmp_dir("hpod-discard", dir, sizeof(dir)) == -1)
		return 1;
	snprintf(path, sizeof(path), "%s/l.db", dir);

	/* Created here, empty, nobody else: removed, -wal and -shm too. */
	l = ledger_tmp_open_file(path, 0);
	ok(there("") && there("-wal"), "the ledger is created");
	/* A handle that opened the file before the discard, no read yet. */
	ok(sqlite3_open_v2(path, &early, SQLITE_OPEN_READWRITE, NULL) ==
	    SQLITE_OK, "another handle opens it");
	is_int(ledger_discard(l), 1, "an empty ledger this handle made goes");
	ok(!there("") && !there("-wal") && !there("-shm") &&
	    !there("-journal"), "with nothing beside it");
	ok(sqlite3_file_control(early, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) == SQLITE_OK && moved, "the early handle finds it "
	    "removed (ledger_open() opens the path again then)");
	/* A new ledger made at the path meanwhile is not touched by it. */
	l = ledger_tmp_open_file(path, 0);
	ok(ledger_tmp_campaign(l, "new", 1) > 0, "a new ledger there records "
	    "a campaign");
	ok(there("-wal"), "in its WAL");
	sqlite3_close(early);
	ok(there("") && there("-wal") && there("-shm"),
	    "the early handle's close removes nothing of the new ledger");
	is_int(campaigns(), 1, "whose campaign is read");
	ledger_close(l);
	unlink(path);

	/* Another writer has it open: kept, and that writer's record too. */
	l = ledger_tmp_open_file(path, 0);
	other = ledger_tmp_open_file(path, 0);
	is_int(ledger_discard(l), 0, "a ledger another writer has open stays");
	ok(there(""), "its file is there");
	ok(ledger_tmp_campaign(other, "late", 1) > 0,
	    "the other writer records a campaign in it");
	ledger_close(other);
	is_int(campaigns(), 1, "and it is in the ledger at the path");

	/* Holding a campaign: kept, even by the handle that created it. */
	unlink(path);
	l = ledger_tmp_open_file(path, 0);
	other = ledger_tmp_open_file(path, 0);
	ok(ledger_tmp_campaign(other, "c", 1) > 0, "a campaign is recorded");
	ledger_close(other);
	is_int(ledger_discard(l), 0, "a ledger holding a campaign stays");
	is_int(campaigns(), 1, "with its campaign");
	l = ledger_tmp_open_file(path, 0);
	is_int(ledger_discard(l), 0, "so does it for a handle that did not "
	    "create it");
	is_int(campaigns(), 1, "still with its campaign");

	/* A reader has it open: kept. */
	unlink(path);
	l = ledger_tmp_open_file(path, 0);
	other = ledger_tmp_open_file(path, LEDGER_READONLY);
	is_int(ledger_discard(l), 0, "a ledger a reader has open stays");
	ledger_close(other);

	/* Empty, but there before this handle opened it: kept. */
	l = ledger_tmp_open_file(path, 0);
	is_int(ledger_discard(l), 0, "an empty ledger that was there stays");
	ok(there(""), "its file is there");
	is_int(campaigns(), 0, "and it reads as a ledger");

	ledger_tmp_remove(dir);
	return tap_done();
}
