/*
 * report.h: what hpoctl and the daemon print about campaigns: the report
 * (cost, time-to-solution, best), the trial list and the status lines.
 * Both render from the ledger, so the foreground engine and the daemon
 * give the same answers.  Output is a malloc'ed string.
 */
#ifndef HPOD_REPORT_H
#define HPOD_REPORT_H

#include <stddef.h>

#include "ledger.h"

/*
 * Markdown and RCP are for the guideline table only; HTML is the report
 * page of report_html.c.
 */
enum report_format {
	REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_MARKDOWN, REPORT_RCP,
	REPORT_HTML
};

/* Parse "text", "json", "csv", "markdown", "rcp" or "html"; -1 otherwise. */
int	 report_format_parse(const char *, enum report_format *);

/*
 * Each returns 0 with *out set, 1 if there is no such campaign (err says
 * so), -1 on a ledger error.  campaign is a name or an id.
 */
int	 report_campaign(struct ledger *, const char *campaign,
	    enum report_format, char **out, char *err, size_t errlen);
int	 report_trials(struct ledger *, const char *campaign,
	    enum report_format, char **out, char *err, size_t errlen);
/* How `hpoctl trials` filters and shapes the list (report_trials.c). */
struct trials_opts {
	const char	*states;	/* "running,failed"; NULL: every state */
	int		 noheader;	/* -h: no header line */
	int		 parsable;	/* '|'-separated CSV columns, no quotes */
	const char	*fields;	/* "trial,lr": these columns; NULL: all */
};
int	 report_trials_opts(struct ledger *, const char *campaign,
	    enum report_format, const struct trials_opts *, char **out,
	    char *err, size_t errlen);
/* The guideline table: one row per global batch size (guide.h). */
int	 report_table(struct ledger *, const char *campaign,
	    enum report_format, char **out, char *err, size_t errlen);
/* campaign NULL: one line per campaign. */
int	 report_status(struct ledger *, const char *campaign,
	    enum report_format, char **out, char *err, size_t errlen);

/*
 * -2 with err if read command cmd does not render fmt (html is the
 * report's, markdown and rcp the guideline table's), else 0.
 */
int	 report_format_check(const char *cmd, enum report_format,
	    char *err, size_t errlen);

/*
 * Render the output of a read command by name ("status", "trials",
 * "report" or "watch", whose output is always JSON), as both the daemon
 * and `hpoctl --ledger` answer it.  Return as the functions above, or -2
 * for an unknown command (err says so).
 */
int	 report_command(struct ledger *, const char *cmd, const char *campaign,
	    enum report_format, char **out, char *err, size_t errlen);

#endif
