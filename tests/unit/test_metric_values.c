/*
 * test_metric_values.c: ledger_metric_values() gives a campaign's points
 * of one key by trial, attempt and step, whichever way it reads them: by
 * one pass over the metrics table (the campaign holds a quarter of the
 * ledger's attempts or more) or by the index (it holds fewer).  Points
 * are written out of order, interleaved between attempts and campaigns,
 * with other keys, a NaN and a late point among them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/*
 * A campaign of ntrials trials, each with (number % 3 == 1) + 1 attempts,
 * whose ids are appended to att.
 */
static int64_t
campaign(struct ledger *l, const char *name, int ntrials, int64_t *att,
    size_t *natt)
{
	struct ledger_campaign c = { .name = (char *)name,
	    .workload = "minicosmo", .backend = "replay",
	    .metric = "eval_error", .started = 1000 };
	struct ledger_trial t = { .params_json = "{}", .state = "completed",
	    .role = "search" };
	struct ledger_attempt a = { .dir = "/nonexistent", .created = 1000 };
	char tok[64];
	int64_t cid = 0, tid = 0;
	int i, k;

	if (ledger_campaign_insert(l, &c, &cid) == -1)
		printf("# %s\n", ledger_error(l));
	t.campaign_id = cid;
	for (i = 0; i < ntrials; i++) {
		t.number = ntrials - 1 - i;	/* ids against numbers */
		if (ledger_trial_insert(l, &t, &tid) == -1)
			printf("# %s\n", ledger_error(l));
		a.trial_id = tid;
		for (k = 0; k < (t.number % 3 == 1) + 1; k++) {
			snprintf(tok, sizeof(tok), "%s-%d-%d", name, i, k);
			a.token = tok;
			a.number = k;
			if (ledger_attempt_insert(l, &a, &att[*natt]) == -1)
				printf("# %s\n", ledger_error(l));
			(*natt)++;
		}
	}
	return cid;
}

/*
 * Points of every attempt: steps 3, 1, 2 in turns across attempts; the
 * third attempt's step 3 late (logged past a prune).
 */
static void
points(struct ledger *l, const int64_t *att, size_t natt)
{
	static const double steps[] = { 3, 1, 2 };
	size_t	 i, s;

	for (s = 0; s < 3; s++)
		for (i = 0; i < natt; i++) {
			ledger_metric_insert_as(l, att[i], steps[s],
			    "eval_error", i == 4 && s == 1 ? NAN :
			    (double)att[i] + steps[s] / 10, 2000 + s,
			    i == 2 && steps[s] == 3);
			ledger_metric_insert(l, att[i], steps[s], "train_loss",
			    1, 2000 + s);
		}
}

/* Whether list is in (trial, attempt, step) order with the right values. */
static int
ordered(struct ledger *l, const struct ledger_metric *m, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (m[i].key != NULL || (!isnan(m[i].value) &&
		    m[i].value != (double)m[i].attempt_id + m[i].step / 10))
			return 0;
		if (i > 0 && (m[i].trial_number < m[i - 1].trial_number ||
		    (m[i].trial_number == m[i - 1].trial_number &&
		    m[i].attempt_id == m[i - 1].attempt_id &&
		    m[i].step <= m[i - 1].step)))
			return 0;
	}
	return 1;
}

/* Whether two lists hold the same points. */
static int
same(const struct ledger_metric *a, size_t na, const struct ledger_metric *b,
    size_t nb)
{
	size_t	 i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (a[i].attempt_id != b[i].attempt_id ||
		    a[i].trial_number != b[i].trial_number ||
		    a[i].step != b[i].step || a[i].time != b[i].time ||
		    a[i].late != b[i].late ||
		    (a[i].value != b[i].value && !(isnan(a[i].value) &&
		    isnan(b[i].value))))
			return 0;
	return 1;
}

int
main(void)
{
	struct ledger_metric *scan, *idx;
	struct ledger	*l;
	int64_t		 att[200], a, b;
	size_t		 natt = 0, nscan, nidx, nb, i, n;
	char		 dir[64];

	if ((l = ledger_tmp_open("test_metric_values", dir, sizeof(dir))) ==
	    NULL)
		return 1;
	a = campaign(l, "a", 12, att, &natt);
	nb = natt;
	b = campaign(l, "b", 2, att, &natt);
	points(l, att, natt);
	ok(ledger_metric_values(l, a, "eval_error", &scan, &nscan) == 0,
	    "campaign a, most of the ledger's attempts: read");
	is_int(nscan, 3 * nb, "three points an attempt, its key only");
	ok(ordered(l, scan, nscan), "by trial, attempt and step");
	for (i = n = 0; i < nscan; i++)
		n += isnan(scan[i].value);
	is_int(n, 1, "a NaN point is kept");
	for (i = n = 0; i < nscan; i++)
		n += !scan[i].late ? 0 : scan[i].attempt_id == att[2] &&
		    scan[i].step == 3 ? 1 : 2;
	is_int(n, 1, "a late point is read late, it alone");
	ok(ledger_metric_values(l, b, "eval_error", &idx, &nidx) == 0 &&
	    nidx == 3 * (natt - nb) && ordered(l, idx, nidx),
	    "campaign b, a few attempts: by the index, the same order");
	ledger_metric_list_free(idx, nidx);
	/* Many more attempts elsewhere: a is read by the index now. */
	campaign(l, "c", 60, att, &natt);
	ok(ledger_metric_values(l, a, "eval_error", &idx, &nidx) == 0,
	    "campaign a, now a small part of the ledger: read");
	ok(same(scan, nscan, idx, nidx),
	    "the same points in the same order either way");
	ledger_metric_list_free(idx, nidx);
	ledger_metric_list_free(scan, nscan);
	ledger_tmp_close(l, dir);
	return tap_done();
}
