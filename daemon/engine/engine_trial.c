/*
 * engine_trial.c: cancelling one trial of a running campaign (`hpoctl
 * cancel CAMPAIGN --trial N`): its running attempt is cancelled, the trial
 * ends cancelled with its cost counted, and the campaign goes on.  The
 * cancel is recorded (an event) now and sent at the engine's next tick,
 * after the commit of the request that asked (engine.h).
 */
#include <stdio.h>

#include "engine_int.h"
#include "obsbook.h"

int
engine_cancel_trial(struct engine *e, int number)
{
	struct attempt	*a;
	char		 msg[64];

	if (e->done || e->cancelled)
		return ENGINE_CANCEL_ENDING;
	for (a = e->active; a != NULL; a = a->next) {
		if (a->trial_number != number)
			continue;
		if (a->cancel_as != CANCEL_NONE)
			return ENGINE_CANCEL_ALREADY;
		a->cancel_as = CANCEL_USER;	/* ends cancelled, no retry */
		a->cancel_due = 1;
		/* Ended for the stopper now, as when it is pruned. */
		obsbook_state(e->book, number, TRIAL_CANCELLED);
		/* engine_resume reads the number back after a crash. */
		snprintf(msg, sizeof(msg), "trial %d cancelled on request",
		    number);
		ledger_event_trial(e->env.ledger, e->id, "cancel_trial",
		    number, msg);
		engine_kick(e);
		return 0;
	}
	return ENGINE_CANCEL_NONE;
}
