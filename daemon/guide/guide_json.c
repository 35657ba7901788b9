/*
 * guide_json.c: the guideline table as JSON: the tree of hpoctl(1)'s
 * schema (guide_table_json) and MLCommons' reference-convergence-point
 * (RCP) form (guide_table_rcp).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "guide.h"
#include "guide_int.h"
#include "rcp.h"
#include "report_int.h"
#include "space.h"
#include "report_alloc.h"

/* The cost of a set of attempts in hours (see guide_int.h). */
cJSON *
guide_json_cost(const struct account_cost *c, int attempts)
{
	cJSON	*o = cJSON_CreateObject();

	if (attempts)
		cJSON_AddNumberToObject(o, "attempts", c->attempts);
	report_json_number(o, "node_hours", 1, c->node_seconds / 3600);
	report_json_number(o, "gpu_hours", 1, c->gpu_seconds / 3600);
	report_json_number(o, "cpu_hours", 1, c->cpu_seconds / 3600);
	return o;
}

/* The params of a row as a JSON object (empty if none). */
cJSON *
guide_json_params(const struct guide_row *r)
{
	cJSON	*p = r->params_json ? cJSON_Parse(r->params_json) : NULL;

	if (!cJSON_IsObject(p)) {
		cJSON_Delete(p);
		p = cJSON_CreateObject();
	}
	return p;
}

/* One row as a JSON object; published results have no trials or cost. */
static cJSON *
guide_json_row(const struct guide *g, const struct guide_row *r)
{
	cJSON	*o = cJSON_CreateObject(), *s;

	/* A workload without a batch size: null, not 0. */
	report_json_number(o, "batch_size", r->batch_size > 0,
	    (double)r->batch_size);
	report_json_number(o, "ranks", r->ranks > 0, r->ranks);
	report_json_number(o, "local_batch", r->ranks > 0,
	    (double)r->local_batch);
	report_json_add(o, "params", guide_json_params(r));
	cJSON_AddBoolToObject(o, "confirmed", r->confirmed);
	if (g->scaling) {
		cJSON_AddNumberToObject(o, "candidates", r->candidates);
		report_json_number(o, "candidate_trial", r->params_trial >= 0,
		    r->params_trial);
	}
	cJSON_AddNumberToObject(o, "runs", r->runs);
	cJSON_AddNumberToObject(o, "successes", r->successes);
	report_json_number(o, "success_rate", r->runs > 0, r->success_rate);
	report_json_number(o, "success_rate_ci_low", r->runs > 0,
	    r->rate_low);
	report_json_number(o, "success_rate_ci_high", r->runs > 0,
	    r->rate_high);
	s = cJSON_AddObjectToObject(o, "epochs");
	report_json_number(s, "olympic_mean", r->epochs.n > 0,
	    r->epochs.olympic_mean);
	report_json_number(s, "mean", r->epochs.n > 0, r->epochs.mean);
	report_json_number(s, "std", r->epochs.n > 0, r->epochs.std);
	report_json_number(s, "min", r->epochs.n > 0, r->epochs.min);
	report_json_number(s, "max", r->epochs.n > 0, r->epochs.max);
	report_json_number(s, "ci_low", r->epochs.has_ci, r->epochs.ci_low);
	report_json_number(s, "ci_high", r->epochs.has_ci, r->epochs.ci_high);
	s = cJSON_AddObjectToObject(o, "time_to_target_s");
	report_json_number(s, "olympic_mean", r->ttt.n > 0,
	    r->ttt.olympic_mean);
	report_json_number(s, "mean", r->ttt.n > 0, r->ttt.mean);
	report_json_number(s, "min", r->ttt.n > 0, r->ttt.min);
	report_json_number(s, "max", r->ttt.n > 0, r->ttt.max);
	report_json_number(s, "ci_low", r->ttt.has_ci, r->ttt.ci_low);
	report_json_number(s, "ci_high", r->ttt.has_ci, r->ttt.ci_high);
	guide_json_from(s, "from", r->ttt_from);
	report_json_number(o, "samples_per_s", r->samples_per_s > 0,
	    r->samples_per_s);
	if (g->published) {
		cJSON_AddNullToObject(o, "trials");
		cJSON_AddNullToObject(o, "cost");
		return o;
	}
	s = cJSON_AddObjectToObject(o, "trials");
	cJSON_AddNumberToObject(s, "tuning", r->trials_tuning);
	cJSON_AddNumberToObject(s, "confirm", r->trials_confirm);
	s = cJSON_AddObjectToObject(o, "cost");
	report_json_add(s, "tuning", guide_json_cost(&r->tuning, 0));
	report_json_add(s, "confirm", guide_json_cost(&r->confirm, 0));
	report_json_add(s, "total", guide_json_cost(&r->total, 0));
	return o;
}

/* The table as a JSON tree (the schema of hpoctl(1)). */
cJSON *
guide_table_json(const struct guide *g)
{
	const struct account_cost *idle;
	cJSON	*root = cJSON_CreateObject(), *o, *rows;
	size_t	 i;

	if (g->published) {
		o = cJSON_AddObjectToObject(root, "published");
		cJSON_AddStringToObject(o, "benchmark", g->c.workload);
		cJSON_AddStringToObject(o, "metric", g->c.metric);
		cJSON_AddStringToObject(o, "goal", g->c.maximize ? "max" :
		    "min");
		cJSON_AddNumberToObject(o, "target", g->c.target);
		cJSON_AddStringToObject(o, "epoch_unit", g->epoch_unit);
		cJSON_AddNumberToObject(o, "result_folders", g->nsets);
		cJSON_AddNumberToObject(o, "runs", g->total_trials);
	}
	o = cJSON_AddObjectToObject(root, "campaign");
	cJSON_AddNumberToObject(o, "id", (double)g->c.id);
	cJSON_AddStringToObject(o, "name", g->c.name);
	cJSON_AddStringToObject(o, "workload", g->c.workload);
	cJSON_AddStringToObject(o, "metric", g->c.metric);
	cJSON_AddStringToObject(o, "goal", g->c.maximize ? "max" : "min");
	report_json_number(o, "target", g->c.has_target, g->c.target);
	if (!g->published) {
		cJSON_AddStringToObject(o, "epoch_unit", g->epoch_unit ?
		    g->epoch_unit : "epochs");
		guide_json_from(o, "time_to_target_from",
		    guide_table_from(g));
	}
	if (g->scaling) {
		cJSON_AddStringToObject(root, "lr_rule", g->lr_rule);
		cJSON_AddStringToObject(root, "lr_param", g->lr_param);
		cJSON_AddNumberToObject(root, "seeds", g->seeds);
		cJSON_AddNumberToObject(root, "min_successes",
		    g->min_successes);
	} else {
		cJSON_AddNullToObject(root, "lr_rule");
		cJSON_AddNullToObject(root, "lr_param");
		cJSON_AddNullToObject(root, "seeds");
		cJSON_AddNullToObject(root, "min_successes");
	}
	o = cJSON_AddObjectToObject(root, "intervals");
	cJSON_AddNumberToObject(o, "level", GUIDE_LEVEL);
	cJSON_AddStringToObject(o, "epochs", "student-t");
	cJSON_AddStringToObject(o, "time_to_target", "student-t");
	cJSON_AddStringToObject(o, "success_rate", "wilson");
	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < g->nrows; i++)
		report_json_add(rows, NULL, guide_json_row(g, &g->rows[i]));
	if (g->published) {
		cJSON_AddNullToObject(root, "total");
		return root;
	}
	o = cJSON_AddObjectToObject(root, "total");
	cJSON_AddNumberToObject(o, "trials", g->total_trials);
	report_json_number(o, "node_hours", 1, g->total.node_seconds / 3600);
	report_json_number(o, "gpu_hours", 1, g->total.gpu_seconds / 3600);
	report_json_number(o, "cpu_hours", 1, g->total.cpu_seconds / 3600);
	idle = &g->acct.by_outcome[ACCT_OUT_PILOT_IDLE];
	o = cJSON_AddObjectToObject(o, "pilot_idle");
	report_json_number(o, "node_hours", 1, idle->node_seconds / 3600);
	report_json_number(o, "gpu_hours", 1, idle->gpu_seconds / 3600);
	report_json_number(o, "cpu_hours", 1, idle->cpu_seconds / 3600);
	return root;
}

/* A [low, high] pair, or null. */
static void
guide_json_pair(cJSON *o, const char *k, int has, double lo, double hi)
{
	cJSON	*a;

	if (!has) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	a = cJSON_AddArrayToObject(o, k);
	report_json_add(a, NULL, cJSON_CreateNumber(lo));
	report_json_add(a, NULL, cJSON_CreateNumber(hi));
}

/*
 * The statistics of an RCP entry: those rcp_checker derives from the
 * epochs (RCP Mean, RCP Stdev, Min Epochs and Max Speedup for as many
 * submission runs as the row has), and the table's own figures under
 * "hpod": runs, success rate and the intervals.  -1 if memory ran out.
 */
static int
guide_rcp_stats(cJSON *o, const struct guide_row *r)
{
	struct rcp_point	 p;
	cJSON			*h;

	memset(&p, 0, sizeof(p));
	p.n = r->nepochs;
	if ((p.epochs = report_calloc(p.n + 1, sizeof(double))) == NULL)
		return -1;
	memcpy(p.epochs, r->epochs_list, p.n * sizeof(double));
	rcp_point_stats(&p, r->runs > 3 ? r->runs : 3);
	free(p.epochs);
	report_json_number(o, "RCP Mean", 1, p.mean);
	report_json_number(o, "RCP Stdev", 1, p.stdev);
	report_json_number(o, "Min Epochs", 1, p.min_epochs);
	report_json_number(o, "Max Speedup", 1, p.max_speedup);
	h = cJSON_AddObjectToObject(o, "hpod");
	cJSON_AddNumberToObject(h, "runs", r->runs);
	cJSON_AddNumberToObject(h, "successes", r->successes);
	report_json_number(h, "success_rate", r->runs > 0, r->success_rate);
	guide_json_pair(h, "success_rate_ci", r->runs > 0, r->rate_low,
	    r->rate_high);
	report_json_number(h, "epochs_mean", r->epochs.n > 0, r->epochs.mean);
	guide_json_pair(h, "epochs_ci", r->epochs.has_ci, r->epochs.ci_low,
	    r->epochs.ci_high);
	report_json_number(h, "time_to_target_s", r->ttt.n > 0,
	    r->ttt.olympic_mean);
	guide_json_pair(h, "time_to_target_ci_s", r->ttt.has_ci,
	    r->ttt.ci_low, r->ttt.ci_high);
	cJSON_AddNumberToObject(h, "level", GUIDE_LEVEL);
	cJSON_AddStringToObject(h, "intervals", "success rate: Wilson; "
	    "epochs and time to target: Student t of the mean");
	return 0;
}

/*
 * The table in MLCommons' RCP form: one entry per batch size with runs
 * that reached the target (a scaling campaign: confirmed ones only),
 * keyed "<benchmark>_hpod_<BS>".  NULL if memory ran out.
 */
char *
guide_table_rcp(const struct guide *g)
{
	const struct guide_row	*r;
	cJSON			*root = cJSON_CreateObject(), *o, *a, *h, *p, *v;
	char			 key[256], num[64];
	size_t			 i, j;

	for (i = 0; i < g->nrows; i++) {
		r = &g->rows[i];
		if (r->nepochs == 0 || (g->scaling && !r->confirmed))
			continue;
		if (r->batch_size > 0)
			snprintf(key, sizeof(key), "%s_%s_%ld", g->c.workload,
			    g->published ? "mllog" : "hpod", r->batch_size);
		else
			snprintf(key, sizeof(key), "%s_%s", g->c.workload,
			    g->published ? "mllog" : "hpod");
		o = cJSON_AddObjectToObject(root, key);
		cJSON_AddStringToObject(o, "Benchmark", g->c.workload);
		report_json_number(o, "BS", r->batch_size > 0,
		    (double)r->batch_size);
		a = cJSON_AddArrayToObject(o, "Epochs to converge");
		for (j = 0; j < r->nepochs; j++) {
			space_shortest(r->epochs_list[j], num, sizeof(num));
			report_json_add(a, NULL, cJSON_CreateRaw(num));
		}
		if (guide_rcp_stats(o, r) == -1) {
			cJSON_Delete(root);
			return NULL;
		}
		h = cJSON_AddObjectToObject(o, "Hyperparams");
		report_json_number(h, "global_batch_size", r->batch_size > 0,
		    (double)r->batch_size);
		p = guide_json_params(r);
		while (p != NULL && (v = p->child) != NULL) {
			cJSON_DetachItemViaPointer(p, v);
			if (strcmp(v->string, g->batch_param) == 0)
				cJSON_Delete(v);
			else
				report_json_add(h, v->string, v);
		}
		cJSON_Delete(p);
	}
	return report_json_text(root);
}
