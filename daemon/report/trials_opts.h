/*
 * trials_opts.h: the options of `hpoctl trials` as a request carries them
 * ("state", "noheader", "parsable"), for the daemon and `--ledger` alike.
 */
#ifndef HPOD_TRIALS_OPTS_H
#define HPOD_TRIALS_OPTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "report.h"

/*
 * Render the trial list of campaign as req asks.  Return as
 * report_trials(), or -2 for a bad option (err names it).
 */
int	 trials_request(struct ledger *, const char *campaign,
	    enum report_format, const cJSON *req, char **out, char *err,
	    size_t errlen);

#endif
