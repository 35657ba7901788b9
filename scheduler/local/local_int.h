/*
 * local_int.h: the local backend's internals, shared by local.c (jobs it
 * starts) and local_adopt.c (jobs an earlier daemon started).
 */
#ifndef HPOD_LOCAL_INT_H
#define HPOD_LOCAL_INT_H

#include <sys/queue.h>
#include <sys/types.h>

#include <uv.h>

#include "result.h"
#include "sched.h"

#define LOCAL_GRACE_MS	15000	/* cancel to SIGKILL; hpo-trial uses 10 s */
#define LOCAL_SLACK_S	30	/* past the time limit before SIGKILL */
#define LOCAL_WATCH_MS	1000	/* polling period for adopted jobs */
#define LOCAL_GRACE_S	(LOCAL_GRACE_MS / 1000)

enum ljob_state {
	LJOB_QUEUED,		/* waiting for CPUs */
	LJOB_RUNNING,		/* our child */
	LJOB_ADOPTED,		/* someone else's child, watched by pid */
	LJOB_DONE		/* END queued, handles closing */
};

struct local;

struct ljob {
	TAILQ_ENTRY(ljob) entry;
	struct local	*l;
	enum ljob_state	 state;
	char		*token;
	char		*dir;
	char		*job_id;
	char		**argv;
	char		**env;
	int		 nodes, gpus, cpus;
	long		 time_limit;
	sched_event_cb	 cb;
	void		*arg;
	long		 pid;
	double		 started_at;	/* when we spawned it, or 0 */
	int		 cancelled;	/* we asked it to stop */
	int		 overdue;	/* killed past its time limit */
	double		 kill_at;	/* adopted: when to SIGKILL, 0 = never */
	int		 nopen;		/* handles not yet closed */
	int		 spawned;	/* proc was handed to uv_spawn() */
	uv_process_t	 proc;
	uv_timer_t	 grace;		/* SIGKILL after a cancel */
	uv_timer_t	 limit;		/* SIGKILL past the time limit */
};

struct lev {
	TAILQ_ENTRY(lev) entry;
	struct sched_event ev;		/* its strings point into the fields */
	char		*token, *job_id, *host, *reason;
	sched_event_cb	 cb;
	void		*arg;
};

struct local {
	struct sched	 sched;		/* first: the engine's handle */
	uv_loop_t	*loop;
	char		*wrapper;
	char		 host[256];
	int		 cpus;		/* CPUs we may use */
	int		 used;		/* CPUs running jobs hold */
	int		 nactive;	/* jobs whose END is not yet delivered */
	TAILQ_HEAD(, ljob) jobs;	/* in submission order */
	TAILQ_HEAD(, lev) events;	/* waiting for delivery */
	TAILQ_HEAD(, lev) held;		/* of released jobs, for adopt() */
	uv_timer_t	 defer;		/* delivers events */
	uv_timer_t	 watch;		/* polls adopted jobs */
	int		 nopen;
	int		 closing;
	void		(*done)(void *);
	void		*done_arg;
};

/* local.c */
double		 local_now(void);
/* Queue ev for delivery to cb(arg), its strings copied. */
void		 local_emit(struct local *, sched_event_cb, void *,
		    const struct sched_event *);
/* local_adopt.c: queue an adopted job's STARTED, if it runs. */
void		 local_adopted_started(struct ljob *);
/* Queue j's STARTED event again: its owner may have lost the first. */
void		 local_restarted(struct ljob *);
/* Queue j's END event in state st (r: its result.json, may be NULL). */
void		 local_end(struct ljob *, enum sched_state,
		    const struct trial_result *, const char *reason);
/* Queue the END event that a final result.json means. */
void		 local_end_result(struct ljob *, const struct trial_result *);
struct ljob	*local_find(struct local *, const char *token);
struct ljob	*local_job_new(struct local *, const char *token,
		    const char *dir, sched_event_cb, void *arg);
void		 ljob_free(struct ljob *);
/* Stop reporting token's events, holding them (sched_release()). */
int		 local_release(struct sched *, const char *token);
/*
 * If token was released: hand its job and its held events to cb(arg)
 * and return 1; else 0 (local_adopt() takes it back so).
 */
int		 local_rebind(struct local *, const char *token,
		    sched_event_cb, void *arg);
/* Exit callback of a job's wrapper: read its result.json, end the job. */
void		 local_exited(uv_process_t *, int64_t status, int sig);

/* local_spawn.c */
/* Copy a NULL-terminated string vector; NULL on failure. */
char		**local_strv(const char *const *);
void		 local_strv_free(char **);
/* Spawn j's wrapper; -1 with reason set if it could not be started. */
int		 local_spawn(struct ljob *, char *reason, size_t len);

/* local_adopt.c */
int		 local_adopt(struct sched *, const char *token,
		    const char *job_id, const char *dir, sched_event_cb,
		    void *arg);
void		 local_kill_adopted(const struct ljob *, int sig);

#endif
