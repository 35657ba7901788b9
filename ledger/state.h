/*
 * state.h: the states of trials, attempts and campaigns as enums, and the
 * one table of their names (in schema.c), which is how the ledger keeps
 * them (as text).
 * Code compares enums; the names appear only where a state is written to
 * or read from the ledger and where it is shown.
 */
#ifndef HPOD_STATE_H
#define HPOD_STATE_H

enum trial_state {
	TRIAL_PENDING, TRIAL_RUNNING, TRIAL_COMPLETED, TRIAL_FAILED,
	TRIAL_PRUNED, TRIAL_CANCELLED,
	TRIAL_NSTATES,
	TRIAL_UNKNOWN = TRIAL_NSTATES	/* a name not in the table */
};

/* How an attempt stands; the ended ones after ATTEMPT_RUNNING. */
enum attempt_state {
	ATTEMPT_SUBMITTING, ATTEMPT_PENDING, ATTEMPT_RUNNING,
	ATTEMPT_COMPLETED, ATTEMPT_FAILED, ATTEMPT_TIMEOUT,
	ATTEMPT_CANCELLED, ATTEMPT_NODE_FAIL, ATTEMPT_PREEMPTED, ATTEMPT_LOST,
	ATTEMPT_PRUNED,
	ATTEMPT_NSTATES,
	ATTEMPT_UNKNOWN = ATTEMPT_NSTATES
};

enum campaign_state {
	CAMPAIGN_RUNNING, CAMPAIGN_FINISHED, CAMPAIGN_CANCELLED,
	CAMPAIGN_NSTATES,
	CAMPAIGN_UNKNOWN = CAMPAIGN_NSTATES
};

/* The ledger's name of a state ("unknown" for a value out of range). */
const char		*trial_state_name(enum trial_state);
const char		*attempt_state_name(enum attempt_state);
const char		*campaign_state_name(enum campaign_state);
/* The state of a name (NULL or not in the table: the _UNKNOWN value). */
enum trial_state	 trial_state_parse(const char *);
enum attempt_state	 attempt_state_parse(const char *);
enum campaign_state	 campaign_state_parse(const char *);
/* 1 for a trial that has not ended: pending or running. */
int			 trial_state_active(enum trial_state);

#endif
