/*
 * priors.c: the priors table, a campaign's warm-start observations.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* Free the strings of row, a struct ledger_prior. */
static void
prior_row_release(void *row)
{
	struct ledger_prior *p = row;

	free(p->source);
	free(p->params_json);
	free(p->state);
}

/* Free a list of priors. */
void
ledger_prior_list_free(struct ledger_prior *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		prior_row_release(&list[i]);
	free(list);
}

/* Read a row of the prior list into row, a struct ledger_prior. */
static int
prior_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_prior *p = row;

	memset(p, 0, sizeof(*p));
	p->number = sqlite3_column_int(st, 0);
	p->source_number = sqlite3_column_int(st, 2);
	p->has_value = sqlite3_column_int(st, 5);
	p->value = sqlite3_column_double(st, 6);
	if (ledger_column_str(st, 1, &p->source) == -1 ||
	    ledger_column_str(st, 3, &p->params_json) == -1 ||
	    ledger_column_str(st, 4, &p->state) == -1) {
		prior_row_release(p);
		return ledger_errorf(l, "read prior: out of memory");
	}
	return 0;
}

static const struct ledger_rowtype prior_row = {
	sizeof(struct ledger_prior), prior_read, prior_row_release
};

/* Insert one prior of a campaign. */
int
ledger_prior_insert(struct ledger *l, int64_t campaign_id,
    const struct ledger_prior *p)
{
	sqlite3_stmt *st;

	if ((st = ledger_stmt(l, LQ_PRIOR_INSERT, "INSERT INTO priors"
	    " (campaign_id, number, source, source_number, params_json, state,"
	    " has_value, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_int(l, st, 2, p->number);
	ledger_bind_text(l, st, 3, p->source);
	ledger_bind_int(l, st, 4, p->source_number);
	ledger_bind_text(l, st, 5, p->params_json);
	ledger_bind_text(l, st, 6, p->state);
	ledger_bind_int(l, st, 7, p->has_value != 0);
	if (p->has_value)
		ledger_bind_double(l, st, 8, p->value);
	return ledger_exec(l, st, "insert prior %d", p->number);
}

/* The priors of a campaign, by number. */
int
ledger_prior_list(struct ledger *l, int64_t campaign_id,
    struct ledger_prior **out, size_t *n)
{
	sqlite3_stmt	*st;
	void		*list;
	int		 rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_PRIOR_LIST, "SELECT number, source,"
	    " source_number, params_json, state, has_value, value FROM priors"
	    " WHERE campaign_id = ? ORDER BY number")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	rc = ledger_list(l, st, &prior_row, &list, n,
	    "list priors of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}

/* How many priors a campaign has, and from where. */
int
ledger_prior_count(struct ledger *l, int64_t campaign_id, int *n,
    char **source)
{
	sqlite3_stmt	*st;
	int		 rc, v;

	*n = 0;
	*source = NULL;
	if ((v = ledger_schema_version(l)) == -1)
		return -1;
	if (v < 4)
		return 0;
	if ((st = ledger_stmt(l, LQ_PRIOR_COUNT, "SELECT count(*), min(source)"
	    " FROM priors WHERE campaign_id = ?")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	if ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		*n = sqlite3_column_int(st, 0);
		if (ledger_column_str(st, 1, source) == -1)
			rc = ledger_errorf(l, "out of memory");
	} else
		rc = ledger_fail(l, "count priors of campaign %lld",
		    (long long)campaign_id);
	ledger_stmt_done(st);
	return rc == SQLITE_ROW ? 0 : -1;
}
