/*
 * report_html_detail.c: the lower half of the HTML report's headline, as
 * tables a person reads: where the cost went, the winning run and the
 * tuning overhead, the MLPerf-style figures and the honesty checklist.
 * The numbers come from the guide, marked with their JSON paths.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guide.h"
#include "report_html_trials.h"
#include "svg.h"

/* A row of the cost table: a label, attempts and three kinds of hours. */
static void
hd_cost_row(FILE *f, const char *label, const char *akey, double attempts,
    const char *const keys[3], const double hours[3])
{
	size_t	 i;

	fprintf(f, "<tr><td>%s</td><td class=\"n\">", label);
	html_num(f, akey, akey != NULL, attempts);
	fprintf(f, "</td>");
	for (i = 0; i < 3; i++) {
		fprintf(f, "<td class=\"n\">");
		html_num(f, keys[i], 1, hours[i]);
		fprintf(f, "</td>");
	}
	fprintf(f, "</tr>\n");
}

/* Where the cost went: all attempts, those pruned, the winning run. */
static void
hd_cost(FILE *f, const struct guide *g)
{
	static const char *const all[] = { "cost.node_hours",
	    "cost.gpu_hours", "cost.cpu_hours" };
	static const char *const pruned[] = { "cost.pruned_node_hours",
	    "cost.pruned_gpu_hours", "cost.pruned_cpu_hours" };
	static const char *const win[] = { "winner.node_hours",
	    "winner.gpu_hours", "winner.cpu_hours" };
	const struct account	*a = &g->acct;
	double			 h[3];

	fprintf(f, "<h3>Where the cost went</h3>\n<table id=\"cost-detail\">"
	    "<tr><th></th><th>attempts</th><th>node-hours</th>"
	    "<th>GPU-hours</th><th>CPU-hours</th></tr>\n");
	h[0] = a->node_seconds / 3600;
	h[1] = a->gpu_seconds / 3600;
	h[2] = a->cpu_seconds / 3600;
	hd_cost_row(f, "every attempt", "cost.attempts", a->attempts, all, h);
	h[0] = a->pruned_node_seconds / 3600;
	h[1] = a->pruned_gpu_seconds / 3600;
	h[2] = a->pruned_cpu_seconds / 3600;
	hd_cost_row(f, "stopped early (pruned)", "cost.pruned_attempts",
	    a->pruned_attempts, pruned, h);
	if (g->winner != NULL) {
		h[0] = g->winner_cost.node_seconds / 3600;
		h[1] = g->winner_cost.gpu_seconds / 3600;
		h[2] = g->winner_cost.cpu_seconds / 3600;
		hd_cost_row(f, "the winning run", NULL, 0, win, h);
	}
	fprintf(f, "</table>\n<p>Run time of the attempts, summed: ");
	html_num(f, "cost.elapsed_hours", 1, a->elapsed_seconds / 3600);
	fprintf(f, " hours; time in the queue, summed: ");
	html_num(f, "cost.queue_hours", 1, a->queue_seconds / 3600);
	fprintf(f, " hours.");
	if (g->overhead > 0) {
		fprintf(f, " Tuning overhead: the campaign cost ");
		html_num(f, "tuning_overhead.ratio", 1, g->overhead);
		fprintf(f, " times the winning run's ");
		svg_escape(f, g->overhead_unit);
		fprintf(f, ".");
	}
	fprintf(f, "</p>\n");
}

/* The winning run, one row. */
static void
hd_winner(FILE *f, const struct guide *g)
{
	const struct guide_run	*w = g->winner;

	fprintf(f, "<h3>The winning run</h3>\n");
	if (w == NULL) {
		fprintf(f, "<p class=\"muted\">No run has a value yet.</p>\n");
		return;
	}
	fprintf(f, "<table id=\"winner\"><tr><th>trial</th><th>attempt</th>"
	    "<th>batch size</th><th>role</th><th>value</th><th>on target</th>"
	    "<th>%s to target</th><th>time to target, s</th>"
	    "<th>run time, s</th></tr>\n<tr><td class=\"n\">",
	    g->epoch_unit != NULL ? g->epoch_unit : "epochs");
	html_num(f, "winner.trial", 1, w->trial);
	fprintf(f, "</td><td class=\"n\">");
	html_num(f, "winner.attempt", 1, w->has_attempt ?
	    w->attempt->number : 0);
	fprintf(f, "</td><td class=\"n\">");
	html_num(f, "winner.batch_size", w->batch > 0, (double)w->batch);
	fprintf(f, "</td><td>%s</td><td class=\"n\">", w->confirm ?
	    "confirm" : "tuning");
	html_num(f, "winner.value", 1, w->value);
	fprintf(f, "</td><td>%s</td><td class=\"n\">", w->reached ? "yes" :
	    "no");
	html_num(f, "winner.epochs_to_target", w->reached, w->epochs);
	fprintf(f, "</td><td class=\"n\">");
	html_num(f, "winner.time_to_target_s", w->reached, w->ttt_s);
	fprintf(f, "</td><td class=\"n\">");
	html_num(f, "winner.run_s", w->has_attempt, w->run_s);
	fprintf(f, "</td></tr>\n</table>\n");
}

/* The MLPerf-style figures. */
static void
hd_mlperf(FILE *f, const struct guide *g)
{
	fprintf(f, "<h3>MLPerf-style figures</h3>\n<table class=\"kv\" "
	    "id=\"mlperf\">\n<tr><th>Time to train, s</th><td>olympic mean ");
	html_num(f, "mlperf.time_to_train_s.olympic_mean", g->ttt.n > 0,
	    g->ttt.olympic_mean);
	fprintf(f, ", min ");
	html_num(f, "mlperf.time_to_train_s.min", g->ttt.n > 0, g->ttt.min);
	fprintf(f, ", max ");
	html_num(f, "mlperf.time_to_train_s.max", g->ttt.n > 0, g->ttt.max);
	fprintf(f, " over ");
	html_num(f, "mlperf.runs", 1, (double)g->ttt.n);
	fprintf(f, " runs (%s%s)</td></tr>\n<tr><th>Runs on target</th><td>",
	    g->ttt_from != NULL && strcmp(g->ttt_from, "confirm") == 0 ?
	    "the confirmation runs" : "the runs that reached the target",
	    g->ttt_clock == GUIDE_FROM_RUN_START ? ", from run_start" :
	    g->ttt_clock == GUIDE_FROM_JOB_START ? ", from the job's start: "
	    "no run_start logged" : g->ttt_clock != 0 ? ", from run_start, "
	    "from the job's start for runs that logged none" : "");
	html_num(f, "mlperf.reached_runs", 1, g->reached_runs);
	fprintf(f, "</td></tr>\n<tr><th>Models per minute</th><td>");
	html_num(f, "mlperf.models_per_minute", g->models_per_min > 0,
	    g->models_per_min);
	fprintf(f, "</td></tr>\n");
	if (g->has_flops) {
		fprintf(f, "<tr><th>Valid FLOPS</th><td>");
		html_num(f, "mlperf.valid_flops.valid_flops",
		    g->quality_ratio > 0, g->valid_flops);
		fprintf(f, " (FLOPS ");
		html_num(f, "mlperf.valid_flops.flops", 1, g->flops);
		fprintf(f, ", quality ratio ");
		html_num(f, "mlperf.valid_flops.quality_ratio",
		    g->quality_ratio > 0, g->quality_ratio);
		fprintf(f, ", ");
		html_num(f, "mlperf.valid_flops.flops_per_sample", 1,
		    g->flops_per_sample);
		fprintf(f, " FLOPs per sample)</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* The honesty checklist. */
static void
hd_checklist(FILE *f, const struct guide *g)
{
	size_t	 i;

	fprintf(f, "<h3>Honesty checklist</h3>\n<table id=\"checklist\">"
	    "<tr><th>item</th><th>holds</th><th>detail</th></tr>\n");
	for (i = 0; i < GUIDE_NCHECKS; i++) {
		fprintf(f, "<tr><td>");
		svg_escape(f, g->checks[i].item);
		fprintf(f, "</td><td>%s</td><td>", g->checks[i].ok ? "yes" :
		    "<strong>no</strong>");
		svg_escape(f, g->checks[i].detail);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* Write the tables under the headline. */
void
html_details(FILE *f, const struct guide *g)
{
	hd_cost(f, g);
	hd_winner(f, g);
	if (g->tts_row != NULL) {
		fprintf(f, "<p>The time to solution is that of batch size ");
		html_num(f, "time_to_solution_batch_size", 1,
		    (double)g->tts_row->batch_size);
		fprintf(f, ", the first confirmed.</p>\n");
	}
	hd_mlperf(f, g);
	hd_checklist(f, g);
}
