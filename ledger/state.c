/*
 * state.c: the names of trial, attempt and campaign states (see state.h).
 */
#include <stddef.h>
#include <string.h>

#include "state.h"

static const char *const trial_names[TRIAL_NSTATES] = {
	[TRIAL_PENDING] = "pending",
	[TRIAL_RUNNING] = "running",
	[TRIAL_COMPLETED] = "completed",
	[TRIAL_FAILED] = "failed",
	[TRIAL_PRUNED] = "pruned",
	[TRIAL_CANCELLED] = "cancelled",
};

static const char *const attempt_names[ATTEMPT_NSTATES] = {
	[ATTEMPT_SUBMITTING] = "submitting",
	[ATTEMPT_PENDING] = "pending",
	[ATTEMPT_RUNNING] = "running",
	[ATTEMPT_COMPLETED] = "completed",
	[ATTEMPT_FAILED] = "failed",
	[ATTEMPT_TIMEOUT] = "timeout",
	[ATTEMPT_CANCELLED] = "cancelled",
	[ATTEMPT_NODE_FAIL] = "node_fail",
	[ATTEMPT_PREEMPTED] = "preempted",
	[ATTEMPT_LOST] = "lost",
	[ATTEMPT_PRUNED] = "pruned",
};

static const char *const campaign_names[CAMPAIGN_NSTATES] = {
	[CAMPAIGN_RUNNING] = "running",
	[CAMPAIGN_FINISHED] = "finished",
	[CAMPAIGN_CANCELLED] = "cancelled",
};

/* The name of state st of a table of n, or "unknown". */
static const char *
state_name(const char *const *names, int n, int st)
{
	return st >= 0 && st < n ? names[st] : "unknown";
}

/* The index of name s in a table of n, or n. */
static int
state_parse(const char *const *names, int n, const char *s)
{
	int	 i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return n;
}

const char *
trial_state_name(enum trial_state st)
{
	return state_name(trial_names, TRIAL_NSTATES, (int)st);
}

const char *
attempt_state_name(enum attempt_state st)
{
	return state_name(attempt_names, ATTEMPT_NSTATES, (int)st);
}

const char *
campaign_state_name(enum campaign_state st)
{
	return state_name(campaign_names, CAMPAIGN_NSTATES, (int)st);
}

enum trial_state
trial_state_parse(const char *s)
{
	return (enum trial_state)state_parse(trial_names, TRIAL_NSTATES, s);
}

enum attempt_state
attempt_state_parse(const char *s)
{
	return (enum attempt_state)state_parse(attempt_names,
	    ATTEMPT_NSTATES, s);
}

enum campaign_state
campaign_state_parse(const char *s)
{
	return (enum campaign_state)state_parse(campaign_names,
	    CAMPAIGN_NSTATES, s);
}

int
trial_state_active(enum trial_state st)
{
	return st == TRIAL_PENDING || st == TRIAL_RUNNING;
}
