/*
 * mllog.c: parse one line of MLCommons mlperf_logging output (see mllog.h).
 * Lines come straight from a workload's output, so nothing about them is
 * trusted: they need not be NUL-terminated and may hold any bytes.
 *
 * mlperf_logging writes with Python's json module, which writes a float
 * that is not finite as the bare words NaN, Infinity and -Infinity: not
 * JSON, so cJSON refuses them.  Outside strings they are rewritten as the
 * strings "NaN", "Infinity" and "-Infinity" before parsing, and such a
 * string is taken as that number when it is the event's value.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mllog.h"

#define MLLOG_TAG	":::MLLOG"

/* Python's words for the floats that are not finite. */
static const struct {
	const char	*word;
	double		 value;
} mllog_nonfinite[] = {
	{ "-Infinity", -INFINITY },
	{ "Infinity", INFINITY },
	{ "NaN", NAN },
};

#define MLLOG_NNONFINITE \
	(sizeof(mllog_nonfinite) / sizeof(mllog_nonfinite[0]))

/* The index of the word at p (n bytes left) that ends there, or -1. */
static int
mllog_word(const char *p, size_t n)
{
	size_t	 i, k;

	for (i = 0; i < MLLOG_NNONFINITE; i++) {
		k = strlen(mllog_nonfinite[i].word);
		if (n >= k && memcmp(p, mllog_nonfinite[i].word, k) == 0 &&
		    (n == k || !(isalnum((unsigned char)p[k]) || p[k] == '_')))
			return (int)i;
	}
	return -1;
}

/*
 * Copy text (n bytes) into a new NUL-terminated string with each bare
 * NaN, Infinity and -Infinity quoted; *quoted says whether there was one.
 */
static char *
mllog_quote(const char *text, size_t n, size_t *outlen, int *quoted)
{
	char	*out, *o;
	size_t	 i, k;
	int	 in = 0, w;

	*quoted = 0;
	/* Each word grows by 2 quotes; a word is at least 3 bytes. */
	if ((out = malloc(n + 2 * (n / 3) + 1)) == NULL)
		return NULL;
	for (i = 0, o = out; i < n; ) {
		if (in) {
			if (text[i] == '\\' && i + 1 < n)
				*o++ = text[i++];
			else if (text[i] == '"')
				in = 0;
			*o++ = text[i++];
			continue;
		}
		if (text[i] == '"')
			in = 1;
		else if ((w = mllog_word(text + i, n - i)) != -1) {
			k = strlen(mllog_nonfinite[w].word);
			*o++ = '"';
			memcpy(o, text + i, k);
			o += k;
			*o++ = '"';
			i += k;
			*quoted = 1;
			continue;
		}
		*o++ = text[i++];
	}
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}

/* The number a quoted word stands for; 0 if s is not one. */
static int
mllog_nonfinite_value(const char *s, double *v)
{
	size_t	 i;

	for (i = 0; i < MLLOG_NNONFINITE; i++)
		if (strcmp(s, mllog_nonfinite[i].word) == 0) {
			*v = mllog_nonfinite[i].value;
			return 1;
		}
	return 0;
}

/* Copy the string item j, if it is one, into buf. */
static void
mllog_copy(const cJSON *j, char *buf, size_t size)
{
	if (cJSON_IsString(j) && j->valuestring != NULL)
		snprintf(buf, size, "%s", j->valuestring);
}

/* Whether x can be a metric point's step (epoch): finite and >= 0. */
int
mllog_step_ok(double x)
{
	return isfinite(x) && x >= 0;
}

/* Fill ev from the parsed object o; -1 with err if it is not an event. */
static int
mllog_decode(const cJSON *o, int quoted, struct mllog_event *ev, char *err,
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
	if (cJSON_IsNumber(j) && isfinite(j->valuedouble)) {
		ev->has_time = 1;
		ev->time_ms = j->valuedouble;
	}

	j = cJSON_GetObjectItemCaseSensitive(o, "value");
	/* A bool is no number: an eval_accuracy of true would be 1.0. */
	if (cJSON_IsNumber(j)) {
		ev->has_num = 1;
		ev->num = j->valuedouble;
	} else if (quoted && cJSON_IsString(j) &&
	    mllog_nonfinite_value(j->valuestring, &ev->num))
		ev->has_num = 1;
	else
		mllog_copy(j, ev->str, sizeof(ev->str));
	if ((cJSON_IsBool(j) || cJSON_IsArray(j) || cJSON_IsObject(j)) &&
	    !cJSON_PrintPreallocated((cJSON *)j, ev->value_json,
	    sizeof(ev->value_json), 0))
		ev->value_json[0] = '\0';

	md = cJSON_GetObjectItemCaseSensitive(o, "metadata");
	if (cJSON_IsObject(md)) {
		j = cJSON_GetObjectItemCaseSensitive(md, "epoch_num");
		if (cJSON_IsNumber(j)) {
			/* A step before the first, or past every number,
			 * would be the fewest epochs to the target. */
			if (!mllog_step_ok(j->valuedouble)) {
				snprintf(err, errlen, "%s: metadata.epoch_num "
				    "%g is not a step (a number >= 0)",
				    ev->key, j->valuedouble);
				return -1;
			}
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
	int rc, quoted;

	memset(ev, 0, sizeof(*ev));
	if (line == NULL ||
	    (tag = memmem(line, len, MLLOG_TAG, strlen(MLLOG_TAG))) == NULL)
		return 1;
	tag += strlen(MLLOG_TAG);
	n = len - (size_t)(tag - line);
	/* cJSON gets its own terminated copy: the line may not be one. */
	if ((text = mllog_quote(tag, n, &n, &quoted)) == NULL) {
		snprintf(err, errlen, "out of memory");
		ev->nomem = 1;
		return -1;
	}
	o = cJSON_ParseWithLength(text, n);
	free(text);
	if (o == NULL) {
		snprintf(err, errlen, "bad JSON after '%s'", MLLOG_TAG);
		return -1;
	}
	rc = mllog_decode(o, quoted, ev, err, errlen);
	cJSON_Delete(o);
	if (rc == -1)
		memset(ev, 0, sizeof(*ev));
	return rc;
}
