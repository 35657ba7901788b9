/*
 * engine_prune.c: a trial its stopper prunes.  The prune is recorded (a
 * 'prune' event: the trial's number, and the attempt's reason, which names
 * the step) in the batch of the point that decided it, and committed
 * before its job is told to stop: a process that takes the campaign back
 * (engine_resume) reads it and ends the attempt pruned, its points past
 * that step late, as this one would have.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "log.h"
#include "obsbook.h"
#include "space.h"
#include "xmalloc.h"

/*
 * Mark an attempt pruned at step, for reason why (owned from here): it
 * ends pruned, a point past step is late, and the stopper sees its trial
 * ended at once, not at its job's end, a grace period later (the target
 * stopper's leader rule).
 */
static void
engine_prune_mark(struct attempt *a, double step, char *why)
{
	a->cancel_as = CANCEL_PRUNE;
	a->pruned_step = step;
	free(a->pruned_why);
	a->pruned_why = why;
	obsbook_state(a->e->book, a->trial_number, TRIAL_PRUNED);
}

void
engine_prune(struct attempt *a, double step, const char *key, double value,
    const char *rule)
{
	struct engine	*e = a->e;
	int		 inproc = e->env.sched->ops->in_process;
	char		 num[32];

	/*
	 * A job that cannot outlive this process (replay) is told first,
	 * as before: nothing takes it back after a crash, and one whose
	 * end is already on its way is not pruned.
	 */
	if (inproc && sched_cancel(e->env.sched, a->token) == -1)
		return;
	/* The step in full: engine_prune_step() reads it back. */
	space_shortest(step, num, sizeof(num));
	engine_prune_mark(a, step, xasprintf("pruned by %s at %s %s (%s %g%s"
	    "%s)", stop_name(e->stopper), engine_unit(e), num, key, value,
	    *rule != '\0' ? "; rule: " : "", rule));
	engine_say(e, "trial %d: %s", a->trial_number, a->pruned_why);
	if (ledger_event_trial(e->env.ledger, e->id, "prune", a->trial_number,
	    a->pruned_why) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	if (inproc)
		return;
	/*
	 * Any other is told once the prune is committed, with the point
	 * that decided it.  A commit that fails dropped the engine
	 * (env.lost): the job is left to the process that takes the
	 * campaign back from the ledger, which reads that point again.
	 */
	if (engine_flush(e) == -1 || e->detached)
		return;
	if (sched_cancel(e->env.sched, a->token) == -1)
		log_warnx("campaign '%s': trial %d: its backend does not know "
		    "its job any more: not told to stop", e->spec->name,
		    a->trial_number);
}

/* The step a 'prune' event's message names, or NAN. */
static double
engine_prune_step(const char *msg)
{
	const char	*p;
	char		*end;
	double		 step;

	/* "pruned by STOPPER at UNIT STEP (...)" */
	if (strncmp(msg, "pruned by ", 10) != 0 ||
	    (p = strstr(msg, " at ")) == NULL ||
	    (p = strchr(p + 4, ' ')) == NULL)
		return NAN;
	step = strtod(p + 1, &end);
	return end == p + 1 || *end != ' ' ? NAN : step;
}

/* The 'prune' events of a campaign: trial numbers and messages. */
struct prune_events {
	int	*number;
	char	**msg;
	size_t	 n;
};

/* Keep a 'prune' event (fn of ledger_event_each()). */
static void
engine_prune_note(void *arg, int number, const char *msg)
{
	struct prune_events	*pe = arg;

	if (number < 0)
		return;
	pe->number = xreallocarray(pe->number, pe->n + 1,
	    sizeof(*pe->number));
	pe->msg = xreallocarray(pe->msg, pe->n + 1, sizeof(*pe->msg));
	pe->number[pe->n] = number;
	pe->msg[pe->n++] = xstrdup(msg);
}

int
engine_prune_resume(struct engine *e, struct attempt **made, size_t n)
{
	struct prune_events	 pe;
	struct attempt		*a;
	double			 step;
	size_t			 i, j;
	int			 rc;

	memset(&pe, 0, sizeof(pe));
	rc = ledger_event_each(e->env.ledger, e->id, "prune",
	    engine_prune_note, &pe);
	for (j = 0; rc == 0 && j < pe.n; j++) {
		if (isnan(step = engine_prune_step(pe.msg[j]))) {
			log_warnx("campaign '%s': trial %d: prune event '%s' "
			    "names no step; ignored", e->spec->name,
			    pe.number[j], pe.msg[j]);
			continue;
		}
		for (i = 0; i < n; i++) {
			if ((a = made[i]) == NULL ||
			    a->trial_number != pe.number[j] ||
			    a->cancel_as != CANCEL_NONE)
				continue;
			engine_prune_mark(a, step, pe.msg[j]);
			pe.msg[j] = NULL;
			/* Told to stop again: the first may not have gone. */
			a->cancel_due = 1;
			engine_say(e, "trial %d attempt %d: recorded as %s",
			    a->trial_number, a->number, a->pruned_why);
			break;
		}
	}
	for (j = 0; j < pe.n; j++)
		free(pe.msg[j]);
	free(pe.msg);
	free(pe.number);
	return rc;
}
