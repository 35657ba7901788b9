/*
 * test_suspended.c: an attempt whose job was suspended is billed its run
 * time (its end less its start less the suspended seconds, as Slurm's
 * RunTime), not its end less its start, in the SQL account, in
 * account_lists() and in account_attempt_add() alike; a ledger of schema
 * 9, older than the column, read as it is bills every attempt whole, and
 * one opened to write is migrated and takes the suspended time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "account_both.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/*
 * The node- and GPU-seconds of campaign cid at now 5000: by SQL (sql),
 * from the lists (lists) and attempt by attempt (each), node then GPU.
 */
static void
cost_of(struct ledger *l, int64_t cid, double sql[2], double lists[2],
    double each[2])
{
	struct ledger_attempt	*at = NULL;
	struct account		 a, b;
	struct account_cost	 sum;
	size_t			 i, na = 0;

	memset(&sum, 0, sizeof(sum));
	sql[0] = sql[1] = lists[0] = lists[1] = each[0] = each[1] = -1;
	if (account_both(l, cid, 5000, &a, &b, &at, &na) == 0) {
		sql[0] = a.node_seconds;
		sql[1] = a.gpu_seconds;
		lists[0] = b.node_seconds;
		lists[1] = b.gpu_seconds;
		for (i = 0; i < na; i++)
			account_attempt_add(&at[i], 5000, &sum);
		each[0] = sum.node_seconds;
		each[1] = sum.gpu_seconds;
	}
	account_release(&a);
	account_release(&b);
	ledger_attempt_list_free(at, na);
}

/* Whether all three sums are node and gpu seconds. */
static int
all_are(const double sql[2], const double lists[2], const double each[2],
    double node, double gpu)
{
	return fabs(sql[0] - node) < 1e-9 && fabs(sql[1] - gpu) < 1e-9 &&
	    fabs(lists[0] - node) < 1e-9 && fabs(lists[1] - gpu) < 1e-9 &&
	    fabs(each[0] - node) < 1e-9 && fabs(each[1] - gpu) < 1e-9;
}

int
main(void)
{
	struct ledger_attempt	*at = NULL;
	struct ledger		*l;
	char			 dir[64], path[128];
	double			 s[2], li[2], e[2];
	int64_t			 cid, t0, t1, a0, a1;
	size_t			 n = 0;

	if ((l = ledger_tmp_open("hpod-susp", dir, sizeof(dir))) == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "susp", 2);
	t0 = ledger_tmp_trial(l, cid, 0, "{}");
	t1 = ledger_tmp_trial(l, cid, 1, "{}");
	a0 = ledger_tmp_attempt(l, t0, 0, 0);
	a1 = ledger_tmp_attempt(l, t1, 1, 0);

	/* Trial 0: 2 nodes, 4 GPUs, 1000 to 1020, suspended 15 s of it. */
	ledger_attempt_submitted(l, a0, "10", 1000);
	ledger_attempt_started(l, a0, NULL, 1000, 2, 4, 2, 0, "n[01-02]");
	ok(ledger_attempt_suspended(l, a0, 15) == 0,
	    "the suspended seconds are recorded");
	ledger_attempt_finished(l, a0, "completed", 1020, 0, 0, NULL);
	/* Trial 1: 1 node, 2 GPUs, 1000 to 1010, never suspended. */
	ledger_attempt_submitted(l, a1, "11", 1000);
	ledger_attempt_started(l, a1, NULL, 1000, 1, 2, 1, 0, "n03");
	ledger_attempt_finished(l, a1, "completed", 1010, 0, 0, NULL);

	ok(ledger_attempt_list(l, cid, 0, &at, &n) == 0 && n == 2 &&
	    at[0].suspended == 15 && at[1].suspended == 0,
	    "the suspended seconds are listed");
	ok(n == 2 && account_attempt_elapsed(&at[0], 5000) == 5 &&
	    account_attempt_elapsed(&at[1], 5000) == 10,
	    "its run time: 20 - 15 s");
	ledger_attempt_list_free(at, n);
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 5 * 2 + 10 * 1, 5 * 4 + 10 * 2),
	    "billed its run time: 20 node-s, 40 GPU-s (SQL %g %g, lists "
	    "%g %g, each %g %g)", s[0], s[1], li[0], li[1], e[0], e[1]);

	/* Never more than it ran. */
	ledger_attempt_suspended(l, a0, 30);
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 10, 20), "no negative run time (SQL %g, lists "
	    "%g, each %g)", s[0], li[0], e[0]);
	ledger_attempt_suspended(l, a0, 15);

	/* The same ledger as schema 9 left it, read as it is: whole. */
	snprintf(path, sizeof(path), "%s/l.db", dir);
	ledger_close(l);
	ledger_tmp_sql(path, "ALTER TABLE attempts DROP COLUMN suspended;"
	    "PRAGMA user_version = 9");
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 20 * 2 + 10, 20 * 4 + 10 * 2),
	    "schema 9 read as it is: end - start (SQL %g, lists %g, each %g)",
	    s[0], li[0], e[0]);
	ledger_close(l);

	/* Opened to write, it is migrated and takes the column. */
	l = ledger_tmp_open_file(path, 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "migrated to the latest schema");
	ok(ledger_attempt_suspended(l, a0, 15) == 0,
	    "a migrated ledger takes the suspended seconds");
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 20, 40), "and bills the run time (SQL %g)",
	    s[0]);
	ledger_tmp_close(l, dir);
	return tap_done();
}
