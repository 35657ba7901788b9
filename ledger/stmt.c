/*
 * stmt.c: the ledger's cache of prepared statements and the helpers that
 * bind, step and read them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>

#include "ledger_int.h"

/* Return cached statement id, preparing it from sql on first use. */
sqlite3_stmt *
ledger_stmt(struct ledger *l, enum ledger_sql id, const char *sql)
{
	sqlite3_stmt *st;

	l->bind_rc = SQLITE_OK;
	if ((st = l->stmt[id]) != NULL) {
		ledger_stmt_done(st);
		return st;
	}
	if (sqlite3_prepare_v3(l->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
	    &l->stmt[id], NULL) != SQLITE_OK) {
		ledger_fail(l, "prepare statement %d", (int)id);
		return NULL;
	}
	return l->stmt[id];
}

/*
 * Reset a statement after use so that it holds no lock and no pointer.
 * What sqlite3_reset() returns repeats the error of the last step, which
 * its caller has already taken; sqlite3_clear_bindings() cannot fail.
 */
void
ledger_stmt_done(sqlite3_stmt *st)
{
	(void)sqlite3_reset(st);
	(void)sqlite3_clear_bindings(st);
}

/* Step st, unless one of its binds failed: then return that error. */
int
ledger_step(struct ledger *l, sqlite3_stmt *st)
{
	if (l->bind_rc != SQLITE_OK)
		return l->bind_rc;
	return sqlite3_step(st);
}

/*
 * Step st, which returns no row, to its end; one: fail unless it changed
 * exactly one row.  A failed write names the ledger and what failed (fmt).
 */
int
ledger_exec_rows(struct ledger *l, sqlite3_stmt *st, int one,
    const char *fmt, ...)
{
	va_list ap;
	char what[256];
	int rc, failed, missing;

	rc = ledger_step(l, st);
	failed = rc != SQLITE_DONE && (one || rc != SQLITE_ROW);
	missing = !failed && one && sqlite3_changes(l->db) != 1;
	if (failed || missing) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
	}
	if (failed)
		ledger_fail(l, "ledger '%s': %s", ledger_path(l), what);
	else if (missing)
		ledger_errorf(l, "ledger '%s': %s: not found", ledger_path(l),
		    what);
	ledger_stmt_done(st);
	return failed || missing ? -1 : 0;
}

/* Keep the first failed bind of the statement being set up. */
static void
ledger_bound(struct ledger *l, int i, int rc)
{
	if (rc != SQLITE_OK && l->bind_rc == SQLITE_OK) {
		l->bind_rc = rc;
		l->bind_index = i;
	}
}

/* Bind an int to parameter i. */
void
ledger_bind_int(struct ledger *l, sqlite3_stmt *st, int i, int v)
{
	ledger_bound(l, i, sqlite3_bind_int(st, i, v));
}

/* Bind a 64-bit int to parameter i. */
void
ledger_bind_int64(struct ledger *l, sqlite3_stmt *st, int i, int64_t v)
{
	ledger_bound(l, i, sqlite3_bind_int64(st, i, v));
}

/* Bind a double to parameter i. */
void
ledger_bind_double(struct ledger *l, sqlite3_stmt *st, int i, double v)
{
	ledger_bound(l, i, sqlite3_bind_double(st, i, v));
}

/* Bind s as text, or NULL; s must live until the statement is done. */
void
ledger_bind_text(struct ledger *l, sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		ledger_bound(l, i, sqlite3_bind_null(st, i));
	else
		ledger_bound(l, i, sqlite3_bind_text(st, i, s, -1,
		    SQLITE_STATIC));
}

/* Bind a time, storing 0 ("not yet") as NULL. */
void
ledger_bind_time(struct ledger *l, sqlite3_stmt *st, int i, double t)
{
	if (t == 0)
		ledger_bound(l, i, sqlite3_bind_null(st, i));
	else
		ledger_bound(l, i, sqlite3_bind_double(st, i, t));
}

/*
 * Bind a start as attempts and pilots record it: the job id, the time,
 * the allocation (nodes, GPUs, CPUs) and the host, as parameters 2 to 7.
 */
void
ledger_bind_start(struct ledger *l, sqlite3_stmt *st, const char *job_id,
    double when, int nodes, int gpus, int cpus, const char *host)
{
	ledger_bind_text(l, st, 2, job_id);
	ledger_bind_time(l, st, 3, when);
	ledger_bind_int(l, st, 4, nodes);
	ledger_bind_int(l, st, 5, gpus);
	ledger_bind_int(l, st, 6, cpus);
	ledger_bind_text(l, st, 7, host);
}

/* Copy text column i into *out (NULL stays NULL); -1 when out of memory. */
int
ledger_column_str(sqlite3_stmt *st, int i, char **out)
{
	const unsigned char *s;

	*out = NULL;
	if ((s = sqlite3_column_text(st, i)) == NULL)
		return sqlite3_column_type(st, i) == SQLITE_NULL ? 0 : -1;
	if ((*out = strdup((const char *)s)) == NULL)
		return -1;
	return 0;
}

/* Make room in *arr (of *cap elements of size) for element n. */
int
ledger_grow(struct ledger *l, void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > SIZE_MAX / size)
		return ledger_errorf(l, "list too long");
	if ((p = reallocarray(*arr, ncap, size)) == NULL)
		return ledger_errorf(l, "out of memory");
	memset((char *)p + *cap * size, 0, (ncap - *cap) * size);
	*arr = p;
	*cap = ncap;
	return 0;
}
