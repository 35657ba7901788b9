/*
 * ledger_int.h: what the files of ledger/ share and nobody else sees: the
 * handle, its cache of prepared statements and the error helpers.
 */
#ifndef HPOD_LEDGER_INT_H
#define HPOD_LEDGER_INT_H

#include <sqlite3.h>

#include "ledger.h"

/*
 * The run time of row t (an attempt or a pilot) of a query, ?2 being now:
 * from its start to its end, or while it runs to now or to the start of
 * the suspension its job is in (schema.c, 10 -> 11 for attempts, 11 -> 12
 * for pilots), less the seconds its job was suspended before (9 -> 10,
 * 10 -> 11); the CASE is left open for the caller's ELSE.
 */
#define ACCT_RUN(t) \
	"CASE WHEN " t ".started > 0 THEN" \
	"  max(coalesce(nullif(" t ".ended, 0), " t ".suspended_at, ?2)" \
	"    - " t ".started - coalesce(" t ".suspended, 0), 0)"

/*
 * The seconds attempt a is charged for; NULL if it never started.
 * account_attempt_elapsed() is the same in C.
 */
#define ACCT_ELAPSED	ACCT_RUN("a") " END"

/* The seconds pilot p is billed for; 0 if it never started. */
#define ACCT_PILOT_ELAPSED	ACCT_RUN("p") " ELSE 0 END"

/*
 * The nodes attempt a is charged: its share of a pilot's node, or its
 * whole nodes (schema.c, 5 -> 6).
 */
#define ACCT_NODES "coalesce(a.node_share, a.nodes)"

/*
 * When attempt a's queue wait begins: when it could first start (its
 * eligible time: a chained job's dependency met), else its submission
 * (schema.c, 6 -> 7).  account_lists.c's al_sums() is the same in C.
 */
#define ACCT_QUEUED "max(a.submitted, coalesce(a.eligible, 0))"

/* Every cached statement; each is prepared on first use. */
enum ledger_sql {
	LQ_BEGIN, LQ_COMMIT, LQ_ROLLBACK, LQ_USER_VERSION,
	LQ_SAVEPOINT, LQ_RELEASE, LQ_ROLLBACK_TO,
	LQ_CAMPAIGN_INSERT, LQ_CAMPAIGN_STATE, LQ_CAMPAIGN_GET,
	LQ_CAMPAIGN_BY_NAME, LQ_CAMPAIGN_LIST,
	LQ_TRIAL_INSERT, LQ_TRIAL_STATE, LQ_TRIAL_BEST, LQ_TRIAL_LIST,
	LQ_TRIAL_GET,
	LQ_ATTEMPT_INSERT, LQ_ATTEMPT_SUBMITTED, LQ_ATTEMPT_STARTED,
	LQ_ATTEMPT_FINISHED, LQ_ATTEMPT_LIST,
	LQ_METRIC_INSERT, LQ_METRIC_LIST, LQ_EVENT_INSERT,
	LQ_METRIC_SUMMARY, LQ_METRIC_VALUES, LQ_METRIC_SCAN,
	LQ_METRIC_ATTEMPTS, LQ_ATTEMPT_COUNT, LQ_METRIC_GET,
	LQ_METRIC_SET,
	LQ_ACCT_TRIALS, LQ_ACCT_ATTEMPTS, LQ_ACCT_TTS, LQ_ACCT_BEST,
	LQ_ACCT_OUTCOMES, LQ_ACCT_GROUPS,
	LQ_PRIOR_INSERT, LQ_PRIOR_LIST, LQ_PRIOR_COUNT,
	LQ_CAMPAIGN_BUDGET,
	LQ_PILOT_SUBMITTED, LQ_PILOT_STARTED, LQ_PILOT_ENDED,
	LQ_ACCT_PILOTS, LQ_PILOT_LIST, LQ_PILOT_SUSPENDED,
	LQ_ATTEMPT_ELIGIBLE, LQ_ATTEMPT_CHAINED, LQ_ATTEMPT_SUSPENDED,
	LQ_ATTEMPT_RUN_START, LQ_ATTEMPT_PENDING,
	LQ_EVENT_EACH,
	LQ_COUNT
};

struct ledger {
	sqlite3		*db;
	int		 flags;
	int		 created;	/* no file was there at the open */
	int		 moved;		/* ledger_unmoved() found it removed */
	sqlite3_stmt	*stmt[LQ_COUNT];
	int		 batch;		/* a batch's transaction is open */
	int		 nest;		/* savepoints open inside it */
	int		 bind_rc;	/* first failed bind, or SQLITE_OK */
	int		 bind_index;	/* and its parameter */
	char		 err[512];
};

/*
 * The shape of a row of a list: its size, how to read it from a stepped
 * statement (on failure the row owns nothing and the error is set) and how
 * to free what a row owns (NULL: nothing).
 */
struct ledger_rowtype {
	size_t	 size;
	int	(*read)(struct ledger *, sqlite3_stmt *, void *);
	void	(*release)(void *);
};

/* The migrations: ledger_migrations[v] takes user_version v to v + 1. */
extern const char *const ledger_migrations[];

/*
 * Fill acct for campaign c at time now from SQL (account.c): with the
 * attempts' sums if sums is set, else without (account_lists.c adds them).
 */
struct account;
int	 account_read(struct ledger *, const struct ledger_campaign *c,
	    double now, int sums, struct account *acct);
int	 ledger_errorf(struct ledger *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 ledger_fail(struct ledger *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 ledger_control(struct ledger *, enum ledger_sql, const char *sql,
	    const char *what);
sqlite3_stmt *ledger_stmt(struct ledger *, enum ledger_sql, const char *);
void	 ledger_stmt_done(sqlite3_stmt *);
int	 ledger_step(struct ledger *, sqlite3_stmt *);
int	 ledger_exec_rows(struct ledger *, sqlite3_stmt *, int, const char *,
	    ...) __attribute__((format(printf, 4, 5)));
/* Run a write; the _one form fails unless it changed exactly one row. */
#define ledger_exec(l, st, ...)		ledger_exec_rows(l, st, 0, __VA_ARGS__)
#define ledger_exec_one(l, st, ...)	ledger_exec_rows(l, st, 1, __VA_ARGS__)
int	 ledger_read_begin(struct ledger *, int *);
int	 ledger_read_end(struct ledger *, int);

/*
 * The binds of a statement from ledger_stmt(): the first that fails is
 * kept, and ledger_step() then fails without running the statement.
 */
void	 ledger_bind_int(struct ledger *, sqlite3_stmt *, int, int);
void	 ledger_bind_int64(struct ledger *, sqlite3_stmt *, int, int64_t);
void	 ledger_bind_double(struct ledger *, sqlite3_stmt *, int, double);
void	 ledger_bind_text(struct ledger *, sqlite3_stmt *, int, const char *);
void	 ledger_bind_time(struct ledger *, sqlite3_stmt *, int, double);
void	 ledger_bind_start(struct ledger *, sqlite3_stmt *, const char *,
	    double, int, int, int, const char *);
int	 ledger_column_str(sqlite3_stmt *, int, char **);
int	 ledger_grow(struct ledger *, void **, size_t *, size_t, size_t);

/* list.c: read every row of st, or the one row it yields. */
int	 ledger_list(struct ledger *, sqlite3_stmt *,
	    const struct ledger_rowtype *, void **, size_t *, const char *, ...)
	    __attribute__((format(printf, 6, 7)));
int	 ledger_one(struct ledger *, sqlite3_stmt *,
	    const struct ledger_rowtype *, void *, const char *, ...)
	    __attribute__((format(printf, 5, 6)));

#endif
