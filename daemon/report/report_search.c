/*
 * report_search.c: the search and stopper a campaign ran, for its report
 * (report_search.h).
 */
#include <stdio.h>
#include <string.h>

#include "report_search.h"

/* Keep auto's choices from the campaign's progress lines. */
static void
report_search_event(void *arg, int trial, const char *msg)
{
	struct report_search *rs = arg;

	if (strncmp(msg, "search: auto chose ", 19) == 0)
		snprintf(rs->why, sizeof(rs->why), "%s", msg + 8);
	else if (strncmp(msg, "stopper: auto chose ", 20) == 0) {
		snprintf(rs->stop_why, sizeof(rs->stop_why), "%s", msg + 9);
		/* The stopper it chose, "target" of "target: the ...". */
		snprintf(rs->stopper, sizeof(rs->stopper), "%.*s",
		    (int)strcspn(msg + 20, ":"), msg + 20);
	}
}

/* Fill rs from the campaign's spec and progress events. */
void
report_search_load(struct ledger *l, const struct ledger_campaign *c,
    struct report_search *rs)
{
	cJSON		*spec;
	const cJSON	*se, *a, *st;

	memset(rs, 0, sizeof(*rs));
	snprintf(rs->algorithm, sizeof(rs->algorithm), "random");
	snprintf(rs->stopper, sizeof(rs->stopper), "none");
	spec = c->spec_json != NULL ? cJSON_Parse(c->spec_json) : NULL;
	se = cJSON_GetObjectItemCaseSensitive(spec, "search");
	a = cJSON_GetObjectItemCaseSensitive(se, "algorithm");
	if (cJSON_IsString(a))
		snprintf(rs->algorithm, sizeof(rs->algorithm), "%s",
		    a->valuestring);
	st = cJSON_GetObjectItemCaseSensitive(se, "stopper");
	a = cJSON_GetObjectItemCaseSensitive(st, "algorithm");
	if (cJSON_IsString(a))
		snprintf(rs->stopper, sizeof(rs->stopper), "%s",
		    a->valuestring);
	cJSON_Delete(spec);
	/* An error leaves what was read: the report goes on without it. */
	(void)ledger_event_each(l, c->id, "progress", report_search_event, rs);
	(void)report_held(l, c, rs->held, sizeof(rs->held));
}

/* Keep the message of a 'held' event: the last one read stays. */
static void
report_held_event(void *arg, int number, const char *message)
{
	struct report_search	*rs = arg;

	(void)number;
	snprintf(rs->held, sizeof(rs->held), "%s", message != NULL ? message :
	    "");
}

/* report_held(): see report_search.h. */
int
report_held(struct ledger *l, const struct ledger_campaign *c, char *buf,
    size_t len)
{
	struct report_search	 rs;

	rs.held[0] = '\0';
	if (c->state == NULL || strcmp(c->state, "running") != 0 ||
	    ledger_event_each(l, c->id, "held", report_held_event, &rs) == -1)
		rs.held[0] = '\0';
	snprintf(buf, len, "%s", rs.held);
	return rs.held[0] != '\0';
}

/* The search object of the JSON report. */
int
report_search_json(cJSON *root, const struct report_search *rs)
{
	cJSON	*o = cJSON_GetObjectItem(root, "campaign");

	if (o == NULL || (rs->held[0] != '\0' ? cJSON_AddStringToObject(o,
	    "held", rs->held) : cJSON_AddNullToObject(o, "held")) == NULL)
		return -1;
	o = cJSON_AddObjectToObject(root, "search");
	if (o == NULL ||
	    cJSON_AddStringToObject(o, "algorithm", rs->algorithm) == NULL ||
	    cJSON_AddStringToObject(o, "auto", rs->why) == NULL ||
	    cJSON_AddStringToObject(o, "stopper", rs->stopper) == NULL ||
	    cJSON_AddStringToObject(o, "stopper_auto", rs->stop_why) == NULL)
		return -1;
	return 0;
}
