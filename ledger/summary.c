/*
 * summary.c: what a report needs of each attempt's metric points, as SQL
 * aggregates over the metrics index, so that a report of 10^5 trials
 * reads one row per attempt instead of every point.
 */
#include <math.h>
#include <string.h>

#include "ledger_int.h"

/* Read a row of the summary query into row, a struct ledger_summary. */
static int
summary_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_summary *s = row;

	memset(s, 0, sizeof(*s));
	s->attempt_id = sqlite3_column_int64(st, 0);
	s->trial_number = sqlite3_column_int(st, 1);
	s->has_last_step = sqlite3_column_type(st, 2) != SQLITE_NULL;
	s->last_step = sqlite3_column_double(st, 2);
	s->reached = sqlite3_column_type(st, 3) != SQLITE_NULL;
	s->reached_step = sqlite3_column_double(st, 3);
	s->reached_time = sqlite3_column_double(st, 4);
	s->train_samples = sqlite3_column_double(st, 5);
	return 0;
}

static const struct ledger_rowtype summary_row = {
	sizeof(struct ledger_summary), summary_read, NULL
};

/*
 * One row per attempt of a campaign, by trial and attempt number: the
 * highest step of key, the first point of key that meets the target
 * (has_target), and the last positive train_samples.  Each is an index
 * search of metrics (attempt_id, key, step).  The target's is made only
 * in the trials the ledger marks reached: the engine marks a trial when
 * it records the first point that meets the target (attempt.c), so the
 * points of the others (most of a large campaign) are not read; it stops
 * at the first point that meets it.
 */
int
ledger_summary_list(struct ledger *l, int64_t campaign_id, const char *key,
    int has_target, int maximize, double target, struct ledger_summary **out,
    size_t *n)
{
	sqlite3_stmt	*st;
	void		*list;
	int		 rc;

#define SUMMARY_MEETS \
	" FROM metrics m WHERE m.attempt_id = a.id AND m.key = ?2" \
	" AND abs(m.value) < 9e999" \
	" AND CASE WHEN ?4 THEN m.value >= ?5 ELSE m.value <= ?5 END" \
	" ORDER BY m.step LIMIT 1"
	*out = NULL;
	*n = 0;
	if ((st = ledger_stmt(l, LQ_METRIC_SUMMARY, "SELECT a.id, t.number,"
	    " (SELECT max(m.step) FROM metrics m"
	    "   WHERE m.attempt_id = a.id AND m.key = ?2),"
	    " CASE WHEN ?3 AND t.reached THEN (SELECT m.step" SUMMARY_MEETS
	    ") END,"
	    " CASE WHEN ?3 AND t.reached THEN (SELECT m.time" SUMMARY_MEETS
	    ") END,"
	    " (SELECT m.value FROM metrics m WHERE m.attempt_id = a.id"
	    "   AND m.key = 'train_samples' AND m.value > 0"
	    "   ORDER BY m.step DESC LIMIT 1)"
	    " FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    " WHERE t.campaign_id = ?1 ORDER BY t.number, a.number")) == NULL)
		return -1;
#undef SUMMARY_MEETS
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_text(l, st, 2, key);
	ledger_bind_int(l, st, 3, has_target != 0 && !isnan(target));
	ledger_bind_int(l, st, 4, maximize != 0);
	ledger_bind_double(l, st, 5, target);
	rc = ledger_list(l, st, &summary_row, &list, n,
	    "summarize the points of campaign %lld", (long long)campaign_id);
	*out = list;
	return rc;
}
