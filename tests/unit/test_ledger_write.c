/*
 * test_ledger_write.c: every ledger write that fails is an error returned
 * to its caller and said, naming the ledger and what failed, and leaves
 * the ledger as it was: writes refused (PRAGMA query_only), a full disk
 * (max_page_count), and binds that fail (a value longer than the
 * connection's SQLITE_LIMIT_LENGTH).
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ledger.h"
#include "ledger_int.h"
#include "tap.h"

/* What limit_length() allows, and a text longer than that. */
#define SHORT_LIMIT	1000
#define LONG_TEXT	20000

static char tmpdir[128];
static char ledger_file[256];
static char long_text[LONG_TEXT + 1];

/* Remove one file or directory for nftw(). */
static int
rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

/* The ids fill() wrote. */
struct ids {
	int64_t	 campaign, trial, attempt;
};

/* Open a fresh ledger with one campaign, trial and attempt in *ids. */
static struct ledger *
fill(const char *name, struct ids *ids)
{
	struct ledger_campaign c = { .name = "w", .spec_json = "{}",
	    .metric = "loss", .started = 1000 };
	struct ledger_trial t = { .params_json = "{\"lr\":0.1}",
	    .created = 1001 };
	struct ledger_attempt a = { .token = "tok-w", .dir = "/tmp/w",
	    .created = 1002 };
	struct ledger *l;
	char err[512];

	snprintf(ledger_file, sizeof(ledger_file), "%s/%s", tmpdir, name);
	if ((l = ledger_open(ledger_file, 0, err, sizeof(err))) == NULL) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	if (ledger_campaign_insert(l, &c, &ids->campaign) == -1 ||
	    (t.campaign_id = ids->campaign,
	    ledger_trial_insert(l, &t, &ids->trial)) == -1 ||
	    (a.trial_id = ids->trial,
	    ledger_attempt_insert(l, &a, &ids->attempt)) == -1) {
		printf("Bail out! fill: %s\n", ledger_error(l));
		exit(1);
	}
	return l;
}

/* The number sql (one integer) reads from the ledger, or -1. */
static long long
count(struct ledger *l, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* A text that sums up the ledger's rows, to see that nothing changed. */
static void
summary(struct ledger *l, char *buf, size_t len)
{
	snprintf(buf, len, "%lld %lld %lld %lld %lld %lld %lld",
	    count(l, "SELECT count(*) FROM campaigns"),
	    count(l, "SELECT count(*) FROM trials"),
	    count(l, "SELECT count(*) FROM attempts"),
	    count(l, "SELECT count(*) FROM metrics"),
	    count(l, "SELECT count(*) FROM events"),
	    count(l, "SELECT count(*) FROM priors"),
	    count(l, "SELECT total(length(spec_json)) + total(max_trials)"
	    " + total(length(state)) FROM campaigns") +
	    count(l, "SELECT total(length(state)) + total(has_best)"
	    " FROM trials") +
	    count(l, "SELECT total(length(state)) + total(coalesce(ended, 0))"
	    " + total(length(job_id)) FROM attempts"));
}

/* Check that rc is -1 and the error names the ledger, what and why. */
static void
refused(struct ledger *l, int rc, const char *what, const char *why)
{
	char name[300];

	snprintf(name, sizeof(name), "ledger '%s': ", ledger_file);
	ok(rc == -1, "%s: fails", what);
	like(ledger_error(l), name, "  naming the ledger");
	like(ledger_error(l), what, "  and what failed");
	like(ledger_error(l), why, "  and why");
}

/* Try every writer on l; each must be refused for why. */
static void
every_writer(struct ledger *l, const struct ids *ids, const char *why)
{
	struct ledger_campaign c = { .name = "x" };
	struct ledger_trial t = { .campaign_id = ids->campaign, .number = 7 };
	struct ledger_attempt a = { .trial_id = ids->trial, .number = 1,
	    .token = "tok-x", .dir = "/tmp/x", .created = 1 };
	struct ledger_prior p = { .number = 0, .source = "s",
	    .params_json = "{}", .state = "completed" };
	int64_t id;

	refused(l, ledger_campaign_insert(l, &c, &id), "insert campaign 'x'",
	    why);
	refused(l, ledger_campaign_set_state(l, ids->campaign, "finished",
	    2000), "set state of campaign", why);
	refused(l, ledger_campaign_set_budget(l, ids->campaign, "{\"a\":1}",
	    9), "set budget of campaign", why);
	refused(l, ledger_trial_insert(l, &t, &id), "insert trial 7", why);
	refused(l, ledger_trial_set_state(l, ids->trial, "running"),
	    "set state of trial", why);
	refused(l, ledger_trial_set_best(l, ids->trial, 0.5, 3, 0, 0),
	    "set best of trial", why);
	refused(l, ledger_attempt_insert(l, &a, &id), "insert attempt 'tok-x'",
	    why);
	refused(l, ledger_attempt_submitted(l, ids->attempt, "42", 1003),
	    "record submission of attempt", why);
	refused(l, ledger_attempt_started(l, ids->attempt, "42", 1004, 1, 0,
	    1, 0, "h"), "record start of attempt", why);
	refused(l, ledger_attempt_finished(l, ids->attempt, "completed", 1005,
	    0, 0, NULL), "record end of attempt", why);
	refused(l, ledger_metric_insert(l, ids->attempt, 1, "loss", 0.5,
	    1004), "insert metric 'loss'", why);
	refused(l, ledger_event(l, ids->campaign, "note", "hello"),
	    "log event 'note'", why);
	refused(l, ledger_prior_insert(l, ids->campaign, &p), "insert prior 0",
	    why);
}

/* A ledger on which writes are refused refuses each, and says so. */
static void
test_query_only(void)
{
	struct ledger *l;
	struct ids ids;
	char before[256], after[256];

	l = fill("ro.db", &ids);
	summary(l, before, sizeof(before));
	ok(sqlite3_exec(l->db, "PRAGMA query_only = 1", NULL, NULL, NULL) ==
	    SQLITE_OK, "writes refused from now on");
	every_writer(l, &ids, "readonly");
	summary(l, after, sizeof(after));
	is_str(after, before, "nothing was written");
	ledger_close(l);
}

/*
 * A full disk fails each write that needs room (here, for a long text),
 * and says so; once there is room again, writes succeed.
 */
static void
test_full(void)
{
	struct ledger_trial t = { .number = 3, .params_json = long_text,
	    .created = 1 };
	struct ledger_prior p = { .number = 0, .source = "s",
	    .params_json = long_text, .state = "completed" };
	struct ledger *l;
	struct ids ids;
	char before[256], after[256];
	const char *why = "database or disk is full";
	int64_t id;

	l = fill("full.db", &ids);
	ok(sqlite3_exec(l->db, "PRAGMA max_page_count = 1", NULL, NULL,
	    NULL) == SQLITE_OK, "the ledger can grow no more");
	ok(count(l, "PRAGMA freelist_count") * count(l, "PRAGMA page_size") <
	    LONG_TEXT, "  nor has room for a long text");
	summary(l, before, sizeof(before));
	t.campaign_id = ids.campaign;
	refused(l, ledger_trial_insert(l, &t, &id), "insert trial 3", why);
	refused(l, ledger_campaign_set_budget(l, ids.campaign, long_text, 5),
	    "set budget of campaign", why);
	refused(l, ledger_attempt_finished(l, ids.attempt, "failed", 1005, 1,
	    0, long_text), "record end of attempt", why);
	refused(l, ledger_event(l, ids.campaign, "note", long_text),
	    "log event 'note'", why);
	refused(l, ledger_prior_insert(l, ids.campaign, &p), "insert prior 0",
	    why);
	summary(l, after, sizeof(after));
	is_str(after, before, "nothing was written");
	ok(sqlite3_exec(l->db, "PRAGMA max_page_count = 1000000", NULL, NULL,
	    NULL) == SQLITE_OK, "room again");
	ok(ledger_event(l, ids.campaign, "note", long_text) == 0 &&
	    ledger_trial_insert(l, &t, &id) == 0, "writes succeed again");
	ledger_close(l);
}

/* Limit the length of a value bound on l's connection. */
static void
limit_length(struct ledger *l)
{
	sqlite3_limit(l->db, SQLITE_LIMIT_LENGTH, SHORT_LIMIT);
	ok(sqlite3_limit(l->db, SQLITE_LIMIT_LENGTH, -1) == SHORT_LIMIT,
	    "values are limited to %d bytes", SHORT_LIMIT);
}

/*
 * A value that cannot be bound fails its write, where it would be written
 * as NULL, or as the column's default, without a word.
 */
static void
test_bind(void)
{
	struct ledger_trial t = { .number = 3, .params_json = long_text,
	    .created = 1 };
	struct ledger_trial *list;
	struct ledger_metric *m;
	struct ledger *l;
	struct ids ids;
	char before[256], after[256];
	const char *why = "bind parameter ";
	int64_t id;
	size_t n;

	l = fill("bind.db", &ids);
	ok(ledger_metric_insert(l, ids.attempt, 1, "loss", 0.5, 1004) == 0,
	    "a metric point");
	limit_length(l);
	summary(l, before, sizeof(before));
	t.campaign_id = ids.campaign;
	refused(l, ledger_trial_insert(l, &t, &id), "insert trial 3", why);
	like(ledger_error(l), "insert trial 3: bind parameter 3: string or"
	    " blob too big", "  the third, too long");
	refused(l, ledger_campaign_set_budget(l, ids.campaign, long_text, 5),
	    "set budget of campaign", why);
	refused(l, ledger_attempt_finished(l, ids.attempt, "failed", 1005, 1,
	    0, long_text), "record end of attempt", why);
	refused(l, ledger_event(l, ids.campaign, "note", long_text),
	    "log event 'note'", why);
	summary(l, after, sizeof(after));
	is_str(after, before, "nothing was written");

	t.params_json = "{}";
	ok(ledger_trial_insert(l, &t, &id) == 0,
	    "the next write binds afresh and succeeds");
	ok(ledger_trial_list(l, ids.campaign, &list, &n) == 0 && n == 2 &&
	    strcmp(list[1].params_json, "{}") == 0,
	    "  and reads back as written");
	ledger_trial_list_free(list, n);
	ok(ledger_metric_list(l, ids.campaign, long_text, &m, &n) == -1 &&
	    m == NULL && n == 0, "a list whose key cannot be bound fails,"
	    " rather than list every key");
	like(ledger_error(l), "list metrics of campaign", "  saying what");
	like(ledger_error(l), "string or blob too big", "  and why");
	ledger_close(l);
}

/* Run every test in a private temporary directory, then remove it. */
int
main(void)
{
	char	 dir[64], *real;

	memset(long_text, 'a', LONG_TEXT);
	snprintf(dir, sizeof(dir), "/tmp/test_ledger_write.XXXXXX");
	/* The ledger names its file by its real path. */
	if (mkdtemp(dir) == NULL || (real = realpath(dir, NULL)) == NULL ||
	    strlen(real) >= sizeof(tmpdir)) {
		printf("Bail out! mkdtemp failed\n");
		return 1;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s", real);
	free(real);
	test_query_only();
	test_full();
	test_bind();
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
