/*
 * ledger.h: the SQLite ledger of campaigns, trials, attempts, metric points
 * and events.
 *
 * One process writes the ledger (the daemon, or hpoctl run in the
 * foreground); readers may open it read-only at any time (WAL mode).
 * Times are seconds since the epoch as doubles; 0 means "not yet".
 * Strings returned inside structs are owned by the struct and freed by the
 * matching *_release() function.  Every function returns 0 on success or
 * -1 after writing a message retrievable with ledger_error(); a write that
 * fails (a value that cannot be bound included) changes nothing, and its
 * message starts "ledger 'FILE': " and says what failed.
 * Nothing outside ledger/ sees sqlite3 types.
 */
#ifndef HPOD_LEDGER_H
#define HPOD_LEDGER_H

#include <stddef.h>
#include <stdint.h>

struct ledger;

#define LEDGER_READONLY	0x1

/*
 * Open (and create or migrate, unless read-only) the ledger at path.
 * On failure return NULL and write the reason to err.
 */
struct ledger	*ledger_open(const char *path, int flags, char *err,
		    size_t errlen);
void		 ledger_close(struct ledger *);
/*
 * Close the ledger, and remove it (with its -wal and -shm) if this handle
 * created it, it holds no campaign and no other connection has it open
 * (discard.c says why that is safe): what a refused run leaves.  1 if it
 * was removed, else 0.
 */
int		 ledger_discard(struct ledger *);
/* The last error message of this handle. */
const char	*ledger_error(const struct ledger *);
/* The path of the ledger's file (owned by the ledger). */
const char	*ledger_path(struct ledger *);
/* Schema version (PRAGMA user_version) and the version this build writes. */
int		 ledger_schema_version(struct ledger *);
int		 ledger_schema_latest(void);

/*
 * BEGIN IMMEDIATE / COMMIT / ROLLBACK around multi-row changes; inside a
 * batch, SAVEPOINT / RELEASE / ROLLBACK TO.
 */
int	 ledger_begin(struct ledger *);
int	 ledger_commit(struct ledger *);
int	 ledger_rollback(struct ledger *);

/*
 * Batched writes (batch.c): ledger_batch_open() begins one write
 * transaction that the writes after it join, unless a batch or a
 * transaction is open already (1 if it began one, 0 if it had nothing to
 * do); ledger_batch_flush()
 * commits it (0 if none is open).  What a batch holds is not in the ledger
 * until it is flushed: the caller flushes before anything outside the
 * process may depend on a write (a job submitted for a recorded attempt)
 * and before waiting; ledger_close() flushes too.  A flush fails inside a
 * ledger_begin() of the batch.  A batch whose COMMIT fails (a full disk)
 * is rolled back whole: -1, and none of its writes is in the ledger.
 */
int	 ledger_batch_open(struct ledger *);
int	 ledger_batch_flush(struct ledger *);

/* Campaigns.  state: "running", "finished", "cancelled". */
struct ledger_campaign {
	int64_t		 id;
	char		*name;
	char		*workload;
	char		*backend;
	char		*spec_json;	/* the spec as submitted */
	char		*spec_path;
	char		*state;
	char		*metric;	/* objective */
	int		 maximize;
	int		 has_target;
	double		 target;
	double		 started, ended;
	int		 max_trials;
	char		*driver;	/* "daemon" (default) or "foreground" */
	char		*workload_json;	/* the workload spec's text, or NULL */
};
void	 ledger_campaign_release(struct ledger_campaign *);

int	 ledger_campaign_insert(struct ledger *, const struct ledger_campaign *,
	    int64_t *id);
/* A running campaign's new budget: its spec and max_trials, together. */
int	 ledger_campaign_set_budget(struct ledger *, int64_t id,
	    const char *spec_json, int max_trials);
int	 ledger_campaign_set_state(struct ledger *, int64_t id,
	    const char *state, double ended);
/*
 * Find a campaign by id (all digits) or by name (the newest with that
 * name).  Return 0 and fill out, 1 if there is none, -1 on error.
 */
int	 ledger_campaign_find(struct ledger *, const char *name_or_id,
	    struct ledger_campaign *out);
int	 ledger_campaign_get(struct ledger *, int64_t id,
	    struct ledger_campaign *out);
/* All campaigns (state NULL) or those in one state, oldest first. */
int	 ledger_campaign_list(struct ledger *, const char *state,
	    struct ledger_campaign **out, size_t *n);
void	 ledger_campaign_list_free(struct ledger_campaign *, size_t n);

/*
 * Trials.  state: "pending", "running", "completed", "failed", "pruned",
 * "cancelled".  best/reached are the best objective value the trial
 * reported and whether it met the campaign's target.
 */
struct ledger_trial {
	int64_t		 id;
	int64_t		 campaign_id;
	int		 number;	/* 0, 1, ... within the campaign */
	char		*params_json;	/* {"lr": 0.01, ...} */
	long		 batch_size;	/* 0 if not a parameter */
	int64_t		 seed;
	char		*state;
	int		 has_best;
	double		 best;
	double		 best_step;
	int		 reached;
	double		 reached_at;	/* when the target was first met */
	int		 attempts;	/* number of attempts */
	double		 created;
	char		*role;		/* "search", "transfer", "confirm";
					   NULL on insert: "search" */
};
void	 ledger_trial_release(struct ledger_trial *);
void	 ledger_trial_list_free(struct ledger_trial *, size_t n);

int	 ledger_trial_insert(struct ledger *, const struct ledger_trial *,
	    int64_t *id);
int	 ledger_trial_set_state(struct ledger *, int64_t id, const char *state);
int	 ledger_trial_set_best(struct ledger *, int64_t id, double best,
	    double step, int reached, double reached_at);
/* One trial by id: 0, 1 if there is none, -1 on error. */
int	 ledger_trial_get(struct ledger *, int64_t id, struct ledger_trial *out);
/* The trials of a campaign, by number. */
int	 ledger_trial_list(struct ledger *, int64_t campaign_id,
	    struct ledger_trial **out, size_t *n);

/*
 * Attempts: one submission of a trial.  state: "submitting", "pending",
 * "running", then one of "completed", "failed", "timeout", "node_fail",
 * "preempted", "cancelled", "pruned", "lost".
 */
struct ledger_attempt {
	int64_t		 id;
	int64_t		 trial_id;
	int		 trial_number;
	int		 number;	/* 0, 1, ... within the trial */
	char		*token;		/* unique, names the job */
	char		*job_id;	/* backend's id, NULL before submit */
	char		*dir;		/* attempt directory */
	char		*state;
	double		 created, submitted, started, ended;
	double		 eligible;	/* when it could first start (its
					   dependency met), 0 = not known:
					   ledger_attempt_eligible() */
	int64_t		 after_id;	/* the attempt it was queued behind,
					   0 = none: ledger_attempt_chained() */
	double		 suspended;	/* seconds of its run its job was
					   suspended, not billed, 0 = none:
					   ledger_attempt_suspended() */
	double		 suspended_at;	/* while it runs: when its job's
					   current suspension began (its
					   clock stops there), 0 = none */
	int		 nodes, gpus, cpus;	/* allocation, totals */
	double		 node_share;	/* the nodes charged: nodes, or its
					   share of a pilot's node (read
					   only: ledger_attempt_started()) */
	char		*host;
	int		 exit_code;	/* -1 if unknown */
	int		 signal;	/* 0 if none */
	char		*reason;
	double		 run_start;	/* when its trainer logged run_start,
					   on its points' clock, 0 = none:
					   ledger_attempt_run_start() */
	char		*pending_reason;	/* why its job waits, as its
					   scheduler names it (Slurm:
					   "Resources"), NULL: none known or
					   it has started */
};
void	 ledger_attempt_release(struct ledger_attempt *);
void	 ledger_attempt_list_free(struct ledger_attempt *, size_t n);

/* Insert in state "submitting"; token, dir and created must be set. */
int	 ledger_attempt_insert(struct ledger *, const struct ledger_attempt *,
	    int64_t *id);
int	 ledger_attempt_submitted(struct ledger *, int64_t id,
	    const char *job_id, double when);
/*
 * Record when the attempt could first start (sched_event.eligible): its
 * queue wait counts from then, not from its submission.
 */
int	 ledger_attempt_eligible(struct ledger *, int64_t id, double when);
/*
 * Record that the attempt is queued behind attempt after_id ("dispatch":
 * "chain"), before its job is submitted.
 */
int	 ledger_attempt_chained(struct ledger *, int64_t id, int64_t after_id);
/*
 * Record when the attempt's trainer logged MLLOG run_start, on the clock
 * its metric points are recorded on; the first one recorded is kept.
 */
int	 ledger_attempt_run_start(struct ledger *, int64_t id, double when);
/*
 * Record why the attempt's job waits, as its scheduler names it (NULL:
 * for nothing known); an attempt that has started keeps none (its start
 * clears it: ledger_attempt_started()).
 */
int	 ledger_attempt_pending(struct ledger *, int64_t id,
	    const char *reason);
/*
 * job_id NULL keeps the one recorded at submission.  node_share: the
 * nodes it is charged when not its whole nodes (a trial in a pilot
 * charged its share of the pilot's node); 0 or less: its nodes.
 */
int	 ledger_attempt_started(struct ledger *, int64_t id, const char *job_id,
	    double when, int nodes, int gpus, int cpus, double node_share,
	    const char *host);
/*
 * Pilot allocations (pilots.c): a pilot job submitted, started (its
 * allocation, job id and host) and ended, by its token.
 */
int	 ledger_pilot_submitted(struct ledger *, int64_t campaign_id,
	    const char *token, const char *dir, double when);
int	 ledger_pilot_started(struct ledger *, const char *token,
	    const char *job_id, double when, int nodes, int gpus, int cpus,
	    const char *host);
/*
 * started: its start as known at the end (0: keep the recorded one);
 * suspended: the seconds of its run its job was suspended (not billed).
 */
int	 ledger_pilot_ended(struct ledger *, const char *token, double started,
	    double when, const char *state, double suspended);
/*
 * While it runs: the seconds its job was suspended before, and since when
 * it is suspended again (0: it runs), which its bill leaves out.
 */
int	 ledger_pilot_suspended(struct ledger *, const char *token,
	    double seconds, double since);
/* A pilot not yet ended, as an engine taking back its campaign reads it. */
struct ledger_pilot {
	char		*token, *job_id, *dir;
	double		 started;	/* 0: not seen running */
	int		 seq;		/* the largest N of its attempts'
					   job ids PILOT.pN, 0: none */
	double		 busy_node_s, busy_gpu_s;	/* its attempts that
							   ended were charged */
	double		 idle_node_s, idle_gpu_s;	/* its idle time at now,
							   as the account has it */
	int		 nodes, gpus;	/* its allocation, 0: not started */
	double		 suspended;	/* seconds its job was suspended
					   before suspended_at */
	double		 suspended_at;	/* suspended since then, 0: runs */
};
/*
 * The campaign's pilots not yet ended, at time now (free with
 * ledger_pilot_list_free).
 */
int	 ledger_pilot_list(struct ledger *, int64_t campaign_id, double now,
	    struct ledger_pilot **, size_t *n);
void	 ledger_pilot_list_free(struct ledger_pilot *, size_t n);
int	 ledger_attempt_finished(struct ledger *, int64_t id,
	    const char *state, double when, int exit_code, int signal,
	    const char *reason);
/*
 * Record the seconds the attempt's job was suspended (not billed), and
 * while it runs when its current suspension began (0: it runs).
 */
int	 ledger_attempt_suspended(struct ledger *, int64_t id, double seconds,
	    double since);
/* All attempts of a campaign (unfinished_only: only those not ended). */
int	 ledger_attempt_list(struct ledger *, int64_t campaign_id,
	    int unfinished_only, struct ledger_attempt **out, size_t *n);

/* Metric points; a repeated (attempt, key, step) is ignored. */
struct ledger_metric {
	int64_t		 attempt_id;
	int		 trial_number;
	double		 step;		/* epoch or step */
	char		*key;
	double		 value;
	double		 time;
	int		 late;		/* logged past the step its attempt
					   was pruned at: counted nowhere */
};
void	 ledger_metric_list_free(struct ledger_metric *, size_t n);

int	 ledger_metric_insert(struct ledger *, int64_t attempt_id, double step,
	    const char *key, double value, double time);
/* The same, the point marked late (metrics.late) when late is set. */
int	 ledger_metric_insert_as(struct ledger *, int64_t attempt_id,
	    double step, const char *key, double value, double time, int late);
/*
 * The value recorded at (attempt_id, key, step) into *value (NaN for a
 * NULL): 1, 0 when none is, -1 on error.
 */
int	 ledger_metric_get(struct ledger *, int64_t attempt_id,
	    const char *key, double step, double *value);
/* Set the value and time of the point at (attempt_id, key, step). */
int	 ledger_metric_set(struct ledger *, int64_t attempt_id,
	    const char *key, double step, double value, double time);
/* Points of a campaign for one key (NULL: all), by trial, attempt, step. */
int	 ledger_metric_list(struct ledger *, int64_t campaign_id,
	    const char *key, struct ledger_metric **out, size_t *n);
/*
 * The same for one key, without the key (each key member NULL): lighter
 * where a report reads 10^6 points.
 */
int	 ledger_metric_values(struct ledger *, int64_t campaign_id,
	    const char *key, struct ledger_metric **out, size_t *n);

/*
 * What a report needs of an attempt's points (summary.c): the highest
 * step of the objective, the first of its points that meets the target,
 * and the last positive train_samples (0: none).  free() the list.
 */
struct ledger_summary {
	int64_t		 attempt_id;
	int		 trial_number;
	int		 has_last_step;
	double		 last_step;
	int		 reached;	/* a point met the target */
	double		 reached_step, reached_time;
	double		 train_samples;
};
/*
 * One per attempt of a campaign, by trial and attempt number, for the
 * objective key and (has_target) its target; 0 or -1.
 */
int	 ledger_summary_list(struct ledger *, int64_t campaign_id,
	    const char *key, int has_target, int maximize, double target,
	    struct ledger_summary **out, size_t *n);

/*
 * Prior knowledge a campaign was warm-started from: observations that
 * inform its search but are none of its trials and cost it nothing.
 * number is the prior's rank (0, 1, ...) in the history the search reads.
 */
struct ledger_prior {
	int		 number;
	char		*source;	/* "optuna:FILE:STUDY" or
					   "ledger:FILE:CAMPAIGN" */
	int		 source_number;	/* the trial's number there */
	char		*params_json;
	char		*state;		/* "completed", "pruned", "failed" */
	int		 has_value;
	double		 value;
};
void	 ledger_prior_list_free(struct ledger_prior *, size_t n);
/* Insert the priors of a campaign (inside the caller's transaction). */
int	 ledger_prior_insert(struct ledger *, int64_t campaign_id,
	    const struct ledger_prior *);
/* The priors of a campaign, by number. */
int	 ledger_prior_list(struct ledger *, int64_t campaign_id,
	    struct ledger_prior **out, size_t *n);

/*
 * How many priors a campaign has and their source (malloc'ed, NULL when
 * none); a ledger older than the priors table has none.
 */
int	 ledger_prior_count(struct ledger *, int64_t campaign_id, int *n,
	    char **source);

/* The event log; campaign_id 0 for daemon-wide events. */
int	 ledger_event(struct ledger *, int64_t campaign_id, const char *kind,
	    const char *message);
/* An event about trial number trial of the campaign (-1: no one trial). */
int	 ledger_event_trial(struct ledger *, int64_t campaign_id,
	    const char *kind, int trial, const char *message);
/*
 * Call fn(arg, trial, message) for each event of kind in campaign_id's
 * log, oldest first: trial is the number the event was recorded with
 * (ledger_event_trial), -1 for none; message "" for none.  fn must not
 * use the ledger.  0, or -1 on error.
 */
int	 ledger_event_each(struct ledger *, int64_t campaign_id,
	    const char *kind, void (*fn)(void *, int, const char *),
	    void *arg);

#endif
