/*
 * report_html_trials.h: the trial-level parts of the HTML report: the
 * optimization history with the target, the learning curves of every
 * attempt, and a table of the trials that sorts in the page (CSS only).
 */
#ifndef HPOD_REPORT_HTML_TRIALS_H
#define HPOD_REPORT_HTML_TRIALS_H

#include <stdio.h>

#include "guide.h"

/* Write the history and the learning curves of the guide's campaign. */
void	 html_trials_plots(FILE *, const struct guide *);
/*
 * Write the table of trials; its numbers are marked with the paths of
 * `hpoctl trials --format json`, prefixed "trial_list." ("trial_list.3.best" is
 * the member best of its fourth element).
 */
void	 html_trials_table(FILE *, const struct guide *);

#endif
