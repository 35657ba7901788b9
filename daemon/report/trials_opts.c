/*
 * trials_opts.c: `hpoctl trials --state LIST -h --parsable`, checked and
 * handed to the renderer (report_trials_opts()).
 */
#include <stdio.h>
#include <string.h>

#include "state.h"
#include "trials_opts.h"

/* 0 if every comma-separated entry of list is a trial state. */
static int
trials_states_check(const char *list, char *err, size_t errlen)
{
	const char	*p, *end;
	size_t		 n;
	int		 i;

	for (p = list; ; p = end + 1) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < TRIAL_NSTATES; i++)
			if (strlen(trial_state_name(i)) == n &&
			    strncmp(trial_state_name(i), p, n) == 0)
				break;
		if (i == TRIAL_NSTATES) {
			snprintf(err, errlen, "--state: unknown trial state "
			    "'%.*s' (expected pending, running, completed, "
			    "failed, pruned or cancelled, comma-separated)",
			    (int)n, p);
			return -1;
		}
		if (end == NULL)
			return 0;
	}
}

int
trials_request(struct ledger *l, const char *campaign,
    enum report_format fmt, const cJSON *req, char **out, char *err,
    size_t errlen)
{
	const cJSON		*st = cJSON_GetObjectItem(req, "state");
	const cJSON		*nh = cJSON_GetObjectItem(req, "noheader");
	const cJSON		*pa = cJSON_GetObjectItem(req, "parsable");
	struct trials_opts	 o;

	memset(&o, 0, sizeof(o));
	if (st != NULL && !cJSON_IsString(st)) {
		snprintf(err, errlen, "request.state: expected a string");
		return -2;
	}
	if ((nh != NULL && !cJSON_IsBool(nh)) ||
	    (pa != NULL && !cJSON_IsBool(pa))) {
		snprintf(err, errlen, "request.noheader, request.parsable: "
		    "expected true or false");
		return -2;
	}
	if (st != NULL && trials_states_check(st->valuestring, err,
	    errlen) == -1)
		return -2;
	o.states = st != NULL ? st->valuestring : NULL;
	o.noheader = cJSON_IsTrue(nh);
	o.parsable = cJSON_IsTrue(pa);
	return report_trials_opts(l, campaign, fmt, &o, out, err, errlen);
}
