/*
 * account_lists.c: the attempts' part of a campaign's account (its cost,
 * queue wait, cost by outcome and by batch size) summed in C over the
 * trial and attempt lists a report has already read, instead of three
 * more SQL passes over every attempt.  The sums are taken in the order
 * the SQL of account.c takes them (trial number, then attempt number:
 * the order of the indexes its joins walk and of ledger_attempt_list()),
 * each term computed as there, so the figures are the same to the bit
 * (tests/unit/test_account_lists.c compares them).
 */
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "ledger_int.h"

/*
 * The seconds attempt a is charged for at time now, as ACCT_ELAPSED
 * computes them; 0 with *has unset if it never started.
 */
static double
al_elapsed(const struct ledger_attempt *a, double now, int *has)
{
	*has = a->started > 0;
	return account_attempt_elapsed(a, now);
}

/* Add the charge of e seconds on a's allocation to c (a NULL e: none). */
static void
al_charge(struct account_cost *c, const struct ledger_attempt *a, double e,
    int has)
{
	c->attempts++;
	if (!has)
		return;
	c->node_seconds += e * a->node_share;
	c->gpu_seconds += e * a->gpus;
	c->cpu_seconds += e * a->cpus;
}

/* The outcome bucket of attempt i of the list, as ACCT_OUTCOME says. */
static int
al_outcome(const struct ledger_attempt *a, size_t na, size_t i)
{
	const char *s = a[i].state ? a[i].state : "";

	if (i + 1 < na && a[i + 1].trial_id == a[i].trial_id)
		return ACCT_OUT_RETRIED;
	if (strcmp(s, "submitting") == 0 || strcmp(s, "pending") == 0 ||
	    strcmp(s, "running") == 0 || a[i].ended == 0)
		return ACCT_OUT_RUNNING;
	if (strcmp(s, "completed") == 0)
		return ACCT_OUT_COMPLETED;
	if (strcmp(s, "pruned") == 0)
		return ACCT_OUT_PRUNED;
	if (strcmp(s, "cancelled") == 0)
		return ACCT_OUT_CANCELLED;
	return ACCT_OUT_FAILED;
}

/* Sum the attempts into acct as account_attempts() and _outcomes() do. */
static void
al_sums(const struct ledger_attempt *a, size_t na, double now,
    struct account *acct)
{
	struct account_cost all, pruned;
	double e, q, to;
	size_t i;
	int has;

	memset(&all, 0, sizeof(all));
	memset(&pruned, 0, sizeof(pruned));
	for (i = 0; i < na; i++) {
		e = al_elapsed(&a[i], now, &has);
		al_charge(&all, &a[i], e, has);
		al_charge(&acct->by_outcome[al_outcome(a, na, i)], &a[i], e,
		    has);
		if (a[i].number > 0)
			acct->attempts_retried++;
		if (has)
			acct->elapsed_seconds += e;
		if (a[i].submitted > 0) {
			to = a[i].started != 0 ? a[i].started :
			    a[i].ended != 0 ? a[i].ended : now;
			q = to - (a[i].eligible > a[i].submitted ?
			    a[i].eligible : a[i].submitted);
			acct->queue_seconds += q > 0 ? q : 0;
		}
		if (a[i].state != NULL && strcmp(a[i].state, "pruned") == 0)
			al_charge(&pruned, &a[i], e, has);
	}
	acct->attempts = all.attempts;
	acct->node_seconds = all.node_seconds;
	acct->gpu_seconds = all.gpu_seconds;
	acct->cpu_seconds = all.cpu_seconds;
	acct->pruned_attempts = pruned.attempts;
	acct->pruned_node_seconds = pruned.node_seconds;
	acct->pruned_gpu_seconds = pruned.gpu_seconds;
	acct->pruned_cpu_seconds = pruned.cpu_seconds;
}

/* Order groups by batch size, tuning first. */
static int
al_group_cmp(const void *x, const void *y)
{
	const struct account_group *a = x, *b = y;

	if (a->batch_size != b->batch_size)
		return (a->batch_size > b->batch_size) -
		    (a->batch_size < b->batch_size);
	return a->confirm - b->confirm;
}

/* The groups of account_groups(), from the lists. */
static int
al_groups(const struct ledger_trial *t, size_t nt,
    const struct ledger_attempt *a, size_t na, double now,
    struct account_group **out, size_t *n)
{
	struct account_group *gs, *g;
	size_t i, j, k = 0, ng = 0;
	double e;
	int confirm, has;

	*out = NULL;
	*n = 0;
	if ((gs = calloc(nt + 1, sizeof(*gs))) == NULL)
		return -1;
	for (i = 0; i < nt; i++) {
		confirm = t[i].role != NULL && strcmp(t[i].role, "confirm") ==
		    0;
		for (j = 0; j < ng && (gs[j].batch_size != t[i].batch_size ||
		    gs[j].confirm != confirm); j++)
			;
		g = &gs[j];
		if (j == ng) {
			g->batch_size = t[i].batch_size;
			g->confirm = confirm;
			ng++;
		}
		g->trials++;
		/* The attempts are in the order of their trials' numbers. */
		while (k < na && a[k].trial_number < t[i].number)
			k++;
		for (; k < na && a[k].trial_number == t[i].number; k++) {
			e = al_elapsed(&a[k], now, &has);
			al_charge(&g->cost, &a[k], e, has);
		}
	}
	qsort(gs, ng, sizeof(*gs), al_group_cmp);
	*out = gs;
	*n = ng;
	return 0;
}

/*
 * Fill acct and the groups for campaign c at time now, the attempts'
 * sums from the lists t and a (ledger_trial_list(), ledger_attempt_list()).
 */
int
account_lists(struct ledger *l, const struct ledger_campaign *c, double now,
    const struct ledger_trial *t, size_t nt, const struct ledger_attempt *a,
    size_t na, struct account *acct, struct account_group **groups,
    size_t *ngroups)
{
	memset(acct, 0, sizeof(*acct));
	*groups = NULL;
	*ngroups = 0;
	al_sums(a, na, now, acct);
	if (account_read(l, c, now, 0, acct) == -1)
		return -1;
	if (al_groups(t, nt, a, na, now, groups, ngroups) == -1) {
		account_release(acct);
		return ledger_errorf(l, "sum attempts of campaign %lld by "
		    "batch size: out of memory", (long long)c->id);
	}
	return 0;
}
