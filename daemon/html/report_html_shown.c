/*
 * report_html_shown.c: which trials the HTML page draws one by one.  A
 * page of every trial of a large campaign is too large for a browser
 * (144 MB at 10^5 trials), so above HTML_ALL_TRIALS trials the page shows
 * the HTML_SHOWN_TRIALS best ones (by value, for the campaign's goal,
 * then by number) as rows, points and curves, and the rest as densities
 * and per-epoch bands; every trial stays in `hpoctl trials` and the JSON
 * report.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_alloc.h"
#include "report_html_trials.h"

/* Order trial indexes: a value before none, the better value, the number. */
static int
shown_better_cmp(const void *a, const void *b, void *arg)
{
	const struct guide		*g = arg;
	const struct ledger_trial	*x = &g->trials[*(const size_t *)a];
	const struct ledger_trial	*y = &g->trials[*(const size_t *)b];
	int				 hx, hy;

	hx = x->has_best && isfinite(x->best);
	hy = y->has_best && isfinite(y->best);
	if (hx != hy)
		return hy - hx;
	if (hx && x->best != y->best)
		return (g->c.maximize ? x->best < y->best : x->best > y->best) ?
		    1 : -1;
	return (x->number > y->number) - (x->number < y->number);
}

/* Order trial indexes as the trials are: by number. */
static int
shown_index_cmp(const void *a, const void *b)
{
	size_t	 x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Choose the trials the page draws one by one; -1 if out of memory. */
int
html_shown_pick(const struct guide *g, struct html_shown *s)
{
	size_t	 i, *all;

	memset(s, 0, sizeof(*s));
	s->total = g->ntrials;
	s->limited = g->ntrials > HTML_ALL_TRIALS;
	s->is = report_calloc(g->ntrials + 1, 1);
	all = report_calloc(g->ntrials + 1, sizeof(*all));
	if (s->is == NULL || all == NULL) {
		free(s->is);
		free(all);
		memset(s, 0, sizeof(*s));
		return -1;
	}
	for (i = 0; i < g->ntrials; i++)
		all[i] = i;
	if (s->limited)
		qsort_r(all, g->ntrials, sizeof(*all), shown_better_cmp,
		    (void *)g);
	s->n = s->limited ? HTML_SHOWN_TRIALS : g->ntrials;
	qsort(all, s->n, sizeof(*all), shown_index_cmp);
	for (i = 0; i < s->n; i++)
		s->is[all[i]] = 1;
	s->idx = all;
	return 0;
}

/* Free what html_shown_pick() allocated. */
void
html_shown_release(struct html_shown *s)
{
	free(s->idx);
	free(s->is);
}
