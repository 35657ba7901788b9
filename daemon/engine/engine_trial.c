/*
 * engine_trial.c: cancelling one trial of a running campaign (`hpoctl
 * cancel CAMPAIGN --trial N`): its running attempt is cancelled, the trial
 * ends cancelled with its cost counted, and the campaign goes on.
 */
#include "engine_int.h"

int
engine_cancel_trial(struct engine *e, int number)
{
	struct attempt	*a;

	if (e->done || e->cancelled)
		return -1;
	for (a = e->active; a != NULL; a = a->next) {
		if (a->trial_number != number || a->cancel_as != CANCEL_NONE)
			continue;
		a->cancel_as = CANCEL_USER;	/* ends cancelled, no retry */
		sched_cancel(e->env.sched, a->token);
		return 0;
	}
	return -1;
}
