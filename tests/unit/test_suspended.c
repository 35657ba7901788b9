/*
 * test_suspended.c: an attempt whose job was suspended is billed its run
 * time (its end less its start less the suspended seconds, as Slurm's
 * RunTime), not its end less its start, in the SQL account, in
 * account_lists() and in account_attempt_add() alike; while it runs
 * suspended, its run time stops at its suspension (suspended_at), and
 * goes on once resumed, the seconds it sat suspended left out, and so
 * does a running pilot's idle time (pilots.suspended_at); a ledger of
 * schema 11, 10 or 9, older than the columns, read as it is bills a
 * running pilot (11), a running attempt (10) or every attempt (9) whole,
 * and one opened to write is migrated and takes them all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "account_both.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "sched.h"
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

/* Campaign cid's pilot_idle node-seconds at 5000 (by SQL), -1 on error. */
static double
idle_of(struct ledger *l, int64_t cid)
{
	struct account	 a, b;
	double		 idle = -1;

	if (account_both(l, cid, 5000, &a, &b, NULL, NULL) == 0)
		idle = a.by_outcome[ACCT_OUT_PILOT_IDLE].node_seconds;
	account_release(&a);
	account_release(&b);
	return idle;
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
	int64_t			 cid, t0, t1, a0, a1, cl, a2, cp, a3, cq;
	struct ledger_pilot	*lp;
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
	ok(ledger_attempt_suspended(l, a0, 15, 0) == 0,
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
	ledger_attempt_suspended(l, a0, 30, 0);
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 10, 20), "no negative run time (SQL %g, lists "
	    "%g, each %g)", s[0], li[0], e[0]);
	ledger_attempt_suspended(l, a0, 15, 0);

	/*
	 * Campaign "live": 1 node, 2 GPUs from 4000, running at 5000,
	 * suspended 100 s before and again since 4500: its run to now is
	 * 4500 - 4000 - 100 = 400 s, not 5000 - 4000 - 100.
	 */
	cl = ledger_tmp_campaign(l, "live", 1);
	a2 = ledger_tmp_attempt(l, ledger_tmp_trial(l, cl, 2, "{}"), 2, 0);
	ledger_attempt_submitted(l, a2, "12", 4000);
	ledger_attempt_started(l, a2, NULL, 4000, 1, 2, 1, 0, "n04");
	ok(ledger_attempt_suspended(l, a2, 100, 4500) == 0,
	    "a running attempt's suspension is recorded");
	ok(ledger_attempt_list(l, cl, 0, &at, &n) == 0 && n == 1 &&
	    at[0].suspended == 100 && at[0].suspended_at == 4500 &&
	    account_attempt_elapsed(&at[0], 5000) == 400,
	    "while suspended its run time stops: 400 s at 5000");
	ledger_attempt_list_free(at, n);
	cost_of(l, cl, s, li, e);
	ok(all_are(s, li, e, 400, 800), "billed live its run time: 400 "
	    "node-s (SQL %g, lists %g, each %g)", s[0], li[0], e[0]);
	/* Resumed at 4700: 300 s suspended in all, its run goes on. */
	ledger_attempt_suspended(l, a2, 300, 0);
	cost_of(l, cl, s, li, e);
	ok(all_are(s, li, e, 700, 1400), "resumed: 5000 - 4000 - 300 "
	    "(SQL %g, lists %g, each %g)", s[0], li[0], e[0]);
	ledger_attempt_suspended(l, a2, 100, 4500);

	/*
	 * Campaign "pilot": a pilot of 1 node from 1000 to 1100, suspended
	 * 30 s of it, ran one attempt charged half its node from 1000 to
	 * 1040 (20 node-s): its idle time is its run time, 70 s, less
	 * that: 50 node-s, not 100 - 20.
	 */
	cp = ledger_tmp_campaign(l, "pilot", 1);
	a3 = ledger_tmp_attempt(l, ledger_tmp_trial(l, cp, 3, "{}"), 3, 0);
	ledger_pilot_submitted(l, cp, "pq", "/nowhere/pq", 990);
	ledger_pilot_started(l, "pq", "9", 1000, 1, 2, 2, "n05");
	ledger_attempt_started(l, a3, "9.p1", 1000, 1, 2, 1, 0.5, "n05");
	ledger_attempt_finished(l, a3, "completed", 1040, 0, 0, NULL);
	ok(ledger_pilot_ended(l, "pq", 0, 1100, "completed", 30) == 0,
	    "a pilot's suspended seconds are recorded");
	is_near(idle_of(l, cp), 50, 1e-9, "its idle time: its run time, 70 "
	    "node-s, less its attempt's 20");

	/*
	 * Campaign "pilotlive": a pilot of 1 node running from 4000,
	 * suspended 100 s before and again since 4500: its idle time at
	 * 5000, live, is 4500 - 4000 - 100 = 400 node-s, not 900, as the
	 * account and the list an engine taking it back reads say.
	 */
	cq = ledger_tmp_campaign(l, "pilotlive", 1);
	ledger_pilot_submitted(l, cq, "pr", "/nowhere/pr", 3990);
	ledger_pilot_started(l, "pr", "11", 4000, 1, 2, 2, "n06");
	ok(ledger_pilot_suspended(l, "pr", 100, 4500) == 0,
	    "a running pilot's suspension is recorded");
	is_near(idle_of(l, cq), 400, 1e-9, "while suspended its idle time "
	    "stops: 400 node-s at 5000");
	if (ledger_pilot_list(l, cq, 5000, &lp, &n) == -1)
		n = 0;
	ok(n == 1 && lp[0].idle_node_s == 400 && lp[0].idle_gpu_s == 800 &&
	    lp[0].suspended == 100 && lp[0].suspended_at == 4500,
	    "and so the list of pilots says, with its suspension (%g)",
	    n == 1 ? lp[0].idle_node_s : -1);
	ledger_pilot_list_free(lp, n);
	/* Resumed at 4700: 300 s suspended in all, its run goes on. */
	ledger_pilot_suspended(l, "pr", 300, 0);
	is_near(idle_of(l, cq), 700, 1e-9, "resumed: 5000 - 4000 - 300");
	ledger_pilot_suspended(l, "pr", 100, 4500);

	/* The same ledger as schema 11 left it, read as it is. */
	snprintf(path, sizeof(path), "%s/l.db", dir);
	ledger_close(l);
	ledger_tmp_sql(path, "ALTER TABLE pilots DROP COLUMN suspended_at;"
	    "ALTER TABLE metrics DROP COLUMN late;"
	    "ALTER TABLE attempts DROP COLUMN run_start;"
	    "ALTER TABLE attempts DROP COLUMN pending_reason;"
	    "PRAGMA user_version = 11");
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	is_near(idle_of(l, cq), 900, 1e-9, "schema 11 read as it is: a "
	    "running pilot to now");
	{
		struct ledger_metric	*m;
		size_t			 nm;
		struct ledger_attempt	*al;
		size_t			 na;

		ok(ledger_metric_list(l, cid, NULL, &m, &nm) == 0,
		    "its metrics read, none late (%s)", ledger_error(l));
		ledger_metric_list_free(m, nm);
		ok(ledger_attempt_list(l, cid, 0, &al, &na) == 0 && na > 0 &&
		    al[0].run_start == 0, "its attempts read, none with a "
		    "run_start (%s)", ledger_error(l));
		ledger_attempt_list_free(al, na);
	}
	is_near(idle_of(l, cp), 50, 1e-9, "and an ended one its run time");
	ledger_close(l);

	/* As schema 10 left it, read as it is. */
	ledger_tmp_sql(path, "ALTER TABLE attempts DROP COLUMN suspended_at;"
	    "ALTER TABLE pilots DROP COLUMN suspended;"
	    "PRAGMA user_version = 10");
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	cost_of(l, cl, s, li, e);
	ok(all_are(s, li, e, 900, 1800), "schema 10 read as it is: a "
	    "running attempt to now (SQL %g, lists %g, each %g)", s[0], li[0],
	    e[0]);
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 20, 40), "and an ended one its run time (SQL "
	    "%g)", s[0]);
	is_near(idle_of(l, cp), 80, 1e-9, "and a pilot never suspended");
	ledger_close(l);

	/* As schema 9 left it, read as it is: whole. */
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
	ok(ledger_attempt_suspended(l, a0, 15, 0) == 0,
	    "a migrated ledger takes the suspended seconds");
	cost_of(l, cid, s, li, e);
	ok(all_are(s, li, e, 20, 40), "and bills the run time (SQL %g)",
	    s[0]);
	ok(ledger_attempt_suspended(l, a2, 100, 4500) == 0,
	    "a migrated ledger takes a running attempt's suspension");
	cost_of(l, cl, s, li, e);
	ok(all_are(s, li, e, 400, 800), "and stops its run time there (SQL "
	    "%g, lists %g, each %g)", s[0], li[0], e[0]);
	ok(ledger_pilot_ended(l, "pq", 0, 1100, "completed", 30) == 0,
	    "a migrated ledger takes a pilot's suspended seconds");
	is_near(idle_of(l, cp), 50, 1e-9, "and leaves them out of its idle "
	    "time");
	ok(ledger_pilot_suspended(l, "pr", 100, 4500) == 0,
	    "a migrated ledger takes a running pilot's suspension");
	is_near(idle_of(l, cq), 400, 1e-9, "and stops its idle time there");
	/* Its end, at 5000 with 300 s suspended, is no longer suspended. */
	ledger_pilot_ended(l, "pr", 0, 5000, "completed", 300);
	is_near(idle_of(l, cq), 700, 1e-9, "ended: 5000 - 4000 - 300");
	ledger_tmp_close(l, dir);
	/* A forgotten job's suspended seconds, as its last view had them. */
	is_near(sched_suspended_by(30, 0, 500), 30, 1e-9,
	    "not in a suspension: its suspensions before");
	is_near(sched_suspended_by(30, 400, 500), 130, 1e-9,
	    "in one since 400: 100 s more by 500");
	is_near(sched_suspended_by(30, 600, 500), 30, 1e-9,
	    "a suspension after t counts nothing");
	return tap_done();
}
