/*
 * fg.h: the foreground engine of `hpoctl run`, `hpoctl resume` and
 * `hpoctl cancel --ledger`: one campaign on hpoctl's own event loop, with
 * no daemon, until it ends; then its report.
 */
#ifndef HPOD_FG_H
#define HPOD_FG_H

#include "config.h"
#include "report.h"

/*
 * Run command cmd ("run", "resume" or "cancel") on operand (a spec file,
 * or the name or id of a campaign of cfg's ledger to take back) and print
 * the campaign's report in fmt.  Progress goes to stderr unless quiet.
 * The exit status: 0 when the campaign ended as asked, 2 when it did not,
 * 1 on error (said on stderr).
 */
int	 fg_run(struct config *cfg, const char *cmd, const char *operand,
	    int quiet, enum report_format fmt);

#endif
