/*
 * ledger_tmp.c: a new ledger in a folder of its own under /tmp, for the
 * unit tests that fill one, and its removal.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "ledger_tmp.h"

/* Remove one file or folder for nftw(). */
static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(p);
}

/* A new ledger in a new folder (ledger_tmp.h). */
struct ledger *
ledger_tmp_open(const char *name, char *dir, size_t dirsz)
{
	struct ledger *l;
	char path[256], err[512];

	snprintf(dir, dirsz, "/tmp/%s.XXXXXX", name);
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return NULL;
	}
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

/* Close the ledger and remove its folder (ledger_tmp.h). */
void
ledger_tmp_close(struct ledger *l, const char *dir)
{
	ledger_close(l);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}
