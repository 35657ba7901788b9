/*
 * campaigns.c: the campaigns table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

#define CAMPAIGN_COLUMNS						\
	"id, name, workload, backend, spec_json, spec_path, state, metric, " \
	"maximize, has_target, target, started, ended, max_trials, driver, "	\
	"workload_json"

/* Free the strings of a campaign and clear it. */
void
ledger_campaign_release(struct ledger_campaign *c)
{
	if (c == NULL)
		return;
	free(c->name);
	free(c->workload);
	free(c->backend);
	free(c->spec_json);
	free(c->spec_path);
	free(c->state);
	free(c->metric);
	free(c->driver);
	free(c->workload_json);
	memset(c, 0, sizeof(*c));
}

/* Free a list of campaigns. */
void
ledger_campaign_list_free(struct ledger_campaign *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ledger_campaign_release(&list[i]);
	free(list);
}

/* Read a row of CAMPAIGN_COLUMNS into row, a struct ledger_campaign. */
static int
campaign_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_campaign *c = row;

	memset(c, 0, sizeof(*c));
	c->id = sqlite3_column_int64(st, 0);
	c->maximize = sqlite3_column_int(st, 8);
	c->has_target = sqlite3_column_int(st, 9);
	c->target = sqlite3_column_double(st, 10);
	c->started = sqlite3_column_double(st, 11);
	c->ended = sqlite3_column_double(st, 12);
	c->max_trials = sqlite3_column_int(st, 13);
	if (ledger_column_str(st, 1, &c->name) == -1 ||
	    ledger_column_str(st, 2, &c->workload) == -1 ||
	    ledger_column_str(st, 3, &c->backend) == -1 ||
	    ledger_column_str(st, 4, &c->spec_json) == -1 ||
	    ledger_column_str(st, 5, &c->spec_path) == -1 ||
	    ledger_column_str(st, 6, &c->state) == -1 ||
	    ledger_column_str(st, 7, &c->metric) == -1 ||
	    ledger_column_str(st, 14, &c->driver) == -1 ||
	    ledger_column_str(st, 15, &c->workload_json) == -1) {
		ledger_errorf(l, "read campaign %lld: out of memory",
		    (long long)c->id);
		ledger_campaign_release(c);
		return -1;
	}
	return 0;
}

/* Free the strings of row, a struct ledger_campaign. */
static void
campaign_row_release(void *row)
{
	ledger_campaign_release(row);
}

static const struct ledger_rowtype campaign_row = {
	sizeof(struct ledger_campaign), campaign_read, campaign_row_release
};

/* Insert campaign c (its id is ignored) and return the new id in *id. */
int
ledger_campaign_insert(struct ledger *l, const struct ledger_campaign *c,
    int64_t *id)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_CAMPAIGN_INSERT, "INSERT INTO campaigns"
	    " (name, workload, backend, spec_json, spec_path, state, metric,"
	    " maximize, has_target, target, started, ended, max_trials,"
	    " driver, workload_json) VALUES (?, ?, ?, ?, ?,"
	    " COALESCE(?, 'running'), ?, ?, ?, ?, ?, ?, ?,"
	    " COALESCE(?, 'daemon'), ?)")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, c->name);
	ledger_bind_text(l, st, 2, c->workload);
	ledger_bind_text(l, st, 3, c->backend);
	ledger_bind_text(l, st, 4, c->spec_json);
	ledger_bind_text(l, st, 5, c->spec_path);
	ledger_bind_text(l, st, 6, c->state);
	ledger_bind_text(l, st, 7, c->metric);
	ledger_bind_int(l, st, 8, c->maximize != 0);
	ledger_bind_int(l, st, 9, c->has_target != 0);
	if (c->has_target)
		ledger_bind_double(l, st, 10, c->target);
	ledger_bind_time(l, st, 11, c->started);
	ledger_bind_time(l, st, 12, c->ended);
	ledger_bind_int(l, st, 13, c->max_trials);
	ledger_bind_text(l, st, 14, c->driver);
	ledger_bind_text(l, st, 15, c->workload_json);
	if (ledger_exec(l, st, "insert campaign '%s'",
	    c->name ? c->name : "") == -1)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(l->db);
	return 0;
}

/* Set a campaign's state and end time (0: not ended). */
int
ledger_campaign_set_state(struct ledger *l, int64_t id, const char *state,
    double ended)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_CAMPAIGN_STATE, "UPDATE campaigns"
	    " SET state = ?2, ended = ?3 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, state);
	ledger_bind_time(l, st, 3, ended);
	return ledger_exec_one(l, st, "set state of campaign %lld",
	    (long long)id);
}

/* Set a campaign's spec and max_trials (hpoctl budget), in one statement. */
int
ledger_campaign_set_budget(struct ledger *l, int64_t id, const char *spec_json,
    int max_trials)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_CAMPAIGN_BUDGET, "UPDATE campaigns"
	    " SET spec_json = ?2, max_trials = ?3 WHERE id = ?1")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	ledger_bind_text(l, st, 2, spec_json);
	ledger_bind_int(l, st, 3, max_trials);
	return ledger_exec_one(l, st, "set budget of campaign %lld",
	    (long long)id);
}

/* Find the campaign with this id: 0, 1 if there is none, -1. */
int
ledger_campaign_get(struct ledger *l, int64_t id, struct ledger_campaign *out)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_CAMPAIGN_GET, "SELECT " CAMPAIGN_COLUMNS
	    " FROM campaigns WHERE id = ?")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, id);
	return ledger_one(l, st, &campaign_row, out, "find campaign '%lld'",
	    (long long)id);
}

/* Find a campaign by id (all digits) or the newest one with that name. */
int
ledger_campaign_find(struct ledger *l, const char *name_or_id,
    struct ledger_campaign *out)
{
	sqlite3_stmt *st;
	const char *p;
	long long id;

	for (p = name_or_id; isdigit((unsigned char)*p); p++)
		;
	if (*p == '\0' && p != name_or_id) {
		errno = 0;
		id = strtoll(name_or_id, NULL, 10);
		if (errno == ERANGE)
			return 1;
		return ledger_campaign_get(l, id, out);
	}
	if ((st = ledger_stmt(l, LQ_CAMPAIGN_BY_NAME, "SELECT "
	    CAMPAIGN_COLUMNS " FROM campaigns WHERE name = ?"
	    " ORDER BY id DESC LIMIT 1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, name_or_id);
	return ledger_one(l, st, &campaign_row, out, "find campaign '%s'",
	    name_or_id);
}

/* All campaigns (state NULL) or those in one state, oldest first. */
int
ledger_campaign_list(struct ledger *l, const char *state,
    struct ledger_campaign **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list;
	int rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_CAMPAIGN_LIST, "SELECT " CAMPAIGN_COLUMNS
	    " FROM campaigns WHERE ?1 IS NULL OR state = ?1 ORDER BY id")) ==
	    NULL)
		return -1;
	ledger_bind_text(l, st, 1, state);
	rc = ledger_list(l, st, &campaign_row, &list, n, "list campaigns");
	*out = list;
	return rc;
}
