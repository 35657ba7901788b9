/*
 * account.c: what a campaign cost and what it found, by SQL aggregates
 * over its trials and every one of its attempts, read in one snapshot.
 */
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "ledger_int.h"

const char *const account_outcome_names[ACCT_NOUTCOMES] = {
	"completed", "pruned", "failed", "retried", "cancelled", "running",
	"pilot_idle"
};

/* The outcome bucket of attempt a, named as in account_outcome_names. */
#define ACCT_OUTCOME \
	"CASE WHEN EXISTS (SELECT 1 FROM attempts r" \
	"    WHERE r.trial_id = a.trial_id AND r.number > a.number)" \
	"  THEN 'retried'" \
	"  WHEN a.state IN ('submitting', 'pending', 'running')" \
	"    OR coalesce(a.ended, 0) = 0 THEN 'running'" \
	"  WHEN a.state IN ('completed', 'pruned', 'cancelled') THEN a.state" \
	"  ELSE 'failed' END"

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
	ledger_bind_int64(l, st, 1, c->id);
	while ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		state = (const char *)sqlite3_column_text(st, 0);
		n = sqlite3_column_int(st, 1);
		if ((i = (int)trial_state_parse(state)) != TRIAL_UNKNOWN)
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
 * in the queue from when it could start (its submission, or later if a
 * dependency or a hold kept it: ACCT_QUEUED) to its start (or to its end
 * if it never started, or to now if it is still queued).
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
	    " FROM (SELECT a.number, " ACCT_NODES " AS nodes, a.gpus,"
	    "   a.cpus, a.state,"
	    "   " ACCT_ELAPSED " AS e,"
	    "   CASE WHEN a.submitted > 0 THEN"
	    "     max(coalesce(nullif(a.started, 0), nullif(a.ended, 0), ?2)"
	    "     - " ACCT_QUEUED ", 0) END AS q"
	    "   FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    "   WHERE t.campaign_id = ?1)")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, c->id);
	ledger_bind_double(l, st, 2, now);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
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

/* Sum the cost of the campaign's attempts by outcome. */
static int
account_outcomes(struct ledger *l, const struct ledger_campaign *c,
    double now, struct account *acct)
{
	struct account_cost *b;
	sqlite3_stmt *st;
	const char *o;
	int i, rc;

	if ((st = ledger_stmt(l, LQ_ACCT_OUTCOMES, "SELECT o, count(*),"
	    " total(e * nodes), total(e * gpus), total(e * cpus)"
	    " FROM (SELECT " ACCT_OUTCOME " AS o, " ACCT_NODES " AS nodes,"
	    "   a.gpus, a.cpus,"
	    "   " ACCT_ELAPSED " AS e"
	    "   FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    "   WHERE t.campaign_id = ?1) GROUP BY o")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, c->id);
	ledger_bind_double(l, st, 2, now);
	while ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		o = (const char *)sqlite3_column_text(st, 0);
		for (i = 0; i < ACCT_NOUTCOMES && o != NULL; i++) {
			if (strcmp(o, account_outcome_names[i]) != 0)
				continue;
			b = &acct->by_outcome[i];
			b->attempts = sqlite3_column_int(st, 1);
			b->node_seconds = sqlite3_column_double(st, 2);
			b->gpu_seconds = sqlite3_column_double(st, 3);
			b->cpu_seconds = sqlite3_column_double(st, 4);
		}
	}
	if (rc != SQLITE_DONE)
		ledger_fail(l, "sum attempts of campaign %lld by outcome",
		    (long long)c->id);
	ledger_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The idle time of the campaign's pilot allocations: each pilot's
 * allocation times its run time (to now while it runs; the seconds its
 * job was suspended left out, as an attempt's), less what the attempts it
 * ran (job id "PILOT.pN") were charged, per resource: each was charged
 * its share of the pilot's node (ACCT_NODES), so that the lines by
 * outcome add up to what the pilots were billed.  Never below 0 (a ledger
 * written before shares charged each attempt the whole node).  Added to
 * the totals as the outcome "pilot_idle", which counts no attempts.
 */
static int
account_pilots(struct ledger *l, const struct ledger_campaign *c,
    double now, struct account *acct)
{
	struct account_cost *b = &acct->by_outcome[ACCT_OUT_PILOT_IDLE];
	sqlite3_stmt *st;
	int rc, v;

	/* A read-only ledger older than the pilots table has none. */
	if ((v = ledger_schema_version(l)) == -1)
		return -1;
	if (v < 5)
		return 0;
	if ((st = ledger_stmt(l, LQ_ACCT_PILOTS, "SELECT count(*),"
	    " total(max(pe * nodes - an, 0)), total(max(pe * gpus - ag, 0)),"
	    " total(max(pe * cpus - ac, 0))"
	    " FROM (SELECT p.nodes, p.gpus, p.cpus,"
	    "   " ACCT_PILOT_ELAPSED " AS pe,"
	    "   total(" ACCT_ELAPSED " * " ACCT_NODES ") AS an,"
	    "   total(" ACCT_ELAPSED " * a.gpus) AS ag,"
	    "   total(" ACCT_ELAPSED " * a.cpus) AS ac"
	    "   FROM pilots p LEFT JOIN attempts a ON p.job_id IS NOT NULL"
	    "     AND substr(a.job_id, 1, length(p.job_id) + 2) ="
	    "       p.job_id || '.p'"
	    "     AND a.trial_id IN (SELECT id FROM trials"
	    "       WHERE campaign_id = ?1)"
	    "   WHERE p.campaign_id = ?1 GROUP BY p.id)")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, c->id);
	ledger_bind_double(l, st, 2, now);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		acct->pilots = sqlite3_column_int(st, 0);
		b->node_seconds = sqlite3_column_double(st, 1);
		b->gpu_seconds = sqlite3_column_double(st, 2);
		b->cpu_seconds = sqlite3_column_double(st, 3);
		acct->node_seconds += b->node_seconds;
		acct->gpu_seconds += b->gpu_seconds;
		acct->cpu_seconds += b->cpu_seconds;
	} else
		ledger_fail(l, "sum pilots of campaign %lld",
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
	ledger_bind_int64(l, st, 1, c->id);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
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
	ledger_bind_int64(l, st, 1, c->id);
	ledger_bind_int(l, st, 2, c->maximize != 0);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
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

/*
 * Fill acct from the ledger: the attempts' sums too when sums is set,
 * else only what the attempt lists do not hold (account_lists()).
 */
int
account_read(struct ledger *l, const struct ledger_campaign *c, double now,
    int sums, struct account *acct)
{
	int opened, rc;
	double end;

	if (ledger_read_begin(l, &opened) == -1)
		return -1;
	rc = account_trials(l, c, acct);
	if (rc == 0 && sums)
		rc = account_attempts(l, c, now, acct);
	if (rc == 0 && sums)
		rc = account_outcomes(l, c, now, acct);
	if (rc == 0)
		rc = account_pilots(l, c, now, acct);
	if (rc == 0)
		rc = account_tts(l, c, acct);
	if (rc == 0)
		rc = account_best(l, c, acct);
	if (rc == 0)
		rc = ledger_prior_count(l, c->id, &acct->priors,
		    &acct->prior_source);
	if (ledger_read_end(l, opened) == -1)
		rc = -1;
	if (rc == -1) {
		account_release(acct);
		return -1;
	}
	end = c->ended > 0 ? c->ended : now;
	if (c->started > 0 && end > c->started)
		acct->wall_seconds = end - c->started;
	return 0;
}

/* Fill acct for campaign c at time now; release with account_release(). */
int
account_campaign(struct ledger *l, const struct ledger_campaign *c,
    double now, struct account *acct)
{
	memset(acct, 0, sizeof(*acct));
	return account_read(l, c, now, 1, acct);
}

/* Free what account_campaign() allocated. */
void
account_release(struct account *acct)
{
	if (acct == NULL)
		return;
	free(acct->best_params_json);
	acct->best_params_json = NULL;
	free(acct->prior_source);
	acct->prior_source = NULL;
}

/* Read a row of the groups query into row, a struct account_group. */
static int
account_group_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct account_group *g = row;

	memset(g, 0, sizeof(*g));
	g->batch_size = (long)sqlite3_column_int64(st, 0);
	g->confirm = sqlite3_column_int(st, 1);
	g->trials = sqlite3_column_int(st, 2);
	g->cost.attempts = sqlite3_column_int(st, 3);
	g->cost.node_seconds = sqlite3_column_double(st, 4);
	g->cost.gpu_seconds = sqlite3_column_double(st, 5);
	g->cost.cpu_seconds = sqlite3_column_double(st, 6);
	return 0;
}

static const struct ledger_rowtype account_group_row = {
	sizeof(struct account_group), account_group_read, NULL
};

/* The campaign's cost by batch size and role. */
int
account_groups(struct ledger *l, const struct ledger_campaign *c, double now,
    struct account_group **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list = NULL;
	int opened, rc = -1;

	*out = NULL;
	*n = 0;
	if (ledger_read_begin(l, &opened) == -1)
		return -1;
	if ((st = ledger_stmt(l, LQ_ACCT_GROUPS, "SELECT t.batch_size,"
	    " t.role = 'confirm' AS confirm, count(DISTINCT t.id),"
	    " count(a.id), total(e * " ACCT_NODES "), total(e * a.gpus),"
	    " total(e * a.cpus)"
	    " FROM trials t LEFT JOIN (SELECT a.*, " ACCT_ELAPSED " AS e"
	    "   FROM attempts a) a ON a.trial_id = t.id"
	    " WHERE t.campaign_id = ?1"
	    " GROUP BY t.batch_size, confirm"
	    " ORDER BY t.batch_size, confirm")) != NULL) {
		ledger_bind_int64(l, st, 1, c->id);
		ledger_bind_double(l, st, 2, now);
		rc = ledger_list(l, st, &account_group_row, &list, n,
		    "sum attempts of campaign %lld by batch size",
		    (long long)c->id);
	}
	if (ledger_read_end(l, opened) == -1 && rc == 0) {
		free(list);
		*n = 0;
		return -1;
	}
	*out = list;
	return rc;
}

/*
 * The seconds attempt a is charged for at time now, as ACCT_ELAPSED
 * computes them: its run, less the time its job was suspended, to its
 * end, or while it runs to now or to the start of the suspension its job
 * is in; 0 if it never started.
 */
double
account_attempt_elapsed(const struct ledger_attempt *a, double now)
{
	double e;

	if (a->started <= 0)
		return 0;
	e = (a->ended > 0 ? a->ended : a->suspended_at > 0 ?
	    a->suspended_at : now) - a->started - a->suspended;
	return e > 0 ? e : 0;
}

/* Add one attempt's cost, as ACCT_ELAPSED charges it. */
void
account_attempt_add(const struct ledger_attempt *a, double now,
    struct account_cost *cost)
{
	double e = account_attempt_elapsed(a, now);

	cost->attempts++;
	cost->node_seconds += e * a->node_share;
	cost->gpu_seconds += e * a->gpus;
	cost->cpu_seconds += e * a->cpus;
}

/* Add b to a. */
void
account_cost_add(struct account_cost *a, const struct account_cost *b)
{
	a->attempts += b->attempts;
	a->node_seconds += b->node_seconds;
	a->gpu_seconds += b->gpu_seconds;
	a->cpu_seconds += b->cpu_seconds;
}
