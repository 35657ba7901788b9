/*
 * trials_opts.c: `hpoctl trials --state LIST -h --parsable --fields LIST`,
 * checked and
 * handed to the renderer (report_trials_opts()).
 */
#include <stdio.h>
#include <string.h>

#include "trials_opts.h"

/* The states a trial can be in (ledger/account.c counts the same). */
static const char *const trial_states[] = { "pending", "running",
	"completed", "failed", "pruned", "cancelled", NULL };

/* 0 if every comma-separated entry of list is a trial state. */
static int
trials_states_check(const char *list, char *err, size_t errlen)
{
	const char	*p, *end;
	size_t		 n, i;

	for (p = list; ; p = end + 1) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; trial_states[i] != NULL; i++)
			if (strlen(trial_states[i]) == n &&
			    strncmp(trial_states[i], p, n) == 0)
				break;
		if (trial_states[i] == NULL) {
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
	const cJSON		*fi = cJSON_GetObjectItem(req, "fields");
	struct trials_opts	 o;

	memset(&o, 0, sizeof(o));
	if ((st != NULL && !cJSON_IsString(st)) ||
	    (fi != NULL && !cJSON_IsString(fi))) {
		snprintf(err, errlen, "request.state, request.fields: "
		    "expected a string");
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
	o.fields = fi != NULL ? fi->valuestring : NULL;
	return report_trials_opts(l, campaign, fmt, &o, out, err, errlen);
}
