/*
 * optuna_read.h: read the finished trials of a study from an Optuna RDB
 * storage (SQLite, the schema optuna_write() writes and Optuna 3.x keeps),
 * as the rows Optuna stores them, for a campaign's prior knowledge.
 *
 * SQLite stays sealed in ledger/; the caller (daemon/plan/prior.c) turns the
 * rows into points of its space.
 */
#ifndef HPOD_OPTUNA_READ_H
#define HPOD_OPTUNA_READ_H

#include <stddef.h>

/* A parameter as Optuna stores it (owned by its trial). */
struct optuna_row_param {
	char		*name;
	double		 internal;	/* the value, or the choice's index */
	char		*distribution;	/* Optuna's distribution JSON */
};

/* A finished trial: COMPLETE, PRUNED or FAIL. */
struct optuna_row {
	int		 number;
	char		*state;
	int		 has_value;
	double		 value;		/* objective 0 (finite values) */
	struct optuna_row_param *params;
	size_t		 nparams;
};

/*
 * Read study (NULL: the file's only study) from the file at path, opened
 * read-only: its direction (*maximize) and its finished trials by number
 * (RUNNING and WAITING ones are left out).  Return 0, or -1 with err
 * naming the file and what failed.  Free the rows with optuna_rows_free().
 */
int	 optuna_read(const char *path, const char *study, int *maximize,
	    struct optuna_row **rows, size_t *n, char *err, size_t errlen);
void	 optuna_rows_free(struct optuna_row *, size_t n);

#endif
