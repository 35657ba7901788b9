/*
 * schema.c: the ledger's migrations, one SQL script per schema version.
 *
 * ledger_migrations[v] takes a ledger from PRAGMA user_version v to v + 1.
 * A released script is never edited; a change is a new script appended.
 * Times are epoch seconds; NULL means "not yet".  The UNIQUE constraints
 * double as the indexes for trials by campaign, attempts by trial and
 * metrics by attempt.
 *
 * The names of the states its rows keep (trials, attempts, campaigns) are
 * here too, as the one table that state.h's enums index.
 */
#include <stddef.h>
#include <string.h>

#include "ledger_int.h"
#include "state.h"

const char *const ledger_migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE campaigns ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  workload TEXT,"
	"  backend TEXT,"
	"  spec_json TEXT,"
	"  spec_path TEXT,"
	"  state TEXT NOT NULL DEFAULT 'running' CHECK (state IN"
	"    ('running', 'finished', 'cancelled')),"
	"  metric TEXT,"
	"  maximize INTEGER NOT NULL DEFAULT 0"
	"    CHECK (maximize IN (0, 1)),"
	"  has_target INTEGER NOT NULL DEFAULT 0"
	"    CHECK (has_target IN (0, 1)),"
	"  target REAL,"
	"  started REAL,"
	"  ended REAL,"
	"  max_trials INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE INDEX campaigns_name ON campaigns (name, id);"
	"CREATE TABLE trials ("
	"  id INTEGER PRIMARY KEY,"
	"  campaign_id INTEGER NOT NULL"
	"    REFERENCES campaigns ON DELETE CASCADE,"
	"  number INTEGER NOT NULL CHECK (number >= 0),"
	"  params_json TEXT NOT NULL DEFAULT '{}',"
	"  batch_size INTEGER NOT NULL DEFAULT 0,"
	"  seed INTEGER NOT NULL DEFAULT 0,"
	"  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN"
	"    ('pending', 'running', 'completed', 'failed',"
	"    'pruned', 'cancelled')),"
	"  has_best INTEGER NOT NULL DEFAULT 0"
	"    CHECK (has_best IN (0, 1)),"
	"  best REAL,"
	"  best_step REAL,"
	"  reached INTEGER NOT NULL DEFAULT 0"
	"    CHECK (reached IN (0, 1)),"
	"  reached_at REAL,"
	"  created REAL,"
	"  UNIQUE (campaign_id, number)"
	");"
	"CREATE TABLE attempts ("
	"  id INTEGER PRIMARY KEY,"
	"  trial_id INTEGER NOT NULL"
	"    REFERENCES trials ON DELETE CASCADE,"
	"  number INTEGER NOT NULL CHECK (number >= 0),"
	"  token TEXT UNIQUE NOT NULL,"
	"  job_id TEXT,"
	"  dir TEXT NOT NULL,"
	"  state TEXT NOT NULL DEFAULT 'submitting' CHECK (state IN"
	"    ('submitting', 'pending', 'running',"
	"    'completed', 'failed', 'timeout', 'node_fail',"
	"    'preempted', 'cancelled', 'pruned', 'lost')),"
	"  created REAL,"
	"  submitted REAL,"
	"  started REAL,"
	"  ended REAL,"
	"  nodes INTEGER NOT NULL DEFAULT 0 CHECK (nodes >= 0),"
	"  gpus INTEGER NOT NULL DEFAULT 0 CHECK (gpus >= 0),"
	"  cpus INTEGER NOT NULL DEFAULT 0 CHECK (cpus >= 0),"
	"  host TEXT,"
	"  exit_code INTEGER,"
	"  signal INTEGER NOT NULL DEFAULT 0,"
	"  reason TEXT,"
	"  UNIQUE (trial_id, number)"
	");"
	"CREATE INDEX attempts_unfinished ON attempts (trial_id)"
	"    WHERE ended IS NULL;"
	"CREATE TABLE metrics ("
	"  attempt_id INTEGER NOT NULL"
	"    REFERENCES attempts ON DELETE CASCADE,"
	"  step REAL NOT NULL,"
	"  key TEXT NOT NULL,"
	"  value REAL,"
	"  time REAL,"
	"  UNIQUE (attempt_id, key, step)"
	");"
	"CREATE TABLE events ("
	"  id INTEGER PRIMARY KEY,"
	"  campaign_id INTEGER"
	"    REFERENCES campaigns ON DELETE CASCADE,"
	"  time REAL NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  message TEXT"
	");"
	"CREATE INDEX events_campaign ON events (campaign_id, id);",

	/*
	 * 1 -> 2: who drives a campaign.  The daemon resumes only its own;
	 * a foreground `hpoctl run` is never taken over behind its back.
	 */
	"ALTER TABLE campaigns ADD COLUMN driver TEXT NOT NULL"
	"  DEFAULT 'daemon' CHECK (driver IN ('daemon', 'foreground'));",

	/*
	 * 2 -> 3: the workload spec a campaign ran (its JSON text: reports
	 * read its fidelity and FLOPs per sample from the ledger alone), and
	 * what a trial is for.  "search": proposed by the search;
	 * "transfer": a batch-size scaling campaign's start point, carried
	 * over from a neighbouring batch size; "confirm": a confirmation run
	 * of the chosen configuration with another seed.
	 */
	"ALTER TABLE campaigns ADD COLUMN workload_json TEXT;"
	"ALTER TABLE trials ADD COLUMN role TEXT NOT NULL DEFAULT 'search'"
	"  CHECK (role IN ('search', 'transfer', 'confirm'));",

	/*
	 * 3 -> 4: prior knowledge a campaign was warm-started from (an
	 * Optuna study or another campaign's trials), copied in when it
	 * started so that a resume reads the same history.  Priors inform
	 * the search only: they have no attempts, cost nothing here and are
	 * never this campaign's trials.
	 */
	"CREATE TABLE priors ("
	"  campaign_id INTEGER NOT NULL"
	"    REFERENCES campaigns ON DELETE CASCADE,"
	"  number INTEGER NOT NULL CHECK (number >= 0),"
	"  source TEXT NOT NULL,"
	"  source_number INTEGER NOT NULL,"
	"  params_json TEXT NOT NULL,"
	"  state TEXT NOT NULL CHECK (state IN"
	"    ('completed', 'pruned', 'failed')),"
	"  has_value INTEGER NOT NULL DEFAULT 0"
	"    CHECK (has_value IN (0, 1)),"
	"  value REAL,"
	"  UNIQUE (campaign_id, number)"
	");",

	/*
	 * 4 -> 5: pilot allocations ("dispatch": "pilot"): one row per
	 * pilot job, which runs attempts back to back.  An attempt run in a
	 * pilot has job_id "PILOT_JOB_ID.pN" and is charged as any attempt;
	 * the pilot's idle time (its allocation times its elapsed time less
	 * what its attempts were charged) is the cost line "pilot_idle".
	 */
	"CREATE TABLE pilots ("
	"  id INTEGER PRIMARY KEY,"
	"  campaign_id INTEGER NOT NULL"
	"    REFERENCES campaigns ON DELETE CASCADE,"
	"  token TEXT UNIQUE NOT NULL,"
	"  job_id TEXT,"
	"  dir TEXT NOT NULL,"
	"  submitted REAL,"
	"  started REAL,"
	"  ended REAL,"
	"  nodes INTEGER NOT NULL DEFAULT 0 CHECK (nodes >= 0),"
	"  gpus INTEGER NOT NULL DEFAULT 0 CHECK (gpus >= 0),"
	"  cpus INTEGER NOT NULL DEFAULT 0 CHECK (cpus >= 0),"
	"  host TEXT,"
	"  state TEXT"
	");"
	"CREATE INDEX pilots_campaign ON pilots (campaign_id);",

	/*
	 * 5 -> 6: the nodes an attempt is charged when that is not its
	 * whole nodes: a trial run in a pilot is charged its share of the
	 * pilot's node (ACCT_NODES).  NULL, as every older attempt reads:
	 * its whole nodes, as a job is billed.
	 */
	"ALTER TABLE attempts ADD COLUMN node_share REAL"
	"  CHECK (node_share IS NULL OR node_share >= 0);",

	/*
	 * 6 -> 7: when an attempt could first start, from which its queue
	 * wait counts (ACCT_QUEUED): Slurm's eligible time, when a chained
	 * job's dependency was met (its predecessor's end), a hold
	 * released; the end of one that ended before it ever could.  NULL,
	 * as every older attempt reads: not known, the queue wait counts
	 * from its submission.
	 */
	"ALTER TABLE attempts ADD COLUMN eligible REAL;",

	/*
	 * 7 -> 8: "dispatch": "chain": the attempt an attempt was queued
	 * behind (its job submitted with a dependency on that one's), so
	 * that a restarted daemon takes the lanes back as they were.  NULL:
	 * it headed a lane of its own (or a ledger older than the column).
	 */
	"ALTER TABLE attempts ADD COLUMN after_id INTEGER"
	"  REFERENCES attempts ON DELETE SET NULL;",

	/*
	 * 8 -> 9: the trial number an event is about, as data: the trial
	 * a 'cancel_trial' event cancels (hpoctl cancel --trial N), which
	 * a resume reads back.  NULL for an event about no one trial.
	 * Older 'cancel_trial' events carried the number in their message
	 * only, "trial N cancelled on request": it is copied over, once.
	 */
	"ALTER TABLE events ADD COLUMN trial INTEGER"
	"  CHECK (trial IS NULL OR trial >= 0);"
	"UPDATE events SET trial = CAST(substr(message, 7) AS INTEGER)"
	"  WHERE kind = 'cancel_trial'"
	"  AND message GLOB 'trial [0-9]* cancelled on request';",

	/*
	 * 9 -> 10: the seconds between its start and its end an attempt's
	 * job was suspended (Slurm's scontrol suspend), which are not
	 * billed (ACCT_ELAPSED): Slurm's run time is its end less its start
	 * less that.  NULL, as every older attempt reads: never suspended.
	 */
	"ALTER TABLE attempts ADD COLUMN suspended REAL"
	"  CHECK (suspended IS NULL OR suspended >= 0);",

	/*
	 * 10 -> 11: while an attempt runs, when the suspension its job is
	 * in began (NULL: it runs): its run time, billed live, stops there
	 * until it is resumed, and suspended then holds the seconds of its
	 * suspensions before.  A pilot's suspended seconds, which its run
	 * time (and so its idle time) leaves out as an attempt's does.
	 * NULL, as every older row reads: never suspended.
	 */
	"ALTER TABLE attempts ADD COLUMN suspended_at REAL;"
	"ALTER TABLE pilots ADD COLUMN suspended REAL"
	"  CHECK (suspended IS NULL OR suspended >= 0);",

	/*
	 * 11 -> 12: a pilot's suspension as its attempts' (10 -> 11): while
	 * it runs, suspended holds the seconds of its suspensions before,
	 * and suspended_at when the one its job is in began (NULL: it
	 * runs), where its run time, and so its idle time, billed live,
	 * stops until it is resumed.  NULL, as every older row reads: not
	 * suspended now.
	 */
	"ALTER TABLE pilots ADD COLUMN suspended_at REAL;",

	/*
	 * 12 -> 13: a point its trainer logged past the step its attempt
	 * was pruned at (during the cancel's grace, before its job ended):
	 * kept, but late: 1, counted in neither the trial's best nor its
	 * reach of the target nor the search's history.  NULL, as every
	 * older point reads: on time.
	 */
	"ALTER TABLE metrics ADD COLUMN late INTEGER"
	"  CHECK (late IS NULL OR late = 1);",

	/*
	 * 13 -> 14: when the attempt's trainer logged MLLOG run_start, on
	 * the clock of its metric points (metrics.time), from which its
	 * time to train counts.  NULL, as every older attempt reads: none
	 * logged, its time to train counts from its start.
	 */
	"ALTER TABLE attempts ADD COLUMN run_start REAL;",

	/*
	 * 14 -> 15: why the attempt's job waits, as its scheduler names it
	 * (Slurm's reason: Resources, Priority, JobHeldUser, ...), written
	 * when it changes while the job pends and cleared when it starts:
	 * the events table keeps each change ("progress").  NULL, as every
	 * older attempt reads: none known.
	 */
	"ALTER TABLE attempts ADD COLUMN pending_reason TEXT;",
};

/* The schema version this build creates and understands. */
int
ledger_schema_latest(void)
{
	return (int)(sizeof(ledger_migrations) / sizeof(ledger_migrations[0]));
}

static const char *const trial_names[TRIAL_NSTATES] = {
	[TRIAL_PENDING] = "pending",
	[TRIAL_RUNNING] = "running",
	[TRIAL_COMPLETED] = "completed",
	[TRIAL_FAILED] = "failed",
	[TRIAL_PRUNED] = "pruned",
	[TRIAL_CANCELLED] = "cancelled",
};

static const char *const attempt_names[ATTEMPT_NSTATES] = {
	[ATTEMPT_SUBMITTING] = "submitting",
	[ATTEMPT_PENDING] = "pending",
	[ATTEMPT_RUNNING] = "running",
	[ATTEMPT_COMPLETED] = "completed",
	[ATTEMPT_FAILED] = "failed",
	[ATTEMPT_TIMEOUT] = "timeout",
	[ATTEMPT_CANCELLED] = "cancelled",
	[ATTEMPT_NODE_FAIL] = "node_fail",
	[ATTEMPT_PREEMPTED] = "preempted",
	[ATTEMPT_LOST] = "lost",
	[ATTEMPT_PRUNED] = "pruned",
};

static const char *const campaign_names[CAMPAIGN_NSTATES] = {
	[CAMPAIGN_RUNNING] = "running",
	[CAMPAIGN_FINISHED] = "finished",
	[CAMPAIGN_CANCELLED] = "cancelled",
};

/* The name of state st of a table of n, or "unknown". */
static const char *
state_name(const char *const *names, int n, int st)
{
	return st >= 0 && st < n ? names[st] : "unknown";
}

/* The index of name s in a table of n, or n. */
static int
state_parse(const char *const *names, int n, const char *s)
{
	int	 i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return n;
}

const char *
trial_state_name(enum trial_state st)
{
	return state_name(trial_names, TRIAL_NSTATES, (int)st);
}

const char *
attempt_state_name(enum attempt_state st)
{
	return state_name(attempt_names, ATTEMPT_NSTATES, (int)st);
}

const char *
campaign_state_name(enum campaign_state st)
{
	return state_name(campaign_names, CAMPAIGN_NSTATES, (int)st);
}

enum trial_state
trial_state_parse(const char *s)
{
	return (enum trial_state)state_parse(trial_names, TRIAL_NSTATES, s);
}

enum attempt_state
attempt_state_parse(const char *s)
{
	return (enum attempt_state)state_parse(attempt_names,
	    ATTEMPT_NSTATES, s);
}

enum campaign_state
campaign_state_parse(const char *s)
{
	return (enum campaign_state)state_parse(campaign_names,
	    CAMPAIGN_NSTATES, s);
}

int
trial_state_active(enum trial_state st)
{
	return st == TRIAL_PENDING || st == TRIAL_RUNNING;
}
