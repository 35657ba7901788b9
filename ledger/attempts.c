/*
 * attempts.c: the attempts table, one row per submission of a trial.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* Free the strings of an attempt and clear it. */
void
ledger_attempt_release(struct ledger_attempt *a)
{
	if (a == NULL)
		return;
	free(a->token);
	free(a->job_id);
	free(a->dir);
	free(a->state);
	free(a->host);
	free(a->reason);
	free(a->pending_reason);
	memset(a, 0, sizeof(*a));
}

/* Free a list of attempts. */
void
ledger_attempt_list_free(struct ledger_attempt *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ledger_attempt_release(&list[i]);
	free(list);
}

/* Insert attempt a in state "submitting"; the new id in *id. */
int
ledger_attempt_insert(struct ledger *l, const struct ledger_attempt *a,
    int64_t *id)
{
	sqlite3_stmt *st;

	if (a->token == NULL || a->dir == NULL || a->created == 0)
		return ledger_errorf(l, "insert attempt: token, dir and"
		    " created must be set");
	if ((st = ledger_stmt(l, LQ_ATTEMPT_INSERT, "INSERT INTO attempts"
	    " (trial_id, number, token, job_id, dir, state, created,"
	    " nodes, gpus, cpus, host)"
	    " VALUES (?, ?, ?, ?, ?, 'submitting', ?, ?, ?, ?, ?)")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, a->trial_id);
	ledger_bind_int(l, st, 2, a->number);
	ledger_bind_text(l, st, 3, a->token);
	ledger_bind_text(l, st, 4, a->job_id);
	ledger_bind_text(l, st, 5, a->dir);
	ledger_bind_time(l, st, 6, a->created);
	ledger_bind_int(l, st, 7, a->nodes);
	ledger_bind_int(l, st, 8, a->gpus);
	ledger_bind_int(l, st, 9, a->cpus);
	ledger_bind_text(l, st, 10, a->host);
	if (ledger_exec(l, st, "insert attempt '%s'", a->token) == -1)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(l->db);
	return 0;
}

/* Record that the backend accepted the attempt as job job_id. */
int
ledger_attempt_submitted(struct ledger *l, int64_t id, const char *job_id,
    double when)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_SUBMITTED, "UPDATE attempts"
	    " SET job_id = ?2, submitted = ?3,"
	    " state = CASE state WHEN 'submitting' THEN 'pending' ELSE state"
	    " END WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, job_id);
	ledger_bind_time(l, st, 3, when);
	return ledger_exec_one(l, st, "record submission of attempt id %lld",
	    (long long)id);
}

/* Record when the attempt could first start (a dependency met). */
int
ledger_attempt_eligible(struct ledger *l, int64_t id, double when)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_ELIGIBLE, "UPDATE attempts"
	    " SET eligible = ?2 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_time(l, st, 2, when);
	return ledger_exec_one(l, st, "record eligible time of attempt id %lld",
	    (long long)id);
}

/* Record the attempt that this one is queued behind. */
int
ledger_attempt_chained(struct ledger *l, int64_t id, int64_t after_id)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_CHAINED, "UPDATE attempts"
	    " SET after_id = ?2 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_int64(l, st, 2, after_id);
	return ledger_exec_one(l, st, "record the lane of attempt id %lld",
	    (long long)id);
}

/* Record that the attempt started running with its allocation. */
int
ledger_attempt_started(struct ledger *l, int64_t id, const char *job_id,
    double when, int nodes, int gpus, int cpus, double node_share,
    const char *host)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_STARTED, "UPDATE attempts"
	    " SET job_id = COALESCE(?2, job_id), started = ?3, nodes = ?4,"
	    " gpus = ?5, cpus = ?6, host = COALESCE(?7, host), node_share = ?8,"
	    " state = CASE WHEN ended IS NULL THEN 'running' ELSE state END,"
	    " pending_reason = NULL WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_start(l, st, job_id, when, nodes, gpus, cpus, host);
	if (node_share > 0)
		ledger_bind_double(l, st, 8, node_share);
	return ledger_exec_one(l, st, "record start of attempt id %lld",
	    (long long)id);
}

/* Record how the attempt ended; exit_code -1 means unknown. */
int
ledger_attempt_finished(struct ledger *l, int64_t id, const char *state,
    double when, int exit_code, int signal, const char *reason)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_FINISHED, "UPDATE attempts"
	    " SET state = ?2, ended = ?3, exit_code = ?4, signal = ?5,"
	    " reason = ?6 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, state);
	ledger_bind_time(l, st, 3, when);
	if (exit_code != -1)
		ledger_bind_int(l, st, 4, exit_code);
	ledger_bind_int(l, st, 5, signal);
	ledger_bind_text(l, st, 6, reason);
	return ledger_exec_one(l, st, "record end of attempt id %lld",
	    (long long)id);
}

/*
 * Record that the attempt's job was suspended for `seconds` of its run
 * (Slurm's scontrol suspend), which ACCT_ELAPSED does not bill, and, while
 * it runs, since when it is suspended again (0: it runs): its run time
 * stops there until it is resumed.
 */
int
ledger_attempt_suspended(struct ledger *l, int64_t id, double seconds,
    double since)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_SUSPENDED, "UPDATE attempts"
	    " SET suspended = nullif(?2, 0), suspended_at = nullif(?3, 0)"
	    " WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_double(l, st, 2, seconds > 0 ? seconds : 0);
	ledger_bind_double(l, st, 3, since > 0 ? since : 0);
	return ledger_exec_one(l, st, "record suspended time of attempt id"
	    " %lld", (long long)id);
}

/* Record the attempt's run_start; a later one (a re-read log) changes none. */
int
ledger_attempt_run_start(struct ledger *l, int64_t id, double when)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_RUN_START, "UPDATE attempts"
	    " SET run_start = ?2 WHERE id = ?1 AND run_start IS NULL")) ==
	    NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_double(l, st, 2, when);
	return ledger_exec(l, st, "record run_start of attempt id %lld",
	    (long long)id);
}

/*
 * Record why the attempt's job waits (NULL: for nothing known), unless
 * it has started: its start cleared the reason for good.
 */
int
ledger_attempt_pending(struct ledger *l, int64_t id, const char *reason)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_ATTEMPT_PENDING, "UPDATE attempts"
	    " SET pending_reason = ?2 WHERE id = ?1 AND started IS NULL")) ==
	    NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, reason);
	return ledger_exec(l, st, "record pending reason of attempt id %lld",
	    (long long)id);
}

/* Read a row of the attempt list into row, a struct ledger_attempt. */
static int
attempt_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_attempt *a = row;

	memset(a, 0, sizeof(*a));
	a->id = sqlite3_column_int64(st, 0);
	a->trial_id = sqlite3_column_int64(st, 1);
	a->trial_number = sqlite3_column_int(st, 2);
	a->number = sqlite3_column_int(st, 3);
	a->created = sqlite3_column_double(st, 8);
	a->submitted = sqlite3_column_double(st, 9);
	a->started = sqlite3_column_double(st, 10);
	a->ended = sqlite3_column_double(st, 11);
	a->nodes = sqlite3_column_int(st, 12);
	a->gpus = sqlite3_column_int(st, 13);
	a->cpus = sqlite3_column_int(st, 14);
	a->node_share = sqlite3_column_double(st, 19);
	a->eligible = sqlite3_column_double(st, 20);
	a->after_id = sqlite3_column_int64(st, 21);
	a->suspended = sqlite3_column_double(st, 22);
	a->suspended_at = sqlite3_column_double(st, 23);
	a->run_start = sqlite3_column_double(st, 24);
	a->exit_code = sqlite3_column_int(st, 16);
	a->signal = sqlite3_column_int(st, 17);
	if (ledger_column_str(st, 4, &a->token) == -1 ||
	    ledger_column_str(st, 5, &a->job_id) == -1 ||
	    ledger_column_str(st, 6, &a->dir) == -1 ||
	    ledger_column_str(st, 7, &a->state) == -1 ||
	    ledger_column_str(st, 15, &a->host) == -1 ||
	    ledger_column_str(st, 18, &a->reason) == -1 ||
	    ledger_column_str(st, 25, &a->pending_reason) == -1) {
		ledger_attempt_release(a);
		return ledger_errorf(l, "read attempt: out of memory");
	}
	return 0;
}

/* Free the strings of row, a struct ledger_attempt. */
static void
attempt_row_release(void *row)
{
	ledger_attempt_release(row);
}

static const struct ledger_rowtype attempt_row = {
	sizeof(struct ledger_attempt), attempt_read, attempt_row_release
};

/* A campaign's attempts by trial and attempt number, or its unended ones. */
int
ledger_attempt_list(struct ledger *l, int64_t campaign_id,
    int unfinished_only, struct ledger_attempt **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list;
	int rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_ATTEMPT_LIST, "SELECT a.id, a.trial_id,"
	    " t.number, a.number, a.token, a.job_id, a.dir, a.state,"
	    " a.created, a.submitted, a.started, a.ended, a.nodes, a.gpus,"
	    " a.cpus, a.host, COALESCE(a.exit_code, -1), a.signal, a.reason,"
	    " " ACCT_NODES ", a.eligible, a.after_id, a.suspended,"
	    " a.suspended_at, a.run_start, a.pending_reason"
	    " FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    " WHERE t.campaign_id = ?1"
	    " AND (NOT ?2 OR COALESCE(a.ended, 0) = 0)"
	    " ORDER BY t.number, a.number")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_int(l, st, 2, unfinished_only != 0);
	rc = ledger_list(l, st, &attempt_row, &list, n,
	    "list attempts of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}
