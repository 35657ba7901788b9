/*
 * pilot_int.h: the pilot backend's internals, shared by pilot.c (the
 * backend and its jobs), pilot_adopt.c (taking them back), pilot_run.c
 * (the pilots), pilot_net.c (the agents' connections) and pilot_file.c
 * (the pilot file and its secret).
 */
#ifndef HPOD_PILOT_INT_H
#define HPOD_PILOT_INT_H

#include <sys/queue.h>

#include <uv.h>

#include "pilot_proto.h"
#include "pilot_slots.h"
#include "sched.h"

/* Pilots in a row that end before they ran: their jobs fail. */
#define PILOT_MAX_FAILED	3

struct psched;
struct pjob;
struct pconn;

/* A job (an attempt) of the engine: queued, then run by a pilot. */
struct patt {
	TAILQ_ENTRY(patt) entry;	/* ps->queue or its pilot's jobs */
	char		*token, *dir, *job;	/* job: job.json's text */
	int		 nodes, gpus, cpus;	/* gpus, cpus: on each node */
	int		 srun;		/* its argv[0] is srun: a step on
					   any of its pilot's nodes; else a
					   child of the agent, on its node */
	int		*at;		/* its nodes' indices in its pilot */
	long		 limit;		/* its time limit, seconds, 0: none */
	sched_event_cb	 cb;
	void		*arg;
	double		 submitted;
	struct pjob	*pilot;		/* NULL while queued */
	char		*job_id;	/* "PILOT.pN" once handed out */
	int		 started;
	double		 t_started;
	double		 suspended;	/* seconds of its run its pilot was
					   suspended, not billed */
	double		 suspended_at;	/* its pilot is suspended since
					   then, 0: it runs */
	int		 cancelled;
	int		 dying;		/* stopped with its pilot: ends as
					   the pilot does */
	int		 adopted;	/* from an earlier process (job NULL) */
};
TAILQ_HEAD(pattq, patt);

enum pjob_state { PJ_SUBMITTED, PJ_RUNNING, PJ_ENDED };

/* A pilot allocation: one job of the inner backend running an agent. */
struct pjob {
	TAILQ_ENTRY(pjob) entry;
	struct psched	*ps;		/* NULL: orphaned by sched_close */
	char		*token, *dir, *job_id, *host;
	enum pjob_state	 state;
	int		 nodes;		/* its size: nodes, and on each */
	int		 cpus, gpus;	/* CPUs and GPUs */
	struct pslots	*slots;		/* what its jobs use on each node */
	int		 seq;		/* N of its last job id PILOT.pN */
	double		 submitted, started;
	double		 first_start, last_end;	/* of its jobs, 0: none */
	double		 busy_node_s, busy_gpu_s;	/* its jobs' charge */
	double		 suspended;	/* as its job's last SUSPENDED */
	double		 suspended_at;	/* event said (sched.h) */
	struct pattq	 jobs;		/* running in it */
	struct pconn	*conn;		/* its agent, once connected */
	int		 asked;		/* unanswered "next"s */
	int		 drained;	/* told to drain */
	int		 ran;		/* its agent called, or it started */
	int		 called;	/* its agent said hello */
	int		 adopted;	/* from an earlier process */
};
TAILQ_HEAD(pjobq, pjob);

/* A connection from an agent. */
struct pconn {
	TAILQ_ENTRY(pconn) entry;
	struct psched	*ps;
	uv_tcp_t	 tcp;
	char		*buf;
	size_t		 len, cap;
	struct pjob	*pilot;		/* after its hello */
	int		 stray;		/* a pilot we do not know: drained */
	int		 closing;
};
TAILQ_HEAD(pconnq, pconn);

/* A backend event waiting for delivery. */
struct pev {
	TAILQ_ENTRY(pev) entry;
	struct sched_event ev;		/* its strings point to the fields */
	char		*token, *job_id, *host, *reason;
	sched_event_cb	 cb;
	void		*arg;
};

struct psched {
	struct sched	 sched;		/* first: the engine's handle */
	uv_loop_t	*loop;
	struct sched	*inner;
	char		*dir, *file, *wrapper, *name;
	struct sched_pilot_opts opts;	/* strings point to the above */
	struct pilot_addr addr;
	uv_tcp_t	 listener;
	uv_timer_t	 defer;		/* delivers events */
	struct pattq	 queue;		/* waiting for a pilot */
	struct pjobq	 pilots;
	struct pconnq	 conns;
	TAILQ_HEAD(, pev) events;
	int		 npilots;	/* made so far (names them) */
	int		 failed;	/* pilots in a row that never ran */
	char		 fail_why[512];	/* why the last of them did not */
	int		 nactive;	/* jobs whose END is not delivered */
	int		 draining;
	int		 inner_gone;	/* sched_pilot_forget() */
	int		 closing;
	int		 nopen;		/* handles open, connections too */
	void		(*done)(void *);
	void		*done_arg;
};

/* pilot.c */
/* Whether s is a pilot backend (sched_pilot_*() apply to it). */
int	 pilot_is(const struct sched *);
double	 pilot_now(void);
void	 pilot_warn(const struct psched *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * Memory that no caller could do without ran out: say "hpod: pilot: out
 * of memory WHAT" on stderr and abort (the backend cannot see xmalloc).
 */
_Noreturn void pilot_nomem(const char *what);
/* strdup() that aborts with pilot_nomem(); NULL stays NULL. */
char	*pilot_strdup(const char *);
void	 patt_free(struct patt *);
/* The share of pilot p's node that its job a is charged. */
double	 pilot_share(const struct pjob *, const struct patt *);
/* Queue event ev of job a for delivery; an END forgets a. */
void	 pilot_emit(struct psched *, struct patt *, struct sched_event *ev);
/* End job a (in its pilot, or queued) with ev and free it. */
void	 patt_end(struct psched *, struct patt *, struct sched_event *ev);
/*
 * End job a from its result.json when that is final; else as its
 * pilot's end says (st), or, st -1, not yet: -1.
 */
int	 patt_end_result(struct psched *, struct patt *, int st,
	    const char *why);
/* A new pilot of ps's size (its slots made), token and dir to fill. */
struct pjob *pjob_new(struct psched *);
void	 pjob_free(struct pjob *);
/* Job a, taken back or ended, no longer uses its room in pilot p. */
void	 patt_unplace(struct pjob *, struct patt *);
/*
 * Job a of pilot p runs on the k nodes at[] (its agent says, e.g. after a
 * restart): counted there; nodes that cannot be its are warned about.
 */
void	 patt_replace(struct pjob *, struct patt *, const int *at, int k);
struct pjob *pilot_find(struct psched *, const char *token);
struct patt *pilot_job_find(struct pjob *, const char *token);
int	 pilot_live_count(const struct psched *);
/* A handle of ps (its listener, timer, a connection) is closed. */
void	 pilot_release(struct psched *);

/* pilot_adopt.c: take back a job of an earlier process (sched_ops.adopt). */
int	 pilot_adopt(struct sched *, const char *token, const char *job_id,
	    const char *dir, sched_event_cb, void *arg);

/* pilot_run.c */
/* Submit pilots while jobs wait and fewer than count are alive. */
void	 pilot_grow(struct psched *);
/* An event of a pilot job from the inner backend (arg: its pjob). */
void	 pilot_inner_event(void *, const struct sched_event *);
/* Hand queued jobs to pilots with free slots that asked for one. */
void	 pilot_dispatch(struct psched *);
/* pilot.c: tell job a's agent (pilot p's, connected) to cancel it. */
void	 pilot_send_cancel(struct pjob *, struct patt *);
/*
 * A pilot's agent said hello (running: the tokens it still runs; nodes:
 * where each runs, or NULL: not said).
 */
void	 pilot_hello(struct pjob *, char *const *running,
	    const struct pilot_nodes *nodes);
/* A pilot's job started / ended (its result.json is final). */
void	 pilot_job_started(struct pjob *, const char *token,
	    const char *host, double when);
void	 pilot_job_ended(struct pjob *, const char *token, int ending);

/* pilot_net.c */
int	 pilot_listen(struct psched *, char *err, size_t errlen);
/* Send m to c; a failure closes c. */
void	 pilot_send(struct pconn *, const struct pilot_msg *);
void	 pilot_conn_close(struct pconn *);

/* pilot_file.c */
/*
 * Write dir/pilot.json with the listener's address: the secret of the
 * file already there if any (it must be 0600 and ours), else a new one.
 */
int	 pilot_file_write(struct psched *, char *err, size_t errlen);

#endif
