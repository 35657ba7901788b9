/*
 * guide_report.c: the parts of the campaign report that come from the
 * guide: cost by outcome, the winning run and the tuning overhead, the
 * MLPerf-style figures, the learning-rate rule and the honesty checklist,
 * in JSON, text and CSV.  report.c renders the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "guide.h"
#include "guide_int.h"
#include "report_alloc.h"
#include "report_int.h"
#include "space.h"

/* Where a time to train counts from, in words. */
static const char *
guide_report_from_text(int from)
{
	if (from == GUIDE_FROM_RUN_START)
		return "from run_start";
	if (from == GUIDE_FROM_JOB_START)
		return "from the job's start (no run_start logged)";
	return "from run_start, from the job's start for runs that logged "
	    "none";
}

/* The winning run. */
static cJSON *
guide_report_winner(const struct guide *g)
{
	const struct guide_run	*w = g->winner;
	cJSON			*o;

	if (w == NULL)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "trial", w->trial);
	cJSON_AddNumberToObject(o, "attempt", w->has_attempt ?
	    w->attempt->number : 0);
	report_json_number(o, "batch_size", w->batch > 0, (double)w->batch);
	cJSON_AddStringToObject(o, "role", w->confirm ? "confirm" : "tuning");
	report_json_number(o, "value", 1, w->value);
	cJSON_AddBoolToObject(o, "reached", w->reached);
	report_json_number(o, "epochs_to_target", w->reached, w->epochs);
	report_json_number(o, "time_to_target_s", w->reached, w->ttt_s);
	guide_json_from(o, "time_to_target_from", w->ttt_from);
	report_json_number(o, "run_s", w->has_attempt, w->run_s);
	report_json_number(o, "node_hours", 1,
	    g->winner_cost.node_seconds / 3600);
	report_json_number(o, "gpu_hours", 1,
	    g->winner_cost.gpu_seconds / 3600);
	report_json_number(o, "cpu_hours", 1,
	    g->winner_cost.cpu_seconds / 3600);
	return o;
}

/* The MLPerf-style figures. */
static cJSON *
guide_report_mlperf(const struct guide *g)
{
	cJSON	*o = cJSON_CreateObject(), *t;

	t = cJSON_AddObjectToObject(o, "time_to_train_s");
	report_json_number(t, "olympic_mean", g->ttt.n > 0,
	    g->ttt.olympic_mean);
	report_json_number(t, "min", g->ttt.n > 0, g->ttt.min);
	report_json_number(t, "max", g->ttt.n > 0, g->ttt.max);
	guide_json_from(t, "from", g->ttt_clock);
	cJSON_AddNumberToObject(o, "runs", (double)g->ttt.n);
	cJSON_AddStringToObject(o, "runs_from", g->ttt_from);
	cJSON_AddNumberToObject(o, "reached_runs", g->reached_runs);
	report_json_number(o, "models_per_minute", g->models_per_min > 0,
	    g->models_per_min);
	if (!g->has_flops) {
		cJSON_AddNullToObject(o, "valid_flops");
		return o;
	}
	t = cJSON_AddObjectToObject(o, "valid_flops");
	report_json_number(t, "flops_per_sample", 1, g->flops_per_sample);
	report_json_number(t, "flops", 1, g->flops);
	report_json_number(t, "quality_ratio", g->quality_ratio > 0,
	    g->quality_ratio);
	cJSON_AddNumberToObject(t, "n", 5);
	report_json_number(t, "valid_flops", g->quality_ratio > 0,
	    g->valid_flops);
	return o;
}

/* Add the guide's parts to the report's JSON tree. */
void
guide_report_json(cJSON *root, const struct guide *g)
{
	cJSON	*o, *b;
	size_t	 i;

	o = cJSON_GetObjectItemCaseSensitive(root, "cost");
	b = cJSON_AddObjectToObject(o, "by_outcome");
	for (i = 0; i < ACCT_NOUTCOMES; i++)
		report_json_add(b, account_outcome_names[i],
		    guide_json_cost(&g->acct.by_outcome[i], 1));
	report_json_number(root, "time_to_solution_batch_size",
	    g->tts_row != NULL, g->tts_row ? (double)g->tts_row->batch_size :
	    0);
	report_json_add(root, "winner", guide_report_winner(g));
	if (g->overhead > 0) {
		o = cJSON_AddObjectToObject(root, "tuning_overhead");
		report_json_number(o, "ratio", 1, g->overhead);
		cJSON_AddStringToObject(o, "unit", g->overhead_unit);
	} else
		cJSON_AddNullToObject(root, "tuning_overhead");
	report_json_add(root, "mlperf", guide_report_mlperf(g));
	if (g->scaling) {
		cJSON_AddStringToObject(root, "lr_rule", g->lr_rule);
		cJSON_AddStringToObject(root, "lr_param", g->lr_param);
	} else {
		cJSON_AddNullToObject(root, "lr_rule");
		cJSON_AddNullToObject(root, "lr_param");
	}
	b = cJSON_AddArrayToObject(root, "checklist");
	for (i = 0; i < GUIDE_NCHECKS; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "item", g->checks[i].item);
		cJSON_AddBoolToObject(o, "ok", g->checks[i].ok);
		cJSON_AddStringToObject(o, "detail", g->checks[i].detail);
		report_json_add(b, NULL, o);
	}
}

/* Hours of a cost in the overhead's unit. */
static double
guide_report_hours(const struct guide *g, const struct account_cost *c)
{
	if (g->overhead_unit != NULL &&
	    strcmp(g->overhead_unit, "gpu_hours") == 0)
		return c->gpu_seconds / 3600;
	if (g->overhead_unit != NULL &&
	    strcmp(g->overhead_unit, "node_hours") == 0)
		return c->node_seconds / 3600;
	return c->cpu_seconds / 3600;
}

/* The unit's name in text. */
static const char *
guide_report_unit(const struct guide *g)
{
	if (g->overhead_unit != NULL &&
	    strcmp(g->overhead_unit, "gpu_hours") == 0)
		return "GPU-hours";
	if (g->overhead_unit != NULL &&
	    strcmp(g->overhead_unit, "node_hours") == 0)
		return "node-hours";
	return "CPU-hours";
}

/* The guide's lines of the text report. */
void
guide_report_text(FILE *f, const struct guide *g)
{
	const struct guide_run	*w = g->winner;
	size_t			 i;
	char			 bs[48] = "";

	fprintf(f, "attempts by outcome (%s):", guide_report_unit(g));
	for (i = 0; i < ACCT_NOUTCOMES; i++)
		fprintf(f, "%s %s %d (%.4f)", i ? "," : "",
		    account_outcome_names[i], g->acct.by_outcome[i].attempts,
		    guide_report_hours(g, &g->acct.by_outcome[i]));
	fputc('\n', f);
	if (g->tts_row != NULL)
		fprintf(f, "time to solution is to batch size %ld, confirmed "
		    "when trial %d ended\n", g->tts_row->batch_size,
		    g->tts_trial);
	else if (g->scaling)
		fprintf(f, "no batch size is confirmed yet\n");
	if (w != NULL) {
		/* A campaign of no batch size (its workload has none): 0. */
		if (w->batch > 0)
			snprintf(bs, sizeof(bs), "batch size %ld, ", w->batch);
		fprintf(f, "winning run: trial %d (%s%s), %.4f %s alone",
		    w->trial, bs, w->confirm ? "confirmation" : "tuning",
		    guide_report_hours(g, &g->winner_cost),
		    guide_report_unit(g));
		if (g->overhead > 0)
			fprintf(f, "; tuning overhead %.1fx", g->overhead);
		fputc('\n', f);
	}
	fprintf(f, "mlperf: time to train ");
	if (g->ttt.n > 0)
		fprintf(f, "%.2f s %s (olympic mean of %zu %s)",
		    g->ttt.olympic_mean, guide_report_from_text(g->ttt_clock),
		    g->ttt.n, strcmp(g->ttt_from, "confirm") == 0 ?
		    "confirmation runs" : "runs that reached the target");
	else
		fprintf(f, "- (no run reached the target)");
	if (g->models_per_min > 0)
		fprintf(f, ", %.2f models per minute", g->models_per_min);
	if (g->has_flops && g->quality_ratio > 0)
		fprintf(f, ", Valid FLOPS %.4g (%.4g FLOPS x %.4f^5)",
		    g->valid_flops, g->flops, g->quality_ratio);
	else if (g->has_flops)
		fprintf(f, ", %.4g FLOPS", g->flops);
	else if (g->flops_per_sample <= 0)
		fprintf(f, ", no Valid FLOPS (the workload declares no "
		    "flops_per_sample)");
	fputc('\n', f);
	if (g->scaling)
		fprintf(f, "learning rate: %s rule on %s from one batch size to "
		    "the next\n", g->lr_rule, g->lr_param ? g->lr_param : "-");
	fprintf(f, "checklist:\n");
	for (i = 0; i < GUIDE_NCHECKS; i++)
		fprintf(f, "  %-4s %s: %s\n", g->checks[i].ok ? "ok" : "WARN",
		    g->checks[i].item, g->checks[i].detail);
}

/* The guide's CSV columns, after the report's. */
void
guide_report_csv_head(FILE *f)
{
	size_t	 i;

	for (i = 0; i < ACCT_NOUTCOMES; i++)
		fprintf(f, ",%s_attempts,%s_node_hours,%s_gpu_hours,"
		    "%s_cpu_hours", account_outcome_names[i],
		    account_outcome_names[i], account_outcome_names[i],
		    account_outcome_names[i]);
	fprintf(f, ",tts_batch_size,winner_trial,winner_node_hours,"
	    "winner_gpu_hours,winner_cpu_hours,tuning_overhead,"
	    "tuning_overhead_unit,time_to_train_s,time_to_train_from,"
	    "models_per_minute,"
	    "valid_flops,lr_rule,checks_ok");
}

/* A double for CSV: empty when there is none. */
static void
guide_report_csv_num(FILE *f, int has, double v)
{
	fputc(',', f);
	if (has && isfinite(v))
		fprintf(f, "%.17g", v);
}

/* The guide's CSV fields, after the report's. */
void
guide_report_csv_row(FILE *f, const struct guide *g)
{
	const struct account_cost *c;
	size_t	 i;
	int	 ok = 0;

	for (i = 0; i < ACCT_NOUTCOMES; i++) {
		c = &g->acct.by_outcome[i];
		fprintf(f, ",%d,%.6f,%.6f,%.6f", c->attempts,
		    c->node_seconds / 3600, c->gpu_seconds / 3600,
		    c->cpu_seconds / 3600);
	}
	guide_report_csv_num(f, g->tts_row != NULL, g->tts_row ?
	    (double)g->tts_row->batch_size : 0);
	guide_report_csv_num(f, g->winner != NULL, g->winner ?
	    g->winner->trial : 0);
	guide_report_csv_num(f, g->winner != NULL,
	    g->winner_cost.node_seconds / 3600);
	guide_report_csv_num(f, g->winner != NULL,
	    g->winner_cost.gpu_seconds / 3600);
	guide_report_csv_num(f, g->winner != NULL,
	    g->winner_cost.cpu_seconds / 3600);
	guide_report_csv_num(f, g->overhead > 0, g->overhead);
	fprintf(f, ",%s", g->overhead > 0 ? g->overhead_unit : "");
	guide_report_csv_num(f, g->ttt.n > 0, g->ttt.olympic_mean);
	fprintf(f, ",%s", g->ttt_clock != 0 ? guide_from_name(g->ttt_clock) :
	    "");
	guide_report_csv_num(f, g->models_per_min > 0, g->models_per_min);
	guide_report_csv_num(f, g->has_flops && g->quality_ratio > 0,
	    g->valid_flops);
	fprintf(f, ",%s", g->scaling ? g->lr_rule : "");
	for (i = 0; i < GUIDE_NCHECKS; i++)
		ok += g->checks[i].ok;
	fprintf(f, ",%d/%d", ok, GUIDE_NCHECKS);
}
