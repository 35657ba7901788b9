/*
 * values.c: every point of one metric of a campaign, for the HTML page's
 * curves and bands, read the cheaper of two ways.
 *
 * By the index, each point is a search of metrics (attempt_id, key, step)
 * and a lookup of its row; at 10^6 points that is most of a report's
 * time.  When the campaign holds at least a quarter of the ledger's
 * attempts, one pass over the metrics table in its own order reads the
 * rows in sequence instead (about five times faster), keeps those of the
 * campaign's attempts and puts them in the order of the index: by trial,
 * attempt and step.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_int.h"

/* An attempt of the campaign: its id and its rank in (trial, number). */
struct va_attempt {
	int64_t		 id;
	int		 trial_number;
	size_t		 rank;
};

/* Read a row of the value list into row: a metric point without its key. */
static int
va_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct ledger_metric *m = row;

	m->attempt_id = sqlite3_column_int64(st, 0);
	m->trial_number = sqlite3_column_int(st, 1);
	m->step = sqlite3_column_double(st, 2);
	m->key = NULL;
	if (sqlite3_column_type(st, 3) == SQLITE_NULL)
		m->value = NAN;
	else
		m->value = sqlite3_column_double(st, 3);
	m->time = sqlite3_column_double(st, 4);
	m->late = sqlite3_column_int(st, 5) != 0;
	return 0;
}

static const struct ledger_rowtype va_row = {
	sizeof(struct ledger_metric), va_read, NULL
};

/* Read a row of the attempt list into row, a struct va_attempt. */
static int
va_attempt_read(struct ledger *l, sqlite3_stmt *st, void *row)
{
	struct va_attempt *a = row;

	a->id = sqlite3_column_int64(st, 0);
	a->trial_number = sqlite3_column_int(st, 1);
	return 0;
}

static const struct ledger_rowtype va_attempt_row = {
	sizeof(struct va_attempt), va_attempt_read, NULL
};

/* Order attempts by id. */
static int
va_id_cmp(const void *a, const void *b)
{
	const struct va_attempt *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Order the points of one attempt by step. */
static int
va_step_cmp(const void *a, const void *b)
{
	const struct ledger_metric *x = a, *y = b;

	return (x->step > y->step) - (x->step < y->step);
}

/* Points of the index's order: by trial, attempt and step. */
static int
va_by_index(struct ledger *l, int64_t campaign_id, const char *key,
    struct ledger_metric **out, size_t *n)
{
	sqlite3_stmt *st;
	void *list;
	int rc;

	if ((st = ledger_stmt(l, LQ_METRIC_VALUES, "SELECT m.attempt_id,"
	    " t.number, m.step, m.value, m.time, m.late"
	    " FROM metrics m JOIN attempts a ON a.id = m.attempt_id"
	    " JOIN trials t ON t.id = a.trial_id"
	    " WHERE t.campaign_id = ?1 AND m.key = ?2"
	    " ORDER BY t.number, a.number, m.step")) == NULL)
		return -1;
	ledger_bind_int64(l, st, 1, campaign_id);
	ledger_bind_text(l, st, 2, key);
	rc = ledger_list(l, st, &va_row, &list, n,
	    "list %s of campaign %lld", key, (long long)campaign_id);
	*out = list;
	return rc;
}

/*
 * The same points by one pass over the metrics table: those of the
 * campaign's attempts att (na of them, sorted by id), counted by attempt
 * and placed in their attempts' ranks, then each attempt's sorted by step.
 */
static int
va_by_scan(struct ledger *l, const char *key, const struct va_attempt *att,
    size_t na, struct ledger_metric **out, size_t *n)
{
	struct ledger_metric *pts = NULL, *m;
	const struct va_attempt **byid = NULL;
	struct va_attempt k;
	const struct va_attempt *hit;
	sqlite3_stmt *st;
	size_t *first, *at, cap = 0, rcap = 0, np = 0, i, span;
	size_t *rank = NULL;
	int rc;

	if ((st = ledger_stmt(l, LQ_METRIC_SCAN, "SELECT attempt_id, step,"
	    " value, time, late FROM metrics WHERE key = ?1")) == NULL)
		return -1;
	ledger_bind_text(l, st, 1, key);
	/* Ids are mostly dense: a table by id unless they spread too far. */
	span = (size_t)(att[na - 1].id - att[0].id) + 1;
	if (span <= 4 * na && (byid = calloc(span, sizeof(*byid))) != NULL)
		for (i = 0; i < na; i++)
			byid[att[i].id - att[0].id] = &att[i];
	while ((rc = ledger_step(l, st)) == SQLITE_ROW) {
		k.id = sqlite3_column_int64(st, 0);
		if (byid != NULL)
			hit = k.id >= att[0].id && k.id <= att[na - 1].id ?
			    byid[k.id - att[0].id] : NULL;
		else
			hit = bsearch(&k, att, na, sizeof(*att), va_id_cmp);
		if (hit == NULL)
			continue;
		if (ledger_grow(l, (void **)&pts, &cap, np, sizeof(*pts)) ==
		    -1 || ledger_grow(l, (void **)&rank, &rcap, np,
		    sizeof(*rank)) == -1)
			break;
		m = &pts[np];
		m->attempt_id = k.id;
		m->trial_number = hit->trial_number;
		m->step = sqlite3_column_double(st, 1);
		m->value = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(st, 2);
		m->time = sqlite3_column_double(st, 3);
		m->late = sqlite3_column_int(st, 4) != 0;
		rank[np++] = hit->rank;
	}
	ledger_stmt_done(st);
	free(byid);
	if (rc != SQLITE_DONE) {
		if (rc != SQLITE_ROW)
			ledger_fail(l, "scan %s", key);
		free(pts);
		free(rank);
		return -1;
	}
	*out = NULL;
	*n = 0;
	first = calloc(na + 1, sizeof(*first));
	at = calloc(na + 1, sizeof(*at));
	if (first == NULL || at == NULL ||
	    (*out = calloc(np + 1, sizeof(**out))) == NULL) {
		free(first);
		free(at);
		free(pts);
		free(rank);
		return ledger_errorf(l, "list %s: out of memory", key);
	}
	for (i = 0; i < np; i++)
		first[rank[i] + 1]++;
	for (i = 0; i < na; i++)
		first[i + 1] += first[i];
	memcpy(at, first, (na + 1) * sizeof(*at));
	for (i = 0; i < np; i++)
		(*out)[at[rank[i]]++] = pts[i];
	for (i = 0; i < na; i++)
		if (first[i + 1] - first[i] > 1)
			qsort(*out + first[i], first[i + 1] - first[i],
			    sizeof(**out), va_step_cmp);
	*n = np;
	free(first);
	free(at);
	free(pts);
	free(rank);
	return 0;
}

/* Points of a campaign for one key, keys left NULL, by trial, attempt, step. */
int
ledger_metric_values(struct ledger *l, int64_t campaign_id, const char *key,
    struct ledger_metric **out, size_t *n)
{
	struct va_attempt *att = NULL;
	sqlite3_stmt *st;
	void *list = NULL;
	size_t na = 0, i;
	int64_t total = 0;
	int opened, rc;

	*out = NULL;
	*n = 0;
	if (ledger_read_begin(l, &opened) == -1)
		return -1;
	if ((st = ledger_stmt(l, LQ_ATTEMPT_COUNT, "SELECT count(*)"
	    " FROM attempts")) == NULL)
		rc = -1;
	else {
		if ((rc = ledger_step(l, st)) == SQLITE_ROW)
			total = sqlite3_column_int64(st, 0);
		rc = rc == SQLITE_ROW ? 0 : ledger_fail(l, "count attempts");
		ledger_stmt_done(st);
	}
	if (rc == 0 && (st = ledger_stmt(l, LQ_METRIC_ATTEMPTS, "SELECT a.id,"
	    " t.number FROM attempts a JOIN trials t ON t.id = a.trial_id"
	    " WHERE t.campaign_id = ?1 ORDER BY t.number, a.number")) == NULL)
		rc = -1;
	else if (rc == 0) {
		ledger_bind_int64(l, st, 1, campaign_id);
		rc = ledger_list(l, st, &va_attempt_row, &list, &na,
		    "list attempts of campaign %lld", (long long)campaign_id);
		att = list;
	}
	if (rc == 0 && (int64_t)na * 4 >= total && na > 0) {
		for (i = 0; i < na; i++)
			att[i].rank = i;
		qsort(att, na, sizeof(*att), va_id_cmp);
		rc = va_by_scan(l, key, att, na, out, n);
	} else if (rc == 0)
		rc = va_by_index(l, campaign_id, key, out, n);
	free(att);
	if (ledger_read_end(l, opened) == -1 && rc == 0) {
		ledger_metric_list_free(*out, *n);
		*out = NULL;
		*n = 0;
		rc = -1;
	}
	return rc;
}
