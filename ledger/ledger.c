/*
 * ledger.c: opening, migrating and closing the ledger, its errors and its
 * transactions.  The statement cache is in stmt.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger_int.h"

#define LEDGER_BUSY_MS	5000

/* Format a message into the handle's error buffer and return -1. */
int
ledger_errorf(struct ledger *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Like ledger_errorf(), followed by ": " and why SQLite failed: the bind
 * that failed since ledger_stmt(), if one did, else its last message.
 */
int
ledger_fail(struct ledger *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(l->err)) {
		if (l->bind_rc != SQLITE_OK)
			snprintf(l->err + n, sizeof(l->err) - n,
			    ": bind parameter %d: %s", l->bind_index,
			    sqlite3_errstr(l->bind_rc));
		else
			snprintf(l->err + n, sizeof(l->err) - n, ": %s",
			    sqlite3_errmsg(l->db));
	}
	l->bind_rc = SQLITE_OK;
	return -1;
}

/* The file the ledger is in. */
const char *
ledger_path(struct ledger *l)
{
	return sqlite3_db_filename(l->db, "main");
}

/* The last error message of this handle. */
const char *
ledger_error(const struct ledger *l)
{
	return l->err;
}

/*
 * Open a read transaction unless one is already open, so that several
 * queries see one snapshot; *opened says whether ledger_read_end() ends it.
 */
int
ledger_read_begin(struct ledger *l, int *opened)
{
	*opened = 0;
	if (!sqlite3_get_autocommit(l->db))
		return 0;
	if (sqlite3_exec(l->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return ledger_fail(l, "begin read");
	*opened = 1;
	return 0;
}

/*
 * End the read transaction ledger_read_begin() opened, if it did; one left
 * open would hold its snapshot and keep the WAL from being checkpointed.
 */
int
ledger_read_end(struct ledger *l, int opened)
{
	if (opened && sqlite3_exec(l->db, "COMMIT", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return ledger_fail(l, "end read");
	return 0;
}

/* Run one cached transaction-control statement. */
int
ledger_control(struct ledger *l, enum ledger_sql id, const char *sql,
    const char *what)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, id, sql)) == NULL)
		return -1;
	return ledger_exec(l, st, "%s", what);
}

/*
 * Begin a write transaction, taking the write lock now; inside a batch
 * (batch.c), a savepoint, so that the change is still all or nothing.
 */
int
ledger_begin(struct ledger *l)
{
	if (!l->batch)
		return ledger_control(l, LQ_BEGIN, "BEGIN IMMEDIATE", "begin");
	if (ledger_control(l, LQ_SAVEPOINT, "SAVEPOINT nest", "begin") == -1)
		return -1;
	l->nest++;
	return 0;
}

/* Commit the current transaction, or release the batch's savepoint. */
int
ledger_commit(struct ledger *l)
{
	if (l->nest == 0)
		return ledger_control(l, LQ_COMMIT, "COMMIT", "commit");
	l->nest--;
	return ledger_control(l, LQ_RELEASE, "RELEASE nest", "commit");
}

/* Roll the current transaction back, or the batch's savepoint only. */
int
ledger_rollback(struct ledger *l)
{
	if (l->nest == 0)
		return ledger_control(l, LQ_ROLLBACK, "ROLLBACK", "rollback");
	l->nest--;
	if (ledger_control(l, LQ_ROLLBACK_TO, "ROLLBACK TO nest", "rollback")
	    == -1)
		return -1;
	return ledger_control(l, LQ_RELEASE, "RELEASE nest", "rollback");
}

/* The schema version of the open ledger, or -1. */
int
ledger_schema_version(struct ledger *l)
{
	sqlite3_stmt *st;
	int v = -1;

	if ((st = ledger_stmt(l, LQ_USER_VERSION, "PRAGMA user_version")) ==
	    NULL)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	else
		ledger_fail(l, "read schema version");
	ledger_stmt_done(st);
	return v;
}

/*
 * Close the ledger, finalizing every cached statement.  What finalize
 * returns repeats the last step's error, already taken; close fails only
 * while a statement is left unfinalized, and none is.
 */
void
ledger_close(struct ledger *l)
{
	int i;

	if (l == NULL)
		return;
	/* What a batch holds was written: keep it. */
	ledger_batch_flush(l);
	for (i = 0; i < LQ_COUNT; i++)
		(void)sqlite3_finalize(l->stmt[i]);
	(void)sqlite3_close(l->db);
	free(l);
}

/* Run one SQL text that returns no rows; on error say what failed. */
static int
ledger_sql(struct ledger *l, const char *sql, const char *what)
{
	if (sqlite3_exec(l->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return ledger_fail(l, "%s", what);
	return 0;
}

/* Whether the database holds any table of its own (-1 on error). */
static int
ledger_has_tables(struct ledger *l)
{
	sqlite3_stmt *st;
	int rc, n = -1;

	if (sqlite3_prepare_v2(l->db, "SELECT count(*) FROM sqlite_master"
	    " WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
	    -1, &st, NULL) != SQLITE_OK)
		return ledger_fail(l, "read schema");
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0) > 0;
	else
		ledger_fail(l, "read schema");
	sqlite3_finalize(st);
	return n;
}

/*
 * Roll back the failed migration's transaction, if SQLite has not already;
 * if that fails too, add why to the error that made it roll back.
 */
static void
ledger_undo(struct ledger *l)
{
	size_t n;

	if (sqlite3_get_autocommit(l->db) ||
	    sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK)
		return;
	n = strlen(l->err);
	snprintf(l->err + n, sizeof(l->err) - n, "; rollback: %s",
	    sqlite3_errmsg(l->db));
}

/*
 * Bring the schema to the latest version inside one write transaction,
 * reading the version again under the lock in case another process has
 * just migrated it.
 */
static int
ledger_migrate(struct ledger *l)
{
	char sql[64];
	int v, latest = ledger_schema_latest();

	if (ledger_sql(l, "BEGIN IMMEDIATE", "begin migration") == -1)
		return -1;
	if ((v = ledger_schema_version(l)) == -1)
		goto fail;
	for (; v < latest; v++) {
		if (sqlite3_exec(l->db, ledger_migrations[v], NULL, NULL,
		    NULL) != SQLITE_OK) {
			ledger_fail(l, "migrate to schema version %d", v + 1);
			goto fail;
		}
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", latest);
	if (ledger_sql(l, sql, "set schema version") == -1 ||
	    ledger_sql(l, "COMMIT", "commit migration") == -1)
		goto fail;
	return 0;
fail:
	ledger_undo(l);
	return -1;
}

/* Switch a writable ledger to WAL and refuse one that cannot use it. */
static int
ledger_wal(struct ledger *l)
{
	sqlite3_stmt *st;
	const char *mode;
	int ok = 0;

	if (sqlite3_prepare_v2(l->db, "PRAGMA journal_mode = WAL", -1, &st,
	    NULL) != SQLITE_OK)
		return ledger_fail(l, "set journal mode");
	if (sqlite3_step(st) != SQLITE_ROW) {
		ledger_fail(l, "set journal mode");
		sqlite3_finalize(st);
		return -1;
	}
	mode = (const char *)sqlite3_column_text(st, 0);
	if (mode != NULL &&
	    (strcmp(mode, "wal") == 0 || strcmp(mode, "memory") == 0))
		ok = 1;
	else
		ledger_errorf(l, "set journal mode: got '%s', not 'wal'",
		    mode ? mode : "");
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

/*
 * A writer's file is still the one its path names: a refused run may have
 * removed the empty ledger it created (ledger_discard()) after this handle
 * opened it but before its first read, which waited for the discard's
 * lock.  Checked before WAL mode makes the handle use files beside the
 * path; -1 with moved set, and ledger_open() opens the path again.
 */
static int
ledger_unmoved(struct ledger *l)
{
	int moved = 0;

	if (sqlite3_file_control(l->db, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) != SQLITE_OK || !moved)
		return 0;
	l->moved = 1;
	return ledger_errorf(l, "removed while it was opened");
}

/* Set up an opened handle: pragmas, version checks, migrations. */
static int
ledger_setup(struct ledger *l)
{
	int v, latest = ledger_schema_latest(), tables;
	char sql[256];

	if (sqlite3_busy_timeout(l->db, LEDGER_BUSY_MS) != SQLITE_OK)
		return ledger_fail(l, "set busy timeout");
	if ((v = ledger_schema_version(l)) == -1)
		return -1;
	if (v > latest)
		return ledger_errorf(l, "schema version %d is newer than this"
		    " build knows (%d)", v, latest);
	if (v == 0) {
		if ((tables = ledger_has_tables(l)) == -1)
			return -1;
		if (tables || (l->flags & LEDGER_READONLY))
			return ledger_errorf(l, "not an hpod ledger");
	}
	if (ledger_sql(l, "PRAGMA foreign_keys = ON", "enable foreign keys")
	    == -1)
		return -1;
	/*
	 * A ledger read as it is, older than the attempts' node_share,
	 * eligible, after_id, suspended, suspended_at, run_start or
	 * pending_reason (schema.c, 5 -> 6 -> 7 -> 8, 9 -> 10 -> 11,
	 * 13 -> 14 -> 15): a view of its attempts in the connection's own
	 * temp schema, which names resolve first, reads each as charged its
	 * whole nodes, its queue wait from its submission, in a lane of its
	 * own and never suspended, as it was; its pilots (4 -> 5) as never
	 * suspended (10 -> 11), and not suspended now (11 -> 12); its
	 * attempts as logging no run_start (13 -> 14) and pending for no
	 * known reason (14 -> 15).
	 */
	if ((l->flags & LEDGER_READONLY) && v < 15) {
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW attempts AS"
		    " SELECT *%s%s%s%s%s%s, NULL AS pending_reason"
		    " FROM main.attempts",
		    v < 6 ? ", NULL AS node_share" : "",
		    v < 7 ? ", NULL AS eligible" : "",
		    v < 8 ? ", NULL AS after_id" : "",
		    v < 10 ? ", NULL AS suspended" : "",
		    v < 11 ? ", NULL AS suspended_at" : "",
		    v < 14 ? ", NULL AS run_start" : "");
		if (ledger_sql(l, sql, "read attempts of an older schema")
		    == -1)
			return -1;
	}
	if ((l->flags & LEDGER_READONLY) && v >= 5 && v < 12) {
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW pilots AS"
		    " SELECT *%s, NULL AS suspended_at FROM main.pilots",
		    v < 11 ? ", NULL AS suspended" : "");
		if (ledger_sql(l, sql, "read pilots of an older schema")
		    == -1)
			return -1;
	}
	/* Its metrics (12 -> 13) as none late. */
	if ((l->flags & LEDGER_READONLY) && v < 13 && ledger_sql(l,
	    "CREATE TEMP VIEW metrics AS SELECT *, NULL AS late"
	    " FROM main.metrics", "read metrics of an older schema") == -1)
		return -1;
	if (l->flags & LEDGER_READONLY)
		return 0;
	/* SQLite falls back to reading a file it cannot write: refuse that. */
	if (sqlite3_db_readonly(l->db, "main") == 1)
		return ledger_errorf(l, "cannot be written (a read-only file)");
	if (ledger_unmoved(l) == -1)
		return -1;
	if (ledger_wal(l) == -1 ||
	    ledger_sql(l, "PRAGMA synchronous = NORMAL", "set synchronous")
	    == -1)
		return -1;
	return v < latest ? ledger_migrate(l) : 0;
}

/*
 * A writer needs the ledger and its directory (for the WAL and its index)
 * writable; say which is not, rather than SQLite's "unable to open".
 */
static int
ledger_writable(struct ledger *l, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (access(path, W_OK) == -1 && errno != ENOENT)
		return ledger_errorf(l, "cannot be written (%s)",
		    strerror(errno));
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
		    (int)(slash - path), path);
	if (access(dir, W_OK | X_OK) == -1)
		return ledger_errorf(l, "cannot be written: its directory "
		    "'%s': %s", dir, strerror(errno));
	return 0;
}

/*
 * A reader of a WAL ledger needs its -shm index, which it creates if none
 * is there: in a directory it cannot write (another user's ledger, a
 * read-only file system) that fails.  With no -wal file beside it the
 * ledger was closed cleanly and no writer has it open (a writer keeps its
 * -wal until it closes), so it is read as an immutable file instead.  1 if
 * l was reopened so and set up, 0 if that does not apply, -1 on error.
 */
static int
ledger_open_immutable(struct ledger *l, const char *path)
{
	char wal[4096], uri[3 * 4096 + 32], *u;
	const char *p;
	int i, rc = sqlite3_errcode(l->db);

	if (rc != SQLITE_CANTOPEN && rc != SQLITE_READONLY)
		return 0;
	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal)
	    || access(wal, F_OK) == 0 || errno != ENOENT)
		return 0;
	/* The path as a URI's: '%', '?' and '#' escaped. */
	u = uri + sprintf(uri, "file:");
	for (p = path; *p != '\0'; p++)
		u += strchr("%?#", *p) != NULL ?
		    sprintf(u, "%%%02X", (unsigned char)*p) :
		    sprintf(u, "%c", *p);
	sprintf(u, "?immutable=1");
	for (i = 0; i < LQ_COUNT; i++) {
		(void)sqlite3_finalize(l->stmt[i]);
		l->stmt[i] = NULL;
	}
	(void)sqlite3_close(l->db);
	l->db = NULL;
	if (sqlite3_open_v2(uri, &l->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI, NULL) != SQLITE_OK)
		return ledger_fail(l, "open");
	return ledger_setup(l) == 0 ? 1 : -1;
}

/*
 * SQLite says "unable to open database file" (or "disk I/O error") of a
 * file that is missing or a directory: add which.
 */
static void
ledger_why(struct ledger *l, const char *path)
{
	struct stat st;
	const char *why = NULL;
	size_t n = strlen(l->err);

	if (stat(path, &st) == -1)
		why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		why = "a directory";
	if (why != NULL && n < sizeof(l->err))
		snprintf(l->err + n, sizeof(l->err) - n, " (%s)", why);
}

/* Open (and create or migrate, unless read-only) the ledger at path. */
struct ledger *
ledger_open(const char *path, int flags, char *err, size_t errlen)
{
	struct ledger *l;
	int oflags, tries = 0, i;

	if ((l = calloc(1, sizeof(*l))) == NULL) {
		snprintf(err, errlen, "ledger '%s': out of memory", path);
		return NULL;
	}
	l->flags = flags;
	oflags = (flags & LEDGER_READONLY) ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (!(flags & LEDGER_READONLY) && ledger_writable(l, path) == -1)
		goto fail;
	/* A file removed under the open (ledger_unmoved()): open it again. */
	do {
		if (l->moved) {
			for (i = 0; i < LQ_COUNT; i++) {
				(void)sqlite3_finalize(l->stmt[i]);
				l->stmt[i] = NULL;
			}
			(void)sqlite3_close(l->db);
			l->db = NULL;
			l->moved = 0;
		}
		l->created = access(path, F_OK) == -1 && errno == ENOENT;
		if (sqlite3_open_v2(path, &l->db, oflags, NULL) != SQLITE_OK) {
			ledger_fail(l, "open");
			goto why;
		}
		if (ledger_setup(l) == 0)
			return l;
	} while (l->moved && ++tries < 8);
	if ((flags & LEDGER_READONLY) && strlen(path) <
	    4096 && ledger_open_immutable(l, path) == 1)
		return l;
why:
	ledger_why(l, path);
fail:
	snprintf(err, errlen, "ledger '%s': %s", path, l->err);
	ledger_close(l);
	return NULL;
}
