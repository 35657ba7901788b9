/*
 * guide_format.c: the guideline table as text, CSV and Markdown, and
 * guide_table(), which renders it in any format (JSON and RCP JSON:
 * guide_json.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "guide.h"
#include "guide_int.h"
#include "report_int.h"
#include "report_alloc.h"

/* The GUIDE_FROM_ bits of the times to target of every row. */
int
guide_table_from(const struct guide *g)
{
	size_t	 i;
	int	 from = 0;

	for (i = 0; i < g->nrows; i++)
		from |= g->rows[i].ttt_from;
	return from;
}

/* Where the table's times to target count from, a sentence; NULL: none. */
const char *
guide_table_from_text(const struct guide *g)
{
	switch (g->published ? 0 : guide_table_from(g)) {
	case 0:
		return NULL;
	case GUIDE_FROM_RUN_START:
		return "time to target from each run's MLPerf run_start to "
		    "its first point on target";
	case GUIDE_FROM_JOB_START:
		return "time to target from each run's job start to its "
		    "first point on target, its launch and start-up "
		    "included: its trainer logged no run_start";
	default:
		return "time to target from each run's MLPerf run_start to "
		    "its first point on target; rows marked * count some "
		    "runs from their job's start, their launch and start-up "
		    "included: their trainer logged no run_start";
	}
}

/* The unit the text and Markdown tables show cost in. */
static const char *
guide_unit(const struct guide *g, int *which)
{
	if (g->total.gpu_seconds > 0) {
		*which = 1;
		return "GPU-h";
	}
	if (g->total.node_seconds > 0) {
		*which = 0;
		return "node-h";
	}
	*which = 2;
	return "CPU-h";
}

/* Hours of a cost in the unit chosen by guide_unit(). */
static double
guide_hours(const struct account_cost *c, int which)
{
	switch (which) {
	case 1:
		return c->gpu_seconds / 3600;
	case 0:
		return c->node_seconds / 3600;
	default:
		return c->cpu_seconds / 3600;
	}
}

/* Parameters as "k=v k=v" (without the batch size), or "-". */
static void
guide_params_text(const struct guide *g, const struct guide_row *r,
    FILE *f)
{
	cJSON	*p = guide_json_params(r), *v;
	char	*t;
	int	 n = 0;

	cJSON_ArrayForEach(v, p) {
		if (strcmp(v->string, g->batch_param) == 0)
			continue;
		if (cJSON_IsString(v))
			fprintf(f, "%s%s=%s", n++ ? " " : "", v->string,
			    v->valuestring);
		else if (cJSON_IsNumber(v))
			fprintf(f, "%s%s=%.6g", n++ ? " " : "", v->string,
			    v->valuedouble);
		else if ((t = cJSON_PrintUnformatted(v)) != NULL) {
			/* A logged list or flag: opt_betas=[0.9,0.999]. */
			fprintf(f, "%s%s=%s", n++ ? " " : "", v->string, t);
			cJSON_free(t);
		}
	}
	if (n == 0)
		fputs("-", f);
	cJSON_Delete(p);
}

/* A number with %.*f, or "-" when there is none. */
static void
guide_num(char *buf, size_t len, int has, int prec, double v)
{
	if (has && isfinite(v))
		snprintf(buf, len, "%.*f", prec, v);
	else
		snprintf(buf, len, "-");
}

/* The cells shared by the text and Markdown tables. */
struct guide_cells {
	char	 batch[32], ranks[48], conf[24], ok[32], rate[48];
	char	 epochs[96], range[48], ttt[96], sps[32], trials[32];
	char	 cost[64];
};

/* A figure and its interval, "x [lo,hi]", or "x" without one, or "-". */
static void
guide_ci_cell(char *buf, size_t len, int has, int prec, double v,
    int has_ci, double lo, double hi)
{
	if (!has || !isfinite(v))
		snprintf(buf, len, "-");
	else if (has_ci)
		snprintf(buf, len, "%.*f [%.*f,%.*f]", prec, v, prec, lo, prec,
		    hi);
	else
		snprintf(buf, len, "%.*f", prec, v);
}

/* Fill the cells of a row. */
static void
guide_cells(const struct guide *g, const struct guide_row *r, int which,
    struct guide_cells *c)
{
	if (r->batch_size > 0)
		snprintf(c->batch, sizeof(c->batch), "%ld", r->batch_size);
	else
		snprintf(c->batch, sizeof(c->batch), "-");
	if (r->ranks > 0)
		snprintf(c->ranks, sizeof(c->ranks), "%dx%ld", r->ranks,
		    r->local_batch);
	else
		snprintf(c->ranks, sizeof(c->ranks), "-");
	/* "yes#2": the second configuration confirmed passed. */
	if (g->scaling && r->candidates > 1)
		snprintf(c->conf, sizeof(c->conf), "%s#%d", r->confirmed ?
		    "yes" : "no", r->candidates);
	else
		snprintf(c->conf, sizeof(c->conf), "%s", !g->scaling ? "-" :
		    r->confirmed ? "yes" : "no");
	snprintf(c->ok, sizeof(c->ok), "%d/%d", r->successes, r->runs);
	guide_ci_cell(c->rate, sizeof(c->rate), r->runs > 0, 2,
	    r->success_rate, r->runs > 0, r->rate_low, r->rate_high);
	guide_ci_cell(c->epochs, sizeof(c->epochs), r->epochs.n > 0, 2,
	    r->epochs.olympic_mean, r->epochs.has_ci, r->epochs.ci_low,
	    r->epochs.ci_high);
	if (r->epochs.n > 0)
		snprintf(c->range, sizeof(c->range), "%g-%g", r->epochs.min,
		    r->epochs.max);
	else
		snprintf(c->range, sizeof(c->range), "-");
	guide_ci_cell(c->ttt, sizeof(c->ttt), r->ttt.n > 0, 1,
	    r->ttt.olympic_mean, r->ttt.has_ci, r->ttt.ci_low, r->ttt.ci_high);
	/* Some runs from their job's start where others are from run_start. */
	if (guide_table_from(g) == (GUIDE_FROM_RUN_START |
	    GUIDE_FROM_JOB_START) && (r->ttt_from & GUIDE_FROM_JOB_START))
		snprintf(c->ttt + strlen(c->ttt), sizeof(c->ttt) -
		    strlen(c->ttt), " *");
	guide_num(c->sps, sizeof(c->sps), r->samples_per_s > 0, 0,
	    r->samples_per_s);
	if (g->published) {
		snprintf(c->trials, sizeof(c->trials), "-");
		snprintf(c->cost, sizeof(c->cost), "-");
		return;
	}
	snprintf(c->trials, sizeof(c->trials), "%d+%d", r->trials_tuning,
	    r->trials_confirm);
	snprintf(c->cost, sizeof(c->cost), "%.4f+%.4f",
	    guide_hours(&r->tuning, which), guide_hours(&r->confirm, which));
}

/* The line that says which intervals the table gives. */
static void
guide_intervals(FILE *f, const char *pre)
{
	fprintf(f, "%sintervals: %.0f%%; success rate: Wilson score; "
	    "epochs and time to target: olympic mean, then the Student t "
	    "interval of the mean over the runs that reached the target (never "
	    "below 0)\n",
	    pre, GUIDE_LEVEL * 100);
}

/* The lines above the table: what it is about. */
static void
guide_head(const struct guide *g, FILE *f, const char *pre)
{
	if (g->published) {
		fprintf(f, "%sguideline table of published results: benchmark "
		    "%s, %s %s %g, %d runs in %d result folder%s; epochs to "
		    "target in %s; hyperparameters as the logs declare them "
		    "(opt_*); the logs carry no cost\n", pre, g->c.workload,
		    g->c.metric, g->c.maximize ? ">=" : "<=", g->c.target,
		    g->total_trials, g->nsets, g->nsets == 1 ? "" : "s",
		    g->epoch_unit);
		guide_intervals(f, pre);
		return;
	}
	fprintf(f, "%sguideline table of campaign %s (id %lld): workload %s, "
	    "%s %s %g\n", pre, g->c.name, (long long)g->c.id, g->c.workload,
	    g->c.metric, g->c.maximize ? ">=" : "<=", g->c.target);
	if (g->scaling)
		fprintf(f, "%sscaling campaign: learning rate by the %s rule on "
		    "%s; %d confirmation runs per batch size, %d must reach "
		    "the target; CONF yes#k: the k-th configuration "
		    "confirmed passed, the runs of the others are in the "
		    "cost\n", pre, g->lr_rule, g->lr_param ?
		    g->lr_param : "-", g->seeds, g->min_successes);
	else
		fprintf(f, "%sordinary campaign: the runs of a batch size are "
		    "its trials; hyperparameters of its trial that reached "
		    "the target in the fewest epochs, else of its best\n",
		    pre);
	if (g->step_unit != NULL && strcmp(g->step_unit, "epochs") != 0)
		fprintf(f, "%sepochs to target in %s: the workload's steps "
		    "count %s (its step_unit)\n", pre, g->step_unit,
		    g->step_unit);
	else if (g->epoch_unit != NULL && strcmp(g->epoch_unit, "epochs") != 0)
		fprintf(f, "%sepochs to target in %s: the workload's fidelity "
		    "is %s\n", pre, g->epoch_unit, g->epoch_unit);
	if (guide_table_from_text(g) != NULL)
		fprintf(f, "%s%s\n", pre, guide_table_from_text(g));
	guide_intervals(f, pre);
}

/*
 * The total line and those that go with it, each a paragraph of its own
 * in Markdown (md), where lines without a blank one between them run
 * together.
 */
static void
guide_foot(const struct guide *g, FILE *f, int md)
{
	const struct account_cost *idle =
	    &g->acct.by_outcome[ACCT_OUT_PILOT_IDLE];
	const char	*sep = md ? "\n" : "";

	if (g->published)
		return;
	fprintf(f, "total: %d trials, %.4f node-hours, %.4f GPU-hours, "
	    "%.4f CPU-hours\n", g->total_trials, g->total.node_seconds / 3600,
	    g->total.gpu_seconds / 3600, g->total.cpu_seconds / 3600);
	/* The pilots' idle time is in the campaign's cost, in no row. */
	if (g->acct.pilots > 0)
		fprintf(f, "%spilot idle: %.4f node-hours, %.4f GPU-hours, "
		    "%.4f CPU-hours, the pilots' time no trial used: in no "
		    "row, in the campaign's cost (%.4f node-hours in all)\n",
		    sep, idle->node_seconds / 3600, idle->gpu_seconds / 3600,
		    idle->cpu_seconds / 3600, g->acct.node_seconds / 3600);
	if (g->acct.priors > 0)
		fprintf(f, "%spriors: %d from %s: prior knowledge, not in the "
		    "trials or the cost above\n", sep, g->acct.priors,
		    g->acct.prior_source);
}

/* The table as aligned text; NULL if memory ran out. */
static char *
guide_text(const struct guide *g)
{
	struct guide_cells	 c;
	char			*buf, hdr[32];
	size_t			 len, i;
	FILE			*f;
	int			 which = 2;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	snprintf(hdr, sizeof(hdr), "%s(T+C)", g->published ? "COST" :
	    guide_unit(g, &which));
	guide_head(g, f, "");
	fprintf(f, "%6s  %-9s  %5s  %7s  %-16s  %-20s  %-9s  %-17s  %9s  "
	    "%6s  %-15s  %s\n", "BATCH", "RANKSxLB", "CONF", "OK/RUNS",
	    "RATE [95%CI]", "EPOCHS [95%CI]", "MIN-MAX", "TTT-S [95%CI]",
	    "SAMPLES/S", "TRIALS", hdr, "PARAMETERS");
	for (i = 0; i < g->nrows; i++) {
		guide_cells(g, &g->rows[i], which, &c);
		fprintf(f, "%6s  %-9s  %5s  %7s  %-16s  %-20s  %-9s  %-17s  "
		    "%9s  %6s  %-15s  ", c.batch, c.ranks, c.conf, c.ok, c.rate,
		    c.epochs, c.range, c.ttt, c.sps, c.trials, c.cost);
		guide_params_text(g, &g->rows[i], f);
		fputc('\n', f);
	}
	guide_foot(g, f, 0);
	report_memstream_close(f, &buf);
	return buf;
}

/*
 * The table in Markdown, with the header as a paragraph; NULL if memory
 * ran out.
 */
static char *
guide_markdown(const struct guide *g)
{
	struct guide_cells	 c;
	char			*buf;
	size_t			 len, i;
	FILE			*f;
	const char		*unit;
	int			 which = 2;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	unit = g->published ? "cost" : guide_unit(g, &which);
	guide_head(g, f, "");
	fprintf(f, "\n| batch | ranks x local | confirmed | reached/runs | "
	    "success rate [95%% CI] | epochs [95%% CI] | epochs min-max | "
	    "time to target (s) [95%% CI] | samples/s | trials (tuning+confirm) | "
	    "%s (tuning+confirm) | hyperparameters |\n", unit);
	fprintf(f, "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	    "---|\n");
	for (i = 0; i < g->nrows; i++) {
		guide_cells(g, &g->rows[i], which, &c);
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | "
		    "%s | ", c.batch, c.ranks, c.conf, c.ok, c.rate, c.epochs,
		    c.range, c.ttt, c.sps, c.trials, c.cost);
		guide_params_text(g, &g->rows[i], f);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	guide_foot(g, f, 1);
	report_memstream_close(f, &buf);
	return buf;
}

/* A double for CSV: empty when there is none. */
static void
guide_csv_num(FILE *f, int has, double v)
{
	fputc(',', f);
	if (has && isfinite(v))
		fprintf(f, "%.17g", v);
}

/* A cost's three figures for CSV. */
static void
guide_csv_cost(FILE *f, const struct account_cost *c)
{
	fprintf(f, ",%.6f,%.6f,%.6f", c->node_seconds / 3600,
	    c->gpu_seconds / 3600, c->cpu_seconds / 3600);
}

/* The table as CSV: a header and one line per batch size (NULL: out). */
static char *
guide_csv(const struct guide *g)
{
	const struct guide_row	*r;
	char			*buf;
	size_t			 len, i;
	FILE			*f;
	const char		*s;

	if ((f = report_memstream(&buf, &len)) == NULL)
		return NULL;
	if (g->published)
		fputs("benchmark,", f);
	fprintf(f, "batch_size,ranks,local_batch,confirmed,candidates,"
	    "candidate_trial,runs,successes,"
	    "success_rate,success_rate_ci_low,success_rate_ci_high,"
	    "epochs_olympic_mean,epochs_mean,epochs_std,epochs_min,epochs_max,"
	    "epochs_ci_low,epochs_ci_high,epoch_unit,ttt_olympic_mean_s,"
	    "ttt_mean_s,"
	    "ttt_min_s,ttt_max_s,ttt_ci_low_s,ttt_ci_high_s,ttt_from,"
	    "samples_per_s,trials_tuning,trials_confirm,tuning_node_hours,"
	    "tuning_gpu_hours,tuning_cpu_hours,confirm_node_hours,"
	    "confirm_gpu_hours,confirm_cpu_hours,total_node_hours,"
	    "total_gpu_hours,total_cpu_hours,params\n");
	for (i = 0; i < g->nrows; i++) {
		r = &g->rows[i];
		/* A log's own name for its benchmark: any text. */
		if (g->published) {
			report_csv_text(f, g->c.workload);
			fputc(',', f);
		}
		if (r->batch_size > 0)
			fprintf(f, "%ld", r->batch_size);
		guide_csv_num(f, r->ranks > 0, r->ranks);
		guide_csv_num(f, r->ranks > 0, (double)r->local_batch);
		fprintf(f, ",%d", r->confirmed);
		/* Scaling campaigns only, as in JSON: empty for the others. */
		guide_csv_num(f, g->scaling, r->candidates);
		guide_csv_num(f, g->scaling && r->params_trial >= 0,
		    r->params_trial);
		fprintf(f, ",%d,%d", r->runs, r->successes);
		guide_csv_num(f, r->runs > 0, r->success_rate);
		guide_csv_num(f, r->runs > 0, r->rate_low);
		guide_csv_num(f, r->runs > 0, r->rate_high);
		guide_csv_num(f, r->epochs.n > 0, r->epochs.olympic_mean);
		guide_csv_num(f, r->epochs.n > 0, r->epochs.mean);
		guide_csv_num(f, r->epochs.n > 0, r->epochs.std);
		guide_csv_num(f, r->epochs.n > 0, r->epochs.min);
		guide_csv_num(f, r->epochs.n > 0, r->epochs.max);
		guide_csv_num(f, r->epochs.has_ci, r->epochs.ci_low);
		guide_csv_num(f, r->epochs.has_ci, r->epochs.ci_high);
		/* A word of lowercase letters: no quotes needed. */
		fprintf(f, ",%s", g->epoch_unit != NULL ? g->epoch_unit :
		    "epochs");
		guide_csv_num(f, r->ttt.n > 0, r->ttt.olympic_mean);
		guide_csv_num(f, r->ttt.n > 0, r->ttt.mean);
		guide_csv_num(f, r->ttt.n > 0, r->ttt.min);
		guide_csv_num(f, r->ttt.n > 0, r->ttt.max);
		guide_csv_num(f, r->ttt.has_ci, r->ttt.ci_low);
		guide_csv_num(f, r->ttt.has_ci, r->ttt.ci_high);
		fprintf(f, ",%s", r->ttt_from != 0 ?
		    guide_from_name(r->ttt_from) : "");
		guide_csv_num(f, r->samples_per_s > 0, r->samples_per_s);
		if (g->published)	/* no trials, no cost: empty */
			fputs(",,,,,,,,,,,", f);
		else {
			fprintf(f, ",%d,%d", r->trials_tuning,
			    r->trials_confirm);
			guide_csv_cost(f, &r->tuning);
			guide_csv_cost(f, &r->confirm);
			guide_csv_cost(f, &r->total);
		}
		fputs(",\"", f);
		for (s = r->params_json ? r->params_json : "{}"; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputs("\"\n", f);
	}
	report_memstream_close(f, &buf);
	return buf;
}

/* Render the table in a format. */
char *
guide_table(const struct guide *g, enum report_format fmt)
{
	switch (fmt) {
	case REPORT_JSON:
		return report_json_text(guide_table_json(g));
	case REPORT_CSV:
		return guide_csv(g);
	case REPORT_MARKDOWN:
		return guide_markdown(g);
	case REPORT_RCP:
		return guide_table_rcp(g);
	default:
		return guide_text(g);
	}
}

