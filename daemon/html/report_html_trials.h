/*
 * report_html_trials.h: the parts of the HTML report (report_html*.c) and
 * what they share: the optimization history with the target, the learning
 * curves of every attempt, a table of the trials that sorts in the page
 * (CSS only), the parameters, the cost, the guideline table and the
 * tables under the headline.
 */
#ifndef HPOD_REPORT_HTML_TRIALS_H
#define HPOD_REPORT_HTML_TRIALS_H

#include <stdio.h>

#include "guide.h"

/*
 * The trials the page draws one by one (report_html_shown.c): all of
 * them up to HTML_ALL_TRIALS, else the HTML_SHOWN_TRIALS best by value
 * (then number); the others are drawn as densities and bands.
 */
#define HTML_ALL_TRIALS		2000
#define HTML_SHOWN_TRIALS	500
struct html_shown {
	size_t		 n;		/* shown */
	size_t		*idx;		/* their indexes in g->trials, in order */
	char		*is;		/* per trial of g->trials: shown */
	size_t		 total;		/* g->ntrials */
	int		 limited;	/* n < total */
};
/* -1 if memory ran out (nothing to release then). */
int	 html_shown_pick(const struct guide *, struct html_shown *);
void	 html_shown_release(struct html_shown *);

/* The colour of a trial or attempt state. */
const char	*html_state_color(const char *state);
/*
 * Write the history and the learning curves of the guide's campaign.
 * Each part that allocates returns -1 if memory ran out.
 */
int	 html_trials_plots(FILE *, const struct guide *,
	    const struct html_shown *);
/*
 * Write the table of trials; its numbers are marked with the paths of
 * `hpoctl trials --format json`, prefixed "trial_list." ("trial_list.3.best" is
 * the member best of its fourth element), and its epochs and cost with
 * those of the report's "per_trial".
 */
int	 html_trials_table(FILE *, const struct guide *,
	    const struct html_shown *);

/*
 * Write value against each parameter, parallel coordinates and the
 * parameters' importance (report_html_params.c).
 */
int	 html_params_plots(FILE *, const struct guide *,
	    const struct html_shown *);
/* Write the cost over wall time by outcome (report_html_cost.c). */
int	 html_cost_plot(FILE *, const struct guide *);
/* Write the cost by outcome, a chart and a table (report_html_cost.c). */
void	 html_outcomes(FILE *, const struct guide *);
/* Write the scaling plots and the guideline table (report_html_guide.c). */
void	 html_guideline(FILE *, const struct guide *);
/* Write the tables under the headline (report_html_detail.c). */
void	 html_details(FILE *, const struct guide *);

/*
 * Shared by the parts (report_html.c).  html_num() writes v marked with
 * key, the path of its JSON member, and its exact value, or a dash when
 * !has or v is not finite.  html_cost_cells() writes three cells of
 * node-, GPU- and CPU-hours marked prefix.node_hours and so on.
 * html_params() writes a trial's parameters (JSON text), numbers marked
 * prefix.NAME.  html_gpu(): whether the cost is counted in GPU-hours.
 */
void	 html_num(FILE *, const char *key, int has, double v);
void	 html_cost_cells(FILE *, const char *prefix,
	    const struct account_cost *);
void	 html_params(FILE *, const char *prefix, const char *json);
int	 html_gpu(const struct guide *);

#endif
