/*
 * guide_solution.c: what follows from the runs and rows of a campaign: its
 * time to solution (for a scaling campaign, to the first confirmed batch
 * size), the winning run and the tuning overhead, the MLPerf-style figures
 * (time to train, models per minute, HPC AI500 Valid FLOPS) and the
 * honesty checklist.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide_int.h"
#include "report_alloc.h"

/* Time to solution; a scaling campaign's needs a confirmed batch size. */
static void
guide_tts(struct guide *g)
{
	const struct guide_row	*row;
	size_t			 i;

	g->has_first_reach = g->acct.has_tts;
	g->first_reach = g->acct.tts_trial;
	if (!g->scaling) {
		g->has_tts = g->acct.has_tts;
		g->tts_s = g->acct.tts_seconds;
		g->tts_trial = g->acct.tts_trial;
		return;
	}
	for (i = 0; i < g->nrows; i++) {
		row = &g->rows[i];
		if (!row->confirmed || (g->tts_row != NULL &&
		    row->done_at >= g->tts_row->done_at))
			continue;
		g->tts_row = row;
	}
	if (g->tts_row != NULL) {
		g->has_tts = 1;
		g->tts_s = g->tts_row->done_at - g->c.started;
		g->tts_trial = g->tts_row->done_trial;
	}
	g->acct.has_tts = g->has_tts;
	g->acct.tts_seconds = g->tts_s;
	g->acct.tts_trial = g->tts_trial;
}

/*
 * The winning run: the fastest confirmation run of the time-to-solution
 * batch size, else the trial that first met the target, else the best.
 */
static void
guide_winner(struct guide *g)
{
	const struct guide_run	*r;
	size_t			 i;

	for (i = 0; g->tts_row != NULL && i < g->ntrials; i++) {
		r = &g->runs[i];
		if (!r->confirm || r->batch != g->tts_row->key || !r->reached ||
		    !isfinite(r->ttt_s))
			continue;
		if (g->winner == NULL || r->ttt_s < g->winner->ttt_s)
			g->winner = r;
	}
	if (g->winner == NULL && g->has_first_reach)
		g->winner = guide_run_of(g, g->first_reach);
	if (g->winner == NULL && g->acct.has_best)
		g->winner = guide_run_of(g, g->acct.best_trial);
}

/*
 * The winner's cost alone (its last attempt) and the tuning overhead:
 * the campaign's cost over it, in GPU-hours if any GPU was used, else
 * node-hours, else CPU-hours.
 */
static void
guide_overhead(struct guide *g)
{
	double	 total, won;

	if (g->winner == NULL || !g->winner->has_attempt)
		return;
	account_attempt_add(g->winner->attempt, g->now, &g->winner_cost);
	if (g->acct.gpu_seconds > 0) {
		g->overhead_unit = "gpu_hours";
		total = g->acct.gpu_seconds;
		won = g->winner_cost.gpu_seconds;
	} else if (g->acct.node_seconds > 0) {
		g->overhead_unit = "node_hours";
		total = g->acct.node_seconds;
		won = g->winner_cost.node_seconds;
	} else {
		g->overhead_unit = "cpu_hours";
		total = g->acct.cpu_seconds;
		won = g->winner_cost.cpu_seconds;
	}
	if (won > 0)
		g->overhead = total / won;
}

/*
 * MLPerf-style figures: the olympic mean of the time to train (to target)
 * of the confirmation runs of the time-to-solution batch size, else of
 * every run that reached the target; models per minute; Valid FLOPS.
 * -1 if memory ran out.
 */
static int
guide_mlperf(struct guide *g)
{
	const struct guide_run	*r, *w = g->winner;
	double			*v, lo = 0, hi = 0, end;
	size_t			 i, n = 0;

	if ((v = report_calloc(g->ntrials ? g->ntrials : 1, sizeof(*v))) ==
	    NULL)
		return -1;
	g->ttt_from = g->tts_row != NULL ? "confirm" : "reached";
	for (i = 0; i < g->ntrials; i++) {
		r = &g->runs[i];
		if (!r->reached)
			continue;
		if (isfinite(r->ttt_s) && (g->tts_row == NULL ||
		    (r->confirm && r->batch == g->tts_row->key))) {
			v[n++] = r->ttt_s;
			g->ttt_clock |= r->ttt_from;
		}
		if (!r->has_attempt || r->attempt->started <= 0)
			continue;
		end = r->attempt->ended > 0 ? r->attempt->ended : g->now;
		if (g->reached_runs == 0 || r->attempt->started < lo)
			lo = r->attempt->started;
		if (g->reached_runs == 0 || end > hi)
			hi = end;
		g->reached_runs++;
	}
	guide_stats(v, n, &g->ttt);
	free(v);
	if (g->reached_runs > 0 && hi > lo)
		g->models_per_min = g->reached_runs / ((hi - lo) / 60);
	if (g->flops_per_sample <= 0 || w == NULL || w->train_samples <= 0 ||
	    w->epochs_run <= 0 || w->run_s <= 0)
		return 0;
	g->has_flops = 1;
	g->flops = g->flops_per_sample * w->train_samples * w->epochs_run /
	    w->run_s;
	if (g->c.has_target && isfinite(w->value)) {
		g->quality_ratio = guide_quality_ratio(w->value, g->c.maximize,
		    g->c.target);
		g->valid_flops = guide_valid_flops(g->flops, g->quality_ratio);
	}
	return 0;
}

/* Whether a metric names a validation or test set. */
static int
guide_heldout(const char *m)
{
	return m != NULL && (strncmp(m, "eval_", 5) == 0 ||
	    strncmp(m, "val", 3) == 0 || strncmp(m, "test", 4) == 0);
}

/* The honesty checklist ("Twelve ways to fool the masses"). */
static void
guide_checklist(struct guide *g)
{
	const struct account	*a = &g->acct;
	const struct account_cost *o = a->by_outcome;
	struct guide_check	*k = g->checks;
	size_t			 i, len;
	int			 confirm = 0;

	k[0].item = "all tuning runs counted";
	k[0].ok = 1;
	snprintf(k[0].detail, sizeof(k[0].detail), "every attempt is in the "
	    "cost: %d attempts of %d trials (%d completed, %d pruned, %d "
	    "failed, %d retried, %d cancelled, %d running)", a->attempts,
	    a->trials_total, o[ACCT_OUT_COMPLETED].attempts,
	    o[ACCT_OUT_PRUNED].attempts, o[ACCT_OUT_FAILED].attempts,
	    o[ACCT_OUT_RETRIED].attempts, o[ACCT_OUT_CANCELLED].attempts,
	    o[ACCT_OUT_RUNNING].attempts);

	k[1].item = "quality is a validation or test metric";
	k[1].ok = guide_heldout(g->c.metric);
	snprintf(k[1].detail, sizeof(k[1].detail), k[1].ok ?
	    "%s is measured on held-out data" : "%s does not name a "
	    "validation or test set (eval_*, val*, test*)", g->c.metric ?
	    g->c.metric : "(none)");

	k[2].item = "hardware named";
	k[2].ok = g->hardware != NULL;
	len = (size_t)snprintf(k[2].detail, sizeof(k[2].detail), "%s%s; %s "
	    "backend; %zu host%s", g->hardware ? "hardware: " : "the spec has "
	    "no \"hardware\" key", g->hardware ? g->hardware : "",
	    g->c.backend ? g->c.backend : "unknown", g->nhosts,
	    g->nhosts == 1 ? "" : "s");
	for (i = 0; i < g->nhosts && len < sizeof(k[2].detail); i++)
		len += (size_t)snprintf(k[2].detail + len,
		    sizeof(k[2].detail) - len, "%s%s", i ? ", " : ": ",
		    g->hosts[i]);

	k[3].item = "seeds and failures reported";
	for (i = 0; i < g->ntrials; i++)
		confirm += g->runs[i].confirm;
	k[3].ok = g->scaling && g->seeds >= 2 && confirm > 0;
	if (g->scaling)
		snprintf(k[3].detail, sizeof(k[3].detail), "%d confirmation "
		    "runs (%d seeds per batch size, %d must reach the target); "
		    "%d failed and %d retried attempts", confirm, g->seeds,
		    g->min_successes, o[ACCT_OUT_FAILED].attempts,
		    o[ACCT_OUT_RETRIED].attempts);
	else
		snprintf(k[3].detail, sizeof(k[3].detail), "one seed per "
		    "configuration and no confirmation runs; %d failed and %d "
		    "retried attempts", o[ACCT_OUT_FAILED].attempts,
		    o[ACCT_OUT_RETRIED].attempts);
}

/*
 * Fill the time to solution, winner, MLPerf figures and checklist; -1
 * if memory ran out.
 */
int
guide_solution(struct guide *g)
{
	guide_tts(g);
	guide_winner(g);
	guide_overhead(g);
	if (guide_mlperf(g) == -1)
		return -1;
	guide_checklist(g);
	return 0;
}
