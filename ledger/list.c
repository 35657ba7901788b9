/*
 * list.c: the one row reader behind the ledger's lists and single-row
 * lookups: step a statement, read each row with its row type into an
 * array that grows, and on any failure free the rows read so far.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ledger_int.h"

/* Release the n rows of list, then list itself. */
static void
ledger_rows_free(const struct ledger_rowtype *type, void *list, size_t n)
{
	size_t i;

	if (type->release != NULL)
		for (i = 0; i < n; i++)
			type->release((char *)list + i * type->size);
	free(list);
}

/*
 * Read every row st yields into *out (*n rows of type), then reset st.
 * On failure set the error, say what failed as fmt when SQLite did, and
 * leave *out NULL and *n 0.
 */
int
ledger_list(struct ledger *l, sqlite3_stmt *st,
    const struct ledger_rowtype *type, void **out, size_t *n,
    const char *fmt, ...)
{
	va_list ap;
	char what[256];
	void *list = NULL;
	size_t cap = 0, len = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		if (ledger_grow(l, &list, &cap, len, type->size) == -1 ||
		    type->read(l, st, (char *)list + len * type->size) == -1)
			break;
		len++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		ledger_fail(l, "%s", what);
	}
	ledger_stmt_done(st);
	if (rc != SQLITE_DONE) {
		ledger_rows_free(type, list, len);
		return -1;
	}
	*out = list;
	*n = len;
	return 0;
}

/*
 * Read the row st yields, if any, into row, then reset st: 0 when it
 * yielded one, 1 when none, -1 on failure (saying what failed as fmt).
 */
int
ledger_one(struct ledger *l, sqlite3_stmt *st,
    const struct ledger_rowtype *type, void *row, const char *fmt, ...)
{
	va_list ap;
	char what[256];
	int rc, ret;

	rc = ledger_step(l, st);
	if (rc == SQLITE_ROW)
		ret = type->read(l, st, row);
	else if (rc == SQLITE_DONE)
		ret = 1;
	else {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		ret = ledger_fail(l, "%s", what);
	}
	ledger_stmt_done(st);
	return ret;
}
