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

	if ((st = l->stmt[id]) != NULL) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	if (sqlite3_prepare_v3(l->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
	    &l->stmt[id], NULL) != SQLITE_OK) {
		ledger_fail(l, "prepare statement %d", (int)id);
		return NULL;
	}
	return l->stmt[id];
}

/* Reset a statement after use so that it holds no lock and no pointer. */
void
ledger_stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Step st, which returns no row, to its end; on error say what failed. */
int
ledger_exec(struct ledger *l, sqlite3_stmt *st, const char *fmt, ...)
{
	va_list ap;
	char what[256];
	int rc;

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		ledger_fail(l, "%s", what);
	}
	ledger_stmt_done(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Like ledger_exec(), but fail unless the statement changed one row. */
int
ledger_exec_one(struct ledger *l, sqlite3_stmt *st, const char *fmt, ...)
{
	va_list ap;
	char what[256];
	int rc, changed;

	rc = sqlite3_step(st);
	changed = rc == SQLITE_DONE ? sqlite3_changes(l->db) : 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (rc != SQLITE_DONE)
		ledger_fail(l, "%s", what);
	else if (changed != 1)
		ledger_errorf(l, "%s: not found", what);
	ledger_stmt_done(st);
	return rc == SQLITE_DONE && changed == 1 ? 0 : -1;
}

/* Bind s as text, or NULL; s must live until the statement is done. */
void
ledger_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

/* Bind a time, storing 0 ("not yet") as NULL. */
void
ledger_bind_time(sqlite3_stmt *st, int i, double t)
{
	if (t == 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, t);
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
