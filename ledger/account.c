/*
 * account.c: what a campaign cost and what it found, by SQL aggregates
 * over its trials and every one of its attempts, read in one snapshot.
 */
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "ledger_int.h"

const char *const account_state_names[ACCT_NSTATES] = {
	"pending", "running", "completed", "failed", "pruned", "cancelled"
};

/* Count the campaign's trials by state and those that reached the target. */
static int
account_trials(struct ledger *l, const struct ledger_campaign *c,
    struct account *acct)
{
	sqlite3_stmt *st;
	const char *state;
	int i, n, rc;

	if ((st = ledger_stmt(l, LQ_ACCT_TRIALS, "SELECT state, count(*),"
	    " total(reached) FROM trials WHERE campaign_id = ?"
	    " GROUP BY state")) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		state = (const char *)sqlite3_column_text(st, 0);
		n = sqlite3_column_int(st, 1);
		for (i = 0; i < ACCT_NSTATES && state != NULL; i++)
			if (strcmp(state, account_state_names[i]) == 0)
				acct->trials[i] += n;
		acct->trials_total += n;
		acct->reached += sqlite3_column_int(st, 2);
	}
	if (rc != SQLITE_DONE)
		ledger_fail(l, "count trials of campaign %lld",
		    (long long)c->id);
	ledger_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Sum the cost of every attempt of the campaign.  An attempt costs from
 * its start to its end (now while it runs) times its allocation; it waited
 * in the queue from its submission to its start (or to its end if it never
 * started, or to now if it is still queued).
 */
static int
account_attempts(struct ledger *l, const struct ledger_campaign *c,
    double now, struct account *acct)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = ledger_stmt(l, LQ_ACCT_ATTEMPTS, "SELECT count(*),"
	    " count(CASE WHEN number > 0 THEN 1 END),"
	    " total(e * nodes), total(e * gpus), total(e * cpus), total(e),"
	    " total(q), count(CASE WHEN state = 'pruned' THEN 1 END),"
	    " total(CASE WHEN state = 'pruned' THEN e * nodes END),"
	    " total(CASE WHEN state = 'pruned' THEN e * gpus END),"
	    " total(CASE WHEN state = 'pruned' THEN e * cpus END)"
	    " FROM (SELECT a.number, a.nodes, a.gpus, a.cpus, a.state,"
	    "   CASE WHEN a.started > 0 THEN"
	    "     max(coalesce(nullif(a.ended, 0), ?2) - a.started, 0)"
	    "     END AS e,"
	    "   CASE WHEN a.submitted > 0 THEN"
	    "     max(coalesce(nullif(a.started, 0), nullif(a.ended, 0), ?2)"
	    "     - a.submitted, 0) END AS q"
	    "   FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    "   WHERE t.campaign_id = ?1)")) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	sqlite3_bind_double(st, 2, now);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		acct->attempts = sqlite3_column_int(st, 0);
		acct->attempts_retried = sqlite3_column_int(st, 1);
		acct->node_seconds = sqlite3_column_double(st, 2);
		acct->gpu_seconds = sqlite3_column_double(st, 3);
		acct->cpu_seconds = sqlite3_column_double(st, 4);
		acct->elapsed_seconds = sqlite3_column_double(st, 5);
		acct->queue_seconds = sqlite3_column_double(st, 6);
		acct->pruned_attempts = sqlite3_column_int(st, 7);
		acct->pruned_node_seconds = sqlite3_column_double(st, 8);
		acct->pruned_gpu_seconds = sqlite3_column_double(st, 9);
		acct->pruned_cpu_seconds = sqlite3_column_double(st, 10);
	} else
		ledger_fail(l, "sum attempts of campaign %lld",
		    (long long)c->id);
	ledger_stmt_done(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Time to solution: from campaign start to the first trial reaching. */
static int
account_tts(struct ledger *l, const struct ledger_campaign *c,
    struct account *acct)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = ledger_stmt(l, LQ_ACCT_TTS, "SELECT number, reached_at"
	    " FROM trials WHERE campaign_id = ? AND reached = 1"
	    " AND reached_at > 0 ORDER BY reached_at, number LIMIT 1")) ==
	    NULL)
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		acct->has_tts = 1;
		acct->tts_trial = sqlite3_column_int(st, 0);
		acct->tts_seconds = sqlite3_column_double(st, 1) - c->started;
	} else if (rc != SQLITE_DONE)
		ledger_fail(l, "find first reach of campaign %lld",
		    (long long)c->id);
	ledger_stmt_done(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* The best trial: lowest best value (highest if maximizing), then number. */
static int
account_best(struct ledger *l, const struct ledger_campaign *c,
    struct account *acct)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if ((st = ledger_stmt(l, LQ_ACCT_BEST, "SELECT number, best, reached,"
	    " params_json FROM trials"
	    " WHERE campaign_id = ?1 AND has_best = 1 AND best IS NOT NULL"
	    " ORDER BY CASE WHEN ?2 THEN -best ELSE best END, number"
	    " LIMIT 1")) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	sqlite3_bind_int(st, 2, c->maximize != 0);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		acct->has_best = 1;
		acct->best_trial = sqlite3_column_int(st, 0);
		acct->best_value = sqlite3_column_double(st, 1);
		acct->best_reached = sqlite3_column_int(st, 2);
		if (ledger_column_str(st, 3, &acct->best_params_json) == -1)
			ret = ledger_errorf(l,
			    "read best trial: out of memory");
	} else if (rc != SQLITE_DONE)
		ret = ledger_fail(l, "find best trial of campaign %lld",
		    (long long)c->id);
	ledger_stmt_done(st);
	return ret;
}

/* Fill acct for campaign c at time now; release with account_release(). */
int
account_campaign(struct ledger *l, const struct ledger_campaign *c,
    double now, struct account *acct)
{
	int opened, rc;
	double end;

	memset(acct, 0, sizeof(*acct));
	if (ledger_read_begin(l, &opened) == -1)
		return -1;
	rc = account_trials(l, c, acct);
	if (rc == 0)
		rc = account_attempts(l, c, now, acct);
	if (rc == 0)
		rc = account_tts(l, c, acct);
	if (rc == 0)
		rc = account_best(l, c, acct);
	ledger_read_end(l, opened);
	if (rc == -1) {
		account_release(acct);
		return -1;
	}
	end = c->ended > 0 ? c->ended : now;
	if (c->started > 0 && end > c->started)
		acct->wall_seconds = end - c->started;
	return 0;
}

/* Free what account_campaign() allocated. */
void
account_release(struct account *acct)
{
	if (acct == NULL)
		return;
	free(acct->best_params_json);
	acct->best_params_json = NULL;
}
