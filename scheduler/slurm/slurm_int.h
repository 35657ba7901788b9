/*
 * slurm_int.h: the Slurm backend's internals, shared by slurm.c (the job
 * table, the poll cycle and events, on the loop thread), slurm_rpc.c (the
 * libslurm calls, on libuv's worker threads) and slurm_state.c (what a
 * controller job record means).
 */
#ifndef HPOD_SLURM_INT_H
#define HPOD_SLURM_INT_H

#include <sys/queue.h>
#include <stdint.h>
#include <time.h>

#include <slurm/slurm.h>
#include <uv.h>

#include "sched.h"

/*
 * libslurm's names of the reasons a job pends, as squeue prints them
 * ("Resources", "JobHeldUser"): slurm_reason_name().  libslurm exports
 * the function (slurm_xlator.h) but declares it in no installed header,
 * so it is declared here, under the name of the Slurm built against:
 * slurm_job_reason_string up to 23.11, slurm_job_state_reason_string
 * from 24.05 on, where it also returns const char * (Slurm's commits
 * abc63412bc and 2d4f8a981e, both first in slurm-24-05-0-0rc1).  On the
 * loop thread only: an unknown reason is named in a static buffer.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
extern const char *slurm_job_state_reason_string(enum job_state_reason);
#define slurm_reason_name(r)	slurm_job_state_reason_string(r)
#else
extern char	*slurm_job_reason_string(enum job_state_reason);
#define slurm_reason_name(r)	slurm_job_reason_string(r)
#endif

#define SLURM_NO_TASK	UINT32_MAX	/* not an array task */
#define SLURM_CONFIRM_MAX 8		/* job ids one confirming query loads */

/* One job record of the controller, copied out of libslurm's answer. */
struct slurm_rec {
	uint32_t	 job_id;
	uint32_t	 array_job_id;	/* 0 if not part of an array */
	uint32_t	 array_task_id;	/* SLURM_NO_TASK if none */
	char		*array_pending;	/* pending tasks ("3-7,9"), or NULL */
	uint32_t	 state;		/* base state and flags */
	char		*comment;
	char		*nodes;
	time_t		 submit, start, end;
	time_t		 suspended;	/* seconds since its start it spent
					   suspended, to its last suspend or
					   resume */
	time_t		 suspended_at;	/* when the suspension it is in
					   began, 0: not suspended */
	time_t		 eligible;	/* when it could first start (its
					   dependency met, a hold released),
					   0 while it cannot yet */
	uint32_t	 exit_code;	/* wait(2) status */
	int		 nnodes, ncpus, ngpus;
	char		 reason[64];	/* state reason, "" if none */
	uint32_t	 wait;		/* why it pends (enum
					   job_state_reason) */
};

/* What one base state means to hpod. */
struct slurm_state {
	const char	*name;		/* as squeue prints it */
	int		 terminal;	/* the job will not run again */
	int		 running;	/* holds an allocation */
	enum sched_state outcome;	/* when terminal */
};

/* A libslurm request and its answer, carried to a worker and back. */
enum slurm_op {
	SLURM_OP_SUBMIT,
	SLURM_OP_POLL,
	SLURM_OP_KILL
};

struct slurm_desc {			/* what to submit */
	char		*name, *comment, *script, *work_dir;
	char		*std_out, *std_err;
	char		**env;		/* NULL-terminated */
	int		 nodes, tasks_per_node, cpus_per_task, gpus_per_node;
	long		 time_limit;	/* seconds, 0 = none */
	char		*partition, *account, *qos, *constraint;
	struct sched_slurm_extra extra;	/* reservation: owned */
	char		*array;		/* "0-N", NULL for a single job */
	char		*dependency;	/* "afterany:123", NULL for none */
	char		*script_path;	/* extra.sbatch: where the script is */
};

struct slurm_watch;

struct slurm_work {
	uv_work_t	 req;
	TAILQ_ENTRY(slurm_work) entry;
	struct slurm	*b;
	enum slurm_op	 op;
	struct slurm_job **jobs;	/* SUBMIT: the jobs it submits */
	size_t		 njobs;
	struct slurm_desc desc;		/* SUBMIT */
	char		**files;	/* SUBMIT: path, text, ... to write
					   first (NULL-terminated) */
	int		 file_errno;	/* SUBMIT: writing them failed */
	char		*file_failed;	/* ... this one */
	char		 kill_id[32];	/* KILL: "123" or "123_4" */
	/* The answer. */
	int		 rc;		/* 0 or a Slurm error number */
	uint32_t	 job_id;	/* SUBMIT */
	double		 sent;		/* POLL: when the request left */
	uint32_t	 ids[SLURM_CONFIRM_MAX]; /* POLL: only these job ids
					   (a confirm), if nids > 0 */
	size_t		 nids;
	int		 fed;		/* POLL: in, what is known of the
					   federation; out, what was learned */
	struct slurm_rec *recs;		/* POLL */
	size_t		 nrecs;
	uint32_t	 max_array;	/* POLL: MaxArraySize, 0 if unknown */
	char		*sbatch_msg;	/* SUBMIT through sbatch: its refusal */
};

/* The backend's state (slurm.c): jobs, requests, timers. */
enum slurm_job_state {
	SJ_QUEUED,		/* waiting for the next flush */
	SJ_SUBMITTING,		/* its submit RPC is queued or running */
	SJ_UNCERTAIN,		/* submit answer lost: look for the token */
	SJ_LIVE			/* the controller has it */
};

struct slurm_job {
	TAILQ_ENTRY(slurm_job) entry;
	enum slurm_job_state state;
	char		*token, *name, *dir;
	char		**env;		/* the job's own NAME=VALUE entries */
	char		*jobfile;	/* the text of its job.json */
	int		 nodes, tasks_per_node, cpus_per_task, gpus_per_node;
	long		 time_limit;
	char		*partition, *account, *qos, *constraint;
	struct sched_slurm_extra extra;	/* reservation: owned */
	uint32_t	 id;		/* job id (array: the array's), 0 = ? */
	uint32_t	 task;		/* array task, SLURM_NO_TASK if none */
	uint32_t	 own_id;	/* an array task's own job id, 0 = ? */
	char		*comment;	/* what its record's comment must be */
	char		*after;		/* the token of its lane's previous job
					   (sched_job.after), or NULL */
	char		 job_id[32];	/* "123" or "123_4" */
	uint32_t	 seen;		/* last state seen, for back-off */
	int		 adopted;	/* from an earlier process */
	int		 started;	/* STARTED delivered */
	int		 cancel;	/* cancel asked for */
	int		 killing;	/* a kill is queued or running */
	double		 submitted;	/* when the controller took it */
	double		 started_at;	/* the STARTED event's time */
	double		 suspended;	/* seconds of its run it was
					   suspended, as its last record or
					   its final one says */
	double		 suspended_at;	/* the suspension it is in began
					   then, 0: it runs (its last record) */
	double		 eligible;	/* its record's eligible time (or its
					   end if it never was), 0 = ? */
	struct slurm_watch *watch;	/* its directory's watch, or NULL */
	int		 hinted;	/* its end marker was seen */
	char		 pend[64];	/* the pending reason last told
					   (SCHED_EV_PENDING), "" for none */
	int		 forgotten;	/* its end is read from result.json:
					   the controller forgot it */
	double		 absent_after;	/* SJ_UNCERTAIN: trust "no such job"
					   only from polls after this */
	int		 resend;	/* adopted again after a release: tell
					   it SUBMITTED at the next record */
	sched_event_cb	 cb;		/* NULL: released (sched_release) */
	void		*arg;
};

struct slurm {
	struct sched	 sched;		/* first: the engine's handle */
	uv_loop_t	*loop;
	char		*wrapper;
	struct sched_slurm_opts opts;
	TAILQ_HEAD(, slurm_job) jobs;
	TAILQ_HEAD(, slurm_work) queue;
	struct slurm_work *inflight;
	uv_timer_t	 poll;		/* the poll cycle */
	uv_timer_t	 flush;		/* submits of one loop turn together */
	uint64_t	 interval;	/* current poll period, ms */
	uint64_t	 hint_delay;	/* ms to the poll after an end marker */
	uint64_t	 full_at;	/* uv_now() of the last full poll */
	int		 confirm;	/* the poll timer was armed by a marker */
	int		 fed;		/* 1: not in a federation (queries ask
					   for local records: no federation
					   lookup each), -1: in one, 0: ? */
	uint32_t	 max_array;	/* MaxArraySize, 0 = not known yet */
	int		 polling;	/* a poll is queued or running */
	int		 flush_after_poll;
	int		 unreachable;	/* slurmctld is not answering */
	int		 njobs;
	int		 nopen;
	int		 closing;
	void		(*done)(void *);
	void		*done_arg;
};

#define SLURM_LOST_GRACE_S	30	/* a lost request may still arrive */

/* slurm.c */
void	 slurm_job_free(struct slurm *, struct slurm_job *);
void	 slurm_emit(struct slurm *, struct slurm_job *, struct sched_event *);
void	 slurm_end(struct slurm *, struct slurm_job *, enum sched_state,
	    int exit_code, int sig, double start, double end,
	    const char *reason);
void	 slurm_job_name_id(struct slurm_job *, uint32_t id, uint32_t task);
struct slurm_work *slurm_work_new(struct slurm *, enum slurm_op);
void	 slurm_kill(struct slurm *, struct slurm_job *);
void	 slurm_kick(struct slurm *);
void	 slurm_arm(struct slurm *);
void	 slurm_arm_rest(struct slurm *);
void	 slurm_poll_due(uv_timer_t *);
void	 slurm_work_done(struct slurm_work *);

/* slurm_poll.c */
void	 slurm_polled(struct slurm *, struct slurm_work *);

/* slurm_watch.c */
void	 slurm_watch_start(struct slurm *, struct slurm_job *);
void	 slurm_watch_stop(struct slurm_job *);
void	 slurm_poll_soon(struct slurm *);
int	 slurm_watch_followup(struct slurm *);
size_t	 slurm_watch_ids(struct slurm *, uint32_t *ids);

/* slurm_submit.c */
void	 slurm_flush(uv_timer_t *);
void	 slurm_submitted(struct slurm *, struct slurm_work *);
char	*slurm_render_jobfile(const struct sched_job *);

/* slurm_sbatch.c: submits with resources.sbatch_extra, on the loop. */
char	**slurm_sbatch_argv(const struct slurm_desc *, const char *script);
void	 slurm_sbatch_start(struct slurm *, struct slurm_work *);

/* slurm_part.c: a partition's limits, against a job sbatch took. */
struct slurm_part_limits {
	char		 name[128];
	uint32_t	 max_time;	/* minutes, INFINITE or NO_VAL */
	uint64_t	 max_mem;	/* MB per node (0: none), or per CPU
					   with MEM_PER_CPU set */
};
/* What a job asks that a partition may never give. */
struct slurm_part_ask {
	long		 time_limit;	/* seconds, 0: none */
	uint64_t	 mem_mb;	/* per node, 0: none given */
	const char	*mem_key;	/* the key that gives it: "mem",
					   "mem_per_cpu", "mem_per_gpu" */
	uint64_t	 mem_each;	/* per CPU or GPU, as given */
	int		 mem_count;	/* CPUs or GPUs per node */
};
void	 slurm_part_ask_init(struct slurm_part_ask *, const struct sched_job *);
/*
 * The partition named by `sbatch --test-only`'s answer said ("... in
 * partition NAME"): 0, or -1 if it names none.
 */
int	 slurm_part_named(const char *said, char *name, size_t len);
/*
 * Whether a job asking a could ever start in partition p: 0, or -1 with
 * out saying which key is over which limit.
 */
int	 slurm_part_judge(const struct slurm_part_limits *p,
	    const struct slurm_part_ask *a, char *out, size_t len);
/*
 * On a worker thread: whether a job asking a that names the
 * comma-separated partitions names could ever start in one: 0 (or their
 * limits cannot be had), or -1 with out saying why not (the first's).
 */
int	 slurm_part_check(const char *names, const struct slurm_part_ask *a,
	    char *out, size_t len);

/* slurm_util.c */
char	*slurm_strdup(const char *);
void	*slurm_calloc(size_t, size_t);
char	*slurm_printf(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 slurm_strv_free(char **);
char	**slurm_strv_dup(const char *const *);
void	 slurm_warn(const struct slurm *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
double	 slurm_now(void);

/*
 * Work inside libslurm on a worker thread holds libslurm open: its
 * teardown (slurm_fini) waits for the last hold to go.  On the loop
 * thread only.  slurm_hold_drop() and slurm_hold_fini() return 1 when
 * the teardown is due now (once), else 0.
 */
struct slurm_hold {
	unsigned	 n;		/* holds taken, not dropped */
	int		 fini;		/* 1: asked, 2: done */
};
void	 slurm_hold_take(struct slurm_hold *);
int	 slurm_hold_drop(struct slurm_hold *);
int	 slurm_hold_fini(struct slurm_hold *);


/* slurm_rpc.c: run on a worker thread; never touch the loop. */
int	 slurm_rpc_check(char *err, size_t errlen);
void	 slurm_rpc_init(void);
void	 slurm_rpc_fini(void);
void	 slurm_rpc_hold(void);
void	 slurm_rpc_release(void);
void	 slurm_rpc_run(uv_work_t *);
void	 slurm_recs_free(struct slurm_rec *, size_t);
void	 slurm_desc_release(struct slurm_desc *);

/* slurm_state.c */
const struct slurm_state *slurm_state_of(uint32_t state);
/* A record is final: terminal base state, not completing, not requeued. */
int	 slurm_rec_final(const struct slurm_rec *);
/* Map a final record to an outcome, exit code and signal. */
enum sched_state slurm_rec_outcome(const struct slurm_rec *, int *exit_code,
	    int *signal);
/* GPUs of an allocation from "gpu:4" / "gres/gpu=4" strings; -1 if none. */
int	 slurm_gpus_parse(const char *gres_total, const char *tres_alloc);
/* 1 if the error means "the controller did not answer": try again. */
int	 slurm_errno_transient(int err);
/* 1 if the error means the request never reached the controller. */
int	 slurm_errno_unsent(int err);
/* 1 if task is in a pending-task list such as "0-3,7,9-12%4". */
int	 slurm_tasks_contain(const char *list, uint32_t task);
/* A human name for a state with its flags: "RUNNING+COMPLETING". */
void	 slurm_state_format(uint32_t state, char *buf, size_t len);
/*
 * 1 if a job pending for reason wait (desc: its state_desc, "" if none)
 * waits for something that will not come by itself: a limit of its
 * partition, QOS or association it is over (*key: the spec key to
 * change), a constraint no node meets, a hold, required nodes down
 * (*key NULL: no key of the campaign's lifts it); else 0.
 */
int	 slurm_wait_stuck(uint32_t wait, const char *desc, const char **key);

#endif
