/*
 * engine_int.h: what engine.c (the campaign state machine) and attempt.c
 * (launching and following one attempt) share.  Private to daemon/engine/.
 */
#ifndef HPOD_ENGINE_INT_H
#define HPOD_ENGINE_INT_H

#include <stdint.h>

#include "curves.h"
#include "engine.h"
#include "scaling.h"
#include "search.h"
#include "stop.h"
#include "tail.h"

enum cancel_as { CANCEL_NONE, CANCEL_USER, CANCEL_PRUNE, CANCEL_BUDGET };

/* An attempt in flight. */
struct attempt {
	struct engine	*e;
	struct attempt	*next;
	int64_t		 trial_id;
	int64_t		 attempt_id;
	int		 trial_number;
	int		 number;
	char		*token;
	char		*dir;
	char		*out;		/* dir/stdout, or dir/ its workload's
					   metric_file: what is read */
	int		 out_file;	/* out is the metric_file */
	int		 out_refused;	/* out is a link or not a regular
					   file: not read (tail_read()) */
	int		 started;
	double		 t_started;	/* as the ledger has it, or 0 */
	double		 suspended;	/* seconds its job was suspended, as
					   its last poll or its end says: not
					   billed */
	double		 suspended_at;	/* its job is suspended since then
					   (its run time stops), 0: it runs */
	int		 nodes, gpus, cpus;	/* the allocation asked for,
						   then as started */
	double		 node_share;	/* the nodes it is charged: nodes,
					   or its share of a pilot's node */
	enum cancel_as	 cancel_as;
	char		*pruned_why;	/* CANCEL_PRUNE: the stopper's words,
					   the attempt's reason; owned */
	double		 pruned_step;	/* CANCEL_PRUNE: the step it was
					   pruned at; a point past it is late */
	long		 late;		/* objective points logged past it
					   (recorded late, not counted) */
	double		 late_step;	/* the last step among them */
	int		 cancel_due;	/* cancelled on request: sent at the
					   next tick (engine_cancel_trial) */
	int		 ending;	/* its end is being recorded: what
					   its output says last is read, the
					   stopper is not asked (its job is
					   gone, nothing to stop) */
	struct tail	 tail;
	uint64_t	 followed;	/* loop time of the last read, ms */
	int		 has_best;	/* the trial's best so far */
	double		 best;
	int		 reached;
	int		 run_started;	/* its trainer logged run_start */
	char		 pending[64];	/* why its job waits, as recorded
					   (engine_pending()), "" for none */
	int		 said_stuck;	/* "will not clear by itself" said */
	int		 pend_kept;	/* pending is the reason the ledger
					   had when it was taken back after a
					   restart: said then, and warned of if
					   it will not clear */
	double		 npoints;
	int		 zero_based;	/* points with no step are numbered
					   from 0, as an older hpod did */
	long		 lines;		/* output lines read */
	long		 bad_lines;	/* malformed MLLOG lines among them */
	long		 nonfinite;	/* objective points NaN or inf */
	char		 other_key[64];	/* a numeric key it logged that is not
					   the metric, an eval_ one first */
	/* "dispatch": "chain" (engine_chain.c): its lane. */
	struct attempt	*after;		/* queued behind this one, or NULL */
	struct attempt	*then;		/* this one is queued behind it */
};

struct engine {
	struct engine_env	 env;
	struct campaign_spec	*spec;
	struct workload		*w;
	struct search		*search;
	struct stopper		*stopper;	/* NULL: no early stopping */
	struct curves		*curves;	/* what search and stopper see */
	struct obsbook		*book;		/* the search history */
	struct scaling		*scaling;	/* batch-size scaling, or NULL */
	int64_t			 id;
	double			 started;
	uv_timer_t		 timer;
	uv_prepare_t		 flush_prep;	/* engine_flush.c */
	int			 nopen;		/* handles not yet closed */
	uint64_t		 batch_since;	/* loop time its batch began */
	struct attempt		*active;
	int			 nactive;
	int			 ntrials;	/* trials created */
	double			 spent_node_s;	/* node- and GPU-seconds of */
	double			 spent_gpu_s;	/* the attempts that ended */
	int			 exhausted;	/* no more trials to create */
	const char		*stop_reason;	/* why it stops early, or NULL */
	int			 cancelled;
	int			 detached;
	int			 done;
	int			 disk_low;	/* submissions paused (diskfull.c) */
	struct sched		*pilot;		/* "dispatch": "pilot": env.sched,
						   wrapped around inner */
	struct sched		*inner;
	/*
	 * Its running pilots' idle time as last read from the ledger, at
	 * idle_at (0: to be read again), and their allocation, the most
	 * it can grow by in a second (engine_pilot_idle()).
	 */
	double			 idle_at, idle_node_s, idle_gpu_s;
	int			 idle_nodes, idle_gpus;
};

/* engine.c */
/* Drop a hold on the engine's memory (its handles, its pilot backend). */
void	 engine_release(void *engine);
/* The engine's time: its backend's clock (virtual for replay). */
double	 engine_now(const struct engine *);
void	 engine_say(struct engine *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 engine_kick(struct engine *);
/* Set a trial's state in the ledger and in the search history. */
void	 engine_trial_state(struct engine *, int64_t trial_id, int number,
	    enum trial_state);
/* Add what an attempt that ended at `end` cost to the campaign's sum. */
void	 engine_spend(struct engine *, const struct attempt *, double end);
/* Cancel every active attempt (but_reached: spare those on target). */
void	 engine_cancel_all(struct engine *, enum cancel_as, int but_reached);

/* engine_event.c */
void	 engine_event(void *, const struct sched_event *);
/* engine_pend.c: a backend's SCHED_EV_PENDING for attempt a. */
void	 engine_pending(struct attempt *a, const struct sched_event *);
/* Retry a trial with attempt `number`, its point read from the ledger. */
void	 engine_retry(struct engine *, int64_t trial_id, int trial_number,
	    int number);
/*
 * A point of an attempt's learning curve was recorded in the ledger: keep
 * it for the search, and stop the trial if the stopper says so.
 */
void	 engine_point(struct attempt *, const char *key, double step,
	    double value, double when);
/*
 * What a step counts in the singular ("epoch", "step", the workload's
 * step_unit), for messages.
 */
const char *engine_unit(const struct engine *);

/* engine_prune.c */
/*
 * The stopper prunes an attempt at step (its point of key, value, by
 * rule): marked so, recorded (a 'prune' event) and committed, then its
 * job told to stop.
 */
void	 engine_prune(struct attempt *, double step, const char *key,
	    double value, const char *rule);
/*
 * After a restart: the attempts taken back (made, n of them, NULL for
 * none) whose prune was recorded are pruned again, their jobs told to
 * stop at the next tick.  0, or -1 on a ledger error.
 */
int	 engine_prune_resume(struct engine *, struct attempt **made, size_t n);

/* engine_flush.c */
/*
 * The engine's ledger writes go in batches (ledger_batch_open()), flushed
 * before the loop waits and after its I/O callbacks, and before a job is
 * submitted.  engine_flush_init() sets up the two handles (the engine
 * closes them with its timer); engine_batch() opens a batch.
 */
#define ENGINE_BATCH_MS	100
void	 engine_flush_init(struct engine *, uv_loop_t *);
void	 engine_flush_close(struct engine *, uv_close_cb);
void	 engine_batch(struct engine *);
/* 0, or -1 with env.lost told (the batch is rolled back). */
int	 engine_flush(struct engine *);

/* attempt.c */
/*
 * Record attempt `number` of a trial, prepare its directory, render what
 * it runs and submit it.  The trial row exists already.  -1 if it could not
 * be submitted (the attempt and trial are then marked failed).
 */
int	 attempt_launch(struct engine *, int64_t trial_id, int trial_number,
	    int number, const double *x, const char *params_json,
	    long long seed);
/* The allocation (totals) an attempt of point x asks for. */
void	 attempt_alloc(const struct engine *, struct attempt *,
	    const double *x);
/* Record that an attempt could not be submitted. */
void	 attempt_submit_failed(struct engine *, struct attempt *,
	    const char *why);
/* Read new output of an attempt and record its metric points. */
void	 attempt_follow(struct attempt *, int final);
/* Unlink an attempt from the engine's active list and free it. */
void	 attempt_forget(struct engine *, struct attempt *);
void	 attempt_free(struct attempt *);

/* engine_pilot.c */
/*
 * With "dispatch": "pilot", once the campaign's run directory exists: make
 * the pilot backend around env.sched and run on it.  -1 with err.
 */
int	 engine_pilot_start(struct engine *, char *err, size_t errlen);
/*
 * The idle time at now of the campaign's pilots not ended in the ledger:
 * the engine adds it to its sum when they end.
 */
int	 engine_pilot_spent_live(struct engine *, double now, double *node_s,
	    double *gpu_s);
/*
 * The same for the live budget: read from the ledger when exact is set
 * or a pilot event came since the last read; else the most it can be,
 * the last read's grown since at the pilots' whole allocation.
 */
int	 engine_pilot_idle(struct engine *, double now, int exact,
	    double *node_s, double *gpu_s);
/* 1 while its pilots must end before the campaign finishes (drains them). */
int	 engine_pilot_wait(struct engine *);
/* Close the pilot backend (if any): the engine runs on inner again. */
void	 engine_pilot_close(struct engine *);

/* engine_chain.c */
/* 1 if one more attempt may be launched now (max_parallel, lanes). */
int	 engine_chain_room(const struct engine *);
/*
 * "dispatch": "chain": the attempt that a new attempt a goes after (their
 * lane linked), or NULL when a heads a lane of its own.
 */
struct attempt *engine_chain_place(struct engine *, struct attempt *a);
/* Take an attempt out of its lane (it ended or was never submitted). */
void	 engine_chain_unlink(struct attempt *);
/*
 * An attempt taken back after a restart was queued behind attempt
 * after_id (the ledger's record): link it there again if that one is
 * still in flight, so that the lane is what it was.
 */
void	 engine_chain_adopt(struct engine *, struct attempt *,
	    int64_t after_id);
/*
 * The n attempts taken back (NULLs skipped) of a ledger that recorded no
 * lane for any of them: lanes inferred from their submission order.
 */
void	 engine_chain_infer(struct engine *, struct attempt **, size_t n);
/* Cancel the attempts still queued behind another: the campaign stops. */
void	 engine_chain_cancel(struct engine *);

/* diskfull.c */
/*
 * Return 1 while the run directory's or the ledger's file system has less
 * than min_free left: submit nothing then.  Says so once each way.
 */
int	 diskfull_wait(struct engine *);
int	 diskfull_check(const struct engine *, char *err, size_t errlen);

#endif
