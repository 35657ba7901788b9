/*
 * report.c: rendering of campaign reports and status, and the read
 * commands' table (the trial list is in report_trials.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "account.h"
#include "guide.h"
#include "importance.h"
#include "report.h"
#include "report_alloc.h"
#include "report_int.h"
#include "report_html.h"
#include "report_search.h"
#include "space.h"
#include "trial_cost.h"
#include "trials_opts.h"
#include "watch.h"

/* Parse a format name. */
int
report_format_parse(const char *s, enum report_format *f)
{
	if (strcmp(s, "text") == 0)
		*f = REPORT_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = REPORT_JSON;
	else if (strcmp(s, "csv") == 0)
		*f = REPORT_CSV;
	else if (strcmp(s, "markdown") == 0)
		*f = REPORT_MARKDOWN;
	else if (strcmp(s, "rcp") == 0)
		*f = REPORT_RCP;
	else if (strcmp(s, "html") == 0)
		*f = REPORT_HTML;
	else
		return -1;
	return 0;
}

/* Look a campaign up; 1 with err if there is none. */
int
report_find(struct ledger *l, const char *name, struct ledger_campaign *c,
    char *err, size_t errlen)
{
	int	 rc = ledger_campaign_find(l, name, c);

	if (rc == 1)
		snprintf(err, errlen, "no campaign '%s' in the ledger", name);
	else if (rc == -1)
		snprintf(err, errlen, "%s", ledger_error(l));
	return rc;
}

/* The report as a JSON tree. */
static cJSON *
report_tree(const struct ledger_campaign *c, const struct account *a)
{
	cJSON	*root, *o;
	int	 i;

	root = cJSON_CreateObject();
	o = cJSON_AddObjectToObject(root, "campaign");
	cJSON_AddNumberToObject(o, "id", (double)c->id);
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "workload", c->workload);
	cJSON_AddStringToObject(o, "backend", c->backend);
	cJSON_AddStringToObject(o, "driver", c->driver ? c->driver : "daemon");
	cJSON_AddStringToObject(o, "state", c->state);
	report_json_number(o, "started", 1, c->started);
	report_json_number(o, "ended", c->ended > 0, c->ended);
	report_json_number(o, "wall_s", 1, a->wall_seconds);
	o = cJSON_AddObjectToObject(root, "objective");
	cJSON_AddStringToObject(o, "metric", c->metric);
	cJSON_AddStringToObject(o, "goal", c->maximize ? "max" : "min");
	report_json_number(o, "target", c->has_target, c->target);
	o = cJSON_AddObjectToObject(root, "trials");
	cJSON_AddNumberToObject(o, "total", a->trials_total);
	for (i = 0; i < TRIAL_NSTATES; i++)
		cJSON_AddNumberToObject(o, trial_state_name(i),
		    a->trials[i]);
	cJSON_AddNumberToObject(o, "reached_target", a->reached);
	o = cJSON_AddObjectToObject(root, "priors");
	cJSON_AddNumberToObject(o, "count", a->priors);
	if (a->prior_source != NULL)
		cJSON_AddStringToObject(o, "source", a->prior_source);
	else
		cJSON_AddNullToObject(o, "source");
	cJSON_AddBoolToObject(o, "in_cost", 0);
	o = cJSON_AddObjectToObject(root, "cost");
	report_json_number(o, "node_hours", 1, a->node_seconds / 3600);
	report_json_number(o, "gpu_hours", 1, a->gpu_seconds / 3600);
	report_json_number(o, "cpu_hours", 1, a->cpu_seconds / 3600);
	cJSON_AddNumberToObject(o, "attempts", a->attempts);
	cJSON_AddNumberToObject(o, "retried_attempts", a->attempts_retried);
	report_json_number(o, "elapsed_hours", 1, a->elapsed_seconds / 3600);
	report_json_number(o, "queue_hours", 1, a->queue_seconds / 3600);
	cJSON_AddNumberToObject(o, "pruned_attempts", a->pruned_attempts);
	report_json_number(o, "pruned_node_hours", 1,
	    a->pruned_node_seconds / 3600);
	report_json_number(o, "pruned_gpu_hours", 1,
	    a->pruned_gpu_seconds / 3600);
	report_json_number(o, "pruned_cpu_hours", 1,
	    a->pruned_cpu_seconds / 3600);
	report_json_number(root, "time_to_solution_s", a->has_tts,
	    a->tts_seconds);
	report_json_number(root, "time_to_solution_trial", a->has_tts,
	    a->tts_trial);
	if (!a->has_best) {
		cJSON_AddNullToObject(root, "best");
		return root;
	}
	o = cJSON_AddObjectToObject(root, "best");
	cJSON_AddNumberToObject(o, "trial", a->best_trial);
	cJSON_AddRawToObject(o, "params", a->best_params_json ?
	    a->best_params_json : "{}");
	report_json_number(o, "value", 1, a->best_value);
	cJSON_AddBoolToObject(o, "reached", a->best_reached);
	return root;
}

/* The report as text; NULL if memory ran out. */
static char *
report_text(const struct ledger_campaign *c, const struct account *a,
    const struct guide *g, const struct report_search *rs)
{
	char	*buf, d[64];
	size_t	 len;
	FILE	*f;
	int	 i;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	fprintf(f, "campaign %s (id %lld): workload %s, %s backend, %s\n",
	    c->name, (long long)c->id, c->workload, c->backend, c->state);
	if (rs->held[0] != '\0')
		fprintf(f, "held: %s: this hpod refuses the recorded spec; "
		    "its attempts are followed to their end and billed, no "
		    "trial is started (hpoctl cancel ends it)\n", rs->held);
	fprintf(f, "objective: %s, goal %s", c->metric, c->maximize ? "max" :
	    "min");
	if (c->has_target)
		fprintf(f, ", target %s %g", c->maximize ? ">=" : "<=",
		    c->target);
	fprintf(f, "\ntrials: %d (", a->trials_total);
	for (i = 0; i < TRIAL_NSTATES; i++)
		fprintf(f, "%s%s %d", i ? ", " : "", trial_state_name(i),
		    a->trials[i]);
	fprintf(f, "); %d reached the target\n", a->reached);
	/* What searched and stopped: auto says what it chose and why. */
	if (rs->why[0] != '\0')
		fprintf(f, "search: %s\n", rs->why);
	else
		fprintf(f, "search: %s\n", rs->algorithm);
	if (rs->stop_why[0] != '\0')
		fprintf(f, "stopper: %s\n", rs->stop_why);
	else if (strcmp(rs->stopper, "none") != 0)
		fprintf(f, "stopper: %s\n", rs->stopper);
	if (a->priors > 0)
		fprintf(f, "priors: %d from %s: prior knowledge, not in the "
		    "trials, cost or time to solution of this campaign\n",
		    a->priors, a->prior_source);
	fprintf(f, "cost: %.4f node-hours, %.4f GPU-hours, %.4f CPU-hours "
	    "over %d attempts (%d retried)\n", a->node_seconds / 3600,
	    a->gpu_seconds / 3600, a->cpu_seconds / 3600, a->attempts,
	    a->attempts_retried);
	if (a->pruned_attempts > 0)
		fprintf(f, "pruned: %d attempts stopped early, %.4f node-hours, "
		    "%.4f GPU-hours, %.4f CPU-hours of the cost above\n",
		    a->pruned_attempts, a->pruned_node_seconds / 3600,
		    a->pruned_gpu_seconds / 3600, a->pruned_cpu_seconds / 3600);
	report_duration(d, sizeof(d), a->queue_seconds);
	fprintf(f, "queue wait: %s in all; ", d);
	report_duration(d, sizeof(d), a->wall_seconds);
	fprintf(f, "wall time: %s\n", d);
	if (a->has_tts) {
		report_duration(d, sizeof(d), a->tts_seconds);
		fprintf(f, "time to solution: %s (trial %d)\n", d,
		    a->tts_trial);
	} else
		fprintf(f, "time to solution: not reached\n");
	if (a->has_best)
		fprintf(f, "best: trial %d, %s %g%s, %s\n", a->best_trial,
		    c->metric, a->best_value, a->best_reached ?
		    " (meets the target)" : "", a->best_params_json ?
		    a->best_params_json : "{}");
	else
		fprintf(f, "best: none (no trial reported %s)\n", c->metric);
	guide_report_text(f, g);
	report_memstream_close(f, &buf);
	return buf;
}

/* The report as CSV: a header line and one row; NULL if out of memory. */
static char *
report_csv(const struct ledger_campaign *c, const struct account *a,
    const struct guide *g)
{
	char	*buf;
	size_t	 len;
	FILE	*f;
	int	 i;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	fprintf(f, "campaign_id,campaign,workload,state,metric,goal,target,"
	    "trials");
	for (i = 0; i < TRIAL_NSTATES; i++)
		fprintf(f, ",%s", trial_state_name(i));
	/*
	 * The retried attempts are the outcome columns' retried_attempts
	 * (guide_report_csv_head()): a second column of that name would
	 * make a CSV reader keep one of them or rename it.
	 */
	fprintf(f, ",reached_target,attempts,node_hours,"
	    "gpu_hours,cpu_hours,queue_hours,wall_s,time_to_solution_s,"
	    "best_trial,best_value");
	guide_report_csv_head(f);
	fprintf(f, "\n");
	fprintf(f, "%lld,%s,%s,%s,%s,%s,", (long long)c->id, c->name,
	    c->workload, c->state, c->metric, c->maximize ? "max" : "min");
	if (c->has_target)
		fprintf(f, "%.17g", c->target);
	fprintf(f, ",%d", a->trials_total);
	for (i = 0; i < TRIAL_NSTATES; i++)
		fprintf(f, ",%d", a->trials[i]);
	fprintf(f, ",%d,%d,%.6f,%.6f,%.6f,%.6f,%.3f,", a->reached,
	    a->attempts, a->node_seconds / 3600,
	    a->gpu_seconds / 3600, a->cpu_seconds / 3600,
	    a->queue_seconds / 3600, a->wall_seconds);
	if (a->has_tts)
		fprintf(f, "%.3f", a->tts_seconds);
	fprintf(f, ",");
	if (a->has_best)
		fprintf(f, "%d,%.17g", a->best_trial, a->best_value);
	else
		fprintf(f, ",");
	guide_report_csv_row(f, g);
	fprintf(f, "\n");
	report_memstream_close(f, &buf);
	return buf;
}

/* The campaign report. */
int
report_campaign(struct ledger *l, const char *name, enum report_format fmt,
    char **out, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct guide		 g;
	struct importance	 imp;
	struct report_search	 rs;
	cJSON			*root;
	int			 rc;

	if (fmt == REPORT_MARKDOWN || fmt == REPORT_RCP) {
		snprintf(err, errlen, "the report is in text, json, csv or html; "
		    "markdown and rcp are for the guideline table (--table)");
		return -2;
	}
	memset(&c, 0, sizeof(c));
	if ((rc = report_find(l, name, &c, err, errlen)) != 0)
		return rc;
	/* The guide holds the account, with a scaling campaign's TTS. */
	if (guide_compute(l, &c, report_now(), &g, err, errlen) == -1) {
		ledger_campaign_release(&c);
		return -1;
	}
	report_search_load(l, &c, &rs);
	*out = NULL;
	switch (fmt) {
	case REPORT_JSON:
		root = report_tree(&c, &g.acct);
		if (root != NULL && report_search_json(root, &rs) == -1) {
			cJSON_Delete(root);
			root = NULL;
		}
		guide_report_json(root, &g);
		if (importance_compute(&g, &imp) == 0) {
			importance_json(root, &imp);
			importance_release(&imp);
		} else {
			cJSON_Delete(root);
			root = NULL;
		}
		if (root != NULL && trial_cost_json(root, &g) == -1) {
			cJSON_Delete(root);
			root = NULL;
		}
		*out = report_json_text(root);	/* NULL: out of memory */
		break;
	case REPORT_HTML:
		if (guide_load_points(l, &g, err, errlen) == -1) {
			rc = -1;
			break;
		}
		*out = report_html(&g);
		break;
	case REPORT_CSV:
		*out = report_csv(&c, &g.acct, &g);
		break;
	default:
		*out = report_text(&c, &g.acct, &g, &rs);
		break;
	}
	if (rc == 0 && *out == NULL) {
		snprintf(err, errlen, "report for campaign '%s': out of memory",
		    c.name);
		rc = -1;
	}
	guide_release(&g);
	ledger_campaign_release(&c);
	return rc;
}

/* The guideline table. */
int
report_table(struct ledger *l, const char *name, enum report_format fmt,
    char **out, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct guide		 g;
	int			 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = report_find(l, name, &c, err, errlen)) != 0)
		return rc;
	if (guide_compute(l, &c, report_now(), &g, err, errlen) == -1) {
		ledger_campaign_release(&c);
		return -1;
	}
	if ((*out = guide_table(&g, fmt)) == NULL) {
		snprintf(err, errlen, "report for campaign '%s': out of memory",
		    c.name);
		rc = -1;
	}
	guide_release(&g);
	ledger_campaign_release(&c);
	return rc;
}

/*
 * Add how many of campaign c's trials pend and their commonest reason
 * (hpoctl status) to o: 0, -1 if memory ran out.  An unreadable list
 * adds nothing.
 */
static int
report_status_pending(struct ledger *l, const struct ledger_campaign *c,
    cJSON *o)
{
	struct ledger_attempt	*a = NULL;
	struct report_pending	 p;
	size_t			 n = 0;
	int			 bad;

	if (ledger_attempt_list(l, c->id, 1, &a, &n) == -1)
		return 0;
	report_pending(a, n, &p);
	bad = cJSON_AddNumberToObject(o, "pending", p.trials) == NULL ||
	    cJSON_AddStringToObject(o, "pending_reason", p.reason) == NULL ||
	    cJSON_AddNumberToObject(o, "pending_reason_trials", p.count) ==
	    NULL;
	ledger_attempt_list_free(a, n);
	return bad ? -1 : 0;
}

/*
 * One campaign's status as a JSON object; NULL if memory ran out (the
 * rows read these members back).
 */
static cJSON *
report_status_one(struct ledger *l, const struct ledger_campaign *c)
{
	struct account	 a;
	cJSON		*o = cJSON_CreateObject();
	char		 held[600];
	int		 bad;

	if (cJSON_AddNumberToObject(o, "id", (double)c->id) == NULL ||
	    cJSON_AddStringToObject(o, "name", c->name) == NULL ||
	    cJSON_AddStringToObject(o, "workload", c->workload) == NULL ||
	    cJSON_AddStringToObject(o, "state", c->state) == NULL ||
	    cJSON_AddNumberToObject(o, "max_trials", c->max_trials) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	if ((report_held(l, c, held, sizeof(held)) &&
	    cJSON_AddStringToObject(o, "held", held) == NULL) ||
	    report_status_pending(l, c, o) == -1) {
		cJSON_Delete(o);
		return NULL;
	}
	if (account_campaign(l, c, report_now(), &a) == -1)
		return o;
	bad = cJSON_AddNumberToObject(o, "trials", a.trials_total) == NULL ||
	    cJSON_AddNumberToObject(o, "running", a.trials[TRIAL_RUNNING] +
	    a.trials[TRIAL_PENDING]) == NULL ||
	    cJSON_AddNumberToObject(o, "done", a.trials_total -
	    a.trials[TRIAL_RUNNING] - a.trials[TRIAL_PENDING]) == NULL ||
	    cJSON_AddNumberToObject(o, "reached_target", a.reached) == NULL ||
	    report_json_number(o, "best", a.has_best, a.best_value) == -1 ||
	    cJSON_AddNumberToObject(o, "node_hours", a.node_seconds / 3600) ==
	    NULL ||
	    cJSON_AddNumberToObject(o, "gpu_hours", a.gpu_seconds / 3600) ==
	    NULL ||
	    cJSON_AddNumberToObject(o, "wall_s", a.wall_seconds) == NULL;
	account_release(&a);
	if (bad) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* One campaign of the status as a CSV row or a line of the text table. */
static void
report_status_row(FILE *f, const cJSON *o, enum report_format fmt)
{
	const cJSON	*best;
	const char	*held, *why;
	char		 b[32], w[32], tr[32];
	double		 pend;

	/* report_json_number() sets best as raw JSON text. */
	best = cJSON_GetObjectItem(o, "best");
	if (cJSON_IsRaw(best) && fmt == REPORT_CSV)
		snprintf(b, sizeof(b), "%s", best->valuestring);
	else if (cJSON_IsRaw(best))
		snprintf(b, sizeof(b), "%.6g",
		    strtod(best->valuestring, NULL));
	else
		snprintf(b, sizeof(b), "-");
	pend = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "pending"));
	why = cJSON_GetStringValue(cJSON_GetObjectItem(o, "pending_reason"));
	if (fmt == REPORT_CSV) {
		fprintf(f, "%.0f,%s,%s,%s,%.0f,%.0f,%.0f,%.0f,%s,%.6f,"
		    "%.6f,%.3f,%.0f,",
		    cJSON_GetObjectItem(o, "id")->valuedouble,
		    cJSON_GetObjectItem(o, "name")->valuestring,
		    cJSON_GetObjectItem(o, "workload")->valuestring,
		    cJSON_GetObjectItem(o, "state")->valuestring,
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "trials")),
		    cJSON_GetObjectItem(o, "max_trials")->valuedouble,
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "running")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "reached_target")),
		    cJSON_IsRaw(best) ? b : "",
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "node_hours")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "gpu_hours")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(o,
		    "wall_s")), isnan(pend) ? 0 : pend);
		report_csv_text(f, why != NULL ? why : "");
		fputc('\n', f);
		return;
	}
	report_duration(w, sizeof(w), cJSON_GetNumberValue(
	    cJSON_GetObjectItem(o, "wall_s")));
	snprintf(tr, sizeof(tr), "%.0f/%.0f",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(o, "trials")),
	    cJSON_GetObjectItem(o, "max_trials")->valuedouble);
	held = cJSON_GetStringValue(cJSON_GetObjectItem(o, "held"));
	fprintf(f, "%4.0f  %-20s  %-12s  %-9s  %9s  %4.0f  %10s  "
	    "%10.4f  %s\n", cJSON_GetObjectItem(o, "id")->valuedouble,
	    cJSON_GetObjectItem(o, "name")->valuestring,
	    cJSON_GetObjectItem(o, "workload")->valuestring,
	    held != NULL ? "held" :
	    cJSON_GetObjectItem(o, "state")->valuestring, tr,
	    cJSON_GetNumberValue(cJSON_GetObjectItem(o, "running")), b,
	    cJSON_GetNumberValue(cJSON_GetObjectItem(o, "node_hours")),
	    w);
	/* A held campaign's line is followed by why. */
	if (held != NULL)
		fprintf(f, "      held: %s\n", held);
	/* So is why its trials pend, when their scheduler says. */
	if (why != NULL && *why != '\0')
		fprintf(f, "      pending: %.0f trial%s, %.0f for %s\n", pend,
		    pend == 1 ? "" : "s", cJSON_GetNumberValue(
		    cJSON_GetObjectItem(o, "pending_reason_trials")), why);
}

/* The status of campaigns arr as CSV or a text table. */
static void
report_status_table(FILE *f, const cJSON *arr, enum report_format fmt)
{
	const cJSON	*o;

	if (fmt == REPORT_CSV)
		fprintf(f, "id,name,workload,state,trials,max_trials,running,"
		    "reached_target,best,node_hours,gpu_hours,wall_s,pending,"
		    "pending_reason\n");
	else
		fprintf(f, "%4s  %-20s  %-12s  %-9s  %9s  %4s  %10s  %10s  "
		    "%s\n", "ID", "NAME", "WORKLOAD", "STATE", "TRIALS", "RUN",
		    "BEST", "NODE-H", "WALL");
	cJSON_ArrayForEach(o, arr)
		report_status_row(f, o, fmt);
}

/* Campaign status: one campaign, or all of them. */
int
report_status(struct ledger *l, const char *name, enum report_format fmt,
    char **out, char *err, size_t errlen)
{
	struct ledger_campaign	*cs = NULL, one;
	cJSON			*arr, *o;
	char			*buf;
	size_t			 n = 0, i, len;
	FILE			*f;
	int			 rc;

	memset(&one, 0, sizeof(one));
	if (name != NULL) {
		if ((rc = report_find(l, name, &one, err, errlen)) != 0)
			return rc;
		cs = &one;
		n = 1;
	} else if (ledger_campaign_list(l, NULL, &cs, &n) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		return -1;
	}
	arr = cJSON_CreateArray();
	for (i = 0; arr != NULL && i < n; i++)
		if ((o = report_status_one(l, &cs[i])) == NULL ||
		    !cJSON_AddItemToArray(arr, o)) {
			cJSON_Delete(o);
			cJSON_Delete(arr);
			arr = NULL;
		}
	if (name != NULL)
		ledger_campaign_release(&one);
	else
		ledger_campaign_list_free(cs, n);
	*out = NULL;
	if (arr != NULL && fmt == REPORT_JSON) {
		if (name != NULL) {
			o = cJSON_DetachItemFromArray(arr, 0);
			cJSON_Delete(arr);
			arr = o;
		}
		*out = report_json_text(arr);
		arr = NULL;
	} else if (arr != NULL && (f = report_memstream(&buf, &len)) !=
	    NULL) {
		report_status_table(f, arr, fmt);
		if (report_memstream_close(f, &buf) == 0)
			*out = buf;
	}
	cJSON_Delete(arr);
	if (*out == NULL) {
		snprintf(err, errlen, "status: out of memory");
		return -1;
	}
	return 0;
}

/* The watch snapshot (JSON whatever the format). */
static int
report_watch(struct ledger *l, const char *campaign, enum report_format fmt,
    char **out, char *err, size_t errlen)
{
	return watch_snapshot(l, campaign, out, err, errlen);
}

/*
 * The read commands: what renders each, and whether it takes the HTML
 * page's format or the guideline table's (markdown, rcp).  The others
 * take text, JSON and CSV.
 */
static const struct report_kind {
	const char	*cmd;
	int		(*fn)(struct ledger *, const char *,
			    enum report_format, char **, char *, size_t);
	int		 html;
	int		 guideline;
} report_kinds[] = {
	{ "status", report_status, 0, 0 },
	{ "trials", report_trials, 0, 0 },
	{ "report", report_campaign, 1, 0 },
	{ "table", report_table, 0, 1 },
	{ "watch", report_watch, 0, 0 },
	{ NULL, NULL, 0, 0 }
};

/* Refuse a format cmd does not render: -2 with err, else 0. */
int
report_format_check(const char *cmd, enum report_format fmt, char *err,
    size_t errlen)
{
	const struct report_kind	*k;

	for (k = report_kinds; k->cmd != NULL; k++)
		if (strcmp(k->cmd, cmd) == 0)
			break;
	if (fmt == REPORT_HTML && !k->html) {
		snprintf(err, errlen, "--format html is for the report");
		return -2;
	}
	if ((fmt == REPORT_MARKDOWN || fmt == REPORT_RCP) && !k->guideline) {
		snprintf(err, errlen, "--format %s is for the guideline table "
		    "(report --table)", fmt == REPORT_RCP ? "rcp" : "markdown");
		return -2;
	}
	return 0;
}

/* Dispatch a read command to its renderer. */
int
report_command(struct ledger *l, const char *cmd, const char *campaign,
    enum report_format fmt, char **out, char *err, size_t errlen)
{
	const struct report_kind	*k;

	for (k = report_kinds; k->cmd != NULL; k++)
		if (strcmp(k->cmd, cmd) == 0)
			break;
	if (report_format_check(cmd, fmt, err, errlen) == -2)
		return -2;
	if (k->cmd == NULL) {
		snprintf(err, errlen, "unknown command '%s'", cmd);
		return -2;
	}
	report_alloc_arm();
	return report_alloc_check(strcmp(cmd, "table") == 0 ? "report" : cmd,
	    campaign, k->fn(l, campaign, fmt, out, err, errlen), out, err,
	    errlen);
}

/*
 * rc, what a render of cmd returned, or -1 if memory ran out anywhere
 * in it (a member cJSON left out included): *out is freed then and err
 * says so.
 */
int
report_alloc_check(const char *cmd, const char *campaign, int rc,
    char **out, char *err, size_t errlen)
{
	if (!report_alloc_done() || rc != 0)
		return rc;
	free(*out);
	*out = NULL;
	if (campaign != NULL)
		snprintf(err, errlen, "%s for campaign '%s': out of memory",
		    cmd, campaign);
	else
		snprintf(err, errlen, "%s: out of memory", cmd);
	return -1;
}
