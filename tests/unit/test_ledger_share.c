/*
 * test_ledger_share.c: a trial run in a pilot is charged its share of
 * the pilot's node, and the pilot's idle node-hours are the rest, so the
 * lines add up to the pilot's nodes x elapsed; a ledger of schema 5
 * (every attempt charged its whole nodes) reads the same totals, read as
 * it is and once migrated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "ledger.h"
#include "ledger_int.h"
#include "ledger_tmp.h"
#include "tap.h"

static char tmpdir[64];

/* The account of campaign name at now 5000 (all of it has ended). */
static void
read_account(struct ledger *l, const char *name, struct account *acct)
{
	struct ledger_campaign	 c;

	memset(acct, 0, sizeof(*acct));
	if (ledger_campaign_find(l, name, &c) == -1) {
		printf("Bail out! %s\n", ledger_error(l));
		exit(1);
	}
	if (account_campaign(l, &c, 5000, acct) == -1)
		printf("# %s\n", ledger_error(l));
	ledger_campaign_release(&c);
}

/*
 * A ledger of schema 5 with a campaign whose two one-CPU trials ran side
 * by side in one pilot of a 2-CPU node from 1000 to 1100 (100 s and
 * 80 s): each was charged the whole node, 180 node-seconds, and the
 * pilot's idle node-seconds were clamped at 0.
 */
static void
make_v5(const char *path)
{
	ledger_tmp_schema(path, 5);
	ledger_tmp_sql(path, "INSERT INTO campaigns (id, name, state, started,"
	    " ended) VALUES (1, 'old', 'finished', 1000, 1100);"
	    "INSERT INTO trials (id, campaign_id, number, state) VALUES"
	    " (1, 1, 0, 'completed'), (2, 1, 1, 'completed');"
	    "INSERT INTO attempts (trial_id, number, token, job_id, dir, state,"
	    " started, ended, nodes, gpus, cpus) VALUES"
	    " (1, 0, 'a', '7.p1', 'd', 'completed', 1000, 1100, 1, 0, 1),"
	    " (2, 0, 'b', '7.p2', 'd', 'completed', 1000, 1080, 1, 0, 1);"
	    "INSERT INTO pilots (campaign_id, token, job_id, dir, started,"
	    " ended, nodes, gpus, cpus, state) VALUES"
	    " (1, 'p', '7', 'pd', 1000, 1100, 1, 0, 2, 'completed');");
}

/* The old campaign reads as it was written: whole nodes, idle clamped. */
static void
check_old(struct ledger *l, const char *how)
{
	struct account	 acct;

	read_account(l, "old", &acct);
	ok(fabs(acct.node_seconds - 180) < 1e-9,
	    "%s: node-seconds as written (each trial the whole node)", how);
	ok(fabs(acct.cpu_seconds - 200) < 1e-9,
	    "%s: CPU-seconds = the pilot's CPUs x elapsed", how);
	ok(acct.by_outcome[ACCT_OUT_PILOT_IDLE].node_seconds == 0,
	    "%s: no idle node-seconds", how);
	account_release(&acct);
}

/* A ledger of schema 5, read as it is, then migrated. */
static void
test_migration(void)
{
	struct ledger_attempt	*at;
	struct ledger		*l;
	char			 path[128];
	size_t			 n;

	snprintf(path, sizeof(path), "%s/v5.db", tmpdir);
	make_v5(path);
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	is_int(ledger_schema_version(l), 5, "read only: left at schema 5");
	check_old(l, "read only");
	ok(ledger_attempt_list(l, 1, 0, &at, &n) == 0 && n == 2 &&
	    at[0].node_share == 1 && at[1].node_share == 1,
	    "read only: each attempt lists 1 node charged");
	ledger_attempt_list_free(at, n);
	ledger_close(l);

	l = ledger_tmp_open_file(path, 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "a schema-5 ledger is migrated to the latest");
	check_old(l, "migrated");
	ok(ledger_attempt_list(l, 1, 0, &at, &n) == 0 && n == 2 &&
	    at[0].node_share == 1 && at[1].node_share == 1,
	    "migrated: each attempt lists 1 node charged");
	ledger_attempt_list_free(at, n);
	ledger_close(l);
}

/*
 * The same pilot today: each trial is charged half the node (1 of its 2
 * CPUs), 50 + 40 node-seconds, and the pilot's idle node-seconds are the
 * rest of its 100: the total is the pilot's nodes x elapsed.
 */
static void
test_share(void)
{
	struct ledger_campaign	 c = { .name = "new", .started = 1000 };
	struct ledger_trial	 t = { .number = 0, .state = "completed",
	    .params_json = "{}", .created = 1000 };
	struct ledger_attempt	 a = { .dir = "d", .created = 1000 }, *at;
	struct account		 acct;
	struct ledger		*l;
	const struct account_cost *idle;
	char			 path[128], token[8], job[8];
	double			 end[2] = { 1100, 1080 };
	int64_t			 cid, tid, aid;
	size_t			 n;
	int			 i, rc = 0;

	snprintf(path, sizeof(path), "%s/v5.db", tmpdir);
	l = ledger_tmp_open_file(path, 0);
	rc |= ledger_campaign_insert(l, &c, &cid);
	rc |= ledger_pilot_submitted(l, cid, "q", "pd", 990);
	rc |= ledger_pilot_started(l, "q", "8", 1000, 1, 0, 2, "h");
	t.campaign_id = cid;
	for (i = 0; i < 2; i++) {
		t.number = i;
		snprintf(token, sizeof(token), "n%d", i);
		snprintf(job, sizeof(job), "8.p%d", i + 1);
		rc |= ledger_trial_insert(l, &t, &tid);
		a.trial_id = tid;
		a.token = token;
		rc |= ledger_attempt_insert(l, &a, &aid);
		rc |= ledger_attempt_started(l, aid, job, 1000, 1, 0, 1, 0.5,
		    "h");
		rc |= ledger_attempt_finished(l, aid, "completed", end[i], 0,
		    0, NULL);
	}
	rc |= ledger_pilot_ended(l, "q", 0, 1100, "completed", 0);
	ok(rc == 0, "a pilot campaign is recorded");
	read_account(l, "new", &acct);
	idle = &acct.by_outcome[ACCT_OUT_PILOT_IDLE];
	is_near(acct.by_outcome[ACCT_OUT_COMPLETED].node_seconds, 90, 1e-9,
	    "the trials are charged their shares: 50 + 40 node-seconds");
	is_near(idle->node_seconds, 10, 1e-9,
	    "the pilot's idle node-seconds are the rest");
	is_near(acct.node_seconds, 100, 1e-9,
	    "node-seconds = the pilot's nodes x elapsed");
	is_near(acct.cpu_seconds, 200, 1e-9,
	    "CPU-seconds = the pilot's CPUs x elapsed");
	ok(ledger_attempt_list(l, cid, 0, &at, &n) == 0 && n == 2 &&
	    at[0].node_share == 0.5 && at[1].node_share == 0.5,
	    "each attempt lists its share");
	ledger_attempt_list_free(at, n);
	account_release(&acct);
	ledger_close(l);
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	read_account(l, "new", &acct);
	is_near(acct.node_seconds, 100, 1e-9, "the same, read only");
	account_release(&acct);
	check_old(l, "read only, latest schema");
	ledger_close(l);
}

int
main(void)
{
	if (ledger_tmp_dir("test_ledger_share", tmpdir, sizeof(tmpdir)) == -1)
		return 1;
	test_migration();
	test_share();
	ledger_tmp_remove(tmpdir);
	return tap_done();
}
