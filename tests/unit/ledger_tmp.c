/*
 * ledger_tmp.c: a new ledger in a folder of its own under /tmp, for the
 * unit tests that fill one, and its removal.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Close the ledger and remove its folder (ledger_tmp.h). */
void
ledger_tmp_close(struct ledger *l, const char *dir)
{
	ledger_close(l);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}
