/*
 * sched.h: the interface between the engine and a batch backend.
 *
 * A backend takes jobs (one attempt of a trial each), runs them somewhere,
 * and reports what happens through the job's callback, always on the loop
 * thread.  It never touches the ledger or the search.  A job is named by
 * its token, which is unique forever; backend job ids are informational.
 *
 * Every job gets exactly one SCHED_EV_END event (or SCHED_EV_SUBMIT_FAILED
 * when it never ran), after which the backend forgets it.
 */
#ifndef HPOD_SCHED_H
#define HPOD_SCHED_H

#include <uv.h>

#include "sched_extra.h"

/* The final state of a job. */
enum sched_state {
	SCHED_COMPLETED,	/* exit status 0 */
	SCHED_FAILED,		/* non-zero exit or killed by a signal */
	SCHED_TIMEOUT,		/* ran over its time limit */
	SCHED_CANCELLED,	/* cancelled (by us or from outside) */
	SCHED_NODE_FAIL,	/* infrastructure failure */
	SCHED_PREEMPTED,
	SCHED_LOST		/* vanished without a result */
};

enum sched_event_type {
	SCHED_EV_SUBMITTED,	/* job_id is known */
	SCHED_EV_STARTED,	/* running; allocation and host known */
	SCHED_EV_END,		/* finished; state, exit status known */
	SCHED_EV_SUBMIT_FAILED,	/* could not be submitted; reason says why */
	SCHED_EV_OUTPUT,	/* new output in dir/stdout: read it now */
	SCHED_EV_SUSPENDED,	/* a running job was suspended or resumed
				   (Slurm: scontrol suspend, resume):
				   suspended and suspended_at say how */
	SCHED_EV_PENDING	/* the reason a job that has not started
				   waits changed (Slurm only): reason,
				   stuck and fix_key say it */
};

struct sched_event {
	enum sched_event_type type;
	const char	*token;
	const char	*job_id;
	double		 time;		/* when it happened (epoch seconds) */
	enum sched_state state;		/* SCHED_EV_END */
	int		 exit_code;	/* -1 if unknown */
	int		 signal;	/* 0 if none */
	const char	*host;		/* SCHED_EV_STARTED */
	int		 nodes, gpus, cpus;	/* SCHED_EV_STARTED: totals; nodes
						   0: not known (a job taken
						   back: as asked) */
	double		 node_share;	/* SCHED_EV_STARTED (and END): the
					   nodes it is charged when not its
					   whole nodes (a pilot's job: its
					   share of the pilot's node), 0:
					   nodes */
	double		 start, end;	/* SCHED_EV_END: as the job saw them */
	double		 suspended;	/* SCHED_EV_END: the seconds of
					   [start, end] the job was suspended
					   (Slurm: scontrol suspend), which
					   its run time leaves out; 0: none.
					   SCHED_EV_SUSPENDED: those of its
					   suspensions before suspended_at */
	double		 suspended_at;	/* SCHED_EV_SUSPENDED: when the
					   suspension it is in began (its run
					   time stops there), 0: it runs */
	int		 forgotten;	/* SCHED_EV_END: the scheduler forgot
					   the job before its end was seen
					   (Slurm's MinJobAge): its end is
					   read from result.json, and
					   suspended holds only what its polls
					   saw, nothing of a suspension it
					   was last seen in */
	/*
	 * SCHED_EV_STARTED and SCHED_EV_END: when the job could first
	 * start, from which its queue wait counts (Slurm's eligible time:
	 * its dependency met, a hold released; a job that ended before it
	 * ever could, e.g. cancelled while it waited on its dependency,
	 * has its end: it waited for no resources).  0: not known (the
	 * queue wait counts from the submission).
	 */
	double		 eligible;
	const char	*reason;	/* human-readable detail, may be NULL;
					   SCHED_EV_PENDING: the scheduler's
					   name for why the job waits (Slurm's
					   job_state_reason_string(), such as
					   "Resources"), "" for none */
	/*
	 * SCHED_EV_PENDING: 1 if that reason will not clear by itself (a
	 * limit the job is over, a hold), with fix_key the campaign's spec
	 * key whose change would lift it ("resources.time_limit"), NULL if
	 * none would (a hold: scontrol release).
	 */
	int		 stuck;
	const char	*fix_key;
};

typedef void	(*sched_event_cb)(void *arg, const struct sched_event *);

/* What to run.  Everything is borrowed for the duration of the call. */
struct sched_job {
	const char	*token;
	const char	*name;		/* job name shown by the scheduler */
	const char	*dir;		/* attempt directory, exists */
	const char *const *argv;	/* workload argv, argv[0] a path */
	const char *const *env;		/* extra NAME=VALUE entries */
	int		 nodes;
	int		 gpus_per_node;
	int		 cpus_per_task;
	int		 tasks_per_node;
	long		 time_limit;	/* seconds, 0 = none */
	const char	*partition, *account, *qos, *constraint;
	struct sched_slurm_extra extra;
	/*
	 * The token of a job of this backend that this one must not start
	 * before: it waits for that job's end, whatever the end (Slurm:
	 * --dependency=afterany), so that a slot's next job is queued
	 * before the slot frees.  NULL: none.  Only the Slurm backend
	 * takes it; a job it names that has ended already is no wait.
	 */
	const char	*after;
	sched_event_cb	 cb;
	void		*arg;
};

struct sched;

struct sched_ops {
	const char	*name;
	int		(*submit)(struct sched *, const struct sched_job *);
	int		(*cancel)(struct sched *, const char *token);
	int		(*adopt)(struct sched *, const char *token,
			    const char *job_id, const char *dir,
			    sched_event_cb, void *arg);
	int		(*active)(const struct sched *);
	void		(*close)(struct sched *, void (*done)(void *), void *);
	/* May be NULL: the backend cannot hand a job over (sched_release). */
	int		(*release)(struct sched *, const char *token);
	/* The backend's clock; NULL: the wall clock. */
	double		(*now)(const struct sched *);
	/*
	 * 1: its jobs live and die with this process (replay), so that none
	 * can outlive a crash that loses the record of its attempt.
	 */
	int		 in_process;
};

/* Every backend's handle starts with this. */
struct sched {
	const struct sched_ops *ops;
};

/*
 * Submit a job.  Return 0 when the backend took it (events follow), or -1
 * with nothing taken (a bad job).
 */
int	 sched_submit(struct sched *, const struct sched_job *);
/* Cancel a job by token; its END event follows.  -1 if unknown. */
int	 sched_cancel(struct sched *, const char *token);
/*
 * Take back a job submitted by an earlier process (after a restart): the
 * backend finds it by token (and job id, dir) and reports its events,
 * STARTED first while it runs (local, Slurm: its owner may have lost
 * the record of it).
 */
int	 sched_adopt(struct sched *, const char *token, const char *job_id,
	    const char *dir, sched_event_cb, void *arg);
/*
 * Stop reporting token's events: its owner is gone, and the job runs on
 * until a later sched_adopt() of token takes it back, with the events
 * held for it since (local: and STARTED again while it runs), or its
 * state from the controller's view as
 * after a restart (Slurm: STARTED again while it runs, SUBMITTED first
 * if the adopter has no job id).  A token the backend does not hold is no
 * error: its adopt finds it as after a restart.  -1 if the backend
 * cannot (it has no release; its jobs' events go to their owner).
 */
int	 sched_release(struct sched *, const char *token);
/* Number of jobs the backend is tracking. */
int	 sched_active(const struct sched *);
/* Close all handles; done(arg) runs once everything is released. */
void	 sched_close(struct sched *, void (*done)(void *), void *arg);

/*
 * The time now for this backend's events, in seconds since the epoch: the
 * wall clock, or the virtual clock of the replay backend.
 */
double	 sched_now(const struct sched *);

/* Name of a final state: "completed", "failed", ... */
const char	*sched_state_name(enum sched_state);
/*
 * The seconds a job was suspended by time t as its last view had it: the
 * seconds of its suspensions before (suspended) and of the one it was in
 * (from suspended_at, 0: none) up to t.  A job the scheduler forgot while
 * suspended stayed so as far as anyone knows: no run time past its last
 * view.
 */
double		 sched_suspended_by(double suspended, double suspended_at,
		    double t);

/*
 * The local backend: runs each job as a child process (through the trial
 * wrapper at wrapper_path) on this machine, at most `cpus` CPUs in use at
 * once (each job uses nodes * tasks_per_node * cpus_per_task).
 * Jobs run in their own session and survive the daemon; sched_adopt()
 * picks them up again from their result.json after a restart.
 */
struct uv_loop_s;	/* uv_loop_t, also when <uv.h> is still being read */
struct sched	*sched_local_new(struct uv_loop_s *, const char *wrapper_path,
		    int cpus, char *err, size_t errlen);

/*
 * The Slurm backend: submits each job as a Slurm batch job through
 * libslurm, running hpo-trial at wrapper_path on the compute node.
 */
struct sched_slurm_opts {
	uint64_t	 poll_min;	/* ms between polls while busy */
	uint64_t	 poll_max;	/* ms between polls at most */
	uint64_t	 kick;		/* ms from a job's end marker to the
					   poll; 0 = do not watch for it */
	int		 array_min;	/* submit >= this many alike jobs
					   as one array; 0 = never */
	/* Where warnings go (NULL: stderr). */
	void		(*warn)(const char *fmt, ...)
			    __attribute__((format(printf, 1, 2)));
};
struct sched	*sched_slurm_new(struct uv_loop_s *, const char *wrapper_path,
		    const struct sched_slurm_opts *, char *err, size_t errlen);
/*
 * Ask `sbatch --test-only` whether the controller would take a job like
 * job (its shape, keys and extra.sbatch options), blocking on a private
 * loop: for `hpoctl check`, never inside a running loop.  Return 0 if it
 * would (msg: sbatch's answer), -1 if it refuses (msg: why, in sbatch's
 * words), 1 if no cluster could be asked (msg: why not).
 */
int		 sched_slurm_test(const struct sched_job *, char *msg,
		    size_t len);
/*
 * The same question asked without blocking, for hpod: sbatch runs on loop
 * and cb(arg, rc, said) follows on the loop thread, once, rc and said as
 * sched_slurm_test() gives them (said is cb's only for the call).  NULL
 * (cb never runs) if no cluster can be asked: msg says why.
 * sched_slurm_test_stop() kills sbatch: cb follows with rc 1; never after
 * cb ran (the question is freed then).
 */
struct sched_slurm_test;
struct sched_slurm_test *sched_slurm_test_start(struct uv_loop_s *,
		    const struct sched_job *, void (*cb)(void *, int,
		    const char *), void *arg, char *msg, size_t len);
void		 sched_slurm_test_stop(struct sched_slurm_test *);

/*
 * The replay backend: answers each job from the table of learning curves
 * at table_path on a virtual clock (see replay.c and hpod-campaign(5)).
 */
struct sched	*sched_replay_new(struct uv_loop_s *, const char *table_path,
		    char *err, size_t errlen);

/*
 * The pilot backend (scheduler/pilot/): runs a campaign's jobs back to
 * back inside a few pilot allocations submitted through an inner backend
 * (local or Slurm).  Each pilot runs `hpo-trial --pilot FILE`, an agent
 * that asks this backend for jobs over TCP, authenticated by the secret
 * of the pilot file dir/pilot.json (0600).  Its jobs' events are as any
 * backend's, with job ids "PILOT_JOB_ID.pN"; the pilots' own lifecycle
 * goes to opts->cb, so that their idle time is accounted.
 */
/*
 * A pilot is given a job only while the time it has left (its time limit
 * from its start) holds the job's time limit and this margin in seconds,
 * its first job excepted; one too short for the job that waits is drained
 * and replaced.
 */
#define SCHED_PILOT_MARGIN	10
enum sched_pilot_ev_type {
	SCHED_PILOT_SUBMITTED,	/* token, dir: before the inner submit */
	SCHED_PILOT_STARTED,	/* job_id, host, nodes, gpus, cpus */
	SCHED_PILOT_ENDED,	/* state; busy_*: what its jobs were charged;
				   start and time (its end) bound its jobs' */
	SCHED_PILOT_SUSPENDED	/* its job was suspended or resumed:
				   suspended and suspended_at say how */
};
struct sched_pilot_event {
	enum sched_pilot_ev_type type;
	const char	*token, *dir, *job_id, *host;
	double		 time;
	int		 nodes, gpus, cpus;
	enum sched_state state;
	double		 start;		/* ENDED: when it started, 0 if never */
	double		 elapsed;	/* ENDED: start to end, 0 if never */
	double		 suspended;	/* ENDED: the seconds of it its job
					   was suspended (Slurm: scontrol
					   suspend), which its run time, and
					   so its idle time, leaves out.
					   SUSPENDED: those of its
					   suspensions before suspended_at */
	double		 suspended_at;	/* SUSPENDED: when the suspension it
					   is in began (its run time stops
					   there), 0: it runs */
	double		 busy_node_s, busy_gpu_s;
	int		 adopted;	/* taken back after a restart */
};
struct sched_pilot_opts {
	const char	*dir;		/* the campaign's run directory */
	const char	*wrapper;	/* hpo-trial, run as the agent */
	const char	*name;		/* the pilot jobs' name */
	int		 count;		/* pilots at once */
	/*
	 * One pilot's job: its size (nodes, on each one task of
	 * cpus_per_task CPUs and gpus_per_node GPUs), time limit,
	 * partition, account, qos, constraint and sbatch options.  The backend fills in the
	 * rest (token, name, dir, argv, env, cb) for each pilot.
	 */
	struct sched_job job;
	void		(*cb)(void *, const struct sched_pilot_event *);
	void		*arg;
	/* Where warnings go (NULL: stderr). */
	void		(*warn)(const char *fmt, ...)
			    __attribute__((format(printf, 1, 2)));
};
/*
 * Listen for agents and write dir/pilot.json (its secret kept from an
 * earlier run; refused unless it is 0600 and ours).  The inner backend is
 * borrowed.  NULL with err naming the file.
 */
struct sched	*sched_pilot_new(struct uv_loop_s *, struct sched *inner,
		    const struct sched_pilot_opts *, char *err, size_t errlen);
/*
 * Take back a pilot submitted by an earlier process (after a restart):
 * the inner backend follows its job again, its agent is taken when it
 * calls, and its jobs (sched_adopt) are found by their job id's pilot.
 * seq: the largest N of the job ids PILOT.pN its jobs were given (the
 * next is one past it, never one recorded already); busy_node_s,
 * busy_gpu_s: what those that ended were charged (its ENDED event's
 * busy_* include them); suspended, suspended_at: its suspension as its
 * last SUSPENDED event said, from which the next counts.  -1 if the
 * inner backend refuses.
 */
int		 sched_pilot_adopt(struct sched *, const char *token,
		    const char *job_id, const char *dir, double started,
		    int seq, double busy_node_s, double busy_gpu_s,
		    double suspended, double suspended_at);
/*
 * A job taken back (sched_adopt) was suspended with its pilot for
 * `suspended` seconds before, and is since suspended_at (0: it runs), as
 * its last SUSPENDED event said: its counts go on from there, the
 * suspensions of its pilot after the restart added.  -1 if the backend
 * holds no such job running in a pilot.
 */
int		 sched_pilot_job_suspended(struct sched *, const char *token,
		    double suspended, double suspended_at);
/*
 * The inner backend is closed: no event of the pilots will come, and
 * sched_close() frees every pilot (else one still alive is kept until
 * its END).
 */
void		 sched_pilot_forget(struct sched *);
/*
 * Hand every pilot not ended over to a later sched_pilot_adopt() of
 * another pilot backend (a failed ledger commit: the engine is dropped
 * and its campaign taken back): the inner backend holds each pilot's job
 * for whoever adopts its token (sched_release), and sched_close() then
 * frees every pilot, closing its agent's connection; the agents call the
 * next backend, as after a restart.  -1 if the inner backend cannot.
 */
int		 sched_pilot_release(struct sched *);
/* The pilots not yet ended. */
int		 sched_pilot_live(const struct sched *);
/*
 * No more jobs are coming: pilots not started are cancelled, idle agents
 * told to exit, busy ones once their jobs end.
 */
void		 sched_pilot_drain(struct sched *);

#endif
