/*
 * metrics.c: the "metrics" a workload's program logs, and the check that
 * an objective names one of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"

/* 1 if name is one of the declared metrics, or none are declared. */
int
workload_metric_known(const struct workload *w, const char *name)
{
	size_t	 i;

	if (w->metrics == NULL)
		return 1;
	for (i = 0; w->metrics[i] != NULL; i++)
		if (strcmp(w->metrics[i], name) == 0)
			return 1;
	return 0;
}

/* The declared metrics as "a, b, c" in buf. */
void
workload_metrics_names(const struct workload *w, char *buf, size_t len)
{
	size_t	 i, at;

	buf[0] = '\0';
	for (i = 0; w->metrics != NULL && w->metrics[i] != NULL; i++) {
		at = strlen(buf);
		snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
		    w->metrics[i]);
	}
}

/* Refuse a metric of the spec itself (at) that is not declared. */
static int
metrics_own(const struct workload *w, const char *at, const char *name,
    char *err, size_t errlen)
{
	char	 names[512];

	if (name == NULL || workload_metric_known(w, name))
		return 0;
	workload_metrics_names(w, names, sizeof(names));
	snprintf(err, errlen, "%s: %s: '%s' is not in metrics (%s)", w->path,
	    at, name, names);
	return -1;
}

/*
 * Parse "metrics" (j may be NULL): an array of distinct non-empty
 * strings.  The objective's metric and the reader's key must be in it.
 */
int
workload_metrics_parse(struct workload *w, const cJSON *j, char *err,
    size_t errlen)
{
	const cJSON	*c;
	size_t		 i = 0;

	if (j == NULL)
		return 0;
	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) == 0) {
		snprintf(err, errlen, "%s: metrics: expected a non-empty array "
		    "of metric names", w->path);
		return -1;
	}
	if ((w->metrics = calloc(cJSON_GetArraySize(j) + 1,
	    sizeof(*w->metrics))) == NULL)
		return workload_oom(w, err, errlen);
	cJSON_ArrayForEach(c, j) {
		if (!cJSON_IsString(c) || !workload_name_ok(c->valuestring)) {
			snprintf(err, errlen, "%s: metrics[%zu]: expected a "
			    "metric name", w->path, i);
			return -1;
		}
		/* The list so far ends at the first NULL. */
		if (i > 0 && workload_metric_known(w, c->valuestring)) {
			snprintf(err, errlen, "%s: metrics[%zu]: '%s' is listed "
			    "twice", w->path, i, c->valuestring);
			return -1;
		}
		if ((w->metrics[i++] = strdup(c->valuestring)) == NULL)
			return workload_oom(w, err, errlen);
	}
	if (metrics_own(w, "objective.metric", w->metric, err, errlen) == -1)
		return -1;
	return metrics_own(w, "metric_reader.key", w->reader != NULL ?
	    workload_reader_key(w->reader) : NULL, err, errlen);
}
