/*
 * report_html_sort.c: the table of trials of the HTML report, sortable in
 * the page without a script or a server.
 *
 * The table is a CSS grid whose rows are `display: contents`, so that
 * every cell is a grid item placed in `order`.  Each row carries its rank
 * in every column as a custom property (--o0, --o1, ...); a hidden radio
 * button per column, checked by clicking the column's header (a label),
 * selects which rank orders the cells, and a checkbox reverses it.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "report_html_trials.h"
#include "svg.h"
#include "trial_cost.h"
#include "report_alloc.h"

/* A cell: its sort key (a number, NAN if none, or a string) and text. */
struct hs_cell {
	double		 num;
	const char	*str;		/* borrowed; NULL: sort by num */
	char		 text[64];	/* what a number shows */
	const char	*list;		/* a marked number: "trial_list" or
					   "per_trial", */
	const char	*pre;		/* "params." or "" */
	const char	*key;		/* and its member there */
};

struct hs_table {
	size_t		 nrows, ncols;
	struct hs_cell	*cells;		/* nrows x ncols */
	const char	**heads;
	cJSON		**params;	/* per row, parsed */
	const size_t	*src;		/* per row, its index in g->trials */
	size_t		 col;		/* the column being ranked */
};

/* Order rows by the cell of the column being ranked; missing last. */
static int
hs_cmp(const void *a, const void *b, void *arg)
{
	const struct hs_table	*t = arg;
	const struct hs_cell	*x = &t->cells[*(const size_t *)a * t->ncols +
	    t->col], *y = &t->cells[*(const size_t *)b * t->ncols + t->col];

	if (x->str != NULL || y->str != NULL)
		return strcmp(x->str ? x->str : "\x7f", y->str ? y->str :
		    "\x7f");
	if (isnan(x->num) || isnan(y->num))
		return isnan(x->num) - isnan(y->num);
	return (x->num > y->num) - (x->num < y->num);
}

/* A number cell, marked with list.ROW.key when key is not NULL. */
static void
hs_num(struct hs_cell *c, double v, const char *list, const char *key)
{
	c->num = v;
	c->list = list;
	c->key = key;
	if (isfinite(v))
		svg_number(c->text, sizeof(c->text), v);
}

/* The parameter names: those of the first trial that has any. */
static cJSON *
hs_names(struct hs_table *t)
{
	size_t	 i;

	for (i = 0; i < t->nrows; i++)
		if (cJSON_GetArraySize(t->params[i]) > 0)
			return t->params[i];
	return NULL;
}

/* Fill row r from its trial of the guide. */
static void
hs_row(struct hs_table *t, const struct guide *g, size_t r, int gpu,
    const cJSON *names)
{
	size_t				 i = t->src[r];
	const struct ledger_trial	*tr = &g->trials[i];
	const struct guide_run		*run = &g->runs[i];
	struct hs_cell			*c = &t->cells[r * t->ncols];
	const cJSON			*n, *v;
	struct account_cost		 cost;

	trial_cost(g, i, &cost);
	hs_num(c++, tr->number, "trial_list", "trial");
	c++->str = tr->role ? tr->role : "search";
	c++->str = tr->state;
	cJSON_ArrayForEach(n, names) {
		v = cJSON_GetObjectItemCaseSensitive(t->params[r], n->string);
		if (cJSON_IsNumber(v)) {
			hs_num(c, v->valuedouble, "trial_list", n->string);
			c->pre = "params.";
		}
		else
			c->str = cJSON_IsString(v) ? v->valuestring : "";
		c++;
	}
	hs_num(c++, tr->has_best ? tr->best : NAN, "trial_list", "best");
	hs_num(c++, trial_epochs(g, i), "per_trial", "epochs");
	hs_num(c++, tr->attempts, "trial_list", "attempts");
	hs_num(c++, (gpu ? cost.gpu_seconds : cost.cpu_seconds) / 3600,
	    "per_trial", gpu ? "gpu_hours" : "cpu_hours");
	c++->str = run->has_attempt && run->attempt->job_id ?
	    run->attempt->job_id : "";
	c->str = run->has_attempt && run->attempt->host ?
	    run->attempt->host : "";
}

/* The style of the grid: one rule per column. */
static void
hs_style(FILE *f, const struct hs_table *t)
{
	size_t	 k;

	fprintf(f, "<style>\n.tt{display:grid;grid-template-columns:repeat("
	    "%zu,auto);font-size:.85em;width:max-content}\n"
	    ".tt .h,.tt .r{display:contents}\n.tt span{padding:.2em .5em;"
	    "border-bottom:1px solid #ddd;order:calc(var(--k,0)*var(--d,1))}"
	    "\n.tt .h span{order:-1000000;font-weight:bold;background:#f4f4f4}"
	    "\n.tt label{cursor:pointer}\n.tt .n{text-align:right;"
	    "font-variant-numeric:tabular-nums}\ninput.ts{display:none}\n"
	    "#ts-desc:checked~.wide .tt{--d:-1}\n", t->ncols);
	for (k = 0; k < t->ncols; k++)
		fprintf(f, "#ts-%zu:checked~.wide .tt .r{--k:var(--o%zu)}\n"
		    "#ts-%zu:checked~.wide .tt .h span:nth-child(%zu)"
		    "{background:#dde}\n", k, k, k, k + 1);
	fprintf(f, "</style>\n");
}

/* Write the grid: radios, header, rows with their ranks. */
static void
hs_write(FILE *f, struct hs_table *t, size_t *idx, size_t *rank)
{
	const struct hs_cell	*c;
	char			 key[256];
	size_t			 r, k;

	hs_style(f, t);
	for (k = 0; k < t->ncols; k++)
		fprintf(f, "<input class=\"ts\" type=\"radio\" name=\"ts\" "
		    "id=\"ts-%zu\"%s>\n", k, k == 0 ? " checked" : "");
	fprintf(f, "<input type=\"checkbox\" id=\"ts-desc\"> <label for=\""
	    "ts-desc\">descending</label> <span class=\"muted\">(click a "
	    "column's name to sort by it)</span>\n<div class=\"wide\">"
	    "<div class=\"tt\" id=\"trials-table\">\n<div class=\"h\">");
	for (k = 0; k < t->ncols; k++) {
		fprintf(f, "<span><label for=\"ts-%zu\">", k);
		svg_escape(f, t->heads[k]);
		fprintf(f, "</label></span>");
	}
	fprintf(f, "</div>\n");
	for (k = 0; k < t->ncols; k++) {
		t->col = k;
		for (r = 0; r < t->nrows; r++)
			idx[r] = r;
		qsort_r(idx, t->nrows, sizeof(*idx), hs_cmp, t);
		for (r = 0; r < t->nrows; r++)
			rank[idx[r] * t->ncols + k] = r;
	}
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "<div class=\"r\" style=\"");
		for (k = 0; k < t->ncols; k++)
			fprintf(f, "--o%zu:%zu;", k, rank[r * t->ncols + k]);
		fprintf(f, "\">");
		for (k = 0; k < t->ncols; k++) {
			c = &t->cells[r * t->ncols + k];
			if (c->str != NULL) {
				fprintf(f, "<span>");
				svg_escape(f, c->str);
			} else if (c->key != NULL && isfinite(c->num)) {
				fprintf(f, "<span class=\"n\">");
				snprintf(key, sizeof(key), "%s.%zu.%s%s",
				    c->list, t->src[r], c->pre ? c->pre : "",
				    c->key);
				html_num(f, key, 1, c->num);
			} else
				fprintf(f, "<span class=\"n\">%s", c->text);
			fprintf(f, "</span>");
		}
		fprintf(f, "</div>\n");
	}
	fprintf(f, "</div></div>\n");
}

/* Write the table of trials; -1 if memory ran out. */
int
html_trials_table(FILE *f, const struct guide *g, const struct html_shown *sh)
{
	static const char *const tail[] = { "value", "epochs", "attempts",
	    NULL, "job id", "host" };
	struct hs_table	 t;
	const cJSON	*names, *n;
	size_t		 i, k, *idx = NULL, *rank = NULL;
	int		 gpu, rc = -1;

	memset(&t, 0, sizeof(t));
	gpu = html_gpu(g);
	t.nrows = sh->n;
	t.src = sh->idx;
	if ((t.params = report_calloc(t.nrows + 1, sizeof(*t.params))) ==
	    NULL)
		return -1;
	for (i = 0; i < t.nrows; i++)
		t.params[i] = cJSON_Parse(g->trials[t.src[i]].params_json);
	names = hs_names(&t);
	t.ncols = 3 + (size_t)cJSON_GetArraySize(names) + 6;
	t.heads = report_calloc(t.ncols, sizeof(*t.heads));
	t.cells = report_calloc(t.nrows * t.ncols + 1, sizeof(*t.cells));
	idx = report_calloc(t.nrows + 1, sizeof(*idx));
	rank = report_calloc(t.nrows * t.ncols + 1, sizeof(*rank));
	if (t.heads == NULL || t.cells == NULL || idx == NULL || rank == NULL)
		goto out;
	t.heads[0] = "trial";
	t.heads[1] = "role";
	t.heads[2] = "state";
	k = 3;
	cJSON_ArrayForEach(n, names)
		t.heads[k++] = n->string;
	for (i = 0; i < 6; i++)
		t.heads[k + i] = tail[i] ? tail[i] : gpu ? "GPU-hours" :
		    "CPU-hours";
	for (i = 0; i < t.nrows; i++) {
		for (k = 0; k < t.ncols; k++)
			t.cells[i * t.ncols + k].num = NAN;
		hs_row(&t, g, i, gpu, names);
	}
	fprintf(f, "<h2 id=\"trials\">Trials</h2>\n");
	if (sh->limited)
		fprintf(f, "<p id=\"trials-shown\">Showing the %zu best "
		    "trials of %zu; all are in <code>hpoctl trials</code> and "
		    "the JSON report (<code>hpoctl report --format json</code>)."
		    "</p>\n", sh->n, sh->total);
	hs_write(f, &t, idx, rank);
	rc = 0;
 out:
	for (i = 0; i < t.nrows; i++)
		cJSON_Delete(t.params[i]);
	free(t.params);
	free(t.heads);
	free(t.cells);
	free(idx);
	free(rank);
	return rc;
}
