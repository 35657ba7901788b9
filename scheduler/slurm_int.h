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

#include <uv.h>

#include "sched.h"

#define SLURM_NO_TASK	UINT32_MAX	/* not an array task */

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
	uint32_t	 exit_code;	/* wait(2) status */
	int		 nnodes, ncpus, ngpus;
	char		 reason[64];	/* state reason, "" if none */
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
	char		*array;		/* "0-N", NULL for a single job */
};

struct slurm_work {
	uv_work_t	 req;
	TAILQ_ENTRY(slurm_work) entry;
	struct slurm	*b;
	enum slurm_op	 op;
	struct slurm_job **jobs;	/* SUBMIT: the jobs it submits */
	size_t		 njobs;
	struct slurm_desc desc;		/* SUBMIT */
	char		 kill_id[32];	/* KILL: "123" or "123_4" */
	/* The answer. */
	int		 rc;		/* 0 or a Slurm error number */
	uint32_t	 job_id;	/* SUBMIT */
	double		 sent;		/* POLL: when the request left */
	struct slurm_rec *recs;		/* POLL */
	size_t		 nrecs;
	uint32_t	 max_array;	/* POLL: MaxArraySize, 0 if unknown */
};

/* slurm_rpc.c: run on a worker thread; never touch the loop. */
int	 slurm_rpc_check(char *err, size_t errlen);
void	 slurm_rpc_init(void);
void	 slurm_rpc_fini(void);
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

#endif
