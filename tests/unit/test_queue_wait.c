/*
 * test_queue_wait.c: an attempt's queue wait counts from when it could
 * first start (its eligible time: a chained job's dependency met), not
 * from its submission, in the SQL account and in account_lists() alike;
 * without an eligible time (not known, an older ledger) it counts from
 * the submission.  The lane an attempt was queued behind is listed back
 * (ledger_attempt_chained()), and a ledger of schema 6 read as it is
 * lists neither.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "account.h"
#include "account_both.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/* The queue wait of campaign cid at now 5000, by SQL and from the lists. */
static void
queue_of(struct ledger *l, int64_t cid, double *sql, double *lists)
{
	struct account	 a, b;

	*sql = *lists = -1;
	if (account_both(l, cid, 5000, &a, &b, NULL, NULL) == 0) {
		*sql = a.queue_seconds;
		*lists = b.queue_seconds;
	}
	account_release(&a);
	account_release(&b);
}

int
main(void)
{
	struct ledger_attempt	*at = NULL;
	struct ledger		*l;
	sqlite3			*db;
	char			 dir[64], path[128], err[256];
	double			 q, ql;
	int64_t			 cid, t0, t1, t2, a0, a1, a2;
	size_t			 n = 0;

	if ((l = ledger_tmp_open("hpod-queue", dir, sizeof(dir))) == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "lanes", 3);
	t0 = ledger_tmp_trial(l, cid, 0, "{}");
	t1 = ledger_tmp_trial(l, cid, 1, "{}");
	t2 = ledger_tmp_trial(l, cid, 2, "{}");
	a0 = ledger_tmp_attempt(l, t0, 0, 0);
	a1 = ledger_tmp_attempt(l, t1, 1, 0);
	a2 = ledger_tmp_attempt(l, t2, 2, 0);

	/* Trial 0 heads the lane: submitted at 1000, started at 1002. */
	ledger_attempt_submitted(l, a0, "10", 1000);
	ledger_attempt_eligible(l, a0, 1000);
	ledger_attempt_started(l, a0, NULL, 1002, 1, 0, 1, 0, "n01");
	/*
	 * Trial 1 queued behind it at 1003, eligible at its end (1100),
	 * started at 1101: it waited 1 s, not 98 s.
	 */
	ledger_attempt_chained(l, a1, a0);
	ledger_attempt_submitted(l, a1, "11", 1003);
	ledger_attempt_finished(l, a0, "completed", 1100, 0, 0, NULL);
	ledger_attempt_eligible(l, a1, 1100);
	ledger_attempt_started(l, a1, NULL, 1101, 1, 0, 1, 0, "n01");
	ledger_attempt_finished(l, a1, "completed", 1200, 0, 0, NULL);
	/* Trial 2: no eligible time known, 1200 to 1210: 10 s. */
	ledger_attempt_submitted(l, a2, "12", 1200);
	ledger_attempt_started(l, a2, NULL, 1210, 1, 0, 1, 0, "n01");
	ledger_attempt_finished(l, a2, "completed", 1300, 0, 0, NULL);

	queue_of(l, cid, &q, &ql);
	ok(fabs(q - 13) < 1e-9, "queue wait from the eligible times: 2 + 1 "
	    "+ 10 s (got %g)", q);
	ok(fabs(ql - q) < 1e-9, "account_lists() agrees (got %g)", ql);

	/* Cancelled while it waited on its dependency: its end, no wait. */
	ledger_attempt_eligible(l, a2, 1300);
	queue_of(l, cid, &q, &ql);
	ok(fabs(q - 3) < 1e-9 && fabs(ql - 3) < 1e-9,
	    "an eligible time at its end counts no wait (got %g, %g)", q, ql);
	/* An eligible time before the submission (whole seconds). */
	ledger_attempt_eligible(l, a2, 1199);
	queue_of(l, cid, &q, &ql);
	ok(fabs(q - 13) < 1e-9 && fabs(ql - 13) < 1e-9,
	    "never from before its submission (got %g, %g)", q, ql);

	ok(ledger_attempt_list(l, cid, 0, &at, &n) == 0 && n == 3 &&
	    at[0].after_id == 0 && at[1].after_id == a0 &&
	    at[2].after_id == 0, "the lane each attempt was queued behind");
	ok(n == 3 && at[1].eligible == 1100 && at[0].eligible == 1000,
	    "the eligible times are listed");
	ledger_attempt_list_free(at, n);

	/* The same ledger, as schema 6 had it, read as it is. */
	snprintf(path, sizeof(path), "%s/l.db", dir);
	ledger_close(l);
	if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db,
	    "ALTER TABLE attempts DROP COLUMN after_id;"
	    "ALTER TABLE attempts DROP COLUMN eligible;"
	    "ALTER TABLE attempts DROP COLUMN suspended;"
	    "ALTER TABLE attempts DROP COLUMN suspended_at;"
	    "ALTER TABLE pilots DROP COLUMN suspended;"
	    "ALTER TABLE pilots DROP COLUMN suspended_at;"
	    "ALTER TABLE metrics DROP COLUMN late;"
	    "ALTER TABLE attempts DROP COLUMN run_start;"
	    "ALTER TABLE attempts DROP COLUMN pending_reason;"
	    "PRAGMA user_version = 6", NULL, NULL, NULL) != SQLITE_OK)
		printf("# %s\n", sqlite3_errmsg(db));
	sqlite3_close(db);
	if ((l = ledger_open(path, LEDGER_READONLY, err, sizeof(err))) ==
	    NULL) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	queue_of(l, cid, &q, &ql);
	ok(fabs(q - 110) < 1e-9 && fabs(ql - 110) < 1e-9, "schema 6 read "
	    "as it is: from the submissions, 2 + 98 + 10 s (got %g, %g)", q,
	    ql);
	ok(ledger_attempt_list(l, cid, 0, &at, &n) == 0 && n == 3 &&
	    at[1].after_id == 0 && at[1].eligible == 0,
	    "schema 6: no lanes, no eligible times");
	ledger_attempt_list_free(at, n);
	ledger_tmp_close(l, dir);
	return tap_done();
}
