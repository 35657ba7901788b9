/*
 * reader.c: metric points from logs that are not MLLOG, read with a line
 * pattern (POSIX extended regular expression) whose groups hold the
 * metric's value and, optionally, its epoch or step.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"

struct workload_reader {
	regex_t		 re;
	int		 compiled;
	int		 value_group;
	int		 epoch_group;	/* 0: none */
	double		 scale;
	char		 key[64];
};

static const char *const reader_keys[] = { "pattern", "value", "epoch",
	"scale", "key", NULL };

/* Free a reader. */
void
workload_reader_free(struct workload_reader *r)
{
	if (r == NULL)
		return;
	if (r->compiled)
		regfree(&r->re);
	free(r);
}

/* The metric a reader's points are recorded as. */
const char *
workload_reader_key(const struct workload_reader *r)
{
	return r->key;
}

/* Read a capture group number (0 < n <= groups, or 0 when optional). */
static int
reader_group(const struct workload *w, const cJSON *o, const char *key,
    int def, int min, size_t groups, int *out, char *err, size_t errlen)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = def;
	if (j == NULL)
		return 0;
	if (!cJSON_IsNumber(j) || j->valuedouble != floor(j->valuedouble) ||
	    j->valuedouble < min || j->valuedouble > (double)groups) {
		snprintf(err, errlen, "%s: metric_reader.%s: expected a group "
		    "number from %d to %zu (the pattern has %zu groups)",
		    w->path, key, min, groups, groups);
		return -1;
	}
	*out = (int)j->valuedouble;
	return 0;
}

/* Parse a metric_reader object. */
struct workload_reader *
workload_reader_parse(const struct workload *w, const cJSON *o, char *err,
    size_t errlen)
{
	struct workload_reader	*r;
	const cJSON		*p, *k, *s;
	char			 msg[256];
	int			 rc;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: metric_reader: expected \"mllog\" or "
		    "an object with a pattern", w->path);
		return NULL;
	}
	if (workload_keys_only(w, o, "metric_reader.", reader_keys, 1, err,
	    errlen) == -1)
		return NULL;
	p = cJSON_GetObjectItemCaseSensitive(o, "pattern");
	if (!cJSON_IsString(p) || *p->valuestring == '\0') {
		snprintf(err, errlen, "%s: metric_reader.pattern: expected a "
		    "regular expression", w->path);
		return NULL;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		workload_oom(w, err, errlen);
		return NULL;
	}
	if ((rc = regcomp(&r->re, p->valuestring, REG_EXTENDED)) != 0) {
		regerror(rc, &r->re, msg, sizeof(msg));
		snprintf(err, errlen, "%s: metric_reader.pattern: %s", w->path,
		    msg);
		free(r);
		return NULL;
	}
	r->compiled = 1;
	if (r->re.re_nsub > 9) {
		snprintf(err, errlen, "%s: metric_reader.pattern: at most 9 "
		    "groups", w->path);
		goto fail;
	}
	k = cJSON_GetObjectItemCaseSensitive(o, "key");
	s = cJSON_GetObjectItemCaseSensitive(o, "scale");
	if (reader_group(w, o, "value", 1, 1, r->re.re_nsub, &r->value_group,
	    err, errlen) == -1 || reader_group(w, o, "epoch", 0, 0,
	    r->re.re_nsub, &r->epoch_group, err, errlen) == -1)
		goto fail;
	if (r->epoch_group != 0 && r->epoch_group == r->value_group) {
		snprintf(err, errlen, "%s: metric_reader.epoch: the same group "
		    "as the value", w->path);
		goto fail;
	}
	if (s != NULL && (!cJSON_IsNumber(s) || !isfinite(s->valuedouble) ||
	    s->valuedouble == 0)) {
		snprintf(err, errlen, "%s: metric_reader.scale: expected a "
		    "non-zero number", w->path);
		goto fail;
	}
	r->scale = s ? s->valuedouble : 1;
	if (k != NULL && (!cJSON_IsString(k) || *k->valuestring == '\0' ||
	    strlen(k->valuestring) >= sizeof(r->key))) {
		snprintf(err, errlen, "%s: metric_reader.key: expected a metric "
		    "name", w->path);
		goto fail;
	}
	if (k == NULL && w->metric == NULL) {
		snprintf(err, errlen, "%s: metric_reader.key: required when "
		    "the spec has no objective.metric", w->path);
		goto fail;
	}
	snprintf(r->key, sizeof(r->key), "%s", k ? k->valuestring : w->metric);
	return r;
fail:
	workload_reader_free(r);
	return NULL;
}

/* A number filling a whole capture group; -1 if there is none. */
static int
reader_number(const char *s, const regmatch_t *m, double *v)
{
	char	 buf[64], *end;
	size_t	 n;

	if (m->rm_so < 0 || (n = m->rm_eo - m->rm_so) == 0 ||
	    n >= sizeof(buf))
		return -1;
	memcpy(buf, s + m->rm_so, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	return *end == '\0' && isfinite(*v) ? 0 : -1;
}

/* Read one line with the spec's reader, or as MLLOG. */
int
workload_read_line(const struct workload *w, const char *line, size_t len,
    struct mllog_event *ev, char *err, size_t errlen)
{
	const struct workload_reader *r = w->reader;
	regmatch_t	 m[10];
	char		*s;
	int		 rc = 1;

	if (r == NULL)
		return mllog_parse_line(line, len, ev, err, errlen);
	if ((s = malloc(len + 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		memset(ev, 0, sizeof(*ev));
		ev->nomem = 1;
		return -1;
	}
	memcpy(s, line, len);
	s[len] = '\0';
	memset(ev, 0, sizeof(*ev));
	if (strlen(s) == len &&
	    regexec(&r->re, s, r->re.re_nsub + 1, m, 0) == 0) {
		rc = 0;
		snprintf(ev->key, sizeof(ev->key), "%s", r->key);
		snprintf(ev->event_type, sizeof(ev->event_type),
		    "POINT_IN_TIME");
		if (reader_number(s, &m[r->value_group], &ev->num) == -1) {
			snprintf(err, errlen, "%s is not a number", r->key);
			rc = -1;
		} else {
			ev->has_num = 1;
			ev->num *= r->scale;
		}
		if (rc == 0 && r->epoch_group != 0 &&
		    m[r->epoch_group].rm_so >= 0) {
			if (reader_number(s, &m[r->epoch_group],
			    &ev->epoch) == -1 || !mllog_step_ok(ev->epoch)) {
				snprintf(err, errlen, "the epoch of %s is not a "
				    "number >= 0", r->key);
				rc = -1;
			} else
				ev->has_epoch = 1;
		}
	}
	free(s);
	return rc;
}
