/*
 * report_html_trials.h: the trial-level parts of the HTML report: the
 * optimization history with the target, the learning curves of every
 * attempt, and a table of the trials that sorts in the page (CSS only).
 */
#ifndef HPOD_REPORT_HTML_TRIALS_H
#define HPOD_REPORT_HTML_TRIALS_H

#include <stdio.h>

#include "guide.h"

/* The colour of a trial or attempt state. */
const char	*html_state_color(const char *state);
/* Write the history and the learning curves of the guide's campaign. */
void	 html_trials_plots(FILE *, const struct guide *);
/*
 * Write the table of trials; its numbers are marked with the paths of
 * `hpoctl trials --format json`, prefixed "trial_list." ("trial_list.3.best" is
 * the member best of its fourth element).
 */
void	 html_trials_table(FILE *, const struct guide *);

/*
 * Write value against each parameter, parallel coordinates and the
 * parameters' importance (report_html_params.c).
 */
void	 html_params_plots(FILE *, const struct guide *);
/* Write the cost over wall time by outcome (report_html_cost.c). */
void	 html_cost_plot(FILE *, const struct guide *);
/*
 * The share of the variance of n values explained by their groups
 * (0..63): the variance of the group means, weighted by group size, over
 * the variance of the values (eta squared).  NAN under 3 values or
 * without variance.
 */
double	 html_eta2(const double *val, const int *grp, size_t n);

#endif
