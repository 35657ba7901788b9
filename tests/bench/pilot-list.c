/*
 * pilot-list.c: the wall time of one read of a pilot campaign's running
 * pilots' idle time (ledger_pilot_list(), which the live budget makes
 * after a pilot event and near its cap) as the campaign grows (make
 * bench): one pilot running, N ended attempts of the campaign that ran
 * in it, each read 20 times.
 *
 *   pilot-list N...
 *
 * prints "pilot-list: N attempts: MS ms per read" for each N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ledger.h"
#include "../unit/ledger_tmp.h"

#define READS	20

/* Wall seconds. */
static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A campaign of n attempts run in one pilot still running: ms per read. */
static double
pilot_list_ms(long n)
{
	struct ledger		*l;
	struct ledger_pilot	*lp;
	char			 dir[64], job[32];
	int64_t			 cid, tid, aid;
	size_t			 np;
	double			 t0;
	long			 i;
	int			 k;

	if ((l = ledger_tmp_open("hpod-pilot-list", dir, sizeof(dir))) ==
	    NULL)
		exit(1);
	cid = ledger_tmp_campaign(l, "pl", 1000000);
	ledger_begin(l);
	if (ledger_pilot_submitted(l, cid, "pilot-1", "/nowhere", 1000) ==
	    -1 || ledger_pilot_started(l, "pilot-1", "77", 1001, 1, 4, 4,
	    "n01") == -1)
		exit(1);
	for (i = 0; i < n; i++) {
		tid = ledger_tmp_trial(l, cid, (int)i, "{}");
		aid = ledger_tmp_attempt(l, tid, (int)i, 0);
		snprintf(job, sizeof(job), "77.p%ld", i + 1);
		if (ledger_attempt_started(l, aid, job, 1002 + i, 1, 1, 1,
		    0.25, "n01") == -1 || ledger_attempt_finished(l, aid,
		    "completed", 1003 + i, 0, 0, NULL) == -1)
			exit(1);
	}
	ledger_commit(l);
	t0 = wall_now();
	for (k = 0; k < READS; k++) {
		if (ledger_pilot_list(l, cid, 1003 + n, &lp, &np) == -1 ||
		    np != 1)
			exit(1);
		ledger_pilot_list_free(lp, np);
	}
	t0 = (wall_now() - t0) * 1000 / READS;
	ledger_tmp_close(l, dir);
	return t0;
}

int
main(int argc, char **argv)
{
	int	 i;

	if (argc < 2) {
		fprintf(stderr, "usage: pilot-list N...\n");
		return 1;
	}
	for (i = 1; i < argc; i++)
		printf("pilot-list: %ld attempts: %.2f ms per read\n",
		    strtol(argv[i], NULL, 10), pilot_list_ms(strtol(argv[i],
		    NULL, 10)));
	return 0;
}
