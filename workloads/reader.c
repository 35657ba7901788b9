/*
 * reader.c: metric points from logs that are not MLLOG, read with a line
 * pattern (POSIX extended regular expression) whose groups hold the
 * metric's value and, optionally, its epoch or step.
 */
#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "workload_int.h"

struct workload_reader {
	regex_t		 re;
	int		 compiled;
	regex_t		 start_re;	/* run_start's pattern */
	int		 start_compiled;
	char		*pattern;	/* the patterns, as the spec has them */
	char		*start_pattern;
	int		 value_group;
	int		 epoch_group;	/* 0: none */
	double		 scale;
	char		 key[64];
};

static const char *const reader_keys[] = { "pattern", "value", "epoch",
	"scale", "key", "run_start", NULL };

/* Free a reader. */
void
workload_reader_free(struct workload_reader *r)
{
	if (r == NULL)
		return;
	if (r->compiled)
		regfree(&r->re);
	if (r->start_compiled)
		regfree(&r->start_re);
	free(r->pattern);
	free(r->start_pattern);
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
	if (j == NULL && (size_t)def > groups) {
		snprintf(err, errlen, "%s: metric_reader.pattern: it has no "
		    "group, (...), for the metric's value (metric_reader.%s, "
		    "%d by default)", w->path, key, def);
		return -1;
	}
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

/*
 * The most nodes a pattern may compile to.  The C library expands a
 * repetition by copying what it repeats ('+' once, "{n,m}" m times), so a
 * repetition of a repetition ("++", "(x{99}){99}") multiplies: 44 '+' in
 * a row asked for gigabytes (found by fuzz_workload).  A line pattern
 * needs some tens.
 */
#define READER_MAX_NODES	10000
/* POSIX's least RE_DUP_MAX: a larger count is not portable anyway. */
#define READER_MAX_DUP		255

/* Skip a bracket expression from its '['; the index past its ']'. */
static size_t
reader_bracket(const char *p, size_t i)
{
	i++;
	if (p[i] == '^')
		i++;
	if (p[i] == ']')
		i++;
	while (p[i] != '\0' && p[i] != ']') {
		if (p[i] == '[' && (p[i + 1] == ':' || p[i + 1] == '.' ||
		    p[i + 1] == '=')) {
			char	 end = p[i + 1];

			for (i += 2; p[i] != '\0' && !(p[i] == end &&
			    p[i + 1] == ']'); i++)
				;
			if (p[i] != '\0')
				i += 2;
			continue;
		}
		i++;
	}
	return p[i] == ']' ? i + 1 : i;
}

/*
 * The count of an interval "{n}", "{n,}" or "{n,m}" at p[i] (its largest,
 * n + 1 when open), with *next past it; 0 when p[i] starts none.
 */
static double
reader_interval(const char *p, size_t i, size_t *next)
{
	char	*end;
	double	 n, m;

	if (p[i] != '{' || p[i + 1] < '0' || p[i + 1] > '9')
		return 0;
	n = m = strtod(p + i + 1, &end);
	if (*end == ',') {
		m = end[1] == '}' ? n + 1 : strtod(end + 1, &end);
		if (end[0] == ',')
			end++;
	}
	if (*end != '}')
		return 0;
	*next = (size_t)(end + 1 - p);
	return fmax(n, m);
}

/*
 * 0 if pattern p (of metric_reader.key) compiles to at most
 * READER_MAX_NODES nodes by the C library's expansion of repetitions,
 * each at most READER_MAX_DUP; else -1 with err naming the key.
 */
static int
reader_size(const struct workload *w, const char *key, const char *p,
    char *err, size_t errlen)
{
	double	 sum[32] = { 0 }, last = 0, add, k;
	size_t	 i = 0, next, d = 0;

	while (p[i] != '\0') {
		next = i + 1;
		switch (p[i]) {
		case '\\':
			if (p[i + 1] != '\0')
				next = i + 2;
			last = add = 1;
			break;
		case '[':
			next = reader_bracket(p, i);
			last = add = 1;
			break;
		case '(':
			if (++d == sizeof(sum) / sizeof(sum[0]))
				goto complex;
			sum[d] = last = add = 0;
			break;
		case ')':
			last = fmax(sum[d], 1);
			if (d > 0)
				d--;
			add = last;
			break;
		case '|':
			last = 0;
			add = 1;
			break;
		case '*':
		case '?':
			add = 1;
			last += 1;
			break;
		case '+':
			add = last + 1;
			last = 2 * last + 1;
			break;
		case '{':
			if ((k = reader_interval(p, i, &next)) > READER_MAX_DUP) {
				snprintf(err, errlen, "%s: metric_reader.%s: a "
				    "repetition of more than %d", w->path, key,
				    READER_MAX_DUP);
				return -1;
			}
			if (next > i + 1) {
				k = fmax(k, 1);
				add = last * (k - 1) + 1;
				last = last * k + 1;
				break;
			}
			last = add = 1;
			break;
		default:
			last = add = 1;
			break;
		}
		sum[d] += add;
		if (sum[d] > READER_MAX_NODES || last > READER_MAX_NODES)
			goto complex;
		i = next;
	}
	return 0;
complex:
	snprintf(err, errlen, "%s: metric_reader.%s: too complex: its "
	    "repetitions expand it to more than %d nodes (a repetition of a "
	    "repetition, as \"++\" or \"(x{99}){99}\", multiplies)", w->path,
	    key, READER_MAX_NODES);
	return -1;
}

/*
 * Compile the pattern of metric_reader.run_start (j, NULL for none): a
 * line it matches is the run_start event, where a time to train counts
 * from.
 */
static int
reader_start_parse(const struct workload *w, struct workload_reader *r,
    const cJSON *j, char *err, size_t errlen)
{
	char	 msg[256];
	int	 rc;

	if (j == NULL)
		return 0;
	if (!cJSON_IsString(j) || *j->valuestring == '\0') {
		snprintf(err, errlen, "%s: metric_reader.run_start: expected a "
		    "regular expression", w->path);
		return -1;
	}
	if (reader_size(w, "run_start", j->valuestring, err, errlen) == -1)
		return -1;
	if ((rc = regcomp(&r->start_re, j->valuestring, REG_EXTENDED |
	    REG_NOSUB)) != 0) {
		regerror(rc, &r->start_re, msg, sizeof(msg));
		snprintf(err, errlen, "%s: metric_reader.run_start: %s",
		    w->path, msg);
		return -1;
	}
	r->start_compiled = 1;
	if ((r->start_pattern = strdup(j->valuestring)) == NULL)
		return workload_oom(w, err, errlen);
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
	if (reader_size(w, "pattern", p->valuestring, err, errlen) == -1)
		return NULL;
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
	if ((r->pattern = strdup(p->valuestring)) == NULL) {
		workload_oom(w, err, errlen);
		goto fail;
	}
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
	if (reader_start_parse(w, r, cJSON_GetObjectItemCaseSensitive(o,
	    "run_start"), err, errlen) == -1)
		goto fail;
	return r;
fail:
	workload_reader_free(r);
	return NULL;
}

/*
 * Whether s is a decimal number as trainers print one: a sign, digits
 * with a point or not (".5" as bc(1) writes it), an exponent.  Not a
 * hexadecimal one, which strtod() would take: "0x10" in a log is no
 * loss of 16.
 */
static int
reader_decimal(const char *s)
{
	size_t	 i = 0, digits = 0;

	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			digits++;
	if (digits == 0)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		if (s[i] == '+' || s[i] == '-')
			i++;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		while (isdigit((unsigned char)s[i]))
			i++;
	}
	return s[i] == '\0';
}

/* Whether s is a word for a float that is not finite ("nan", "-inf"). */
static int
reader_nonfinite(const char *s)
{
	static const char *const words[] = { "nan", "inf", "infinity",
		NULL };
	size_t	 i;

	if (*s == '+' || *s == '-')
		s++;
	for (i = 0; words[i] != NULL; i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	return 0;
}

/*
 * The number filling a whole capture group, blanks around it (a "\r" of
 * a CRLF line) left out, into *v: 0, or -1 with text holding what the
 * group held (cut to fit) when it is no number.  A NaN, an infinity or
 * a number too large for a double is read as not finite: the caller
 * decides what that is.
 */
static int
reader_number(const char *s, const regmatch_t *m, double *v, char *text,
    size_t textlen)
{
	char	 buf[64];
	size_t	 a, b, i;

	snprintf(text, textlen, "%s", "");
	if (m->rm_so < 0)
		return -1;
	for (a = m->rm_so, b = m->rm_eo; a < b &&
	    isspace((unsigned char)s[a]); a++)
		;
	while (b > a && isspace((unsigned char)s[b - 1]))
		b--;
	snprintf(text, textlen, "%.*s", (int)(b - a), s + a);
	/* It is quoted in a message: no control bytes of the trainer's. */
	for (i = 0; text[i] != '\0'; i++)
		if (iscntrl((unsigned char)text[i]))
			text[i] = '?';
	if (b - a >= sizeof(buf))
		return -1;
	memcpy(buf, s + a, b - a);
	buf[b - a] = '\0';
	if (!reader_decimal(buf) && !reader_nonfinite(buf))
		return -1;
	*v = strtod(buf, NULL);
	return 0;
}

/* The spec's reader, for those who show it; 0 for MLLOG. */
int
workload_reader_info(const struct workload *w,
    struct workload_reader_info *info)
{
	const struct workload_reader *r = w->reader;

	memset(info, 0, sizeof(*info));
	if (r == NULL)
		return 0;
	info->pattern = r->pattern;
	info->value = r->value_group;
	info->epoch = r->epoch_group;
	info->scale = r->scale;
	info->key = r->key;
	info->run_start = r->start_pattern;
	return 1;
}

/* Read one line with the spec's reader, or as MLLOG. */
int
workload_read_line(const struct workload *w, const char *line, size_t len,
    struct mllog_event *ev, char *err, size_t errlen)
{
	const struct workload_reader *r = w->reader;
	regmatch_t	 m[10];
	char		*s, text[40];
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
	if (strlen(s) == len && r->start_compiled &&
	    regexec(&r->start_re, s, 0, NULL, 0) == 0) {
		/* As mlperf_logging logs it: the key, no value. */
		snprintf(ev->key, sizeof(ev->key), "run_start");
		snprintf(ev->event_type, sizeof(ev->event_type),
		    "INTERVAL_START");
		rc = 0;
	} else if (strlen(s) == len &&
	    regexec(&r->re, s, r->re.re_nsub + 1, m, 0) == 0) {
		rc = 0;
		snprintf(ev->key, sizeof(ev->key), "%s", r->key);
		snprintf(ev->event_type, sizeof(ev->event_type),
		    "POINT_IN_TIME");
		if (reader_number(s, &m[r->value_group], &ev->num, text,
		    sizeof(text)) == -1) {
			snprintf(err, errlen, "%s: '%s' is not a number", r->key,
			    text);
			rc = -1;
		} else {
			ev->has_num = 1;
			ev->num *= r->scale;
		}
		if (rc == 0 && r->epoch_group != 0 &&
		    m[r->epoch_group].rm_so >= 0) {
			if (reader_number(s, &m[r->epoch_group], &ev->epoch,
			    text, sizeof(text)) == -1 ||
			    !mllog_step_ok(ev->epoch)) {
				snprintf(err, errlen, "the epoch of %s is not a "
				    "number >= 0 ('%s')", r->key, text);
				rc = -1;
			} else
				ev->has_epoch = 1;
		}
	}
	free(s);
	return rc;
}
