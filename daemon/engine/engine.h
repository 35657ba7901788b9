/*
 * engine.h: the campaign state machine.
 *
 * One engine runs one campaign: it asks the search for configurations,
 * records each trial and attempt in the ledger before submitting it, hands
 * jobs to a backend, follows their output for MLLOG metrics, retries
 * infrastructure failures, enforces the budget and marks the campaign
 * finished.  It runs on a libuv loop; the daemon runs many engines on one
 * loop, hpoctl run runs one.
 */
#ifndef HPOD_ENGINE_H
#define HPOD_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "ledger.h"
#include "sched.h"
#include "spec.h"
#include "state.h"
#include "workload.h"

struct engine;

/* What an engine borrows; everything must outlive it. */
struct engine_env {
	uv_loop_t	*loop;
	struct ledger	*ledger;
	struct sched	*sched;
	const char	*run_dir;	/* attempt directories go below */
	long		 poll_interval;	/* ms between output polls */
	const char	*driver;	/* "daemon" or "foreground" */
	long		 min_free;	/* MiB to keep free, 0: no check */
	/* A line of progress ("trial 3: completed ..."); may be NULL. */
	void		(*progress)(void *arg, struct engine *, const char *);
	/* The campaign ended (finished or cancelled); may free the engine. */
	void		(*done)(void *arg, struct engine *);
	/*
	 * A commit of a batch holding the engine's writes failed (a full
	 * disk): the ledger no longer has what the engine holds, as after a
	 * crash at that point.  The engine submits nothing more; the owner
	 * drops it (engine_drop) and takes the campaign back from the
	 * ledger (engine_resume) once it can be written.  why: the ledger's
	 * error.  May free the engine (engine_free).  NULL: only logged.
	 */
	void		(*lost)(void *arg, struct engine *, const char *why);
	void		*arg;
};

/*
 * Create an engine; it takes ownership of spec and workload (bound with
 * spec_bind()).  NULL with err if the search cannot be set up.
 */
struct engine	*engine_new(const struct engine_env *, struct campaign_spec *,
		    struct workload *, char *err, size_t errlen);
/* Record a new campaign in the ledger and start it. */
int		 engine_start(struct engine *, char *err, size_t errlen);
/*
 * Take over a campaign of the ledger left running by an earlier process:
 * re-adopt its unfinished attempts and go on.  An engine cancelled first
 * (engine_cancel) cancels what it adopts and submits nothing.
 */
int		 engine_resume(struct engine *, int64_t campaign_id, char *err,
		    size_t errlen);
/*
 * Cancel every running attempt and end the campaign as cancelled.  The
 * cancel is recorded (an event) at once but sent to the backend at the
 * engine's next tick: a control request's commit comes first, and one
 * that fails drops the engine (env.lost) before anything is cancelled.
 */
void		 engine_cancel(struct engine *);
/*
 * Cancel the running attempt of trial number (engine_trial.c), sent as
 * engine_cancel() sends; the trial ends cancelled and the campaign goes
 * on.  0, or why not: one of these.
 */
#define ENGINE_CANCEL_NONE	-1	/* the trial has no attempt running */
#define ENGINE_CANCEL_ENDING	-2	/* the campaign is ending or cancelled */
#define ENGINE_CANCEL_ALREADY	-3	/* its attempt is being stopped */
int		 engine_cancel_trial(struct engine *, int number);
/*
 * A control request for a running campaign (engine_request.c): "budget"
 * (engine_set_budget) or "cancel" with "trial" (engine_cancel_trial).
 * 0 with msg the reply's output, or -1 with msg the error.
 */
struct cJSON;
int		 engine_request(struct engine *, const struct cJSON *req,
		    char *msg, size_t len);
/* A change of budget; 0 (NULL) leaves a cap as it is. */
struct engine_budget {
	int		 max_trials;
	double		 max_node_hours, max_gpu_hours;
	const char	*max_wall_time;	/* a duration, as in the spec */
};
/*
 * Change a running campaign's budget, in the ledger's spec too
 * (engine_budget.c).  -1 with err set if it is not running, if a scaling
 * campaign's max_trials would change, or max_trials is below the trials
 * already made.
 */
int		 engine_set_budget(struct engine *, const struct engine_budget *,
		    char *err, size_t errlen);
/*
 * Stop without ending the campaign (daemon shutdown): submit nothing more,
 * ignore further events, leave jobs running for the next start to adopt.
 * Its backend is closed before engine_free() (no pilot's event comes).
 */
void		 engine_detach(struct engine *);
/*
 * Stop as engine_detach() does, and hand its jobs over to whoever adopts
 * them next (sched_release, sched_pilot_release): a new engine taking the
 * campaign back from the ledger (engine_resume) follows them on.  Only
 * for backends that hand jobs over: every one hpod runs (not replay).
 */
void		 engine_drop(struct engine *);
/* Release the engine (asynchronously: closes its timer). */
void		 engine_free(struct engine *);

/*
 * Why the campaign is held (its recorded spec's hold: "PATH: KEY: why"),
 * or NULL.  A held engine, taken back with engine_resume(), follows its
 * attempts to their end and bills them as any other, starts no trial and
 * no attempt (no retry either), and does not finish once they ended: it
 * stays running until it is cancelled or taken back by an hpod that
 * accepts its spec.
 */
const char	*engine_held(const struct engine *);
int64_t		 engine_id(const struct engine *);
const char	*engine_name(const struct engine *);
/* "finished" or "cancelled" once done, else "running". */
enum campaign_state engine_state(const struct engine *);

#endif
