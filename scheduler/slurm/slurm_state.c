/*
 * slurm_state.c: what a controller job record means to hpod.  libslurm
 * 22.05 does not export its job state helpers, so the table is ours.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "slurm_int.h"

/* Indexed by the base state (enum job_states). */
static const struct slurm_state slurm_states[] = {
	[JOB_PENDING] =	  { "PENDING",	 0, 0, SCHED_LOST },
	[JOB_RUNNING] =	  { "RUNNING",	 0, 1, SCHED_LOST },
	[JOB_SUSPENDED] = { "SUSPENDED", 0, 1, SCHED_LOST },
	[JOB_COMPLETE] =  { "COMPLETED", 1, 1, SCHED_COMPLETED },
	[JOB_CANCELLED] = { "CANCELLED", 1, 0, SCHED_CANCELLED },
	[JOB_FAILED] =	  { "FAILED",	 1, 1, SCHED_FAILED },
	[JOB_TIMEOUT] =	  { "TIMEOUT",	 1, 1, SCHED_TIMEOUT },
	[JOB_NODE_FAIL] = { "NODE_FAIL", 1, 1, SCHED_NODE_FAIL },
	[JOB_PREEMPTED] = { "PREEMPTED", 1, 1, SCHED_PREEMPTED },
	/* The nodes never booted: infrastructure, retried like NODE_FAIL. */
	[JOB_BOOT_FAIL] = { "BOOT_FAIL", 1, 0, SCHED_NODE_FAIL },
	/* Killed at its --deadline: it ran out of time. */
	[JOB_DEADLINE] =  { "DEADLINE",	 1, 1, SCHED_TIMEOUT },
	/* Out of memory is the workload's fault: failed, not retried. */
	[JOB_OOM] =	  { "OUT_OF_MEMORY", 1, 1, SCHED_FAILED },
};

static const struct slurm_state slurm_unknown = {
	"UNKNOWN", 0, 0, SCHED_LOST
};

/* The flags worth showing, in the order squeue would. */
static const struct {
	uint32_t	 flag;
	const char	*name;
} slurm_flags[] = {
	{ JOB_COMPLETING,	"COMPLETING" },
	{ JOB_CONFIGURING,	"CONFIGURING" },
	{ JOB_REQUEUE,		"REQUEUED" },
	{ JOB_REQUEUE_HOLD,	"REQUEUE_HOLD" },
	{ JOB_SPECIAL_EXIT,	"SPECIAL_EXIT" },
	{ JOB_REQUEUE_FED,	"REQUEUE_FED" },
	{ JOB_RESIZING,		"RESIZING" },
	{ JOB_STAGE_OUT,	"STAGE_OUT" },
	{ JOB_SIGNALING,	"SIGNALING" },
	{ JOB_STOPPED,		"STOPPED" },
};

/* The meaning of a state's base part. */
const struct slurm_state *
slurm_state_of(uint32_t state)
{
	uint32_t	 base = state & JOB_STATE_BASE;

	if (base >= sizeof(slurm_states) / sizeof(slurm_states[0]) ||
	    slurm_states[base].name == NULL)
		return &slurm_unknown;
	return &slurm_states[base];
}

/* Terminal, and no epilog or requeue still to come. */
int
slurm_rec_final(const struct slurm_rec *r)
{
	uint32_t	 busy = JOB_COMPLETING | JOB_REQUEUE |
	    JOB_REQUEUE_HOLD | JOB_SPECIAL_EXIT | JOB_REQUEUE_FED |
	    JOB_STAGE_OUT;

	return slurm_state_of(r->state)->terminal && (r->state & busy) == 0;
}

/* Map a final record to an outcome, exit code and signal. */
enum sched_state
slurm_rec_outcome(const struct slurm_rec *r, int *exit_code, int *signal)
{
	int	 status = (int)r->exit_code;

	*exit_code = -1;
	*signal = 0;
	if (WIFEXITED(status))
		*exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		*signal = WTERMSIG(status);
	return slurm_state_of(r->state)->outcome;
}

/*
 * The pending reasons that will not clear by themselves, and the spec key
 * that lifts each.  A QOS's or an association's group limits (QOSGrp*,
 * AssocGrp*) and its per-user job counts clear as other jobs end: not
 * here; nor is PartitionConfig, the partition's configuration "now",
 * which slurmctld may say first of a job it then finds over a limit of
 * the partition (PartitionNodeLimit: tests/slurm/stuck.sh).
 */
static const struct {
	uint32_t	 wait;
	const char	*key;		/* NULL: none of the campaign's */
} slurm_stuck[] = {
	{ WAIT_PART_NODE_LIMIT, "resources.nodes" },
	{ WAIT_PART_TIME_LIMIT, "resources.time_limit" },
	{ FAIL_BAD_CONSTRAINTS, "resources.constraint" },
	{ FAIL_ACCOUNT, "resources.account" },
	{ FAIL_QOS, "resources.qos" },
	{ WAIT_QOS_MAX_WALL_PER_JOB, "resources.time_limit" },
	{ WAIT_QOS_MAX_NODE_PER_JOB, "resources.nodes" },
	{ WAIT_QOS_MAX_CPU_PER_JOB, "resources.cpus_per_task" },
	{ WAIT_QOS_MAX_GRES_PER_JOB, "resources.gpus_per_node" },
	{ WAIT_ASSOC_MAX_WALL_PER_JOB, "resources.time_limit" },
	{ WAIT_ASSOC_MAX_NODE_PER_JOB, "resources.nodes" },
	{ WAIT_ASSOC_MAX_CPU_PER_JOB, "resources.cpus_per_task" },
	{ WAIT_ASSOC_MAX_GRES_PER_JOB, "resources.gpus_per_node" },
	{ WAIT_HELD, NULL },
	{ WAIT_HELD_USER, NULL },
};

/* slurm_wait_stuck(): see slurm_int.h. */
int
slurm_wait_stuck(uint32_t wait, const char *desc, const char **key)
{
	size_t	 i;

	*key = NULL;
	for (i = 0; i < sizeof(slurm_stuck) / sizeof(slurm_stuck[0]); i++)
		if (slurm_stuck[i].wait == wait) {
			*key = slurm_stuck[i].key;
			return 1;
		}
	/*
	 * Required nodes down or drained: Slurm names them
	 * ("ReqNodeNotAvail, UnavailableNodes:n[01-02]"); nodes only
	 * reserved ("May be reserved for other job") free by themselves.
	 */
	return wait == WAIT_NODE_NOT_AVAIL && desc != NULL &&
	    strstr(desc, "UnavailableNodes:") != NULL;
}

/* Name a state and its flags. */
void
slurm_state_format(uint32_t state, char *buf, size_t len)
{
	size_t	 i, n;

	snprintf(buf, len, "%s", slurm_state_of(state)->name);
	for (i = 0; i < sizeof(slurm_flags) / sizeof(slurm_flags[0]); i++) {
		if ((state & slurm_flags[i].flag) == 0)
			continue;
		n = strlen(buf);
		snprintf(buf + n, len - n, "+%s", slurm_flags[i].name);
	}
}

/*
 * The GPU count in a list like "gpu:4", "gpu:a100:8,mps:100" (the job's
 * gres_total) or "cpu=8,node=2,gres/gpu=4" (tres_alloc_str).
 */
static int
slurm_gpus_in(const char *list, const char *prefix, char sep)
{
	const char	*p, *e, *num;
	size_t		 plen = strlen(prefix);
	long		 total = 0, v;
	int		 found = 0;
	char		*end;

	for (p = list; p != NULL && *p != '\0'; p = *e ? e + 1 : e) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) <= plen || strncmp(p, prefix, plen) != 0)
			continue;
		/* The count follows the last separator ("gpu:a100:8"). */
		num = p + plen;
		for (const char *q = num; q < e; q++)
			if (*q == sep)
				num = q + 1;
		errno = 0;
		v = strtol(num, &end, 10);
		if (errno != 0 || end == num || v < 0 || v > 1000000)
			continue;
		total += v;
		found = 1;
	}
	return found ? (int)total : -1;
}

/* GPUs of an allocation; -1 if neither string names any. */
int
slurm_gpus_parse(const char *gres_total, const char *tres_alloc)
{
	int	 n;

	if ((n = slurm_gpus_in(tres_alloc, "gres/gpu", '=')) >= 0)
		return n;
	if ((n = slurm_gpus_in(gres_total, "gpu", ':')) >= 0)
		return n;
	return -1;
}

/* The controller could not be reached or did not answer in time. */
int
slurm_errno_transient(int err)
{
	switch (err) {
	case SLURM_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURM_COMMUNICATIONS_SEND_ERROR:
	case SLURM_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURM_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SEND_ERROR:
	case SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH:
	case SLURM_PROTOCOL_SOCKET_IMPL_NEGATIVE_RECV_LENGTH:
	case SLURM_PROTOCOL_SOCKET_IMPL_NOT_ALL_DATA_SENT:
	case ESLURM_PROTOCOL_INCOMPLETE_PACKET:
	case SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT:
	case SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT:
	case ESLURM_IN_STANDBY_MODE:
	case ESLURM_IN_STANDBY_USE_BACKUP:
	case ESLURM_ERROR_ON_DESC_TO_RECORD_COPY:
	case EAGAIN:
	case ETIMEDOUT:
	case ECONNREFUSED:
	case ECONNRESET:
	case EINTR:
		return 1;
	default:
		return 0;
	}
}

/* No connection was made: the request cannot have been seen. */
int
slurm_errno_unsent(int err)
{
	return err == SLURM_COMMUNICATIONS_CONNECTION_ERROR ||
	    err == SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR ||
	    err == ECONNREFUSED;
}

/* Is task in a task list like "0-3,7,9-12%4"? */
int
slurm_tasks_contain(const char *list, uint32_t task)
{
	const char	*p = list;
	char		*end;
	unsigned long	 lo, hi;

	while (p != NULL && *p != '\0' && *p != '%') {
		errno = 0;
		lo = strtoul(p, &end, 10);
		if (errno != 0 || end == p)
			return 0;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (errno != 0 || end == p + 1)
				return 0;
			p = end;
		}
		if (*p == ':') {		/* a step: "0-15:4" */
			unsigned long step = strtoul(p + 1, &end, 10);

			if (errno != 0 || end == p + 1 || step == 0)
				return 0;
			p = end;
			if (task >= lo && task <= hi && (task - lo) % step == 0)
				return 1;
		} else if (task >= lo && task <= hi)
			return 1;
		if (*p == ',')
			p++;
	}
	return 0;
}
