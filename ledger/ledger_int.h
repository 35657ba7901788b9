/*
 * ledger_int.h: what the files of ledger/ share and nobody else sees: the
 * handle, its cache of prepared statements and the error helpers.
 */
#ifndef HPOD_LEDGER_INT_H
#define HPOD_LEDGER_INT_H

#include <sqlite3.h>

#include "ledger.h"

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
	LQ_ACCT_TRIALS, LQ_ACCT_ATTEMPTS, LQ_ACCT_TTS, LQ_ACCT_BEST,
	LQ_ACCT_OUTCOMES, LQ_ACCT_GROUPS,
	LQ_PRIOR_INSERT, LQ_PRIOR_LIST, LQ_PRIOR_COUNT,
	LQ_CAMPAIGN_BUDGET,
	LQ_COUNT
};

struct ledger {
	sqlite3		*db;
	int		 flags;
	sqlite3_stmt	*stmt[LQ_COUNT];
	int		 batch;		/* a batch's transaction is open */
	int		 nest;		/* savepoints open inside it */
	char		 err[512];
};

/* The migrations: ledger_migrations[v] takes user_version v to v + 1. */
extern const char *const ledger_migrations[];

int	 ledger_errorf(struct ledger *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 ledger_fail(struct ledger *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 ledger_control(struct ledger *, enum ledger_sql, const char *sql,
	    const char *what);
sqlite3_stmt *ledger_stmt(struct ledger *, enum ledger_sql, const char *);
void	 ledger_stmt_done(sqlite3_stmt *);
int	 ledger_exec(struct ledger *, sqlite3_stmt *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 ledger_exec_one(struct ledger *, sqlite3_stmt *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 ledger_read_begin(struct ledger *, int *);
void	 ledger_read_end(struct ledger *, int);
void	 ledger_bind_text(sqlite3_stmt *, int, const char *);
void	 ledger_bind_time(sqlite3_stmt *, int, double);
int	 ledger_column_str(sqlite3_stmt *, int, char **);
int	 ledger_grow(struct ledger *, void **, size_t *, size_t, size_t);

#endif
