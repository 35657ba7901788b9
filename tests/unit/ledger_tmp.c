/*
 * ledger_tmp.c: a new ledger in a folder of its own under /tmp, for the
 * unit tests that fill one, and its removal; the folder alone, a ledger
 * opened or else a bail-out, and plain SQL on a file, for the tests that
 * make their own ledger files.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ledger.h"
#include "ledger_int.h"
#include "ledger_tmp.h"

/* Remove one file or folder for nftw(). */
static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(p);
}

/* A new folder of its own (ledger_tmp.h). */
int
ledger_tmp_dir(const char *name, char *dir, size_t dirsz)
{
	snprintf(dir, dirsz, "/tmp/%s.XXXXXX", name);
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Remove a folder and all it holds (ledger_tmp.h). */
void
ledger_tmp_remove(const char *dir)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Open a ledger or bail out of the whole test (ledger_tmp.h). */
struct ledger *
ledger_tmp_open_file(const char *path, int flags)
{
	struct ledger *l;
	char err[512];

	if ((l = ledger_open(path, flags, err, sizeof(err))) == NULL) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	return l;
}

/* Run sql on a file with plain SQLite (ledger_tmp.h). */
int
ledger_tmp_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	char *err = NULL;
	int rc = 0;

	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		printf("# %s: %s\n", path, err != NULL ? err :
		    sqlite3_errmsg(db));
		rc = -1;
	}
	sqlite3_free(err);
	sqlite3_close(db);
	return rc;
}

/* A ledger of an older schema, with plain SQLite (ledger_tmp.h). */
int
ledger_tmp_schema(const char *path, int version)
{
	char sql[64];
	int i;

	for (i = 0; i < version; i++)
		if (ledger_tmp_sql(path, ledger_migrations[i]) == -1)
			return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return ledger_tmp_sql(path, sql);
}

/* A new ledger in a new folder (ledger_tmp.h). */
struct ledger *
ledger_tmp_open(const char *name, char *dir, size_t dirsz)
{
	struct ledger *l;
	char path[256], err[512];

	if (ledger_tmp_dir(name, dir, dirsz) == -1)
		return NULL;
	snprintf(path, sizeof(path), "%s/l.db", dir);
	if ((l = ledger_open(path, 0, err, sizeof(err))) == NULL)
		printf("Bail out! %s\n", err);
	return l;
}

/* A running campaign in the ledger (ledger_tmp.h). */
int64_t
ledger_tmp_campaign(struct ledger *l, const char *name, int max_trials)
{
	struct ledger_campaign c;
	char cname[64], spec_path[128];
	int64_t cid = 0;

	snprintf(cname, sizeof(cname), "%s", name);
	snprintf(spec_path, sizeof(spec_path), "%s.json", name);
	memset(&c, 0, sizeof(c));
	c.name = cname;
	c.workload = "w";
	c.backend = "local";
	c.spec_json = "{}";
	c.spec_path = spec_path;
	c.state = "running";
	c.metric = "eval_error";
	c.started = 1000;
	c.max_trials = max_trials;
	ledger_campaign_insert(l, &c, &cid);
	return cid;
}

/* A pending trial in the ledger (ledger_tmp.h). */
int64_t
ledger_tmp_trial(struct ledger *l, int64_t cid, int number, char *params_json)
{
	struct ledger_trial t;
	int64_t tid = 0;

	memset(&t, 0, sizeof(t));
	t.campaign_id = cid;
	t.number = number;
	t.params_json = params_json;
	t.state = "pending";
	t.created = 1000 + (double)number;
	ledger_trial_insert(l, &t, &tid);
	return tid;
}

/* An attempt of a trial in the ledger (ledger_tmp.h). */
int64_t
ledger_tmp_attempt(struct ledger *l, int64_t tid, int trial, int k)
{
	struct ledger_attempt a;
	char tok[32], d[32];
	int64_t aid = 0;

	snprintf(tok, sizeof(tok), "tok-%d-%d", trial, k);
	snprintf(d, sizeof(d), "/nowhere/%d/%d", trial, k);
	memset(&a, 0, sizeof(a));
	a.trial_id = tid;
	a.number = k;
	a.token = tok;
	a.dir = d;
	a.created = 1000 + (double)trial;
	ledger_attempt_insert(l, &a, &aid);
	return aid;
}

/* Close the ledger and remove its folder (ledger_tmp.h). */
void
ledger_tmp_close(struct ledger *l, const char *dir)
{
	ledger_close(l);
	ledger_tmp_remove(dir);
}
