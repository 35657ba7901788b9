/*
 * optuna.c: an Optuna 3.1 RDB storage written with SQLite's C API.
 *
 * The tables are those Optuna 3.1 creates (optuna/storages/_rdb/models.py);
 * version_info and alembic_version say which schema it is, so a newer
 * Optuna upgrades the file with `optuna storage upgrade` as it would its
 * own.  Enum columns hold the enum's name ("COMPLETE", "MINIMIZE",
 * "FINITE"), times local naive datetimes as SQLAlchemy writes them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "optuna.h"

#define OPTUNA_SCHEMA_VERSION	12
#define OPTUNA_ALEMBIC		"v3.0.0.d"
#define OPTUNA_LIBRARY		"3.1.0"

static const char optuna_ddl[] =
	"CREATE TABLE studies (study_id INTEGER NOT NULL,"
	"  study_name VARCHAR(512) NOT NULL, PRIMARY KEY (study_id));"
	"CREATE UNIQUE INDEX ix_studies_study_name ON studies (study_name);"
	"CREATE TABLE version_info (version_info_id INTEGER NOT NULL,"
	"  schema_version INTEGER, library_version VARCHAR(256),"
	"  PRIMARY KEY (version_info_id), CHECK (version_info_id=1));"
	"CREATE TABLE study_directions (study_direction_id INTEGER NOT NULL,"
	"  direction VARCHAR(8) NOT NULL, study_id INTEGER NOT NULL,"
	"  objective INTEGER NOT NULL, PRIMARY KEY (study_direction_id),"
	"  UNIQUE (study_id, objective),"
	"  FOREIGN KEY(study_id) REFERENCES studies (study_id));"
	"CREATE TABLE study_user_attributes ("
	"  study_user_attribute_id INTEGER NOT NULL, study_id INTEGER,"
	"  \"key\" VARCHAR(512), value_json TEXT,"
	"  PRIMARY KEY (study_user_attribute_id), UNIQUE (study_id, \"key\"),"
	"  FOREIGN KEY(study_id) REFERENCES studies (study_id));"
	"CREATE TABLE study_system_attributes ("
	"  study_system_attribute_id INTEGER NOT NULL, study_id INTEGER,"
	"  \"key\" VARCHAR(512), value_json TEXT,"
	"  PRIMARY KEY (study_system_attribute_id),"
	"  UNIQUE (study_id, \"key\"),"
	"  FOREIGN KEY(study_id) REFERENCES studies (study_id));"
	"CREATE TABLE trials (trial_id INTEGER NOT NULL, number INTEGER,"
	"  study_id INTEGER, state VARCHAR(8) NOT NULL,"
	"  datetime_start DATETIME, datetime_complete DATETIME,"
	"  PRIMARY KEY (trial_id),"
	"  FOREIGN KEY(study_id) REFERENCES studies (study_id));"
	"CREATE TABLE trial_user_attributes ("
	"  trial_user_attribute_id INTEGER NOT NULL, trial_id INTEGER,"
	"  \"key\" VARCHAR(512), value_json TEXT,"
	"  PRIMARY KEY (trial_user_attribute_id), UNIQUE (trial_id, \"key\"),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE trial_system_attributes ("
	"  trial_system_attribute_id INTEGER NOT NULL, trial_id INTEGER,"
	"  \"key\" VARCHAR(512), value_json TEXT,"
	"  PRIMARY KEY (trial_system_attribute_id),"
	"  UNIQUE (trial_id, \"key\"),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE trial_params (param_id INTEGER NOT NULL,"
	"  trial_id INTEGER, param_name VARCHAR(512), param_value FLOAT,"
	"  distribution_json TEXT, PRIMARY KEY (param_id),"
	"  UNIQUE (trial_id, param_name),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE trial_values (trial_value_id INTEGER NOT NULL,"
	"  trial_id INTEGER NOT NULL, objective INTEGER NOT NULL,"
	"  value FLOAT, value_type VARCHAR(7) NOT NULL,"
	"  PRIMARY KEY (trial_value_id), UNIQUE (trial_id, objective),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE trial_intermediate_values ("
	"  trial_intermediate_value_id INTEGER NOT NULL,"
	"  trial_id INTEGER NOT NULL, step INTEGER NOT NULL,"
	"  intermediate_value FLOAT,"
	"  intermediate_value_type VARCHAR(7) NOT NULL,"
	"  PRIMARY KEY (trial_intermediate_value_id), UNIQUE (trial_id, step),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE trial_heartbeats (trial_heartbeat_id INTEGER NOT NULL,"
	"  trial_id INTEGER NOT NULL, heartbeat DATETIME NOT NULL,"
	"  PRIMARY KEY (trial_heartbeat_id), UNIQUE (trial_id),"
	"  FOREIGN KEY(trial_id) REFERENCES trials (trial_id));"
	"CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL,"
	"  CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num));";

/* The statements, in the order of optuna_sql[]. */
enum optuna_q {
	OQ_STUDY, OQ_DIRECTION, OQ_STUDY_ATTR, OQ_TRIAL, OQ_PARAM, OQ_VALUE,
	OQ_POINT, OQ_TRIAL_ATTR, OQ_COUNT
};

static const char *const optuna_sql[OQ_COUNT] = {
	"INSERT INTO studies (study_id, study_name) VALUES (1, ?1)",
	"INSERT INTO study_directions (direction, study_id, objective)"
	"  VALUES (?1, 1, 0)",
	"INSERT INTO study_user_attributes (study_id, key, value_json)"
	"  VALUES (1, ?1, ?2)",
	"INSERT INTO trials (trial_id, number, study_id, state,"
	"  datetime_start, datetime_complete) VALUES (?1, ?2, 1, ?3, ?4, ?5)",
	"INSERT INTO trial_params (trial_id, param_name, param_value,"
	"  distribution_json) VALUES (?1, ?2, ?3, ?4)",
	"INSERT INTO trial_values (trial_id, objective, value, value_type)"
	"  VALUES (?1, 0, ?2, ?3)",
	"INSERT INTO trial_intermediate_values (trial_id, step,"
	"  intermediate_value, intermediate_value_type) VALUES (?1, ?2, ?3, ?4)",
	"INSERT INTO trial_user_attributes (trial_id, key, value_json)"
	"  VALUES (?1, ?2, ?3)",
};

struct optuna_db {
	sqlite3		*db;
	sqlite3_stmt	*q[OQ_COUNT];
	const char	*path;
	char		*err;
	size_t		 errlen;
	int		 bind_rc;	/* first failed bind, or SQLITE_OK */
};

/* Record SQLite's error for the file; return -1. */
static int
optuna_fail(struct optuna_db *o, const char *what)
{
	snprintf(o->err, o->errlen, "%s: %s: %s", o->path, what,
	    sqlite3_errmsg(o->db));
	return -1;
}

/* Keep the first failed bind of the statement being set up. */
static void
optuna_bound(struct optuna_db *o, int rc)
{
	if (rc != SQLITE_OK && o->bind_rc == SQLITE_OK)
		o->bind_rc = rc;
}

/*
 * Run statement q once, unless one of its binds failed, and reset it;
 * return 0 or -1.  What reset returns repeats the step's error.
 */
static int
optuna_step(struct optuna_db *o, enum optuna_q q)
{
	int	 rc, bind_rc = o->bind_rc;

	rc = bind_rc == SQLITE_OK ? sqlite3_step(o->q[q]) : bind_rc;
	(void)sqlite3_reset(o->q[q]);
	(void)sqlite3_clear_bindings(o->q[q]);
	o->bind_rc = SQLITE_OK;
	if (bind_rc != SQLITE_OK) {
		snprintf(o->err, o->errlen, "%s: insert: bind: %s", o->path,
		    sqlite3_errstr(bind_rc));
		return -1;
	}
	return rc == SQLITE_DONE ? 0 : optuna_fail(o, "insert");
}

/* Bind text s, which outlives the statement, to parameter i of q. */
static void
optuna_bind_text(struct optuna_db *o, enum optuna_q q, int i, const char *s)
{
	optuna_bound(o, sqlite3_bind_text(o->q[q], i, s, -1, SQLITE_STATIC));
}

/* Bind a 64-bit int to parameter i of q. */
static void
optuna_bind_int64(struct optuna_db *o, enum optuna_q q, int i,
    sqlite3_int64 v)
{
	optuna_bound(o, sqlite3_bind_int64(o->q[q], i, v));
}

/* Bind epoch seconds t as SQLAlchemy's naive local datetime, or NULL. */
static void
optuna_bind_time(struct optuna_db *o, enum optuna_q q, int i, double t)
{
	char		 buf[64];
	struct tm	 tm;
	time_t		 sec = (time_t)floor(t);
	long		 usec = (long)((t - floor(t)) * 1e6);

	if (!(t > 0) || localtime_r(&sec, &tm) == NULL) {
		optuna_bound(o, sqlite3_bind_null(o->q[q], i));
		return;
	}
	if (usec > 999999)
		usec = 999999;
	snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d.%06ld",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, usec);
	optuna_bound(o, sqlite3_bind_text(o->q[q], i, buf, -1,
	    SQLITE_TRANSIENT));
}

/* Bind a float and its Optuna value type ("FINITE", "INF_POS", ...). */
static void
optuna_bind_value(struct optuna_db *o, enum optuna_q q, int i, double v)
{
	const char	*type = "FINITE";

	if (isnan(v))
		type = "NAN";
	else if (isinf(v))
		type = v > 0 ? "INF_POS" : "INF_NEG";
	if (isfinite(v))
		optuna_bound(o, sqlite3_bind_double(o->q[q], i, v));
	else
		optuna_bound(o, sqlite3_bind_null(o->q[q], i));
	optuna_bind_text(o, q, i + 1, type);
}

/* Insert the rows of one trial (trial_id = index + 1). */
static int
optuna_trial(struct optuna_db *o, const struct optuna_trial *t,
    sqlite3_int64 id)
{
	size_t	 i;

	optuna_bind_int64(o, OQ_TRIAL, 1, id);
	optuna_bind_int64(o, OQ_TRIAL, 2, t->number);
	optuna_bind_text(o, OQ_TRIAL, 3, t->state);
	optuna_bind_time(o, OQ_TRIAL, 4, t->start);
	optuna_bind_time(o, OQ_TRIAL, 5, t->complete);
	if (optuna_step(o, OQ_TRIAL) == -1)
		return -1;
	for (i = 0; i < t->nparams; i++) {
		optuna_bind_int64(o, OQ_PARAM, 1, id);
		optuna_bind_text(o, OQ_PARAM, 2, t->params[i].name);
		optuna_bound(o, sqlite3_bind_double(o->q[OQ_PARAM], 3,
		    t->params[i].internal));
		optuna_bind_text(o, OQ_PARAM, 4, t->params[i].distribution);
		if (optuna_step(o, OQ_PARAM) == -1)
			return -1;
	}
	if (t->has_value) {
		optuna_bind_int64(o, OQ_VALUE, 1, id);
		/* A trial's value is never NaN in Optuna: FAIL instead. */
		optuna_bind_value(o, OQ_VALUE, 2, t->value);
		if (optuna_step(o, OQ_VALUE) == -1)
			return -1;
	}
	for (i = 0; i < t->npoints; i++) {
		optuna_bind_int64(o, OQ_POINT, 1, id);
		optuna_bind_int64(o, OQ_POINT, 2, t->points[i].step);
		optuna_bind_value(o, OQ_POINT, 3, t->points[i].value);
		if (optuna_step(o, OQ_POINT) == -1)
			return -1;
	}
	for (i = 0; i < t->nattrs; i++) {
		optuna_bind_int64(o, OQ_TRIAL_ATTR, 1, id);
		optuna_bind_text(o, OQ_TRIAL_ATTR, 2, t->attrs[i].key);
		optuna_bind_text(o, OQ_TRIAL_ATTR, 3, t->attrs[i].value_json);
		if (optuna_step(o, OQ_TRIAL_ATTR) == -1)
			return -1;
	}
	return 0;
}

/* Create the schema and insert the study, all in one transaction. */
static int
optuna_fill(struct optuna_db *o, const struct optuna_study *st)
{
	char	 meta[256];
	size_t	 i;

	snprintf(meta, sizeof(meta), "INSERT INTO version_info VALUES "
	    "(1, %d, '%s'); INSERT INTO alembic_version VALUES ('%s');",
	    OPTUNA_SCHEMA_VERSION, OPTUNA_LIBRARY, OPTUNA_ALEMBIC);
	if (sqlite3_exec(o->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK || sqlite3_exec(o->db, optuna_ddl, NULL, NULL, NULL) !=
	    SQLITE_OK || sqlite3_exec(o->db, meta, NULL, NULL, NULL) !=
	    SQLITE_OK)
		return optuna_fail(o, "create the schema");
	for (i = 0; i < OQ_COUNT; i++)
		if (sqlite3_prepare_v2(o->db, optuna_sql[i], -1, &o->q[i],
		    NULL) != SQLITE_OK)
			return optuna_fail(o, "prepare");
	optuna_bind_text(o, OQ_STUDY, 1, st->name);
	if (optuna_step(o, OQ_STUDY) == -1)
		return -1;
	optuna_bind_text(o, OQ_DIRECTION, 1, st->maximize ? "MAXIMIZE" :
	    "MINIMIZE");
	if (optuna_step(o, OQ_DIRECTION) == -1)
		return -1;
	for (i = 0; i < st->nattrs; i++) {
		optuna_bind_text(o, OQ_STUDY_ATTR, 1, st->attrs[i].key);
		optuna_bind_text(o, OQ_STUDY_ATTR, 2, st->attrs[i].value_json);
		if (optuna_step(o, OQ_STUDY_ATTR) == -1)
			return -1;
	}
	for (i = 0; i < st->ntrials; i++)
		if (optuna_trial(o, &st->trials[i], (sqlite3_int64)i + 1) == -1)
			return -1;
	if (sqlite3_exec(o->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return optuna_fail(o, "commit");
	return 0;
}

/* Write the study to a new file at path. */
int
optuna_write(const char *path, const struct optuna_study *st, char *err,
    size_t errlen)
{
	struct optuna_db o;
	char		 tmp[4096];
	size_t		 i;
	int		 rc = -1;

	memset(&o, 0, sizeof(o));
	o.path = path;
	o.err = err;
	o.errlen = errlen;
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "%s: exists; an export never replaces "
		    "a file", path);
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", path,
	    (long)getpid()) >= sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	unlink(tmp);
	if (sqlite3_open_v2(tmp, &o.db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		optuna_fail(&o, "create");
		goto done;
	}
	rc = optuna_fill(&o, st);
 done:
	for (i = 0; i < OQ_COUNT; i++)
		sqlite3_finalize(o.q[i]);
	if (sqlite3_close(o.db) != SQLITE_OK && rc == 0)
		rc = optuna_fail(&o, "close");
	if (rc == 0 && link(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	unlink(tmp);
	return rc;
}
