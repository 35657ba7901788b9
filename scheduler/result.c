/*
 * result.c: write and read an attempt's record, hpo-trial.json and
 * result.json (see result.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "file.h"
#include "result.h"

#define RESULT_MAX	(1024 * 1024)	/* larger files are not ours */

/* Render r as a JSON text; the caller frees it. */
static char *
result_render(const struct trial_result *r)
{
	cJSON *o;
	char *text = NULL;

	if ((o = cJSON_CreateObject()) == NULL)
		return NULL;
	if (cJSON_AddStringToObject(o, "token", r->token) == NULL ||
	    cJSON_AddStringToObject(o, "state",
	    r->running ? "running" : "exited") == NULL ||
	    cJSON_AddStringToObject(o, "host", r->host) == NULL ||
	    cJSON_AddNumberToObject(o, "pid", (double)r->pid) == NULL ||
	    cJSON_AddNumberToObject(o, "start", r->start) == NULL ||
	    cJSON_AddNumberToObject(o, "end", r->end) == NULL ||
	    cJSON_AddNumberToObject(o, "exit_code", r->exit_code) == NULL ||
	    cJSON_AddNumberToObject(o, "signal", r->signal) == NULL ||
	    cJSON_AddBoolToObject(o, "timed_out", r->timed_out) == NULL)
		goto out;
	text = cJSON_PrintUnformatted(o);
out:
	cJSON_Delete(o);
	return text;
}

/*
 * Write dir/hpo-trial.json, then dir/result.json, each atomically:
 * temporary file, fsync, rename.
 */
int
result_write(const char *dir, const struct trial_result *r)
{
	char own[PATH_MAX], path[PATH_MAX], *text;
	int rc, saved;

	if (snprintf(own, sizeof(own), "%s/%s", dir, RESULT_OWN) >=
	    (int)sizeof(own) || snprintf(path, sizeof(path), "%s/%s", dir,
	    RESULT_NAME) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((text = result_render(r)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	if ((rc = file_save(own, text)) == 0)
		rc = file_save(path, text);
	saved = errno;
	free(text);
	errno = saved;
	return rc;
}

/* Create dir/ended, the end marker (empty). */
int
result_mark_ended(const char *dir)
{
	char		 path[PATH_MAX];
	const char	*id;
	int		 fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, RESULT_ENDED) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1)
		return -1;
	/* Inside a Slurm job: its own job id, an array task's too. */
	if ((id = getenv("SLURM_JOB_ID")) != NULL && *id != '\0' &&
	    strlen(id) < 16 && (write(fd, id, strlen(id)) == -1 ||
	    write(fd, "\n", 1) == -1)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Fetch the number called key into *v; required says if it may be absent. */
static int
result_number(const cJSON *o, const char *key, int required, double *v,
    const char *path, char *err, size_t errlen)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);

	if (j == NULL && !required)
		return 0;
	if (!cJSON_IsNumber(j)) {
		snprintf(err, errlen, "%s: '%s' must be a number", path, key);
		return -1;
	}
	*v = j->valuedouble;
	return 0;
}

/* Copy the string called key into buf; required says if it may be absent. */
static int
result_string(const cJSON *o, const char *key, int required, char *buf,
    size_t size, const char *path, char *err, size_t errlen)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);

	if (j == NULL && !required)
		return 0;
	if (!cJSON_IsString(j)) {
		snprintf(err, errlen, "%s: '%s' must be a string", path, key);
		return -1;
	}
	snprintf(buf, size, "%s", j->valuestring);
	return 0;
}

/* Fill r from the parsed object o. */
static int
result_decode(const cJSON *o, struct trial_result *r, const char *path,
    char *err, size_t errlen)
{
	const cJSON *j;
	char state[16];
	double pid = 0, code = -1, sig = 0;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		return -1;
	}
	if (result_string(o, "token", 1, r->token, sizeof(r->token), path,
	    err, errlen) == -1 ||
	    result_string(o, "state", 1, state, sizeof(state), path,
	    err, errlen) == -1 ||
	    result_string(o, "host", 0, r->host, sizeof(r->host), path,
	    err, errlen) == -1 ||
	    result_number(o, "pid", 1, &pid, path, err, errlen) == -1 ||
	    result_number(o, "start", 1, &r->start, path, err, errlen) == -1 ||
	    result_number(o, "end", 0, &r->end, path, err, errlen) == -1 ||
	    result_number(o, "exit_code", 0, &code, path, err, errlen) == -1 ||
	    result_number(o, "signal", 0, &sig, path, err, errlen) == -1)
		return -1;
	if (strcmp(state, "running") == 0)
		r->running = 1;
	else if (strcmp(state, "exited") != 0) {
		snprintf(err, errlen,
		    "%s: 'state' must be \"running\" or \"exited\"", path);
		return -1;
	}
	if (pid < 0 || pid > (double)INT_MAX || code < -1 || code > 255 ||
	    sig < 0 || sig > 128) {
		snprintf(err, errlen, "%s: 'pid', 'exit_code' or 'signal' "
		    "out of range", path);
		return -1;
	}
	r->pid = (long)pid;
	r->exit_code = (int)code;
	r->signal = (int)sig;
	j = cJSON_GetObjectItemCaseSensitive(o, "timed_out");
	if (j != NULL && !cJSON_IsBool(j)) {
		snprintf(err, errlen, "%s: 'timed_out' must be a boolean", path);
		return -1;
	}
	r->timed_out = cJSON_IsTrue(j);
	return 0;
}

/* Read and check dir/name. */
int
result_read_file(const char *dir, const char *name, struct trial_result *r,
    char *err, size_t errlen)
{
	char path[PATH_MAX], *buf;
	cJSON *o;
	size_t len;
	int n, rc;

	memset(r, 0, sizeof(*r));
	r->exit_code = -1;
	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	if ((rc = file_slurp(path, RESULT_MAX, &buf, &len, err, errlen)) != 0)
		return rc;
	o = cJSON_ParseWithLength(buf, len);
	free(buf);
	if (o == NULL) {
		snprintf(err, errlen, "%s: bad JSON", path);
		return -1;
	}
	rc = result_decode(o, r, path, err, errlen);
	cJSON_Delete(o);
	return rc;
}

/*
 * Read the record: hpo-trial.json, else the result.json of an older
 * hpo-trial (see result.h).
 */
int
result_read(const char *dir, struct trial_result *r, char *err,
    size_t errlen)
{
	int rc;

	if ((rc = result_read_file(dir, RESULT_OWN, r, err, errlen)) != 1)
		return rc;
	return result_read_file(dir, RESULT_NAME, r, err, errlen);
}
