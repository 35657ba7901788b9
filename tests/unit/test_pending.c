/*
 * test_pending: why a trial's job waits (attempts.pending_reason, schema
 * 15): recorded while it pends, cleared by its start and never written
 * after; hpoctl trials (text, JSON, CSV, -O) and status show it; the
 * commonest reason of a campaign's pending trials; a ledger of schema 14
 * read as it is reads every attempt as pending for no known reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "report.h"
#include "report_int.h"
#include "tap.h"

/* The pending reason of attempt id of campaign cid, or NULL. */
static char *
reason_of(struct ledger *l, int64_t cid, int64_t id)
{
	struct ledger_attempt	*a;
	size_t			 n, i;
	char			*r = NULL;

	if (ledger_attempt_list(l, cid, 0, &a, &n) == -1) {
		printf("# %s\n", ledger_error(l));
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (a[i].id == id && a[i].pending_reason != NULL)
			r = strdup(a[i].pending_reason);
	ledger_attempt_list_free(a, n);
	return r;
}

/* Recorded while it pends, cleared by the start, never after. */
static void
test_ledger(struct ledger *l, int64_t cid, const int64_t *aid)
{
	char	*r;

	ok(ledger_attempt_submitted(l, aid[0], "7", 1001) == 0 &&
	    ledger_attempt_submitted(l, aid[1], "8", 1001) == 0 &&
	    ledger_attempt_submitted(l, aid[2], "9", 1001) == 0,
	    "three submitted");
	r = reason_of(l, cid, aid[0]);
	is_str(r, NULL, "none known at first");
	free(r);
	ok(ledger_attempt_pending(l, aid[0], "Priority") == 0 &&
	    ledger_attempt_pending(l, aid[0], "Resources") == 0,
	    "attempt 0 pends for Priority, then Resources");
	r = reason_of(l, cid, aid[0]);
	is_str(r, "Resources", "the last one recorded");
	free(r);
	ok(ledger_attempt_pending(l, aid[1], "JobHeldUser") == 0 &&
	    ledger_attempt_pending(l, aid[2], "Resources") == 0,
	    "attempt 1 held, attempt 2 pends for Resources");
	ok(ledger_attempt_started(l, aid[0], NULL, 1010, 1, 2, 1, 0,
	    "n01") == 0, "attempt 0 starts");
	r = reason_of(l, cid, aid[0]);
	is_str(r, NULL, "its start cleared the reason");
	free(r);
	ok(ledger_attempt_pending(l, aid[0], "Priority") == 0,
	    "a late reason for a started attempt is no error");
	r = reason_of(l, cid, aid[0]);
	is_str(r, NULL, "and is not written");
	free(r);
}

/* The commonest reason of a list of attempts. */
static void
test_tally(void)
{
	struct ledger_attempt	 a[6];
	struct report_pending	 p;

	memset(a, 0, sizeof(a));
	a[0].pending_reason = "Priority";
	a[1].pending_reason = "Resources";
	a[2].pending_reason = "Resources";
	a[3].pending_reason = NULL;
	a[4].pending_reason = "Resources";	/* started: it runs */
	a[4].started = 1010;
	a[5].pending_reason = "JobHeldUser";	/* ended: cancelled */
	a[5].ended = 1020;
	report_pending(a, 6, &p);
	is_int(p.trials, 4, "4 pend (neither started nor ended)");
	is_str(p.reason, "Resources", "Resources is the commonest");
	is_int(p.count, 2, "2 pend for it");
	report_pending(a, 2, &p);
	is_str(p.reason, "Priority", "a tie goes to the lowest trial");
	is_int(p.count, 1, "1 for it");
	report_pending(&a[3], 1, &p);
	ok(p.trials == 1 && strcmp(p.reason, "") == 0 && p.count == 0,
	    "none known (local): 1 pends, reason \"\"");
}

/* render cmd of campaign "pend" in fmt; NULL after a failed test. */
static char *
render(struct ledger *l, int status, enum report_format fmt,
    const char *fields)
{
	struct trials_opts	 to = { NULL, 0, 0, fields };
	char			*out = NULL, err[256];
	int			 rc;

	rc = status ? report_status(l, "pend", fmt, &out, err, sizeof(err)) :
	    report_trials_opts(l, "pend", fmt, &to, &out, err, sizeof(err));
	if (rc != 0)
		printf("# %s\n", err);
	return out;
}

/* hpoctl trials and status show it. */
static void
test_render(struct ledger *l)
{
	char	*s;

	s = render(l, 0, REPORT_TEXT, NULL);
	like(s, "STATE              ", "trials: the STATE column widened");
	like(s, "pending (JobHeldUser)  ", "trials: pending (JobHeldUser)");
	like(s, "pending (Resources)    ", "trials: pending (Resources)");
	like(s, "\n    0  running              ", "trials: a started one "
	    "runs, no reason");
	free(s);
	s = render(l, 0, REPORT_JSON, NULL);
	like(s, "\"pending_reason\":\t\"JobHeldUser\"", "trials JSON: "
	    "pending_reason");
	like(s, "\"state\":\t\"pending\"", "trials JSON: the state stays "
	    "pending");
	free(s);
	s = render(l, 0, REPORT_CSV, NULL);
	like(s, "job_id,host,dir,pending_reason,x\n", "trials CSV: the "
	    "column");
	like(s, "/nowhere/1/0,JobHeldUser,", "trials CSV: its value");
	free(s);
	s = render(l, 0, REPORT_CSV, "trial,pending_reason");
	is_str(s, "trial,pending_reason\n0,\n1,JobHeldUser\n2,Resources\n",
	    "trials -O trial,pending_reason");
	free(s);
	s = render(l, 1, REPORT_TEXT, NULL);
	like(s, "\n      pending: 2 trials, 1 for JobHeldUser\n",
	    "status: 2 pend, the commonest reason (a tie: the lowest trial)");
	free(s);
	s = render(l, 1, REPORT_JSON, NULL);
	like(s, "\"pending\":\t2", "status JSON: pending");
	like(s, "\"pending_reason\":\t\"JobHeldUser\"", "status JSON: "
	    "pending_reason");
	free(s);
	s = render(l, 1, REPORT_CSV, NULL);
	like(s, ",wall_s,pending,pending_reason\n", "status CSV: the columns");
	like(s, ",2,JobHeldUser\n", "status CSV: the values");
	free(s);
}

/* A ledger of schema 14, read as it is: no pending reason known. */
static void
test_schema14(const char *dir)
{
	struct ledger		*l;
	struct ledger_attempt	*a = NULL;
	char			 path[128], *s;
	size_t			 n = 0;

	snprintf(path, sizeof(path), "%s/v14.db", dir);
	ledger_tmp_schema(path, 14);
	ledger_tmp_sql(path, "INSERT INTO campaigns (id, name, workload,"
	    " backend, state, metric, started, max_trials)"
	    " VALUES (1, 'pend', 'w', 'slurm', 'running', 'eval_error', 1000,"
	    " 1);"
	    "INSERT INTO trials (id, campaign_id, number, state) VALUES"
	    " (1, 1, 0, 'pending');"
	    "INSERT INTO attempts (trial_id, number, token, job_id, dir, state,"
	    " created, nodes, gpus, cpus) VALUES"
	    " (1, 0, 'a', '7', 'd', 'pending', 1000, 1, 0, 1);");
	l = ledger_tmp_open_file(path, LEDGER_READONLY);
	ok(ledger_attempt_list(l, 1, 0, &a, &n) == 0 && n == 1 &&
	    a[0].pending_reason == NULL, "schema 14 read as it is: its "
	    "attempt pends for no known reason (%s)", ledger_error(l));
	ledger_attempt_list_free(a, n);
	s = render(l, 1, REPORT_JSON, NULL);
	like(s, "\"pending\":\t1", "and status counts it pending");
	free(s);
	ledger_close(l);
}

int
main(void)
{
	struct ledger	*l;
	char		 dir[64];
	int64_t		 cid, tid[3], aid[3];
	int		 i;

	if ((l = ledger_tmp_open("test_pending", dir, sizeof(dir))) == NULL)
		return 1;
	cid = ledger_tmp_campaign(l, "pend", 3);
	for (i = 0; i < 3; i++) {
		tid[i] = ledger_tmp_trial(l, cid, i, "{\"x\": 1}");
		aid[i] = ledger_tmp_attempt(l, tid[i], i, 0);
	}
	test_ledger(l, cid, aid);
	test_tally();
	ledger_trial_set_state(l, tid[0], "running");
	test_render(l);
	test_schema14(dir);
	ledger_tmp_close(l, dir);
	return tap_done();
}
