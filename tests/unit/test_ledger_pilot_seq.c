/*
 * test_ledger_pilot_seq.c: the job ids a pilot taken back after a restart
 * goes on from (ledger_pilot_list's seq) are one past the largest N of
 * the ids PILOT.pN its attempts recorded, not their count: an attempt
 * whose id was handed out but never recorded (a crash between the two)
 * leaves a gap, and the count would hand out a recorded id again.
 */
#include <stdio.h>
#include <string.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/* Record an attempt of trial number of campaign cid; job NULL: no id. */
static int
attempt(struct ledger *l, int64_t cid, int number, const char *job)
{
	int64_t	 tid, aid;

	if ((tid = ledger_tmp_trial(l, cid, number, "{}")) <= 0 ||
	    (aid = ledger_tmp_attempt(l, tid, number, 0)) <= 0)
		return -1;
	if (job == NULL)
		return 0;
	return ledger_attempt_started(l, aid, job, 1000 + number, 1, 0, 1,
	    0.5, "h");
}

/* The seq of pilot job_id in campaign cid's list, or -1 if not listed. */
static int
seq_of(struct ledger *l, int64_t cid, const char *job_id)
{
	struct ledger_pilot	*lp;
	size_t			 n, i;
	int			 seq = -1;

	if (ledger_pilot_list(l, cid, 2000, &lp, &n) == -1) {
		printf("# %s\n", ledger_error(l));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (lp[i].job_id != NULL && strcmp(lp[i].job_id, job_id) == 0)
			seq = lp[i].seq;
	ledger_pilot_list_free(lp, n);
	return seq;
}

int
main(void)
{
	static const char *jobs[] = { "8.p1", NULL, "8.p3", "80.p1", "8.p10",
	    "80.p2" };
	struct ledger	*l;
	char		 dir[64];
	int64_t		 cid;
	size_t		 i;
	int		 rc = 0;

	if ((l = ledger_tmp_open("test_ledger_pilot_seq", dir,
	    sizeof(dir))) == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "c", 10);
	rc |= ledger_pilot_submitted(l, cid, "q", "pq", 990);
	rc |= ledger_pilot_started(l, "q", "8", 1000, 1, 0, 2, "h");
	rc |= ledger_pilot_submitted(l, cid, "r", "pr", 990);
	rc |= ledger_pilot_started(l, "r", "80", 1000, 1, 0, 2, "h");
	rc |= ledger_pilot_submitted(l, cid, "s", "ps", 990);
	rc |= ledger_pilot_started(l, "s", "9", 1000, 1, 0, 2, "h");
	ok(rc == 0, "three pilots are recorded");
	is_int(seq_of(l, cid, "8"), 0, "a pilot given no job goes on from 0");
	rc = 0;
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++)
		rc |= attempt(l, cid, (int)i, jobs[i]);
	ok(rc == 0, "attempts 8.p1, 8.p3, 8.p10 (one between without its "
	    "id), 80.p1 and 80.p2 are recorded");
	is_int(seq_of(l, cid, "8"), 10,
	    "pilot 8 goes on from its largest recorded id, 8.p10, not from "
	    "the count of its ids (3)");
	is_int(seq_of(l, cid, "80"), 2,
	    "pilot 80 from 80.p2: the ids of pilot 8 are not its");
	is_int(seq_of(l, cid, "9"), 0, "pilot 9, given no job, from 0");
	ledger_tmp_close(l, dir);
	return tap_done();
}
