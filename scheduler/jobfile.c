/*
 * jobfile.c: the attempt's job.json and an array job's list (see jobfile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "file.h"
#include "jobfile.h"

#define JOBFILE_MAX	(4 * 1024 * 1024)

/* Add a string array called key made of the NULL-terminated v. */
static int
jobfile_add_strv(cJSON *o, const char *key, char *const *v)
{
	cJSON	*a;

	if ((a = cJSON_AddArrayToObject(o, key)) == NULL)
		return -1;
	for (; v != NULL && *v != NULL; v++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(*v)))
			return -1;
	return 0;
}

/* Render jf as JSON text. */
char *
jobfile_render(const struct jobfile *jf)
{
	cJSON	*o;
	char	*text = NULL;

	if ((o = cJSON_CreateObject()) == NULL)
		return NULL;
	if (cJSON_AddStringToObject(o, "token", jf->token) != NULL &&
	    cJSON_AddStringToObject(o, "dir", jf->dir) != NULL &&
	    jobfile_add_strv(o, "argv", jf->argv) == 0 &&
	    jobfile_add_strv(o, "env", jf->env) == 0 &&
	    cJSON_AddNumberToObject(o, "limit", (double)jf->limit) != NULL &&
	    cJSON_AddNumberToObject(o, "nodes", jf->nodes) != NULL &&
	    cJSON_AddNumberToObject(o, "gpus", jf->gpus) != NULL &&
	    cJSON_AddNumberToObject(o, "cpus", jf->cpus) != NULL)
		text = cJSON_Print(o);
	cJSON_Delete(o);
	return text;
}

/* Copy the string array called key; NULL with err if it is not one. */
static char **
jobfile_strv(const cJSON *o, const char *key, int nonempty, const char *path,
    char *err, size_t errlen)
{
	const cJSON	*a, *e;
	char		**v;
	int		 n, i = 0;

	a = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsArray(a) || (nonempty && cJSON_GetArraySize(a) == 0)) {
		snprintf(err, errlen, "%s: '%s' must be a%s array of strings",
		    path, key, nonempty ? " non-empty" : "n");
		return NULL;
	}
	n = cJSON_GetArraySize(a);
	if ((v = calloc((size_t)n + 1, sizeof(*v))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	cJSON_ArrayForEach(e, a) {
		if (!cJSON_IsString(e) ||
		    (v[i] = strdup(e->valuestring)) == NULL) {
			snprintf(err, errlen, "%s: %s[%d] must be a string",
			    path, key, i);
			v[n] = NULL;
			for (i = 0; i < n; i++)
				free(v[i]);
			free(v);
			return NULL;
		}
		i++;
	}
	return v;
}

/* Copy the string called key; NULL with err if it is not one. */
static char *
jobfile_string(const cJSON *o, const char *key, const char *path, char *err,
    size_t errlen)
{
	const cJSON	*s;
	char		*v;

	s = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsString(s) || s->valuestring[0] == '\0') {
		snprintf(err, errlen, "%s: '%s' must be a non-empty string",
		    path, key);
		return NULL;
	}
	if ((v = strdup(s->valuestring)) == NULL)
		snprintf(err, errlen, "%s: out of memory", path);
	return v;
}

/* An optional count; 0 when absent or not a sensible number. */
static int
jobfile_count(const cJSON *o, const char *key)
{
	const cJSON	*n = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(n) || n->valuedouble < 0 ||
	    n->valuedouble > 1e8)
		return 0;
	return (int)n->valuedouble;
}

/* Read path into jf. */
int
jobfile_read(const char *path, struct jobfile *jf, char *err, size_t errlen)
{
	const cJSON	*limit;
	cJSON		*o;
	char		*buf;
	size_t		 len;
	int		 rc;

	memset(jf, 0, sizeof(*jf));
	if ((rc = file_slurp(path, JOBFILE_MAX, &buf, &len, err, errlen)) ==
	    1)
		snprintf(err, errlen, "%s: no such file", path);
	if (rc != 0)
		return -1;
	o = cJSON_ParseWithLength(buf, len);
	free(buf);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		cJSON_Delete(o);
		return -1;
	}
	limit = cJSON_GetObjectItemCaseSensitive(o, "limit");
	if ((jf->token = jobfile_string(o, "token", path, err, errlen)) ==
	    NULL || (jf->dir = jobfile_string(o, "dir", path, err,
	    errlen)) == NULL || (jf->argv = jobfile_strv(o, "argv", 1, path,
	    err, errlen)) == NULL || (jf->env = jobfile_strv(o, "env", 0, path,
	    err, errlen)) == NULL)
		goto fail;
	if (limit != NULL && (!cJSON_IsNumber(limit) ||
	    limit->valuedouble < 0 || limit->valuedouble > 1e9)) {
		snprintf(err, errlen, "%s: 'limit' must be a number of seconds",
		    path);
		goto fail;
	}
	jf->limit = limit != NULL ? (long)limit->valuedouble : 0;
	jf->nodes = jobfile_count(o, "nodes");
	jf->gpus = jobfile_count(o, "gpus");
	jf->cpus = jobfile_count(o, "cpus");
	cJSON_Delete(o);
	return 0;
fail:
	cJSON_Delete(o);
	jobfile_release(jf);
	return -1;
}

/* Free a NULL-terminated string array. */
static void
jobfile_strv_free(char **v)
{
	size_t	 i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Free what jobfile_read() allocated. */
void
jobfile_release(struct jobfile *jf)
{
	free(jf->token);
	free(jf->dir);
	jobfile_strv_free(jf->argv);
	jobfile_strv_free(jf->env);
	memset(jf, 0, sizeof(*jf));
}

/* Line index of an array job's list. */
char *
jobfile_list_entry(const char *list, long index, char *err, size_t errlen)
{
	char	*buf, *line, *next, *entry = NULL;
	size_t	 len;
	long	 i;
	int	 rc;

	if ((rc = file_slurp(list, JOBFILE_MAX, &buf, &len, err, errlen)) ==
	    1)
		snprintf(err, errlen, "%s: no such file", list);
	if (rc != 0)
		return NULL;
	line = buf;
	for (i = 0; i < index && line != NULL; i++)
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	if (line != NULL && (next = strchr(line, '\n')) != NULL)
		*next = '\0';
	if (line == NULL || *line == '\0')
		snprintf(err, errlen, "%s: no entry %ld", list, index);
	else if ((entry = strdup(line)) == NULL)
		snprintf(err, errlen, "%s: out of memory", list);
	free(buf);
	return entry;
}

/* The line of a job list that names entry, or -1. */
long
jobfile_list_index(const char *list, const char *entry, char *err,
    size_t errlen)
{
	char	*buf, *line, *next;
	size_t	 len, n = strlen(entry);
	long	 i, found = -1;

	if (file_slurp(list, JOBFILE_MAX, &buf, &len, err, errlen) != 0)
		return -1;
	for (i = 0, line = buf; line != NULL && found == -1; i++) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		if (strncmp(line, entry, n) == 0 && (line[n] == '\n' ||
		    line[n] == '\0'))
			found = i;
		line = next;
	}
	free(buf);
	return found;
}
