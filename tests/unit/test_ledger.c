/*
 * test_ledger.c: the SQLite ledger and its accounting, on ledgers in a
 * private temporary directory.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "account.h"
#include "ledger.h"
#include "ledger_int.h"
#include "ledger_tmp.h"
#include "tap.h"

static char tmpdir[64];

/* The path of name inside the temporary directory (a static buffer). */
static const char *
path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

/* Read one text value with plain SQLite into buf. */
static void
raw_text(const char *path, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;
	sqlite3 *db;

	buf[0] = '\0';
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0) != NULL)
			snprintf(buf, len, "%s", sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

/* A new ledger is at the latest schema version and in WAL mode. */
static void
test_new(void)
{
	struct ledger *l;
	char buf[64];

	l = ledger_tmp_open_file(path_of("new.db"), 0);
	ok(ledger_schema_latest() >= 1, "schema latest is at least 1");
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "new ledger has the latest schema version");
	ok(access(path_of("new.db-wal"), F_OK) == 0,
	    "write-ahead log exists while open");
	ledger_close(l);
	raw_text(path_of("new.db"), "PRAGMA journal_mode", buf, sizeof(buf));
	is_str(buf, "wal", "journal mode is WAL");
	raw_text(path_of("new.db"), "PRAGMA user_version", buf, sizeof(buf));
	snprintf(buf + 32, 32, "%d", ledger_schema_latest());
	is_str(buf, buf + 32, "user_version on disk is the latest");
}

/* Write the campaign, trials, attempts and metrics that test_reopen checks. */
static int64_t
fill(struct ledger *l)
{
	struct ledger_campaign c = {
		.name = "bs-sweep", .workload = "cosmoflow", .backend = "local",
		.spec_json = "{\"name\":\"bs-sweep\"}",
		.spec_path = "/etc/hpod/bs.json", .metric = "val_loss",
		.has_target = 1, .target = 0.124, .started = 1000.5,
		.max_trials = 8,
	};
	struct ledger_trial t = { .params_json = "{\"lr\":0.01}",
	    .batch_size = 256, .seed = 42, .created = 1001 };
	struct ledger_attempt a = { .dir = "/var/hpod/0/0", .created = 1002 };
	int64_t cid, tid[2], aid[3];

	ok(ledger_campaign_insert(l, &c, &cid) == 0, "insert campaign");
	ok(ledger_begin(l) == 0, "begin");
	t.campaign_id = cid;
	ok(ledger_trial_insert(l, &t, &tid[0]) == 0, "insert trial 0");
	t.number = 1;
	t.params_json = "{\"lr\":0.1}";
	t.batch_size = 512;
	ok(ledger_trial_insert(l, &t, &tid[1]) == 0, "insert trial 1");
	a.trial_id = tid[0];
	a.token = "tok-0-0";
	ok(ledger_attempt_insert(l, &a, &aid[0]) == 0, "insert attempt 0/0");
	a.trial_id = tid[1];
	a.token = "tok-1-0";
	ok(ledger_attempt_insert(l, &a, &aid[1]) == 0, "insert attempt 1/0");
	a.number = 1;
	a.token = "tok-1-1";
	ok(ledger_attempt_insert(l, &a, &aid[2]) == 0, "insert attempt 1/1");
	ok(ledger_commit(l) == 0, "commit");

	ok(ledger_attempt_submitted(l, aid[0], "1234", 1010) == 0 &&
	    ledger_attempt_started(l, aid[0], NULL, 1020, 1, 2, 4, 0,
	    "n01") == 0 &&
	    ledger_attempt_finished(l, aid[0], "completed", 1420, 0, 0,
	    NULL) == 0, "attempt 0/0 submitted, started, finished");
	ok(ledger_attempt_submitted(l, aid[1], "1235", 1030) == 0 &&
	    ledger_attempt_finished(l, aid[1], "node_fail", 1040, -1, 9,
	    "node n02 down") == 0, "attempt 1/0 failed in the queue");
	ok(ledger_attempt_started(l, aid[2], "1236", 1050, 2, 8, 16, 0,
	    "n03") == 0, "attempt 1/1 started");
	/* Its log re-read after a restart: the first run_start stays. */
	ok(ledger_attempt_run_start(l, aid[2], 1061.25) == 0 &&
	    ledger_attempt_run_start(l, aid[2], 1099) == 0,
	    "attempt 1/1 logged run_start");
	ok(ledger_trial_set_state(l, tid[0], "completed") == 0 &&
	    ledger_trial_set_state(l, tid[1], "running") == 0,
	    "trial states");
	ok(ledger_trial_set_best(l, tid[0], 0.12, 7, 1, 1300) == 0,
	    "trial 0 best");
	ok(ledger_metric_insert(l, aid[0], 1, "val_loss", 0.5, 1100) == 0 &&
	    ledger_metric_insert(l, aid[0], 2, "val_loss", 0.12, 1200) == 0 &&
	    ledger_metric_insert(l, aid[0], 1, "epoch_time", 30, 1100) == 0 &&
	    ledger_metric_insert(l, aid[2], 1, "val_loss", 0.7, 1150) == 0,
	    "insert metrics");
	ok(ledger_metric_insert(l, aid[0], 1, "val_loss", 9.9, 1999) == 0,
	    "repeated metric point accepted");
	ok(ledger_event(l, cid, "start", "campaign started") == 0 &&
	    ledger_event(l, 0, "daemon", "daemon started") == 0, "events");
	return cid;
}

/* Check that what fill() wrote reads back identical. */
static void
check_contents(struct ledger *l, int64_t cid, const char *how)
{
	struct ledger_campaign c;
	struct ledger_trial *t;
	struct ledger_attempt *a;
	struct ledger_metric *m;
	size_t n;
	char name[128];

#define NAME(s)	(snprintf(name, sizeof(name), "%s: %s", how, s), name)
	ok(ledger_campaign_get(l, cid, &c) == 0, "%s", NAME("get campaign"));
	is_str(c.name, "bs-sweep", NAME("campaign name"));
	is_str(c.workload, "cosmoflow", NAME("campaign workload"));
	is_str(c.backend, "local", NAME("campaign backend"));
	is_str(c.spec_json, "{\"name\":\"bs-sweep\"}", NAME("campaign spec"));
	is_str(c.spec_path, "/etc/hpod/bs.json", NAME("campaign spec path"));
	is_str(c.state, "running", NAME("campaign state"));
	is_str(c.metric, "val_loss", NAME("campaign metric"));
	ok(c.maximize == 0 && c.has_target == 1 && c.target == 0.124 &&
	    c.started == 1000.5 && c.ended == 0 && c.max_trials == 8,
	    "%s", NAME("campaign numbers"));
	ledger_campaign_release(&c);

	ok(ledger_trial_list(l, cid, &t, &n) == 0, "%s", NAME("list trials"));
	is_int(n, 2, NAME("two trials"));
	if (n == 2) {
		ok(t[0].number == 0 && t[1].number == 1,
		    "%s", NAME("trials by number"));
		is_str(t[0].params_json, "{\"lr\":0.01}",
		    NAME("trial 0 params"));
		is_str(t[1].params_json, "{\"lr\":0.1}",
		    NAME("trial 1 params"));
		is_str(t[0].state, "completed", NAME("trial 0 state"));
		is_str(t[1].state, "running", NAME("trial 1 state"));
		ok(t[0].batch_size == 256 && t[1].batch_size == 512 &&
		    t[0].seed == 42 && t[0].created == 1001 &&
		    t[0].campaign_id == cid, "%s", NAME("trial numbers"));
		ok(t[0].has_best && t[0].best == 0.12 && t[0].best_step == 7 &&
		    t[0].reached && t[0].reached_at == 1300,
		    "%s", NAME("trial 0 best"));
		ok(!t[1].has_best && !t[1].reached && t[1].reached_at == 0,
		    "%s", NAME("trial 1 has no best"));
		ok(t[0].attempts == 1 && t[1].attempts == 2,
		    "%s", NAME("attempt counts"));
		{
			struct ledger_trial one;

			ok(ledger_trial_get(l, t[1].id, &one) == 0 &&
			    one.number == 1 && one.attempts == 2 &&
			    strcmp(one.params_json, "{\"lr\":0.1}") == 0,
			    "%s", NAME("get one trial by id"));
			ledger_trial_release(&one);
			is_int(ledger_trial_get(l, 99999, &one), 1,
			    NAME("get a missing trial"));
		}
	}
	ledger_trial_list_free(t, n);

	ok(ledger_attempt_list(l, cid, 0, &a, &n) == 0,
	    "%s", NAME("list attempts"));
	is_int(n, 3, NAME("three attempts"));
	if (n == 3) {
		ok(a[0].trial_number == 0 && a[0].number == 0 &&
		    a[1].trial_number == 1 && a[1].number == 0 &&
		    a[2].trial_number == 1 && a[2].number == 1,
		    "%s", NAME("attempts by trial and number"));
		is_str(a[0].token, "tok-0-0", NAME("attempt 0/0 token"));
		is_str(a[0].job_id, "1234", NAME("attempt 0/0 job"));
		is_str(a[0].dir, "/var/hpod/0/0", NAME("attempt 0/0 dir"));
		is_str(a[0].state, "completed", NAME("attempt 0/0 state"));
		is_str(a[0].host, "n01", NAME("attempt 0/0 host"));
		ok(a[0].created == 1002 && a[0].submitted == 1010 &&
		    a[0].started == 1020 && a[0].ended == 1420 &&
		    a[0].nodes == 1 && a[0].gpus == 2 && a[0].cpus == 4 &&
		    a[0].exit_code == 0 && a[0].signal == 0 &&
		    a[0].reason == NULL, "%s", NAME("attempt 0/0 numbers"));
		is_str(a[1].state, "node_fail", NAME("attempt 1/0 state"));
		is_str(a[1].reason, "node n02 down",
		    NAME("attempt 1/0 reason"));
		ok(a[1].exit_code == -1 && a[1].signal == 9 &&
		    a[1].started == 0 && a[1].host == NULL,
		    "%s", NAME("attempt 1/0 numbers"));
		is_str(a[2].state, "running", NAME("attempt 1/1 state"));
		is_str(a[2].job_id, "1236", NAME("attempt 1/1 job"));
		ok(a[2].submitted == 0 && a[2].ended == 0 &&
		    a[2].exit_code == -1, "%s", NAME("attempt 1/1 numbers"));
		ok(a[2].run_start == 1061.25 && a[0].run_start == 0,
		    "%s", NAME("attempt 1/1's first run_start, 0/0 none"));
	}
	ledger_attempt_list_free(a, n);
	ok(ledger_attempt_list(l, cid, 1, &a, &n) == 0 && n == 1 &&
	    strcmp(a[0].token, "tok-1-1") == 0,
	    "%s", NAME("one unfinished attempt"));
	ledger_attempt_list_free(a, n);

	ok(ledger_metric_list(l, cid, NULL, &m, &n) == 0,
	    "%s", NAME("list metrics"));
	is_int(n, 4, NAME("four metric points"));
	if (n == 4) {
		ok(strcmp(m[0].key, "epoch_time") == 0 && m[0].step == 1 &&
		    strcmp(m[1].key, "val_loss") == 0 && m[1].step == 1 &&
		    m[2].step == 2 && m[3].trial_number == 1,
		    "%s", NAME("metrics by trial, attempt, step"));
		ok(m[1].value == 0.5 && m[1].time == 1100,
		    "%s", NAME("repeated point kept the first value"));
	}
	ledger_metric_list_free(m, n);
	ok(ledger_metric_list(l, cid, "val_loss", &m, &n) == 0 && n == 3 &&
	    m[0].trial_number == 0 && m[2].trial_number == 1 &&
	    m[2].value == 0.7, "%s", NAME("metrics of one key"));
	ledger_metric_list_free(m, n);
#undef NAME
}

/* What is written survives closing and reopening, writable or not. */
static void
test_reopen(void)
{
	struct ledger *l, *r;
	struct ledger_trial t = { .number = 5, .created = 1 }, *list;
	int64_t cid, id;
	size_t n;

	l = ledger_tmp_open_file(path_of("rt.db"), 0);
	cid = fill(l);
	check_contents(l, cid, "same handle");
	ledger_close(l);

	l = ledger_tmp_open_file(path_of("rt.db"), 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "reopen keeps the schema version");
	check_contents(l, cid, "reopened");
	ledger_close(l);

	l = ledger_tmp_open_file(path_of("rt.db"), LEDGER_READONLY);
	check_contents(l, cid, "read-only");
	t.campaign_id = cid;
	ok(ledger_trial_insert(l, &t, &id) == -1, "read-only refuses writes");
	like(ledger_error(l), "insert trial 5: ", "  and says what failed");
	like(ledger_error(l), "readonly", "  and why");
	ledger_close(l);

	l = ledger_tmp_open_file(path_of("rt.db"), 0);
	r = ledger_tmp_open_file(path_of("rt.db"), LEDGER_READONLY);
	ok(ledger_begin(l) == 0 && ledger_trial_insert(l, &t, &id) == 0,
	    "writer adds a trial while a reader is open");
	ok(ledger_trial_list(r, cid, &list, &n) == 0 && n == 2,
	    "reader does not see the uncommitted trial");
	ledger_trial_list_free(list, n);
	ok(ledger_commit(l) == 0, "writer commits");
	ok(ledger_trial_list(r, cid, &list, &n) == 0 && n == 3 &&
	    list[2].number == 5, "reader sees the committed trial");
	ledger_trial_list_free(list, n);
	ledger_close(r);
	ledger_close(l);
}

/* Campaigns are found by id or by name, the newest name winning. */
static void
test_find(void)
{
	struct ledger *l;
	struct ledger_campaign c = { .name = "a", .started = 1 }, out;
	struct ledger_campaign *list;
	int64_t id[3];
	char idstr[32];
	size_t n;

	l = ledger_tmp_open_file(path_of("find.db"), 0);
	ledger_campaign_insert(l, &c, &id[0]);
	c.name = "b";
	ledger_campaign_insert(l, &c, &id[1]);
	c.name = "a";
	c.spec_json = "{\"second\":true}";
	ledger_campaign_insert(l, &c, &id[2]);

	ok(ledger_campaign_find(l, "a", &out) == 0 && out.id == id[2],
	    "by name: the newest");
	is_str(out.spec_json, "{\"second\":true}", "  with its own spec");
	ledger_campaign_release(&out);
	snprintf(idstr, sizeof(idstr), "%lld", (long long)id[0]);
	ok(ledger_campaign_find(l, idstr, &out) == 0 && out.id == id[0],
	    "by id");
	is_str(out.name, "a", "  its name");
	ledger_campaign_release(&out);
	is_int(ledger_campaign_find(l, "nope", &out), 1, "missing name: 1");
	is_int(ledger_campaign_find(l, "999", &out), 1, "missing id: 1");
	is_int(ledger_campaign_find(l, "", &out), 1, "empty name: 1");

	ok(ledger_campaign_set_state(l, id[1], "finished", 50) == 0,
	    "set campaign state");
	ok(ledger_campaign_set_state(l, 999, "finished", 50) == -1,
	    "set state of a missing campaign fails");
	like(ledger_error(l), "campaign 999: not found", "  saying so");
	ok(ledger_campaign_set_state(l, id[0], "bogus", 0) == -1,
	    "a bad campaign state is refused");
	like(ledger_error(l), "CHECK constraint failed", "  by the schema");
	ok(ledger_campaign_list(l, NULL, &list, &n) == 0 && n == 3 &&
	    list[0].id == id[0] && list[2].id == id[2],
	    "list all, oldest first");
	ledger_campaign_list_free(list, n);
	ok(ledger_campaign_list(l, "finished", &list, &n) == 0 && n == 1 &&
	    list[0].id == id[1] && list[0].ended == 50, "list by state");
	ledger_campaign_list_free(list, n);
	ledger_close(l);
}

/* Duplicates are refused (tokens, trial numbers) or ignored (metrics). */
static void
test_duplicates(void)
{
	struct ledger *l;
	struct ledger_campaign c = { .name = "dup", .started = 1 };
	struct ledger_trial t = { .created = 1 };
	struct ledger_attempt a = { .token = "tok", .dir = "d", .created = 1 };
	struct ledger_metric *m;
	int64_t cid, aid, id;
	size_t n;

	l = ledger_tmp_open_file(path_of("dup.db"), 0);
	ledger_campaign_insert(l, &c, &cid);
	t.campaign_id = cid;
	ledger_trial_insert(l, &t, &a.trial_id);
	ok(ledger_trial_insert(l, &t, &id) == -1, "duplicate trial refused");
	like(ledger_error(l), "insert trial 0: UNIQUE constraint failed",
	    "  with a message");
	ok(ledger_attempt_insert(l, &a, &aid) == 0, "insert attempt");
	a.number = 1;
	ok(ledger_attempt_insert(l, &a, &id) == -1,
	    "duplicate token refused");
	like(ledger_error(l), "insert attempt 'tok': UNIQUE constraint"
	    " failed: attempts.token", "  with a message");
	a.token = NULL;
	ok(ledger_attempt_insert(l, &a, &id) == -1, "attempt needs a token");
	like(ledger_error(l), "token", "  saying so");
	t.number = 1;
	t.campaign_id = 999;
	ok(ledger_trial_insert(l, &t, &id) == -1,
	    "trial of a missing campaign refused");
	like(ledger_error(l), "FOREIGN KEY", "  by the foreign key");

	ok(ledger_metric_insert(l, aid, 3, "loss", 1.5, 10) == 0, "metric");
	ok(ledger_metric_insert(l, aid, 3, "loss", 2.5, 11) == 0,
	    "duplicate metric ignored without error");
	ok(ledger_metric_insert(l, aid, 3, "acc", NAN, 11) == 0,
	    "NaN metric stored");
	ok(ledger_metric_list(l, cid, NULL, &m, &n) == 0 && n == 2 &&
	    strcmp(m[1].key, "loss") == 0 && m[1].value == 1.5 &&
	    isnan(m[0].value), "one point per (attempt, key, step)");
	ledger_metric_list_free(m, n);
	ledger_close(l);
}

/* Files that are not ledgers are refused with a clear message. */
static void
test_bad_files(void)
{
	struct ledger *l;
	char err[512];
	FILE *f;

	if ((f = fopen(path_of("text.db"), "w")) != NULL) {
		fputs("this is not a database, just some text\n", f);
		fputs("with a few lines in it to fill a page or so\n", f);
		fclose(f);
	}
	l = ledger_open(path_of("text.db"), 0, err, sizeof(err));
	ok(l == NULL, "a text file is refused");
	like(err, "text.db", "  naming the file");
	like(err, "file is not a database", "  saying why");
	l = ledger_open(path_of("text.db"), LEDGER_READONLY, err, sizeof(err));
	ok(l == NULL, "a text file is refused read-only too");
	like(err, "file is not a database", "  saying why");

	l = ledger_open(path_of("missing.db"), LEDGER_READONLY, err,
	    sizeof(err));
	ok(l == NULL, "read-only open of a missing file fails");
	like(err, "missing.db", "  naming the file");
	like(err, "unable to open", "  saying why");
	like(err, "(No such file or directory)", "  and that it is missing");
	ok(access(path_of("missing.db"), F_OK) == -1, "  and creates nothing");
	mkdir(path_of("dir.db"), 0700);
	l = ledger_open(path_of("dir.db"), LEDGER_READONLY, err, sizeof(err));
	ok(l == NULL, "a directory is refused read-only");
	like(err, "(a directory)", "  saying it is one");
	l = ledger_open(path_of("dir.db"), 0, err, sizeof(err));
	ok(l == NULL, "and to write");
	like(err, "(a directory)", "  saying it is one");

	ledger_tmp_sql(path_of("other.db"), "CREATE TABLE x (y)");
	l = ledger_open(path_of("other.db"), 0, err, sizeof(err));
	ok(l == NULL, "another application's database is refused");
	like(err, "not an hpod ledger", "  as not a ledger");

	ledger_tmp_sql(path_of("empty.db"), "PRAGMA user_version = 0");
	l = ledger_open(path_of("empty.db"), LEDGER_READONLY, err,
	    sizeof(err));
	ok(l == NULL, "an empty database is refused read-only");
	like(err, "not an hpod ledger", "  as not a ledger");

	l = ledger_tmp_open_file(path_of("newer.db"), 0);
	ledger_close(l);
	ledger_tmp_sql(path_of("newer.db"), "PRAGMA user_version = 99");
	l = ledger_open(path_of("newer.db"), 0, err, sizeof(err));
	ok(l == NULL, "a ledger from a newer build is refused");
	like(err, "schema version 99 is newer", "  saying so");
	l = ledger_open(path_of("newer.db"), LEDGER_READONLY, err,
	    sizeof(err));
	ok(l == NULL, "  read-only too");
}

/* Reopening a migrated ledger runs no migration and keeps its data. */
static void
test_migrations(void)
{
	struct ledger *l;
	struct ledger_campaign c = { .name = "m", .started = 1 }, out;
	int64_t cid;
	char buf[64];

	ledger_tmp_sql(path_of("old.db"), "PRAGMA user_version = 0");
	l = ledger_tmp_open_file(path_of("old.db"), 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "an empty database is migrated");
	ledger_campaign_insert(l, &c, &cid);
	ledger_close(l);
	ledger_tmp_sql(path_of("old.db"), "CREATE TABLE marker (x);"
	    "INSERT INTO marker VALUES ('kept')");

	l = ledger_tmp_open_file(path_of("old.db"), 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "user_version unchanged on reopen");
	ok(ledger_campaign_get(l, cid, &out) == 0 &&
	    strcmp(out.name, "m") == 0, "data intact");
	ledger_campaign_release(&out);
	ledger_close(l);
	raw_text(path_of("old.db"), "SELECT x FROM marker", buf, sizeof(buf));
	is_str(buf, "kept", "no migration ran over the existing schema");
	raw_text(path_of("old.db"), "SELECT count(*) FROM campaigns", buf,
	    sizeof(buf));
	is_str(buf, "1", "no campaign lost or added");
}

/* A version-1 ledger (before campaigns.driver) is migrated in place. */
static void
test_migration_v2(void)
{
	struct ledger *l;
	struct ledger_campaign out;
	char buf[64], sql[128];

	ledger_tmp_sql(path_of("v1.db"), ledger_migrations[0]);
	ledger_tmp_sql(path_of("v1.db"), "PRAGMA user_version = 1;"
	    "INSERT INTO campaigns (name, state, started) VALUES ('old', "
	    "'running', 5)");
	l = ledger_tmp_open_file(path_of("v1.db"), 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "a version-1 ledger is migrated to the latest");
	ok(ledger_campaign_find(l, "old", &out) == 0, "its campaign is kept");
	is_str(out.driver, "daemon", "and belongs to the daemon");
	is_int((long long)out.started, 5, "with its data");
	ledger_campaign_release(&out);
	ledger_close(l);
	raw_text(path_of("v1.db"), "PRAGMA user_version", buf, sizeof(buf));
	snprintf(sql, sizeof(sql), "%d", ledger_schema_latest());
	is_str(buf, sql, "user_version on disk is the latest");
}

/* Add a trial with the given state to campaign cid. */
static int64_t
add_trial(struct ledger *l, int64_t cid, int number, const char *state,
    const char *params)
{
	struct ledger_trial t = { .campaign_id = cid, .number = number,
	    .state = (char *)state, .params_json = (char *)params,
	    .created = 1000 };
	int64_t id = 0;

	if (ledger_trial_insert(l, &t, &id) == -1)
		printf("# %s\n", ledger_error(l));
	return id;
}

/* Add an attempt of a trial; times 0 are skipped. */
static void
add_attempt(struct ledger *l, int64_t tid, int number, const char *state,
    double submitted, double started, double ended, int nodes, int gpus,
    int cpus)
{
	struct ledger_attempt a = { .trial_id = tid, .number = number,
	    .dir = "d", .created = 999 };
	char token[64];
	int64_t id;
	int rc;

	snprintf(token, sizeof(token), "t%lld-%d", (long long)tid, number);
	a.token = token;
	rc = ledger_attempt_insert(l, &a, &id);
	if (rc == 0 && submitted)
		rc = ledger_attempt_submitted(l, id, "j", submitted);
	if (rc == 0 && started)
		rc = ledger_attempt_started(l, id, NULL, started, nodes, gpus,
		    cpus, 0, "h");
	if (rc == 0 && ended)
		rc = ledger_attempt_finished(l, id, state, ended, 0, 0, NULL);
	if (rc == -1)
		printf("# %s\n", ledger_error(l));
}

/*
 * The accounting of a hand-made campaign; at now = 2000:
 *   trial  state      attempt  submit start end   alloc    elapsed queue
 *   0      completed  0        1010   1020  1420  1/2/4    400     10
 *   1      completed  0        1030   1050  1150  2/8/16   100     20
 *                     1        1160   1200  1700  2/8/16   500     40
 *   2      running    0        1300   1400  -     1/4/8    600     100
 *   3      pending    0        1900   -     -     -        -       100
 *   4      cancelled  0        1100   -     1130  -        -       30
 * node-s 400+200+1000+600 = 2200, gpu-s 800+800+4000+2400 = 8000,
 * cpu-s 1600+1600+8000+4800 = 16000, elapsed 1600, queue 300.
 * Trial 0 reaches at 1500 (best 0.30), trial 1 at 1650 (best 0.30),
 * trial 2 has best 0.20 unreached; the campaign started at 1000.
 */
static void
test_account(void)
{
	struct ledger *l;
	struct ledger_campaign c = { .name = "acct", .metric = "loss",
	    .has_target = 1, .target = 0.3, .started = 1000 }, o = c;
	struct account ac;
	int64_t cid, oid, t[5], ot;

	l = ledger_tmp_open_file(path_of("acct.db"), 0);
	ledger_campaign_insert(l, &c, &cid);
	c.id = cid;
	ledger_begin(l);
	t[0] = add_trial(l, cid, 0, "completed", "{\"lr\":0.1}");
	t[1] = add_trial(l, cid, 1, "completed", "{\"lr\":0.2}");
	t[2] = add_trial(l, cid, 2, "running", "{\"lr\":0.3}");
	t[3] = add_trial(l, cid, 3, "pending", "{\"lr\":0.4}");
	t[4] = add_trial(l, cid, 4, "cancelled", "{\"lr\":0.5}");
	add_attempt(l, t[0], 0, "completed", 1010, 1020, 1420, 1, 2, 4);
	add_attempt(l, t[1], 0, "node_fail", 1030, 1050, 1150, 2, 8, 16);
	add_attempt(l, t[1], 1, "completed", 1160, 1200, 1700, 2, 8, 16);
	add_attempt(l, t[2], 0, NULL, 1300, 1400, 0, 1, 4, 8);
	add_attempt(l, t[3], 0, NULL, 1900, 0, 0, 0, 0, 0);
	add_attempt(l, t[4], 0, "cancelled", 1100, 0, 1130, 0, 0, 0);
	ledger_trial_set_best(l, t[0], 0.30, 5, 1, 1500);
	ledger_trial_set_best(l, t[1], 0.30, 4, 1, 1650);
	ledger_trial_set_best(l, t[2], 0.20, 3, 0, 0);
	/* A later report does not move the first time the target was met. */
	ledger_trial_set_best(l, t[1], 0.30, 6, 1, 1690);
	ok(ledger_commit(l) == 0, "hand-made campaign written");

	/* A second campaign whose cost must not leak into the first. */
	o.name = "other";
	ledger_campaign_insert(l, &o, &oid);
	o.id = oid;
	ot = add_trial(l, oid, 0, "completed", "{}");
	add_attempt(l, ot, 0, "completed", 1000, 1000, 1100, 100, 100, 100);
	ledger_trial_set_best(l, ot, 0.01, 1, 1, 1050);

	ok(account_campaign(l, &c, 2000, &ac) == 0, "account campaign");
	ok(ac.trials[TRIAL_PENDING] == 1 && ac.trials[TRIAL_RUNNING] == 1 &&
	    ac.trials[TRIAL_COMPLETED] == 2 && ac.trials[TRIAL_FAILED] == 0 &&
	    ac.trials[TRIAL_PRUNED] == 0 && ac.trials[TRIAL_CANCELLED] == 1 &&
	    ac.trials_total == 5, "trials by state");
	is_int(ac.attempts, 6, "attempts");
	is_int(ac.attempts_retried, 1, "retried attempts");
	is_near(ac.node_seconds, 2200, 1e-9, "node-seconds");
	is_near(ac.gpu_seconds, 8000, 1e-9, "gpu-seconds");
	is_near(ac.cpu_seconds, 16000, 1e-9, "cpu-seconds");
	is_near(ac.elapsed_seconds, 1600, 1e-9, "elapsed seconds");
	is_near(ac.queue_seconds, 300, 1e-9, "queue seconds");
	is_int(ac.reached, 2, "trials that reached the target");
	ok(ac.has_tts, "has time to solution");
	is_near(ac.tts_seconds, 500, 1e-9, "time to solution");
	is_int(ac.tts_trial, 0, "tts trial");
	ok(ac.has_best, "has best");
	is_int(ac.best_trial, 2, "best trial (minimize)");
	is_near(ac.best_value, 0.20, 1e-12, "best value");
	is_int(ac.best_reached, 0, "best did not reach");
	is_str(ac.best_params_json, "{\"lr\":0.3}", "best params");
	is_near(ac.wall_seconds, 1000, 1e-9, "wall seconds while running");
	account_release(&ac);

	c.maximize = 1;
	c.ended = 2500;
	ok(account_campaign(l, &c, 3000, &ac) == 0, "account, maximizing");
	is_int(ac.best_trial, 0, "best trial (maximize, tie to lower number)");
	is_near(ac.best_value, 0.30, 1e-12, "best value (maximize)");
	is_int(ac.best_reached, 1, "best reached");
	is_str(ac.best_params_json, "{\"lr\":0.1}", "best params (maximize)");
	is_near(ac.wall_seconds, 1500, 1e-9, "wall seconds once ended");
	is_near(ac.node_seconds, 3200, 1e-9, "running attempt costs until now");
	account_release(&ac);

	ok(account_campaign(l, &o, 2000, &ac) == 0 && ac.attempts == 1 &&
	    ac.trials_total == 1 && ac.node_seconds == 10000 &&
	    ac.queue_seconds == 0 && ac.has_tts && ac.tts_seconds == 50,
	    "the other campaign counts only its own");
	account_release(&ac);

	o.id = 999;
	ok(account_campaign(l, &o, 2000, &ac) == 0 && ac.attempts == 0 &&
	    ac.trials_total == 0 && !ac.has_best && !ac.has_tts &&
	    ac.best_params_json == NULL, "an empty campaign costs nothing");
	account_release(&ac);
	ledger_close(l);
}

/* Run every test in a private temporary directory, then remove it. */
int
main(void)
{
	if (ledger_tmp_dir("test_ledger", tmpdir, sizeof(tmpdir)) == -1)
		return 1;
	test_new();
	test_reopen();
	test_find();
	test_duplicates();
	test_bad_files();
	test_migrations();
	test_migration_v2();
	test_account();
	ledger_tmp_remove(tmpdir);
	return tap_done();
}
