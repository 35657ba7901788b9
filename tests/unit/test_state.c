/*
 * test_state.c: the one table of trial, attempt and campaign state names
 * (ledger/state.h, its names in schema.c): every state's name parses back
 * to it, the names are those the ledger has always kept, and unknown
 * names stay unknown.
 */
#include "state.h"
#include "tap.h"

int
main(void)
{
	static const char *const trials[] = { "pending", "running",
	    "completed", "failed", "pruned", "cancelled" };
	static const char *const attempts[] = { "submitting", "pending",
	    "running", "completed", "failed", "timeout", "cancelled",
	    "node_fail", "preempted", "lost", "pruned" };
	static const char *const campaigns[] = { "running", "finished",
	    "cancelled" };
	int	 i;

	is_int(TRIAL_NSTATES, 6, "six trial states");
	for (i = 0; i < TRIAL_NSTATES; i++) {
		ok(strcmp(trial_state_name(i), trials[i]) == 0,
		    "trial state %d is '%s'", i, trials[i]);
		is_int(trial_state_parse(trials[i]), i, trials[i]);
	}
	is_int(ATTEMPT_NSTATES, 11, "eleven attempt states");
	for (i = 0; i < ATTEMPT_NSTATES; i++) {
		ok(strcmp(attempt_state_name(i), attempts[i]) == 0,
		    "attempt state %d is '%s'", i, attempts[i]);
		is_int(attempt_state_parse(attempts[i]), i, attempts[i]);
	}
	is_int(CAMPAIGN_NSTATES, 3, "three campaign states");
	for (i = 0; i < CAMPAIGN_NSTATES; i++) {
		ok(strcmp(campaign_state_name(i), campaigns[i]) == 0,
		    "campaign state %d is '%s'", i, campaigns[i]);
		is_int(campaign_state_parse(campaigns[i]), i, campaigns[i]);
	}
	is_int(trial_state_parse("RUNNING"), TRIAL_UNKNOWN,
	    "names are case-sensitive");
	is_int(trial_state_parse(NULL), TRIAL_UNKNOWN, "NULL is unknown");
	is_int(attempt_state_parse("finished"), ATTEMPT_UNKNOWN,
	    "a campaign state is no attempt state");
	ok(strcmp(trial_state_name(TRIAL_UNKNOWN), "unknown") == 0,
	    "an out-of-range state is named unknown");
	ok(trial_state_active(TRIAL_PENDING) &&
	    trial_state_active(TRIAL_RUNNING) &&
	    !trial_state_active(TRIAL_COMPLETED) &&
	    !trial_state_active(TRIAL_UNKNOWN), "active: pending and running");
	return tap_done();
}
