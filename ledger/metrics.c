/*
 * metrics.c: metric points of attempts, and the event log.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledger_int.h"

/* Free a list of metric points. */
void
ledger_metric_list_free(struct ledger_metric *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i].key);
	free(list);
}

/* Record one metric point; a repeated (attempt, key, step) is ignored. */
int
ledger_metric_insert(struct ledger *l, int64_t attempt_id, double step,
    const char *key, double value, double time)
{
	return ledger_metric_insert_as(l, attempt_id, step, key, value, time,
	    0);
}

/* Record one metric point, late if so (metrics.late). */
int
ledger_metric_insert_as(struct ledger *l, int64_t attempt_id, double step,
    const char *key, double value, double time, int late)
{
	sqlite3_stmt *st;

	if (key == NULL)
		return ledger_errorf(l, "insert metric of attempt id %lld:"
		    " no key", (long long)attempt_id);
	if ((st = ledger_stmt(l, LQ_METRIC_INSERT, "INSERT INTO metrics"
	    " (attempt_id, step, key, value, time, late)"
	    " VALUES (?, ?, ?, ?, ?, nullif(?, 0))"
	    " ON CONFLICT (attempt_id, key, step) DO NOTHING")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, attempt_id);
	ledger_bind_double(l, st, 2, step);
	ledger_bind_text(l, st, 3, key);
	ledger_bind_double(l, st, 4, value);
	ledger_bind_time(l, st, 5, time);
	ledger_bind_int(l, st, 6, late != 0);
	return ledger_exec(l, st, "insert metric '%s' of attempt id %lld", key,
	    (long long)attempt_id);
}

/*
 * The value recorded at (attempt, key, step) into *value: 1, 0 when there
 * is none, -1 on error.
 */
int
ledger_metric_get(struct ledger *l, int64_t attempt_id, const char *key,
    double step, double *value)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = ledger_stmt(l, LQ_METRIC_GET, "SELECT value FROM metrics"
	    " WHERE attempt_id = ? AND key = ? AND step = ?")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, attempt_id);
	ledger_bind_text(l, st, 2, key);
	ledger_bind_double(l, st, 3, step);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		*value = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(st, 0);
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = ledger_fail(l, "read metric '%s' of attempt id %lld", key,
		    (long long)attempt_id);
	ledger_stmt_done(st);
	return rc;
}

/* Set the value and time of the point at (attempt, key, step). */
int
ledger_metric_set(struct ledger *l, int64_t attempt_id, const char *key,
    double step, double value, double time)
{
	sqlite3_stmt	*st;

	if ((st = ledger_stmt(l, LQ_METRIC_SET, "UPDATE metrics SET value = ?,"
	    " time = ? WHERE attempt_id = ? AND key = ? AND step = ?")) == NULL)
		return -1;
	ledger_bind_double(l, st, 1, value);
	ledger_bind_time(l, st, 2, time);
	ledger_bind_int64(l, st, 3, attempt_id);
	ledger_bind_text(l, st, 4, key);
	ledger_bind_double(l, st, 5, step);
	return ledger_exec(l, st, "set metric '%s' of attempt id %lld", key,
	    (long long)attempt_id);
}

/* Read a row of the metric list into row; a NULL value was a NaN. */
static int
metric_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_metric *m = row;

	memset(m, 0, sizeof(*m));
	m->attempt_id = sqlite3_column_int64(st, 0);
	m->trial_number = sqlite3_column_int(st, 1);
	m->step = sqlite3_column_double(st, 2);
	if (sqlite3_column_type(st, 4) == SQLITE_NULL)
		m->value = NAN;
	else
		m->value = sqlite3_column_double(st, 4);
	m->time = sqlite3_column_double(st, 5);
	m->late = sqlite3_column_int(st, 6) != 0;
	if (ledger_column_str(st, 3, &m->key) == -1)
		return ledger_errorf(l, "read metric: out of memory");
	return 0;
}

/* Free the key of row, a struct ledger_metric. */
static void
metric_row_release(void *row)
{
	struct ledger_metric *m = row;

	free(m->key);
}

static const struct ledger_rowtype metric_row = {
	sizeof(struct ledger_metric), metric_read, metric_row_release
};

/* Points of a campaign for one key (NULL: all), by trial, attempt, step. */
int
ledger_metric_list(struct ledger *l, int64_t campaign_id, const char *key,
    struct ledger_metric **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list;
	int rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_METRIC_LIST, "SELECT m.attempt_id,"
	    " t.number, m.step, m.key, m.value, m.time, m.late"
	    " FROM metrics m JOIN attempts a ON a.id = m.attempt_id"
	    " JOIN trials t ON t.id = a.trial_id"
	    " WHERE t.campaign_id = ?1 AND (?2 IS NULL OR m.key = ?2)"
	    " ORDER BY t.number, a.number, m.step, m.key")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_text(l, st, 2, key);
	rc = ledger_list(l, st, &metric_row, &list, n,
	    "list metrics of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}

/* Append an event, stamped with the current time, to the event log. */
int
ledger_event(struct ledger *l, int64_t campaign_id, const char *kind,
    const char *message)
{
	return ledger_event_trial(l, campaign_id, kind, -1, message);
}

/* Append an event about trial number trial (-1: none) to the event log. */
int
ledger_event_trial(struct ledger *l, int64_t campaign_id, const char *kind,
    int trial, const char *message)
{
	struct timespec ts;
	sqlite3_stmt *st;

	clock_gettime(CLOCK_REALTIME, &ts);
	if ((st = ledger_stmt(l, LQ_EVENT_INSERT, "INSERT INTO events"
	    " (campaign_id, time, kind, message, trial)"
	    " VALUES (?, ?, ?, ?, ?)")) == NULL)
		return -1;
	if (campaign_id != 0)
		ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_double(l, st, 2, ts.tv_sec + ts.tv_nsec / 1e9);
	ledger_bind_text(l, st, 3, kind);
	ledger_bind_text(l, st, 4, message);
	if (trial >= 0)
		ledger_bind_int64(l, st, 5, trial);
	return ledger_exec(l, st, "log event '%s'", kind ? kind : "");
}

/*
 * Call fn(arg, trial, message) for each event of kind in campaign_id's
 * log, oldest first (trial -1 for one about no trial, message "" for
 * none); fn must not use the ledger.  0, or -1 on error.
 */
int
ledger_event_each(struct ledger *l, int64_t campaign_id, const char *kind,
    void (*fn)(void *, int, const char *), void *arg)
{
	sqlite3_stmt	*st;
	const char	*msg;
	int		 rc;

	if ((st = ledger_stmt(l, LQ_EVENT_EACH, "SELECT trial, message"
	    " FROM events WHERE campaign_id = ? AND kind = ? ORDER BY id"))
	    == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_text(l, st, 2, kind);
	while ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		msg = (const char *)sqlite3_column_text(st, 1);
		fn(arg, sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 0), msg != NULL ? msg : "");
	}
	if (rc != SQLITE_DONE)
		ledger_fail(l, "read '%s' events of campaign %lld", kind,
		    (long long)campaign_id);
	ledger_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : -1;
}
