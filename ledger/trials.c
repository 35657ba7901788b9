/*
 * trials.c: the trials table.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* Free the strings of a trial and clear it. */
void
ledger_trial_release(struct ledger_trial *t)
{
	if (t == NULL)
		return;
	free(t->params_json);
	free(t->state);
	free(t->role);
	memset(t, 0, sizeof(*t));
}

/* The columns trial_read() expects, from "trials t". */
#define TRIAL_COLUMNS							\
	"t.id, t.campaign_id, t.number, t.params_json, t.batch_size, t.seed," \
	" t.state, t.has_best, t.best, t.best_step, t.reached, t.reached_at," \
	" t.created, (SELECT count(*) FROM attempts a WHERE a.trial_id = t.id),"\
	" t.role"

/* Free a list of trials. */
void
ledger_trial_list_free(struct ledger_trial *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ledger_trial_release(&list[i]);
	free(list);
}

/* Insert trial t (its id and attempts are ignored); the new id in *id. */
int
ledger_trial_insert(struct ledger *l, const struct ledger_trial *t,
    int64_t *id)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_TRIAL_INSERT, "INSERT INTO trials"
	    " (campaign_id, number, params_json, batch_size, seed, state,"
	    " has_best, best, best_step, reached, reached_at, created, role)"
	    " VALUES (?, ?, COALESCE(?, '{}'), ?, ?, COALESCE(?, 'pending'),"
	    " ?, ?, ?, ?, ?, ?, COALESCE(?, 'search'))")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, t->campaign_id);
	ledger_bind_int(l, st, 2, t->number);
	ledger_bind_text(l, st, 3, t->params_json);
	ledger_bind_int64(l, st, 4, t->batch_size);
	ledger_bind_int64(l, st, 5, t->seed);
	ledger_bind_text(l, st, 6, t->state);
	ledger_bind_int(l, st, 7, t->has_best != 0);
	if (t->has_best) {
		ledger_bind_double(l, st, 8, t->best);
		ledger_bind_double(l, st, 9, t->best_step);
	}
	ledger_bind_int(l, st, 10, t->reached != 0);
	if (t->reached)
		ledger_bind_time(l, st, 11, t->reached_at);
	ledger_bind_time(l, st, 12, t->created);
	ledger_bind_text(l, st, 13, t->role);
	if (ledger_exec(l, st, "insert trial %d", t->number) == -1)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(l->db);
	return 0;
}

/* Set a trial's state. */
int
ledger_trial_set_state(struct ledger *l, int64_t id, const char *state)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_TRIAL_STATE,
	    "UPDATE trials SET state = ?2 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, state);
	return ledger_exec_one(l, st, "set state of trial id %lld",
	    (long long)id);
}

/*
 * Record a trial's best value so far.  Reaching the target is sticky: once
 * a trial has reached it, reached_at keeps the first time.
 */
int
ledger_trial_set_best(struct ledger *l, int64_t id, double best,
    double step, int reached, double reached_at)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_TRIAL_BEST, "UPDATE trials"
	    " SET has_best = 1, best = ?2, best_step = ?3,"
	    " reached_at = CASE WHEN reached THEN reached_at"
	    "     WHEN ?4 THEN ?5 END,"
	    " reached = reached OR ?4"
	    " WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_double(l, st, 2, best);
	ledger_bind_double(l, st, 3, step);
	ledger_bind_int(l, st, 4, reached != 0);
	ledger_bind_time(l, st, 5, reached_at);
	return ledger_exec_one(l, st, "set best of trial id %lld",
	    (long long)id);
}

/* Read a row of TRIAL_COLUMNS into row, a struct ledger_trial. */
static int
trial_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_trial *t = row;

	memset(t, 0, sizeof(*t));
	t->id = sqlite3_column_int64(st, 0);
	t->campaign_id = sqlite3_column_int64(st, 1);
	t->number = sqlite3_column_int(st, 2);
	t->batch_size = (long)sqlite3_column_int64(st, 4);
	t->seed = sqlite3_column_int64(st, 5);
	t->has_best = sqlite3_column_int(st, 7);
	t->best = sqlite3_column_double(st, 8);
	t->best_step = sqlite3_column_double(st, 9);
	t->reached = sqlite3_column_int(st, 10);
	t->reached_at = sqlite3_column_double(st, 11);
	t->created = sqlite3_column_double(st, 12);
	t->attempts = sqlite3_column_int(st, 13);
	if (ledger_column_str(st, 3, &t->params_json) == -1 ||
	    ledger_column_str(st, 6, &t->state) == -1 ||
	    ledger_column_str(st, 14, &t->role) == -1) {
		ledger_trial_release(t);
		return ledger_errorf(l, "read trial: out of memory");
	}
	return 0;
}

/* Free the strings of row, a struct ledger_trial. */
static void
trial_row_release(void *row)
{
	ledger_trial_release(row);
}

static const struct ledger_rowtype trial_row = {
	sizeof(struct ledger_trial), trial_read, trial_row_release
};

/* The trials of a campaign, by number, each with its count of attempts. */
int
ledger_trial_list(struct ledger *l, int64_t campaign_id,
    struct ledger_trial **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list;
	int rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_TRIAL_LIST, "SELECT " TRIAL_COLUMNS
	    " FROM trials t WHERE t.campaign_id = ? ORDER BY t.number")) ==
	    NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	rc = ledger_list(l, st, &trial_row, &list, n,
	    "list trials of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}

/* Read one trial by id; 1 if there is none. */
int
ledger_trial_get(struct ledger *l, int64_t id, struct ledger_trial *out)
{
	sqlite3_stmt *st;

	memset(out, 0, sizeof(*out));
	if ((st = ledger_stmt(l, LQ_TRIAL_GET, "SELECT " TRIAL_COLUMNS
	    " FROM trials t WHERE t.id = ?")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	return ledger_one(l, st, &trial_row, out, "read trial id %lld",
	    (long long)id);
}
