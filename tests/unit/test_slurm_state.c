/*
 * test_slurm_state: what the Slurm backend makes of controller job records
 * (its own state table, since libslurm 22.05 exports none), GPU counts,
 * array task lists and which errors mean "try again".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "slurm_int.h"
#include "tap.h"

/* A record in state st, exiting with status. */
static struct slurm_rec
rec(uint32_t st, uint32_t status)
{
	struct slurm_rec r;

	memset(&r, 0, sizeof(r));
	r.state = st;
	r.exit_code = status;
	return r;
}

static void
test_states(void)
{
	static const struct {
		uint32_t	 st;
		int		 final;
		enum sched_state out;
		const char	*name;
	} cases[] = {
		{ JOB_PENDING, 0, SCHED_LOST, "PENDING" },
		{ JOB_RUNNING, 0, SCHED_LOST, "RUNNING" },
		{ JOB_SUSPENDED, 0, SCHED_LOST, "SUSPENDED" },
		{ JOB_COMPLETE, 1, SCHED_COMPLETED, "COMPLETED" },
		{ JOB_CANCELLED, 1, SCHED_CANCELLED, "CANCELLED" },
		{ JOB_FAILED, 1, SCHED_FAILED, "FAILED" },
		{ JOB_TIMEOUT, 1, SCHED_TIMEOUT, "TIMEOUT" },
		{ JOB_NODE_FAIL, 1, SCHED_NODE_FAIL, "NODE_FAIL" },
		{ JOB_PREEMPTED, 1, SCHED_PREEMPTED, "PREEMPTED" },
		{ JOB_BOOT_FAIL, 1, SCHED_NODE_FAIL, "BOOT_FAIL" },
		{ JOB_DEADLINE, 1, SCHED_TIMEOUT, "DEADLINE" },
		{ JOB_OOM, 1, SCHED_FAILED, "OUT_OF_MEMORY" },
	};
	struct slurm_rec r;
	char buf[128], name[64];
	size_t i;
	int code, sig;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = rec(cases[i].st, 0);
		snprintf(name, sizeof(name), "%s final", cases[i].name);
		is_int(slurm_rec_final(&r), cases[i].final, name);
		slurm_state_format(cases[i].st, buf, sizeof(buf));
		snprintf(name, sizeof(name), "%s named", cases[i].name);
		is_str(buf, cases[i].name, name);
		snprintf(name, sizeof(name), "%s outcome", cases[i].name);
		if (cases[i].final)
			is_int(slurm_rec_outcome(&r, &code, &sig),
			    cases[i].out, name);
	}
	is_str(slurm_state_of(JOB_END + 3)->name, "UNKNOWN",
	    "a state from a newer Slurm is unknown");
	is_int(slurm_state_of(JOB_END + 3)->terminal, 0,
	    "and not terminal: keep watching");

	/* Flags: not final while completing or requeued. */
	r = rec(JOB_COMPLETE | JOB_COMPLETING, 0);
	is_int(slurm_rec_final(&r), 0, "COMPLETED+COMPLETING is not final");
	r = rec(JOB_NODE_FAIL | JOB_REQUEUE, 0);
	is_int(slurm_rec_final(&r), 0, "NODE_FAIL+REQUEUED is not final");
	r = rec(JOB_PENDING | JOB_REQUEUE, 0);
	is_int(slurm_rec_final(&r), 0, "PENDING+REQUEUED is not final");
	r = rec(JOB_CANCELLED | JOB_COMPLETING, 0);
	is_int(slurm_rec_final(&r), 0, "CANCELLED+COMPLETING is not final");
	slurm_state_format(JOB_CANCELLED | JOB_COMPLETING, buf, sizeof(buf));
	is_str(buf, "CANCELLED+COMPLETING", "flags are named");
	r = rec(JOB_RUNNING | JOB_CONFIGURING, 0);
	is_int(slurm_rec_final(&r), 0, "RUNNING+CONFIGURING is not final");

	/* Exit status and signal from the wait(2) status. */
	r = rec(JOB_FAILED, 3 << 8);
	slurm_rec_outcome(&r, &code, &sig);
	is_int(code, 3, "exit code from the status");
	is_int(sig, 0, "no signal");
	r = rec(JOB_CANCELLED, SIGKILL);
	slurm_rec_outcome(&r, &code, &sig);
	is_int(code, -1, "killed: no exit code");
	is_int(sig, SIGKILL, "killed: the signal");
}

static void
test_gpus(void)
{
	is_int(slurm_gpus_parse("gpu:4", NULL), 4, "gres_total gpu:4");
	is_int(slurm_gpus_parse("gpu:a100:8,mps:100", NULL), 8,
	    "typed GPUs, other GRES ignored");
	is_int(slurm_gpus_parse("gpu:a100:2,gpu:v100:2", NULL), 4,
	    "two GPU types add up");
	is_int(slurm_gpus_parse(NULL, "cpu=8,mem=1G,node=2,billing=8,"
	    "gres/gpu=4"), 4, "tres_alloc_str gres/gpu=4");
	is_int(slurm_gpus_parse("gpu:4", "cpu=8,gres/gpu=8"), 8,
	    "the allocated TRES win");
	is_int(slurm_gpus_parse(NULL, "cpu=8,node=1"), -1, "no GPUs: -1");
	is_int(slurm_gpus_parse("", ""), -1, "empty: -1");
	is_int(slurm_gpus_parse("mps:100", NULL), -1, "mps is not a GPU");
}

static void
test_tasks(void)
{
	ok(slurm_tasks_contain("0-3,7", 0), "0 in 0-3,7");
	ok(slurm_tasks_contain("0-3,7", 3), "3 in 0-3,7");
	ok(!slurm_tasks_contain("0-3,7", 4), "4 not in 0-3,7");
	ok(slurm_tasks_contain("0-3,7", 7), "7 in 0-3,7");
	ok(slurm_tasks_contain("5", 5), "5 in 5");
	ok(slurm_tasks_contain("2-9%4", 9), "9 in 2-9%%4 (throttled)");
	ok(!slurm_tasks_contain("2-9%4", 4 + 6), "10 not in 2-9%%4");
	ok(slurm_tasks_contain("0-15:4", 8), "8 in 0-15:4");
	ok(!slurm_tasks_contain("0-15:4", 9), "9 not in 0-15:4");
	ok(!slurm_tasks_contain(NULL, 0), "none in NULL");
	ok(!slurm_tasks_contain("x", 0), "none in garbage");
}

static void
test_transient(void)
{
	ok(slurm_errno_transient(SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR),
	    "controller connection error: retry");
	ok(slurm_errno_transient(SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT),
	    "socket timeout: retry");
	ok(slurm_errno_transient(ESLURM_IN_STANDBY_MODE), "standby: retry");
	ok(slurm_errno_transient(EAGAIN), "EAGAIN: retry");
	ok(!slurm_errno_transient(ESLURM_INVALID_PARTITION_NAME),
	    "bad partition: final");
	ok(!slurm_errno_transient(ESLURM_INVALID_ACCOUNT), "bad account: final");
	ok(!slurm_errno_transient(ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE),
	    "impossible request: final");
	ok(slurm_errno_unsent(SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR),
	    "no connection: the request was never seen");
	ok(!slurm_errno_unsent(SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT),
	    "timeout: the request may still be processed");
	ok(!slurm_errno_unsent(SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR),
	    "receive error: the request may have been processed");
}

/*
 * The pending reasons that will not clear by themselves, each with the
 * spec key that lifts it, and Slurm's own names of the reasons.
 */
static void
test_wait(void)
{
	static const struct {
		uint32_t	 wait;
		const char	*desc, *name, *key;
		int		 stuck;
	} cases[] = {
		{ WAIT_RESOURCES, "", "Resources", NULL, 0 },
		{ WAIT_PRIORITY, "", "Priority", NULL, 0 },
		{ WAIT_DEPENDENCY, "", "Dependency", NULL, 0 },
		{ WAIT_TIME, "", "BeginTime", NULL, 0 },
		{ WAIT_QOS_GRP_NODE, "", "QOSGrpNodeLimit", NULL, 0 },
		{ WAIT_PART_CONFIG, "", "PartitionConfig", NULL, 0 },
		{ WAIT_PART_TIME_LIMIT, "", "PartitionTimeLimit",
		    "resources.time_limit", 1 },
		{ WAIT_PART_NODE_LIMIT, "", "PartitionNodeLimit",
		    "resources.nodes", 1 },
		{ WAIT_QOS_MAX_WALL_PER_JOB, "", "QOSMaxWallDurationPerJobLimit",
		    "resources.time_limit", 1 },
		{ WAIT_QOS_MAX_NODE_PER_JOB, "", "QOSMaxNodePerJobLimit",
		    "resources.nodes", 1 },
		{ WAIT_HELD, "", "JobHeldAdmin", NULL, 1 },
		{ WAIT_HELD_USER, "", "JobHeldUser", NULL, 1 },
		{ WAIT_NODE_NOT_AVAIL, "ReqNodeNotAvail, UnavailableNodes:n01",
		    "ReqNodeNotAvail", NULL, 1 },
		{ WAIT_NODE_NOT_AVAIL, "ReqNodeNotAvail, May be reserved for "
		    "other job", "ReqNodeNotAvail", NULL, 0 },
	};
	const char	*key;
	size_t		 i;
	int		 stuck;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_str(slurm_reason_name(cases[i].wait), cases[i].name,
		    "Slurm names the reason");
		key = "?";
		stuck = slurm_wait_stuck(cases[i].wait, cases[i].desc, &key);
		if (!tap_ok(stuck == cases[i].stuck && (key == NULL ?
		    cases[i].key == NULL : cases[i].key != NULL &&
		    strcmp(key, cases[i].key) == 0), "%s (%s): %s%s",
		    cases[i].name, cases[i].desc, !cases[i].stuck ?
		    "clears by itself" : "will not clear by itself, key ",
		    !cases[i].stuck ? "" : cases[i].key ? cases[i].key :
		    "none"))
			printf("#   got %d, key %s\n", stuck, key ? key :
			    "(null)");
	}
}

int
main(void)
{
	test_states();
	test_gpus();
	test_tasks();
	test_transient();
	test_wait();
	return tap_done();
}
