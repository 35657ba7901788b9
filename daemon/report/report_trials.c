/*
 * report_trials.c: the trial list (`hpoctl trials`) as text, CSV (or
 * squeue-like parsable text) and JSON, filtered by state; and its options
 * as a request carries them (--state LIST -h --parsable --fields LIST),
 * checked and handed to the renderer.  The --fields columns are
 * trials_fields.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "report_alloc.h"
#include "report_int.h"
#include "space.h"
#include "state.h"
#include "trials_opts.h"

/* A CSV field, or as it is for --parsable (its fields hold no '|'). */
static void
report_field(FILE *f, const char *s, int raw)
{
	if (raw)
		fputs(s, f);
	else
		report_csv_text(f, s);
}

/* The text form of a parameter value: short, or exact (precise). */
static void
report_param_text(const cJSON *v, int precise, char *buf, size_t len)
{
	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, precise ? "%.17g" : "%.6g", v->valuedouble);
	else
		snprintf(buf, len, "-");
}

/*
 * The last attempt of trial id (number num) among a campaign's attempts,
 * or NULL.  They are in the order of their trials' numbers
 * (ledger_attempt_list()): a binary search finds the trial's first.
 */
static const struct ledger_attempt *
report_last_attempt(const struct ledger_attempt *a, size_t n, int64_t id,
    int num)
{
	const struct ledger_attempt	*last = NULL;
	size_t				 i, lo = 0, hi = n;

	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if (a[i].trial_number < num)
			lo = i + 1;
		else
			hi = i;
	}
	for (i = lo; i < n && a[i].trial_number == num; i++)
		if (a[i].trial_id == id && (last == NULL ||
		    a[i].number > last->number))
			last = &a[i];
	return last;
}

/* 1 if state is one of the comma-separated list (NULL: all). */
static int
report_state_in(const char *state, const char *list)
{
	size_t	 n = strlen(state);
	const char *p;

	if (list == NULL)
		return 1;
	for (p = list; p != NULL; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (strncmp(p, state, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The trial list. */
int
report_trials(struct ledger *l, const char *name, enum report_format fmt,
    char **out, char *err, size_t errlen)
{
	return report_trials_opts(l, name, fmt, NULL, out, err, errlen);
}

/*
 * A trial's state as the text table shows it: a pending trial with why
 * its job waits, as its scheduler said ("pending (Resources)").
 */
static void
report_trial_state(const struct ledger_trial *t, const char *pending,
    char *buf, size_t len)
{
	if (strcmp(t->state, "pending") == 0 && *pending != '\0')
		snprintf(buf, len, "%s (%s)", t->state, pending);
	else
		snprintf(buf, len, "%s", t->state);
}

/* The header line of `trials` in CSV (parsable: '|') or text. */
static void
report_trials_header(FILE *f, enum report_format fmt, int parsable,
    const cJSON *names, const char *metric, int swidth)
{
	const cJSON	*v;
	char		 sep = parsable ? '|' : ',';

	if (fmt == REPORT_CSV) {
		fprintf(f, "trial%cstate%crole%cattempts%cseed%cbest%cbest_step"
		    "%creached%cjob_id%chost%cdir%cpending_reason", sep, sep, sep,
		    sep, sep, sep, sep, sep, sep, sep, sep);
		cJSON_ArrayForEach(v, names)
			fprintf(f, "%c%s", sep, v->string);
		fprintf(f, "\n");
	} else
		fprintf(f, "%5s  %-*s  %-8s  %3s  %12s  %5s  %-10s  %-12s  "
		    "%s\n", "TRIAL", swidth, "STATE", "ROLE", "ATT", metric,
		    "HIT", "JOBID", "HOST", "PARAMETERS");
}

/*
 * One trial of `trials` as a JSON object added to root; where[] is its
 * last attempt's job id, host, directory, reason (how it ended, such as
 * the stopper's words for one pruned) and pending reason (why its job
 * waits, "" for none known), p its parsed parameters.  -1 if memory ran
 * out.
 */
static int
report_trial_json(cJSON *root, const struct ledger_trial *t,
    const char *const where[5], const cJSON *p)
{
	cJSON	*o = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(o, "trial", t->number) == NULL ||
	    cJSON_AddStringToObject(o, "state", t->state) == NULL ||
	    cJSON_AddStringToObject(o, "role", t->role) == NULL ||
	    cJSON_AddNumberToObject(o, "attempts", t->attempts) == NULL ||
	    cJSON_AddNumberToObject(o, "seed", (double)t->seed) == NULL ||
	    report_json_number(o, "best", t->has_best, t->best) == -1 ||
	    report_json_number(o, "best_step", t->has_best, t->best_step) ==
	    -1 || cJSON_AddBoolToObject(o, "reached", t->reached) == NULL ||
	    cJSON_AddStringToObject(o, "job_id", where[0]) == NULL ||
	    cJSON_AddStringToObject(o, "host", where[1]) == NULL ||
	    cJSON_AddStringToObject(o, "dir", where[2]) == NULL ||
	    cJSON_AddStringToObject(o, "reason", where[3]) == NULL ||
	    cJSON_AddStringToObject(o, "pending_reason", where[4]) == NULL ||
	    cJSON_AddRawToObject(o, "params", p ? t->params_json : "{}") ==
	    NULL || !cJSON_AddItemToArray(root, o)) {
		cJSON_Delete(o);
		return -1;
	}
	return 0;
}

/* One trial of `trials` as a CSV row (parsable: '|' and no quotes). */
static void
report_trial_csv(FILE *f, const struct ledger_trial *t,
    const char *const where[5], const cJSON *p, const cJSON *names,
    int parsable)
{
	const cJSON	*v;
	char		 val[64], sep = parsable ? '|' : ',';

	fprintf(f, "%d%c%s%c%s%c%d%c%lld%c", t->number, sep, t->state, sep,
	    t->role, sep, t->attempts, sep, (long long)t->seed, sep);
	if (t->has_best)
		fprintf(f, "%.17g%c%g", t->best, sep, t->best_step);
	else
		fputc(sep, f);
	fprintf(f, "%c%d%c", sep, t->reached, sep);
	report_field(f, where[0], parsable);
	fputc(sep, f);
	report_field(f, where[1], parsable);
	fputc(sep, f);
	report_field(f, where[2], parsable);
	fputc(sep, f);
	report_field(f, where[4], parsable);
	cJSON_ArrayForEach(v, names) {
		report_param_text(cJSON_GetObjectItemCaseSensitive(p,
		    v->string), 1, val, sizeof(val));
		fputc(sep, f);
		report_field(f, val, parsable);
	}
	fprintf(f, "\n");
}

/* One trial of `trials` as a line of the text table. */
static void
report_trial_text(FILE *f, const struct ledger_trial *t,
    const char *const where[5], const cJSON *p, int swidth)
{
	const cJSON	*v;
	char		 val[64], state[96];

	if (t->has_best)
		snprintf(val, sizeof(val), "%.6g", t->best);
	else
		snprintf(val, sizeof(val), "-");
	report_trial_state(t, where[4], state, sizeof(state));
	fprintf(f, "%5d  %-*s  %-8s  %3d  %12s  %5s  %-10s  %-12s ",
	    t->number, swidth, state, t->role, t->attempts, val,
	    t->reached ? "yes" : "no", *where[0] ? where[0] : "-",
	    *where[1] ? where[1] : "-");
	cJSON_ArrayForEach(v, p) {
		report_param_text(v, 0, val, sizeof(val));
		fprintf(f, " %s=%s", v->string, val);
	}
	fprintf(f, "\n");
}

/*
 * Where trial t's last attempt (of a[na]) ran, as the ledger has it:
 * job id, host, directory, reason and pending reason ("" for none).
 */
static void
report_trial_where(const struct ledger_trial *t,
    const struct ledger_attempt *a, size_t na, const char *where[5])
{
	const struct ledger_attempt *la;

	la = report_last_attempt(a, na, t->id, t->number);
	where[0] = la != NULL && la->job_id != NULL ? la->job_id : "";
	where[1] = la != NULL && la->host != NULL ? la->host : "";
	where[2] = la != NULL && la->dir != NULL ? la->dir : "";
	where[3] = la != NULL && la->reason != NULL ? la->reason : "";
	where[4] = la != NULL && la->pending_reason != NULL ?
	    la->pending_reason : "";
}

/* The width of the text table's STATE column: its longest state. */
static int
report_trials_swidth(const struct trials_opts *to,
    const struct ledger_trial *t, size_t n, const struct ledger_attempt *a,
    size_t na)
{
	const char	*where[5];
	char		 state[96];
	size_t		 i;
	int		 w = 9;

	for (i = 0; i < n; i++) {
		if (!report_state_in(t[i].state, to->states))
			continue;
		report_trial_where(&t[i], a, na, where);
		report_trial_state(&t[i], where[4], state, sizeof(state));
		if ((int)strlen(state) > w)
			w = (int)strlen(state);
	}
	return w;
}

/*
 * The trials t[n] in the states to asks for, each with its last attempt
 * (of a[na]): into JSON array root if not NULL, else onto f in fmt (text:
 * its STATE column swidth wide).  -1 if memory ran out.
 */
static int
report_trials_rows(FILE *f, cJSON *root, enum report_format fmt,
    const struct trials_opts *to, const struct ledger_trial *t, size_t n,
    const struct ledger_attempt *a, size_t na, const cJSON *names,
    int swidth)
{
	const char	*where[5];
	cJSON		*p;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (!report_state_in(t[i].state, to->states))
			continue;
		report_trial_where(&t[i], a, na, where);
		p = cJSON_Parse(t[i].params_json);
		if (root != NULL) {
			if (report_trial_json(root, &t[i], where, p) == -1) {
				cJSON_Delete(p);
				return -1;
			}
		} else if (fmt == REPORT_CSV)
			report_trial_csv(f, &t[i], where, p, names,
			    to->parsable);
		else
			report_trial_text(f, &t[i], where, p, swidth);
		cJSON_Delete(p);
	}
	return 0;
}

/* The trial list, filtered and shaped as to says (NULL: defaults). */
int
report_trials_opts(struct ledger *l, const char *name,
    enum report_format fmt, const struct trials_opts *to, char **out,
    char *err, size_t errlen)
{
	static const struct trials_opts defaults = { NULL, 0, 0, NULL };
	enum report_format	 ffmt;
	struct ledger_campaign	 c;
	struct ledger_trial	*t = NULL;
	struct ledger_attempt	*a = NULL;
	cJSON			*root = NULL, *names = NULL;
	char			*buf = NULL;
	size_t			 n = 0, na = 0, len;
	FILE			*f = NULL;
	int			 rc, swidth;

	if (to == NULL)
		to = &defaults;
	if (to->parsable && fmt != REPORT_TEXT) {
		snprintf(err, errlen, "--parsable is a text form: not with "
		    "--format");
		return -2;
	}
	if (to->parsable)
		fmt = REPORT_CSV;	/* with '|' for ',' and no quotes */
	ffmt = fmt;
	if (to->fields != NULL)
		fmt = REPORT_JSON;	/* the columns are chosen from it */
	memset(&c, 0, sizeof(c));
	if ((rc = report_find(l, name, &c, err, errlen)) != 0)
		return rc;
	if (ledger_trial_list(l, c.id, &t, &n) == -1 ||
	    ledger_attempt_list(l, c.id, 0, &a, &na) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		ledger_trial_list_free(t, n);
		ledger_campaign_release(&c);
		return -1;
	}
	*out = NULL;
	rc = -1;
	if (fmt == REPORT_JSON)
		root = cJSON_CreateArray();
	else
		f = report_memstream(&buf, &len);
	/* Column names come from the first trial's parameters. */
	if (n > 0)
		names = cJSON_Parse(t[0].params_json);
	swidth = report_trials_swidth(to, t, n, a, na);
	if (root != NULL || f != NULL) {
		if (f != NULL && !to->noheader)
			report_trials_header(f, fmt, to->parsable, names,
			    c.metric, swidth);
		rc = report_trials_rows(f, root, fmt, to, t, n, a, na, names,
		    swidth);
	}
	cJSON_Delete(names);
	if (f != NULL && report_memstream_close(f, &buf) == 0 && rc == 0)
		*out = buf;
	else if (f != NULL)
		free(buf);
	else if (rc == 0 && to->fields != NULL) {
		rc = trials_fields_render(root, to->fields, ffmt, to->noheader,
		    to->parsable, out, err, errlen);
	} else if (rc == 0) {
		*out = report_json_text(root);
		root = NULL;
	}
	cJSON_Delete(root);
	if (rc == 0 && *out == NULL)
		rc = -1;
	if (rc == -1 && *out == NULL)
		snprintf(err, errlen, "trials for campaign '%s': out of memory",
		    c.name);
	ledger_attempt_list_free(a, na);
	ledger_trial_list_free(t, n);
	ledger_campaign_release(&c);
	return rc;
}

/* 0 if every comma-separated entry of list is a trial state. */
int
trials_states_check(const char *list, char *err, size_t errlen)
{
	const char	*p, *end;
	size_t		 n;
	int		 i;

	for (p = list; ; p = end + 1) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < TRIAL_NSTATES; i++)
			if (strlen(trial_state_name(i)) == n &&
			    strncmp(trial_state_name(i), p, n) == 0)
				break;
		if (i == TRIAL_NSTATES) {
			snprintf(err, errlen, "--state: unknown trial state "
			    "'%.*s' (expected pending, running, completed, "
			    "failed, pruned or cancelled, comma-separated)",
			    (int)n, p);
			return -1;
		}
		if (end == NULL)
			return 0;
	}
}

int
trials_request(struct ledger *l, const char *campaign,
    enum report_format fmt, const cJSON *req, char **out, char *err,
    size_t errlen)
{
	const cJSON		*st = cJSON_GetObjectItem(req, "state");
	const cJSON		*nh = cJSON_GetObjectItem(req, "noheader");
	const cJSON		*pa = cJSON_GetObjectItem(req, "parsable");
	const cJSON		*fi = cJSON_GetObjectItem(req, "fields");
	struct trials_opts	 o;

	memset(&o, 0, sizeof(o));
	if (report_format_check("trials", fmt, err, errlen) == -2)
		return -2;
	if ((st != NULL && !cJSON_IsString(st)) ||
	    (fi != NULL && !cJSON_IsString(fi))) {
		snprintf(err, errlen, "request.state, request.fields: "
		    "expected a string");
		return -2;
	}
	if ((nh != NULL && !cJSON_IsBool(nh)) ||
	    (pa != NULL && !cJSON_IsBool(pa))) {
		snprintf(err, errlen, "request.noheader, request.parsable: "
		    "expected true or false");
		return -2;
	}
	if (st != NULL && trials_states_check(st->valuestring, err,
	    errlen) == -1)
		return -2;
	o.states = st != NULL ? st->valuestring : NULL;
	o.noheader = cJSON_IsTrue(nh);
	o.parsable = cJSON_IsTrue(pa);
	o.fields = fi != NULL ? fi->valuestring : NULL;
	report_alloc_arm();
	return report_alloc_check("trials", campaign, report_trials_opts(l,
	    campaign, fmt, &o, out, err, errlen), out, err, errlen);
}
