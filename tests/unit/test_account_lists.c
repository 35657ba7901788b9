/*
 * test_account_lists.c: account_lists() sums the attempts' cost, queue
 * wait, cost by outcome and by batch size from the trial and attempt
 * lists, and gets what account_campaign() and account_groups() get from
 * SQL (to the bit with Debian 12's SQLite 3.40, which adds in index order
 * as account_lists() does; a SQLite of 3.43 or later sums with
 * compensation, so the check allows a relative 1e-12), on a
 * campaign of many attempts of odd lengths: retried, pruned, failed,
 * cancelled, still running, queued and never started, at two batch
 * sizes and both roles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "ledger.h"
#include "ledger_tmp.h"
#include "tap.h"

/* Whether two sums agree to a relative 1e-12 (see above). */
static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fabs(b));
}

/* Whether two costs are the same. */
static int
same_cost(const struct account_cost *a, const struct account_cost *b)
{
	return a->attempts == b->attempts &&
	    near(a->node_seconds, b->node_seconds) &&
	    near(a->gpu_seconds, b->gpu_seconds) &&
	    near(a->cpu_seconds, b->cpu_seconds);
}

/* Record trial number n with its attempts, each ended in its own way. */
static void
add_trial(struct ledger *l, int64_t cid, int n, unsigned *seed)
{
	static const char *const ends[] = { "completed", "pruned", "failed",
	    "cancelled", "timeout", "node_fail" };
	struct ledger_trial t = { .campaign_id = cid, .number = n,
	    .params_json = "{}", .state = "completed",
	    .batch_size = n % 3 ? 32 : 16,
	    .role = n % 5 == 0 ? "confirm" : "search" };
	struct ledger_attempt a = { .dir = "/nonexistent" };
	int64_t tid = 0, aid = 0;
	double s;
	char tok[64];
	int k, na = 1 + rand_r(seed) % 3, how;

	if (ledger_trial_insert(l, &t, &tid) == -1)
		printf("# %s\n", ledger_error(l));
	for (k = 0; k < na; k++) {
		snprintf(tok, sizeof(tok), "tok-%d-%d", n, k);
		a.trial_id = tid;
		a.number = k;
		a.token = tok;
		a.created = 1000 + n * 0.37;
		if (ledger_attempt_insert(l, &a, &aid) == -1)
			printf("# %s\n", ledger_error(l));
		how = rand_r(seed) % 10;
		if (how == 0)	/* never submitted */
			continue;
		s = a.created + rand_r(seed) / (double)RAND_MAX * 97.3;
		ledger_attempt_submitted(l, aid, tok, s);
		if (how == 1)	/* still queued */
			continue;
		s += rand_r(seed) / (double)RAND_MAX * 13.1;
		ledger_attempt_started(l, aid, tok, s, 1 + how % 2,
		    how % 4, 1 + how, 0, "h");
		if (how == 2)	/* still running */
			continue;
		ledger_attempt_finished(l, aid, ends[rand_r(seed) % 6],
		    s + rand_r(seed) / (double)RAND_MAX * 3600.7, 0, 0, NULL);
	}
}

int
main(void)
{
	struct ledger_campaign c = { .name = "acct", .workload = "minicosmo",
	    .backend = "replay", .metric = "eval_error", .started = 1000 };
	struct ledger_trial *t = NULL;
	struct ledger_attempt *a = NULL;
	struct account sql, lists;
	struct account_group *gs = NULL, *gl = NULL;
	struct ledger *l;
	int64_t cid = 0;
	size_t nt = 0, na = 0, ngs = 0, ngl = 0, i;
	unsigned seed = 7;
	double now = 1e6 + 0.123;
	char dir[64];
	int n, same;

	if ((l = ledger_tmp_open("test_account_lists", dir, sizeof(dir))) ==
	    NULL)
		return 1;
	if (ledger_campaign_insert(l, &c, &cid) == -1 ||
	    ledger_campaign_find(l, "acct", &c) != 0)
		printf("# %s\n", ledger_error(l));
	ledger_begin(l);
	for (n = 0; n < 3000; n++)
		add_trial(l, cid, n, &seed);
	ledger_commit(l);
	ok(ledger_trial_list(l, cid, &t, &nt) == 0 &&
	    ledger_attempt_list(l, cid, 0, &a, &na) == 0, "read the lists");
	ok(account_campaign(l, &c, now, &sql) == 0 &&
	    account_groups(l, &c, now, &gs, &ngs) == 0, "account by SQL");
	ok(account_lists(l, &c, now, t, nt, a, na, &lists, &gl, &ngl) == 0,
	    "account from the lists");
	is_int(lists.attempts, (int)na, "every attempt counted");
	ok(lists.attempts_retried > 0 &&
	    lists.by_outcome[ACCT_OUT_RUNNING].attempts > 0 &&
	    lists.by_outcome[ACCT_OUT_PRUNED].attempts > 0 &&
	    lists.by_outcome[ACCT_OUT_FAILED].attempts > 0,
	    "retried, running, pruned and failed attempts are there");
	ok(lists.attempts == sql.attempts &&
	    lists.attempts_retried == sql.attempts_retried &&
	    lists.pruned_attempts == sql.pruned_attempts,
	    "the same counts");
	ok(near(lists.node_seconds, sql.node_seconds) &&
	    near(lists.gpu_seconds, sql.gpu_seconds) &&
	    near(lists.cpu_seconds, sql.cpu_seconds),
	    "the same cost (%.17g node-seconds)", sql.node_seconds);
	ok(near(lists.elapsed_seconds, sql.elapsed_seconds) &&
	    near(lists.queue_seconds, sql.queue_seconds),
	    "the same run and queue time (%.17g s queued)", sql.queue_seconds);
	ok(near(lists.pruned_node_seconds, sql.pruned_node_seconds) &&
	    near(lists.pruned_gpu_seconds, sql.pruned_gpu_seconds) &&
	    near(lists.pruned_cpu_seconds, sql.pruned_cpu_seconds),
	    "the same cost of the pruned");
	for (i = 0, same = 1; i < ACCT_NOUTCOMES; i++)
		same &= same_cost(&lists.by_outcome[i], &sql.by_outcome[i]);
	ok(same, "the same cost by outcome");
	ok(lists.trials_total == sql.trials_total && lists.reached ==
	    sql.reached && near(lists.wall_seconds, sql.wall_seconds),
	    "the same trials and wall time");
	is_int(ngl, ngs, "as many groups");
	for (i = 0, same = ngl == ngs && ngs == 4; same && i < ngs; i++)
		same = gl[i].batch_size == gs[i].batch_size &&
		    gl[i].confirm == gs[i].confirm &&
		    gl[i].trials == gs[i].trials &&
		    same_cost(&gl[i].cost, &gs[i].cost);
	ok(same, "the same groups in the same order");
	free(gs);
	free(gl);
	account_release(&sql);
	account_release(&lists);
	ledger_trial_list_free(t, nt);
	ledger_attempt_list_free(a, na);
	ledger_campaign_release(&c);
	ledger_tmp_close(l, dir);
	return tap_done();
}
