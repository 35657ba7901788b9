/*
 * optuna.h: write a study as an Optuna RDB storage (SQLite, the schema of
 * Optuna 3.1: version_info.schema_version 12, alembic revision v3.0.0.d),
 * so that optuna.load_study(), Optuna's plots and optuna-dashboard read it.
 *
 * It lives in ledger/ because it is SQLite work and SQLite stays sealed
 * here; it knows nothing of campaigns or spaces: the caller
 * (daemon/hpoctl/export_optuna.c) translates the ledger into these plain structs.
 * All pointers are borrowed for the duration of the call.
 */
#ifndef HPOD_OPTUNA_H
#define HPOD_OPTUNA_H

#include <stddef.h>

/* A parameter of a trial, as Optuna stores it. */
struct optuna_param {
	const char	*name;
	double		 internal;	/* the value, or the choice's index */
	const char	*distribution;	/* Optuna's distribution JSON */
};

/* An intermediate value (Optuna's steps are integers). */
struct optuna_point {
	long		 step;
	double		 value;		/* NAN and +-inf are kept as such */
};

/* A key and its JSON value, for user attributes. */
struct optuna_attr {
	const char	*key;
	const char	*value_json;
};

struct optuna_trial {
	int		 number;
	const char	*state;		/* "COMPLETE", "PRUNED", "FAIL",
					   "RUNNING" or "WAITING" */
	double		 start, complete;	/* epoch seconds, 0: none */
	int		 has_value;
	double		 value;
	const struct optuna_param *params;
	size_t		 nparams;
	const struct optuna_point *points;	/* ascending steps */
	size_t		 npoints;
	const struct optuna_attr *attrs;
	size_t		 nattrs;
};

struct optuna_study {
	const char	*name;
	int		 maximize;
	const struct optuna_attr *attrs;
	size_t		 nattrs;
	const struct optuna_trial *trials;
	size_t		 ntrials;
};

/*
 * Write the study to a new file at path: it is built under a temporary
 * name beside it and linked into place only when complete, and an
 * existing file is never replaced.  Return 0, or -1 with err naming the
 * file and what failed.
 */
int	 optuna_write(const char *path, const struct optuna_study *,
	    char *err, size_t errlen);

#endif
