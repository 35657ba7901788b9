/*
 * trials_opts.h: the options of `hpoctl trials` as a request carries them
 * ("state", "noheader", "parsable", "fields"), for the daemon and
 * `--ledger` alike.
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
/*
 * 0 if every comma-separated entry of list (--state) is a trial state,
 * else -1 with err naming the first that is not.
 */
int	 trials_states_check(const char *list, char *err, size_t errlen);
/*
 * trials_fields.c: render rows (the trial list's JSON form, whose params
 * it parses in place) as the comma-separated columns of list, in text
 * (padded, a header in capitals), CSV or parsable form; *out is the
 * caller's.  Return 0, -1 if memory ran out (the caller says so), or
 * -2 with err for an unknown column or JSON.
 */
int	 trials_fields_render(cJSON *rows, const char *list,
	    enum report_format, int noheader, int parsable, char **out,
	    char *err, size_t errlen);

#endif
