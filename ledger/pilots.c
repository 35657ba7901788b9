/*
 * pilots.c: the pilots table, one row per pilot allocation of a campaign
 * run with "dispatch": "pilot" (see schema.c and hpod-ledger(5)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* Record a pilot job handed to its backend. */
int
ledger_pilot_submitted(struct ledger *l, int64_t campaign_id,
    const char *token, const char *dir, double when)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PILOT_SUBMITTED, "INSERT INTO pilots"
	    " (campaign_id, token, dir, submitted) VALUES (?1, ?2, ?3, ?4)")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_text(l, st, 2, token);
	ledger_bind_text(l, st, 3, dir);
	ledger_bind_time(l, st, 4, when);
	return ledger_exec_one(l, st, "record pilot %s", token);
}

/* Record that a pilot started: its job id, allocation and host. */
int
ledger_pilot_started(struct ledger *l, const char *token, const char *job_id,
    double when, int nodes, int gpus, int cpus, const char *host)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PILOT_STARTED, "UPDATE pilots"
	    " SET job_id = COALESCE(?2, job_id), started = ?3, nodes = ?4,"
	    " gpus = ?5, cpus = ?6, host = COALESCE(?7, host)"
	    " WHERE token = ?1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, token);
	ledger_bind_start(l, st, job_id, when, nodes, gpus, cpus, host);
	return ledger_exec_one(l, st, "record start of pilot %s", token);
}

/*
 * Record how a pilot ended (and when it started, if known better now),
 * and the seconds its job was suspended, which its bill leaves out.
 */
int
ledger_pilot_ended(struct ledger *l, const char *token, double started,
    double when, const char *state, double suspended)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PILOT_ENDED, "UPDATE pilots"
	    " SET ended = ?2, state = ?3, started = coalesce(?4, started),"
	    " suspended = nullif(?5, 0), suspended_at = NULL"
	    " WHERE token = ?1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, token);
	ledger_bind_time(l, st, 2, when);
	ledger_bind_text(l, st, 3, state);
	ledger_bind_time(l, st, 4, started);
	ledger_bind_double(l, st, 5, suspended > 0 ? suspended : 0);
	return ledger_exec_one(l, st, "record end of pilot %s", token);
}

/*
 * Record, while a pilot runs, the seconds its job was suspended before
 * and since when it is suspended again (0: it runs): its run time, and
 * so its idle time, stops there until it is resumed.
 */
int
ledger_pilot_suspended(struct ledger *l, const char *token, double seconds,
    double since)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PILOT_SUSPENDED, "UPDATE pilots"
	    " SET suspended = nullif(?2, 0), suspended_at = nullif(?3, 0)"
	    " WHERE token = ?1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, token);
	ledger_bind_double(l, st, 2, seconds > 0 ? seconds : 0);
	ledger_bind_double(l, st, 3, since > 0 ? since : 0);
	return ledger_exec_one(l, st, "record suspension of pilot %s", token);
}

static void
pilot_row_release(void *row)
{
	struct ledger_pilot *p = row;

	free(p->token);
	free(p->job_id);
	free(p->dir);
	memset(p, 0, sizeof(*p));
}

static int
pilot_row_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_pilot *p = row;

	memset(p, 0, sizeof(*p));
	p->started = sqlite3_column_double(st, 3);
	p->seq = sqlite3_column_int(st, 4);
	p->busy_node_s = sqlite3_column_double(st, 5);
	p->busy_gpu_s = sqlite3_column_double(st, 6);
	p->suspended = sqlite3_column_double(st, 12);
	p->suspended_at = sqlite3_column_double(st, 13);
	p->nodes = sqlite3_column_int(st, 8);
	p->gpus = sqlite3_column_int(st, 9);
	p->idle_node_s = fmax(sqlite3_column_double(st, 7) *
	    sqlite3_column_int(st, 8) - sqlite3_column_double(st, 10), 0);
	p->idle_gpu_s = fmax(sqlite3_column_double(st, 7) *
	    sqlite3_column_int(st, 9) - sqlite3_column_double(st, 11), 0);
	if (ledger_column_str(st, 0, &p->token) == -1 ||
	    ledger_column_str(st, 1, &p->job_id) == -1 ||
	    ledger_column_str(st, 2, &p->dir) == -1) {
		pilot_row_release(p);
		return ledger_errorf(l, "read pilot: out of memory");
	}
	return 0;
}

static const struct ledger_rowtype pilot_row = {
	sizeof(struct ledger_pilot), pilot_row_read, pilot_row_release
};

/*
 * The campaign's pilots not yet ended, with the largest N of the job ids
 * PILOT.pN their attempts recorded (not their count: an id handed out
 * whose record a crash lost leaves a gap, and the count would hand out
 * the largest recorded one again), what those that ended were charged,
 * each pilot's idle time at now as account_pilots() counts it (its
 * running attempts charged to now), and its suspension as last recorded.
 */
int
ledger_pilot_list(struct ledger *l, int64_t campaign_id, double now,
    struct ledger_pilot **out, size_t *n)
{
	sqlite3_stmt	*st;
	void		*list;
	int		 rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_PILOT_LIST, "SELECT p.token, p.job_id,"
	    " p.dir, coalesce(p.started, 0),"
	    " coalesce(max(CAST(substr(a.job_id, length(p.job_id) + 3)"
	    "   AS INTEGER)), 0),"
	    " total(CASE WHEN a.ended > 0 THEN"
	    "   " ACCT_ELAPSED " * " ACCT_NODES " END),"
	    " total(CASE WHEN a.ended > 0 THEN"
	    "   " ACCT_ELAPSED " * a.gpus END),"
	    " " ACCT_PILOT_ELAPSED ","
	    " coalesce(p.nodes, 0), coalesce(p.gpus, 0),"
	    " total(" ACCT_ELAPSED " * " ACCT_NODES "),"
	    " total(" ACCT_ELAPSED " * a.gpus),"
	    " coalesce(p.suspended, 0), coalesce(p.suspended_at, 0)"
	    " FROM pilots p LEFT JOIN attempts a ON p.job_id IS NOT NULL"
	    "   AND substr(a.job_id, 1, length(p.job_id) + 2) = p.job_id || '.p'"
	    "   AND a.trial_id IN (SELECT id FROM trials WHERE campaign_id = ?1)"
	    " WHERE p.campaign_id = ?1 AND p.ended IS NULL"
	    " GROUP BY p.id ORDER BY p.id")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_double(l, st, 2, now);
	rc = ledger_list(l, st, &pilot_row, &list, n,
	    "list pilots of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}

void
ledger_pilot_list_free(struct ledger_pilot *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		pilot_row_release(&list[i]);
	free(list);
}
