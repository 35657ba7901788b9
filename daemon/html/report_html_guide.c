/*
 * report_html_guide.c: the batch-size scaling part of the HTML report:
 * epochs and time to target against the batch size, and the guideline
 * table, from the guide's rows (marked with the paths of `report --table
 * --format json`, prefixed "table.").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guide.h"
#include "report_html_trials.h"
#include "svg.h"

/* A cell of the guideline table: one number, or a range of two. */
struct hg_cell {
	const char	*key, *key2;	/* under table.rows.N. */
	int		 has, has2;
	double		 v, v2;
};

static const char *const hg_heads[] = {
	"batch size", "ranks", "local batch", "parameters", "confirmed",
	"successes / runs", "success rate", "95% Wilson",
	"epochs: olympic mean", "min&ndash;max", "mean", "std", "95% t",
	"time to target, s: olympic mean", "min&ndash;max", "95% t",
	"samples/s", "trials: tuning", "confirm", "node-hours", "GPU-hours",
	"CPU-hours"
};
#define HG_NCOLS	(sizeof(hg_heads) / sizeof(hg_heads[0]))

/* Set a cell. */
static void
hg_set(struct hg_cell *c, const char *key, int has, double v,
    const char *key2, double v2)
{
	c->key = key;
	c->has = has;
	c->v = v;
	c->key2 = key2;
	c->has2 = has && key2 != NULL;
	c->v2 = v2;
}

/* The cells of row r, in the order of hg_heads (parameters: none). */
static void
hg_cells(const struct guide_row *r, struct hg_cell *c)
{
	const struct guide_stats *e = &r->epochs, *t = &r->ttt;

	memset(c, 0, HG_NCOLS * sizeof(*c));
	hg_set(&c[0], "batch_size", r->batch_size > 0, (double)r->batch_size,
	    NULL, 0);
	hg_set(&c[1], "ranks", r->ranks > 0, r->ranks, NULL, 0);
	hg_set(&c[2], "local_batch", r->ranks > 0, (double)r->local_batch,
	    NULL, 0);
	hg_set(&c[5], "successes", 1, r->successes, "runs", r->runs);
	hg_set(&c[6], "success_rate", r->runs > 0, r->success_rate, NULL, 0);
	hg_set(&c[7], "success_rate_ci_low", r->runs > 0, r->rate_low,
	    "success_rate_ci_high", r->rate_high);
	hg_set(&c[8], "epochs.olympic_mean", e->n > 0, e->olympic_mean, NULL,
	    0);
	hg_set(&c[9], "epochs.min", e->n > 0, e->min, "epochs.max", e->max);
	hg_set(&c[10], "epochs.mean", e->n > 0, e->mean, NULL, 0);
	hg_set(&c[11], "epochs.std", e->n > 0, e->std, NULL, 0);
	hg_set(&c[12], "epochs.ci_low", e->has_ci, e->ci_low,
	    "epochs.ci_high", e->ci_high);
	hg_set(&c[13], "time_to_target_s.olympic_mean", t->n > 0,
	    t->olympic_mean, NULL, 0);
	hg_set(&c[14], "time_to_target_s.min", t->n > 0, t->min,
	    "time_to_target_s.max", t->max);
	hg_set(&c[15], "time_to_target_s.ci_low", t->has_ci, t->ci_low,
	    "time_to_target_s.ci_high", t->ci_high);
	hg_set(&c[16], "samples_per_s", r->samples_per_s > 0,
	    r->samples_per_s, NULL, 0);
	hg_set(&c[17], "trials.tuning", 1, r->trials_tuning, NULL, 0);
	hg_set(&c[18], "trials.confirm", 1, r->trials_confirm, NULL, 0);
	hg_set(&c[19], "cost.total.node_hours", 1,
	    r->total.node_seconds / 3600, NULL, 0);
	hg_set(&c[20], "cost.total.gpu_hours", 1, r->total.gpu_seconds / 3600,
	    NULL, 0);
	hg_set(&c[21], "cost.total.cpu_hours", 1, r->total.cpu_seconds / 3600,
	    NULL, 0);
}

/* One plot: a row's statistics s against the batch size. */
static void
hg_plot(FILE *f, const struct guide *g, int epochs, const char *ylabel)
{
	const struct guide_stats *s;
	struct svg_plot	 pl;
	char		 key[256], num[32];
	const char	*id = epochs ? "epochs" : "time_to_target_s";
	double		 y1 = 0;
	size_t		 i;

	for (i = 0; i < g->nrows; i++) {
		s = epochs ? &g->rows[i].epochs : &g->rows[i].ttt;
		if (s->n > 0)
			y1 = fmax(y1, fmax(s->max, s->olympic_mean));
	}
	fprintf(f, "<figure id=\"plot-%s\">\n", id);
	svg_begin(&pl, f, 420, 300, -0.5, g->nrows - 0.5, 0,
	    y1 > 0 ? y1 * 1.1 : 1, ylabel);
	svg_axes(&pl, "global batch size", ylabel, 0);
	for (i = 0; i < g->nrows; i++) {
		s = epochs ? &g->rows[i].epochs : &g->rows[i].ttt;
		if (g->rows[i].batch_size > 0)
			svg_number(num, sizeof(num),
			    (double)g->rows[i].batch_size);
		else
			snprintf(num, sizeof(num), "-");
		svg_xlabel(&pl, i, num);
		if (s->n == 0)
			continue;
		svg_range(&pl, i, s->min, s->max, svg_color(0));
		snprintf(key, sizeof(key), "table.rows.%zu.%s.olympic_mean", i,
		    id);
		svg_point(&pl, i, s->olympic_mean, svg_color(1), key);
	}
	svg_legend(&pl, 0, svg_color(0), "min-max over seeds");
	svg_legend(&pl, 1, svg_color(1), "olympic mean");
	svg_end(&pl);
	fprintf(f, "</figure>\n");
}

/* A cell of the table. */
static void
hg_cell(FILE *f, size_t row, const struct hg_cell *c)
{
	char	 key[256];

	snprintf(key, sizeof(key), "table.rows.%zu.%s", row, c->key);
	html_num(f, key, c->has, c->v);
	if (!c->has2)
		return;
	fputs(strcmp(c->key, "successes") == 0 ? " / " : "&ndash;", f);
	snprintf(key, sizeof(key), "table.rows.%zu.%s", row, c->key2);
	html_num(f, key, 1, c->v2);
}

/* The table, a row per batch size. */
static void
hg_table(FILE *f, const struct guide *g)
{
	struct hg_cell	 c[HG_NCOLS];
	char		 prefix[64];
	size_t		 i, k;

	fprintf(f, "<div class=\"wide\"><table id=\"guideline\"><tr>");
	for (k = 0; k < HG_NCOLS; k++)
		fprintf(f, "<th>%s</th>", hg_heads[k]);
	fprintf(f, "</tr>\n");
	for (i = 0; i < g->nrows; i++) {
		hg_cells(&g->rows[i], c);
		fprintf(f, "<tr>");
		for (k = 0; k < HG_NCOLS; k++) {
			fprintf(f, "<td%s>", k == 3 || k == 4 ? "" :
			    " class=\"n\"");
			if (k == 3) {
				snprintf(prefix, sizeof(prefix),
				    "table.rows.%zu.params", i);
				html_params(f, prefix, g->rows[i].params_json);
			} else if (k == 4)
				fputs(g->rows[i].confirmed ? "yes" : "no", f);
			else
				hg_cell(f, i, &c[k]);
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table></div>\n");
	if (guide_table_from_text(g) != NULL) {
		/* A constant sentence: nothing to escape. */
		fprintf(f, "<p class=\"muted\" id=\"ttt-from\">%s.</p>\n",
		    guide_table_from_text(g));
	}
}

/* The scaling plots and the guideline table. */
void
html_guideline(FILE *f, const struct guide *g)
{
	char	 label[64];

	fprintf(f, "<h2 id=\"scaling\">Batch-size scaling</h2>\n");
	if (g->nrows == 0) {
		fprintf(f, "<p class=\"muted\">No guideline table: the "
		    "campaign has no batch size that reached the target."
		    "</p>\n");
		return;
	}
	fprintf(f, "<div class=\"figs\">\n");
	snprintf(label, sizeof(label), "%s to target", g->epoch_unit != NULL ?
	    g->epoch_unit : "epochs");
	hg_plot(f, g, 1, label);
	hg_plot(f, g, 0, "time to target, s");
	fprintf(f, "</div>\n<p>");
	if (g->scaling) {
		fprintf(f, "Learning-rate rule ");
		svg_escape(f, g->lr_rule);
		fprintf(f, " on ");
		svg_escape(f, g->lr_param);
		fprintf(f, "; ");
		html_num(f, "table.seeds", 1, g->seeds);
		fprintf(f, " seeds per batch size, ");
		html_num(f, "table.min_successes", 1, g->min_successes);
		fprintf(f, " of them on target to confirm it. ");
	}
	fprintf(f, "Total: ");
	html_num(f, "table.total.trials", 1, g->total_trials);
	fprintf(f, " trials, ");
	html_num(f, "table.total.node_hours", 1, g->total.node_seconds / 3600);
	fprintf(f, " node-hours, ");
	html_num(f, "table.total.gpu_hours", 1, g->total.gpu_seconds / 3600);
	fprintf(f, " GPU-hours, ");
	html_num(f, "table.total.cpu_hours", 1, g->total.cpu_seconds / 3600);
	fprintf(f, " CPU-hours.</p>\n");
	hg_table(f, g);
}
