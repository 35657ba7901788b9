/*
 * optuna_read.c: the finished trials of an Optuna study (see optuna_read.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "optuna_read.h"
#include "xmalloc.h"

/* A copy of a text column ("" for NULL). */
static char *
optuna_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s != NULL ? (const char *)s : "");
}

/* Free the rows. */
void
optuna_rows_free(struct optuna_row *rows, size_t n)
{
	size_t	 i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < rows[i].nparams; j++) {
			free(rows[i].params[j].name);
			free(rows[i].params[j].distribution);
		}
		free(rows[i].params);
		free(rows[i].state);
	}
	free(rows);
}

/* The study's id and direction: 0, or -1 with err. */
static int
optuna_study(sqlite3 *db, const char *path, const char *study, long *id,
    int *maximize, char *err, size_t errlen)
{
	sqlite3_stmt	*st = NULL;
	int		 rc, nfound = 0;
	char		*dir = NULL;

	if (sqlite3_prepare_v2(db, "SELECT s.study_id, s.study_name,"
	    " (SELECT d.direction FROM study_directions d WHERE"
	    " d.study_id = s.study_id AND d.objective = 0),"
	    " (SELECT count(*) FROM study_directions d WHERE"
	    " d.study_id = s.study_id)"
	    " FROM studies s WHERE ?1 IS NULL OR s.study_name = ?1",
	    -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: not an Optuna storage (%s)", path,
		    sqlite3_errmsg(db));
		return -1;
	}
	/* A study name left unbound would match every study. */
	if (study != NULL && sqlite3_bind_text(st, 1, study, -1,
	    SQLITE_TRANSIENT) != SQLITE_OK) {
		snprintf(err, errlen, "%s: study '%s': %s", path, study,
		    sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (nfound++ == 0) {
			*id = (long)sqlite3_column_int64(st, 0);
			dir = optuna_col(st, 2);
			if (sqlite3_column_int(st, 3) != 1) {
				snprintf(err, errlen, "%s: study '%s' has %d "
				    "objectives (a prior needs exactly one)",
				    path, sqlite3_column_text(st, 1),
				    sqlite3_column_int(st, 3));
				rc = SQLITE_ERROR;
				break;
			}
		}
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ERROR)
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
	else if (rc == SQLITE_DONE && nfound == 0)
		snprintf(err, errlen, "%s: no study named '%s'", path,
		    study != NULL ? study : "(any)");
	else if (rc == SQLITE_DONE && nfound > 1)
		snprintf(err, errlen, "%s: %d studies: name one with "
		    "prior.study", path, nfound);
	else if (rc == SQLITE_DONE) {
		*maximize = strcmp(dir, "MAXIMIZE") == 0;
		rc = 0;
	}
	free(dir);
	sqlite3_finalize(st);
	return rc == 0 ? 0 : -1;
}

/* The parameters of trial row r (trial id tid): 0, or -1 on error. */
static int
optuna_params(sqlite3 *db, long tid, struct optuna_row *r)
{
	sqlite3_stmt	*st = NULL;
	int		 rc;

	if (sqlite3_prepare_v2(db, "SELECT param_name, param_value,"
	    " distribution_json FROM trial_params WHERE trial_id = ?1"
	    " ORDER BY param_id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_bind_int64(st, 1, tid) != SQLITE_OK) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct optuna_row_param *p;

		r->params = xreallocarray(r->params, r->nparams + 1,
		    sizeof(*r->params));
		p = &r->params[r->nparams++];
		p->name = optuna_col(st, 0);
		p->internal = sqlite3_column_double(st, 1);
		p->distribution = optuna_col(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Read the finished trials of a study. */
int
optuna_read(const char *path, const char *study, int *maximize,
    struct optuna_row **rows, size_t *n, char *err, size_t errlen)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*st = NULL;
	struct optuna_row *r;
	long		 sid = 0;
	int		 rc = -1, s;

	*rows = NULL;
	*n = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	if (optuna_study(db, path, study, &sid, maximize, err, errlen) == -1)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT t.trial_id, t.number, t.state,"
	    " v.value, v.value_type FROM trials t LEFT JOIN trial_values v"
	    " ON v.trial_id = t.trial_id AND v.objective = 0"
	    " WHERE t.study_id = ?1 AND t.state IN ('COMPLETE', 'PRUNED',"
	    " 'FAIL') ORDER BY t.number", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: not an Optuna storage (%s)", path,
		    sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_bind_int64(st, 1, sid) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *vt = sqlite3_column_text(st, 4);

		*rows = xreallocarray(*rows, *n + 1, sizeof(**rows));
		r = &(*rows)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->number = sqlite3_column_int(st, 1);
		r->state = optuna_col(st, 2);
		r->has_value = vt != NULL && strcmp((const char *)vt,
		    "FINITE") == 0 && sqlite3_column_type(st, 3) != SQLITE_NULL;
		r->value = sqlite3_column_double(st, 3);
		if (optuna_params(db, (long)sqlite3_column_int64(st, 0), r) ==
		    -1) {
			s = SQLITE_ERROR;
			break;
		}
	}
	if (s != SQLITE_DONE) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (rc == -1) {
		optuna_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}
