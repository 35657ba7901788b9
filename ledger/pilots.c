/*
 * pilots.c: the pilots table, one row per pilot allocation of a campaign
 * run with "dispatch": "pilot" (see schema.c and hpod-ledger(5)).
 */
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
	ledger_bind_text(l, st, 2, job_id);
	ledger_bind_time(l, st, 3, when);
	ledger_bind_int(l, st, 4, nodes);
	ledger_bind_int(l, st, 5, gpus);
	ledger_bind_int(l, st, 6, cpus);
	ledger_bind_text(l, st, 7, host);
	return ledger_exec_one(l, st, "record start of pilot %s", token);
}

/* Record how a pilot ended. */
int
ledger_pilot_ended(struct ledger *l, const char *token, double when,
    const char *state)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PILOT_ENDED, "UPDATE pilots"
	    " SET ended = ?2, state = ?3 WHERE token = ?1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, token);
	ledger_bind_time(l, st, 2, when);
	ledger_bind_text(l, st, 3, state);
	return ledger_exec_one(l, st, "record end of pilot %s", token);
}
