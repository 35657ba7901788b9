/*
 * engine_pend.c: why an attempt's job waits (the backend's
 * SCHED_EV_PENDING: Slurm's reason, such as Resources or JobHeldUser),
 * recorded on the attempt when it changes, for hpoctl trials and status,
 * and a warning, once, when it is a reason that will not clear by itself.
 */
#include <stdio.h>
#include <string.h>

#include "engine_int.h"
#include "log.h"

/*
 * A job that has not started waits for another reason (ev->reason, ""
 * for none known): record it and say so; the backend tells only
 * changes, and one seen again after a restart (the reason recorded,
 * engine_adopt_new()) is neither written nor warned of twice.
 */
void
engine_pending(struct attempt *a, const struct sched_event *ev)
{
	struct engine	*e = a->e;
	const char	*why = ev->reason != NULL ? ev->reason : "";
	const char	*job = ev->job_id != NULL ? ev->job_id : "-";

	if (a->started)
		return;
	if (strcmp(why, a->pending) != 0) {
		snprintf(a->pending, sizeof(a->pending), "%s", why);
		a->pend_kept = 0;
		if (ledger_attempt_pending(e->env.ledger, a->attempt_id,
		    *why != '\0' ? why : NULL) == -1)
			log_warnx("campaign '%s': %s", e->spec->name,
			    ledger_error(e->env.ledger));
		engine_say(e, "trial %d attempt %d: job %s pending%s%s%s",
		    a->trial_number, a->number, job, *why ? " (" : "", why,
		    *why ? ")" : "");
	}
	if (!ev->stuck || a->said_stuck)
		return;
	a->said_stuck = 1;
	/* Warned of by the process that recorded it. */
	if (a->pend_kept)
		return;
	if (ev->fix_key != NULL)
		log_warnx("campaign '%s': trial %d: job %s pending (%s) will "
		    "not clear by itself: change %s; hpoctl cancel ends it",
		    e->spec->name, a->trial_number, job, why, ev->fix_key);
	else
		log_warnx("campaign '%s': trial %d: job %s pending (%s) will "
		    "not clear by itself, nor by a change of the campaign "
		    "(scontrol show job %s says what it waits for); hpoctl "
		    "cancel ends it", e->spec->name, a->trial_number, job, why,
		    job);
}
