/*
 * guide_mllog.c: guideline tables from published MLPerf result folders
 * (see guide_mllog() in guide.h): what the runs of each benchmark and
 * global batch size achieved, with the same statistics and intervals as a
 * campaign's table, so that the two can be read side by side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "score.h"
#include "xmalloc.h"

/*
 * The time-to-train values of a row, gathered before the statistics, and
 * whether a run reached the target at an evaluation with no epoch_num.
 */
struct gm_ttt {
	double		*v;
	size_t		 n;
	int		 epochs_unknown;
};

/* Append v to a list of n doubles. */
static double *
gm_push(double *list, size_t *n, double v)
{
	list = xreallocarray(list, *n + 1, sizeof(*list));
	list[(*n)++] = v;
	return list;
}

/* The table of benchmark name among *n, created in name order. */
static struct guide *
gm_table(struct guide **t, size_t *n, struct gm_ttt ***ttt,
    const struct score_run *r)
{
	struct guide	*g;
	size_t		 i;

	for (i = 0; i < *n && strcmp((*t)[i].c.workload, r->benchmark) < 0;
	    i++)
		;
	if (i < *n && strcmp((*t)[i].c.workload, r->benchmark) == 0)
		return &(*t)[i];
	*t = xreallocarray(*t, *n + 1, sizeof(**t));
	*ttt = xreallocarray(*ttt, *n + 1, sizeof(**ttt));
	memmove(*t + i + 1, *t + i, (*n - i) * sizeof(**t));
	memmove(*ttt + i + 1, *ttt + i, (*n - i) * sizeof(**ttt));
	(*n)++;
	g = &(*t)[i];
	(*ttt)[i] = NULL;
	memset(g, 0, sizeof(*g));
	g->published = 1;
	g->c.id = -1;
	g->c.name = xstrdup(r->benchmark);
	g->c.workload = xstrdup(r->benchmark);
	g->c.metric = xstrdup(r->metric);
	g->c.maximize = r->goal == SCORE_MAX;
	g->c.has_target = 1;
	g->c.target = r->target;
	g->epoch_unit = r->epoch_unit;
	g->batch_param = xstrdup("global_batch_size");
	return g;
}

/* The row of a batch size in g, created in order; its index in *idx. */
static struct guide_row *
gm_row(struct guide *g, struct gm_ttt **ttt, long bs)
{
	struct guide_row	*row;
	size_t			 i;

	for (i = 0; i < g->nrows && g->rows[i].batch_size < bs; i++)
		;
	if (i < g->nrows && g->rows[i].batch_size == bs)
		return &g->rows[i];
	g->rows = xreallocarray(g->rows, g->nrows + 1, sizeof(*g->rows));
	*ttt = xreallocarray(*ttt, g->nrows + 1, sizeof(**ttt));
	memmove(g->rows + i + 1, g->rows + i, (g->nrows - i) *
	    sizeof(*g->rows));
	memmove(*ttt + i + 1, *ttt + i, (g->nrows - i) * sizeof(**ttt));
	g->nrows++;
	row = &g->rows[i];
	memset(row, 0, sizeof(*row));
	memset(&(*ttt)[i], 0, sizeof((*ttt)[i]));
	row->batch_size = row->key = bs;
	row->params_trial = row->done_trial = -1;
	return row;
}

/* Count one run into its table and row. */
static void
gm_add(struct guide *g, struct gm_ttt **ttt, const struct score_run *r)
{
	struct guide_row	*row = gm_row(g, ttt, (long)r->gbs);
	struct gm_ttt		*t = &(*ttt)[row - g->rows];

	row->runs++;
	g->total_trials++;
	if (row->params_json == NULL && r->hparams != NULL)
		row->params_json = xstrdup(r->hparams);
	if (!r->reached)
		return;
	row->successes++;
	if (r->has_epochs)
		row->epochs_list = gm_push(row->epochs_list, &row->nepochs,
		    r->epochs);
	else
		t->epochs_unknown = 1;
	t->v = gm_push(t->v, &t->n, r->ttt_ms / 1000.0);
	row->ttt_from |= GUIDE_FROM_RUN_START;
}

/* Score one folder into the tables; -1 with err. */
static int
gm_dir(const char *dir, const struct score_rule *rule, FILE *warn,
    struct guide **t, size_t *n, struct gm_ttt ***ttt, char *err,
    size_t errlen)
{
	struct score_run *runs;
	struct guide	 *g;
	size_t		  nruns, i, k;
	int		  rc = 0;

	if (score_dir(dir, rule, &runs, &nruns, err, errlen) == -1)
		return -1;
	for (i = 0; i < nruns && rc == 0; i++) {
		if (warn != NULL)
			score_warn(warn, "hpoctl", &runs[i]);
		if (warn != NULL && runs[i].reached && !runs[i].has_epochs)
			fprintf(warn, "hpoctl: warning: %s: the evaluation that "
			    "met the target has no epoch_num: its row has no "
			    "epochs to target\n", runs[i].file);
		if (runs[i].benchmark[0] == '\0' || !runs[i].has_gbs ||
		    !(runs[i].gbs >= 1)) {
			snprintf(err, errlen, "%s: no %s", runs[i].file,
			    runs[i].benchmark[0] == '\0' ?
			    "submission_benchmark" : "global_batch_size");
			rc = -1;
			break;
		}
		g = gm_table(t, n, ttt, &runs[i]);
		k = (size_t)(g - *t);
		if (strcmp(g->c.metric, runs[i].metric) != 0 ||
		    g->c.target != runs[i].target) {
			snprintf(err, errlen, "%s: %s %g, but other %s runs "
			    "have %s %g", runs[i].file, runs[i].metric,
			    runs[i].target, g->c.workload, g->c.metric,
			    g->c.target);
			rc = -1;
			break;
		}
		gm_add(g, &(*ttt)[k], &runs[i]);
		if (i == 0)
			g->nsets++;
	}
	for (i = 0; i < nruns; i++)
		score_run_release(&runs[i]);
	free(runs);
	return rc;
}

/* The tables of published results. */
int
guide_mllog(char **dirs, int ndirs, const struct score_rule *rule,
    FILE *warn, struct guide **out, size_t *nout, char *err, size_t errlen)
{
	struct gm_ttt	**ttt = NULL;
	struct guide_row *row;
	struct gm_ttt	 *t;
	size_t		  n = 0, i, j;
	int		  k, rc = 0;

	*out = NULL;
	for (k = 0; k < ndirs && rc == 0; k++)
		rc = gm_dir(dirs[k], rule, warn, out, &n, &ttt, err,
		    errlen);
	for (i = 0; i < n; i++) {
		for (j = 0; j < (*out)[i].nrows; j++) {
			row = &(*out)[i].rows[j];
			t = &ttt[i][j];
			/*
			 * The epochs of some runs on target only: none, as
			 * mllog --summary says, not those of the others.
			 */
			if (t->epochs_unknown) {
				free(row->epochs_list);
				row->epochs_list = NULL;
				row->nepochs = 0;
			}
			row->success_rate = guide_rate(row->successes,
			    row->runs);
			guide_ci_wilson(row->successes, row->runs, GUIDE_Z,
			    &row->rate_low, &row->rate_high);
			guide_stats(row->epochs_list, row->nepochs,
			    &row->epochs);
			guide_stats(t->v, t->n, &row->ttt);
			free(t->v);
		}
		free(ttt[i]);
	}
	free(ttt);
	if (rc == -1) {
		for (i = 0; i < n; i++)
			guide_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		n = 0;
	}
	*nout = n;
	return rc;
}
