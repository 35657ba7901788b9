/*
 * engine_chain.c: "dispatch": "chain": a campaign's attempts run in at
 * most max_parallel lanes.  A lane is a running attempt and at most one
 * more queued behind it, submitted with its predecessor's token as
 * sched_job.after (Slurm: --dependency=afterany), so that Slurm starts it
 * in the scheduling pass that the predecessor's end sets off instead of
 * the slot waiting for hpod to see the end and submit a refill.
 *
 * Lanes never run two jobs at once: an attempt with no predecessor in
 * flight heads a lane, and a new attempt heads a lane of its own only
 * while fewer than max_parallel do; otherwise it goes after a head that
 * has nobody behind it yet.  Each chained attempt's predecessor is in
 * the ledger (attempts.after_id), so that attempts taken back after a
 * restart are linked into their lanes again: a retry or a new trial then
 * queues behind a lane's last as before, never beside it.
 */
#include <stdlib.h>

#include "engine_int.h"
#include "xmalloc.h"

/* The lane heads among the active attempts other than but. */
static int
chain_heads(const struct engine *e, const struct attempt *but)
{
	const struct attempt	*a;
	int			 n = 0;

	for (a = e->active; a != NULL; a = a->next)
		n += a != but && a->after == NULL;
	return n;
}

/*
 * The head that a new attempt (other than but) may queue behind: a
 * running one first (the earliest started: it frees its slot first),
 * else one still waiting for its start; NULL if none has room.
 */
static struct attempt *
chain_free_head(const struct engine *e, const struct attempt *but)
{
	struct attempt	*a, *best = NULL;

	for (a = e->active; a != NULL; a = a->next) {
		if (a == but || a->after != NULL || a->then != NULL ||
		    a->cancel_as != CANCEL_NONE)
			continue;
		if (best == NULL || (a->started && (!best->started ||
		    a->t_started < best->t_started)))
			best = a;
	}
	return best;
}

/* 1 if one more attempt may be launched now. */
int
engine_chain_room(const struct engine *e)
{
	if (!e->spec->chain)
		return e->nactive < e->spec->max_parallel;
	return chain_heads(e, NULL) < e->spec->max_parallel ||
	    chain_free_head(e, NULL) != NULL;
}

/*
 * The attempt that a (just made, not submitted) goes after, linked as
 * its predecessor; NULL when a heads a lane of its own.
 */
struct attempt *
engine_chain_place(struct engine *e, struct attempt *a)
{
	struct attempt	*p;

	if (!e->spec->chain || chain_heads(e, a) < e->spec->max_parallel)
		return NULL;
	/*
	 * With every lane full (a retry while each lane's head is being
	 * cancelled, or lanes taken back from a ledger that did not record
	 * them) the attempt heads its own: it is not held back, and says so.
	 */
	if ((p = chain_free_head(e, a)) == NULL) {
		engine_say(e, "trial %d attempt %d: no lane has room: it is "
		    "not chained", a->trial_number, a->number);
		return NULL;
	}
	p->then = a;
	a->after = p;
	return p;
}

/* Take an attempt out of its lane: the one behind it heads the lane. */
void
engine_chain_unlink(struct attempt *a)
{
	if (a->then != NULL)
		a->then->after = NULL;
	if (a->after != NULL)
		a->after->then = NULL;
	a->then = a->after = NULL;
}

/* Link an attempt taken back after a restart into its lane again. */
void
engine_chain_adopt(struct engine *e, struct attempt *a, int64_t after_id)
{
	struct attempt	*p;

	if (!e->spec->chain || after_id == 0 || a->after != NULL)
		return;
	for (p = e->active; p != NULL; p = p->next)
		if (p != a && p->attempt_id == after_id)
			break;
	/* Its predecessor ended: it heads the lane now. */
	if (p == NULL || p->then != NULL)
		return;
	p->then = a;
	a->after = p;
}

/* Attempts in submission order: their ledger ids increase with it. */
static int
chain_by_id(const void *x, const void *y)
{
	const struct attempt	*a = *(struct attempt *const *)x;
	const struct attempt	*b = *(struct attempt *const *)y;

	return (a->attempt_id > b->attempt_id) - (a->attempt_id < b->attempt_id);
}

/*
 * A ledger older than attempts.after_id (schema 8) upgraded under a
 * running chained campaign has no lane for the jobs queued then; taken
 * back as heads, more than max_parallel of them would seem to run, and
 * a retry could go behind a head that ended while hpod was down and run
 * at once, beside the job that was queued behind it.  Neither the ledger
 * nor Slurm says who was behind whom (a job's dependency is gone once its
 * predecessor ended), so the lanes are rebuilt as engine_chain_place()
 * made them: in submission order, the first max_parallel head lanes, each
 * later one goes behind a head with nobody behind it, the earliest
 * started first.  Every job queued behind another was submitted after
 * max_parallel lanes were full and after the one it waits for, so the
 * number of lanes comes out right (never more heads than max_parallel),
 * though two lanes' queued jobs may come out swapped: the swap lasts
 * until one of their heads ends.  Only when no attempt taken back has an
 * after_id and more than max_parallel are unfinished: a ledger that
 * records lanes has one for every job queued behind another.
 */
void
engine_chain_infer(struct engine *e, struct attempt **made, size_t n)
{
	struct attempt	**a, *p;
	size_t		 m = 0, i, j;
	int		 heads, linked = 0;

	if (!e->spec->chain)
		return;
	a = xcalloc(n + 1, sizeof(*a));
	for (i = 0; i < n; i++)
		if (made[i] != NULL)
			a[m++] = made[i];
	if (m <= (size_t)e->spec->max_parallel) {
		free(a);
		return;
	}
	qsort(a, m, sizeof(*a), chain_by_id);
	for (i = 0; i < m; i++) {
		for (heads = 0, p = NULL, j = 0; j < i; j++) {
			if (a[j]->after != NULL)
				continue;
			heads++;
			if (a[j]->then == NULL && (p == NULL || (a[j]->started &&
			    (!p->started || a[j]->t_started < p->t_started))))
				p = a[j];
		}
		if (heads < e->spec->max_parallel || p == NULL)
			continue;
		p->then = a[i];
		a[i]->after = p;
		linked++;
	}
	free(a);
	engine_say(e, "lanes not in the ledger (attempts older than its "
	    "schema 8): %d of %zu unfinished attempts taken as queued behind "
	    "the earlier ones, in submission order", linked, m);
}

/*
 * The campaign stops (a budget, its target, a stop): the attempts queued
 * behind a running one were submitted early, for a slot not yet free,
 * and are cancelled before they start.
 */
void
engine_chain_cancel(struct engine *e)
{
	struct attempt	*a;

	for (a = e->active; a != NULL; a = a->next) {
		if (a->after == NULL || a->started ||
		    a->cancel_as != CANCEL_NONE)
			continue;
		a->cancel_as = CANCEL_BUDGET;
		sched_cancel(e->env.sched, a->token);
	}
}
