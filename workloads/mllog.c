/*
 * mllog.c: parse one line of MLCommons mlperf_logging output (see mllog.h).
 * Lines come straight from a workload's output, so nothing about them is
 * trusted: they need not be NUL-terminated and may hold any bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mllog.h"

#define MLLOG_TAG	":::MLLOG"

/* Copy the string item j, if it is one, into buf. */
static void
mllog_copy(const cJSON *j, char *buf, size_t size)
{
	if (cJSON_IsString(j) && j->valuestring != NULL)
		snprintf(buf, size, "%s", j->valuestring);
}

/* Fill ev from the parsed object o; -1 with err if it is not an event. */
static int
mllog_decode(const cJSON *o, struct mllog_event *ev, char *err,
    size_t errlen)
{
	const cJSON *j, *md;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "'%s' is not followed by an object",
		    MLLOG_TAG);
		return -1;
	}
	j = cJSON_GetObjectItemCaseSensitive(o, "key");
	if (!cJSON_IsString(j) || j->valuestring == NULL) {
		snprintf(err, errlen, "%s event without a string 'key'",
		    MLLOG_TAG);
		return -1;
	}
	mllog_copy(j, ev->key, sizeof(ev->key));
	mllog_copy(cJSON_GetObjectItemCaseSensitive(o, "event_type"),
	    ev->event_type, sizeof(ev->event_type));
	j = cJSON_GetObjectItemCaseSensitive(o, "time_ms");
	if (cJSON_IsNumber(j))
		ev->time_ms = j->valuedouble;

	j = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (cJSON_IsNumber(j)) {
		ev->has_num = 1;
		ev->num = j->valuedouble;
	} else if (cJSON_IsBool(j)) {
		ev->has_num = 1;
		ev->num = cJSON_IsTrue(j) ? 1 : 0;
	} else
		mllog_copy(j, ev->str, sizeof(ev->str));
	if ((cJSON_IsBool(j) || cJSON_IsArray(j) || cJSON_IsObject(j)) &&
	    !cJSON_PrintPreallocated((cJSON *)j, ev->value_json,
	    sizeof(ev->value_json), 0))
		ev->value_json[0] = '\0';

	md = cJSON_GetObjectItemCaseSensitive(o, "metadata");
	if (cJSON_IsObject(md)) {
		j = cJSON_GetObjectItemCaseSensitive(md, "epoch_num");
		if (cJSON_IsNumber(j)) {
			ev->has_epoch = 1;
			ev->epoch = j->valuedouble;
		}
		mllog_copy(cJSON_GetObjectItemCaseSensitive(md, "status"),
		    ev->status, sizeof(ev->status));
	}
	return 0;
}

/* Parse one line of len bytes into ev. */
int
mllog_parse_line(const char *line, size_t len, struct mllog_event *ev,
    char *err, size_t errlen)
{
	const char *tag;
	char *text;
	size_t n;
	cJSON *o;
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (line == NULL ||
	    (tag = memmem(line, len, MLLOG_TAG, strlen(MLLOG_TAG))) == NULL)
		return 1;
	tag += strlen(MLLOG_TAG);
	n = len - (size_t)(tag - line);
	/* cJSON gets its own terminated copy: the line may not be one. */
	if ((text = malloc(n + 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(text, tag, n);
	text[n] = '\0';
	o = cJSON_ParseWithLength(text, n);
	free(text);
	if (o == NULL) {
		snprintf(err, errlen, "bad JSON after '%s'", MLLOG_TAG);
		return -1;
	}
	rc = mllog_decode(o, ev, err, errlen);
	cJSON_Delete(o);
	if (rc == -1)
		memset(ev, 0, sizeof(*ev));
	return rc;
}
