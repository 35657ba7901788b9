/*
 * priors.c: the priors table, a campaign's warm-start observations.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* Free a list of priors. */
void
ledger_prior_list_free(struct ledger_prior *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(list[i].source);
		free(list[i].params_json);
		free(list[i].state);
	}
	free(list);
}

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
	sqlite3_bind_int64(st, 1, campaign_id);
	sqlite3_bind_int(st, 2, p->number);
	ledger_bind_text(st, 3, p->source);
	sqlite3_bind_int(st, 4, p->source_number);
	ledger_bind_text(st, 5, p->params_json);
	ledger_bind_text(st, 6, p->state);
	sqlite3_bind_int(st, 7, p->has_value != 0);
	if (p->has_value)
		sqlite3_bind_double(st, 8, p->value);
	return ledger_exec(l, st, "insert prior %d", p->number);
}

/* The priors of a campaign, by number. */
int
ledger_prior_list(struct ledger *l, int64_t campaign_id,
    struct ledger_prior **out, size_t *n)
{
	struct ledger_prior	*list = NULL, *p;
	sqlite3_stmt		*st;
	size_t			 cap = 0, len = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_PRIOR_LIST, "SELECT number, source,"
	    " source_number, params_json, state, has_value, value FROM priors"
	    " WHERE campaign_id = ? ORDER BY number")) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, campaign_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (ledger_grow(l, (void **)&list, &cap, len,
		    sizeof(*list)) == -1)
			goto fail;
		p = &list[len++];
		p->number = sqlite3_column_int(st, 0);
		p->source_number = sqlite3_column_int(st, 2);
		p->has_value = sqlite3_column_int(st, 5);
		p->value = sqlite3_column_double(st, 6);
		if (ledger_column_str(st, 1, &p->source) == -1 ||
		    ledger_column_str(st, 3, &p->params_json) == -1 ||
		    ledger_column_str(st, 4, &p->state) == -1) {
			ledger_errorf(l, "out of memory");
			goto fail;
		}
	}
	if (rc != SQLITE_DONE) {
		ledger_fail(l, "list priors of campaign %lld",
		    (long long)campaign_id);
		goto fail;
	}
	ledger_stmt_done(st);
	*out = list;
	*n = len;
	return 0;
fail:
	ledger_stmt_done(st);
	ledger_prior_list_free(list, len);
	return -1;
}

/* How many priors a campaign has, and from where. */
int
ledger_prior_count(struct ledger *l, int64_t campaign_id, int *n,
    char **source)
{
	sqlite3_stmt	*st;
	int		 rc;

	*n = 0;
	*source = NULL;
	if (ledger_schema_version(l) < 4)
		return 0;
	if ((st = ledger_stmt(l, LQ_PRIOR_COUNT, "SELECT count(*), min(source)"
	    " FROM priors WHERE campaign_id = ?")) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, campaign_id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*n = sqlite3_column_int(st, 0);
		if (ledger_column_str(st, 1, source) == -1)
			rc = ledger_errorf(l, "out of memory");
	} else
		rc = ledger_fail(l, "count priors of campaign %lld",
		    (long long)campaign_id);
	ledger_stmt_done(st);
	return rc == SQLITE_ROW ? 0 : -1;
}
