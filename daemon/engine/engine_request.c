/*
 * engine_request.c: the control requests that act on one running campaign
 * (`hpoctl budget`, `hpoctl cancel --trial`), checked here so that hpod's
 * hpod_request.c only finds the campaign.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine.h"

/* "budget": max_trials, max_node_hours, max_gpu_hours, max_wall_time. */
static int
engine_request_budget(struct engine *e, const cJSON *req, char *msg,
    size_t len)
{
	const cJSON		*n = cJSON_GetObjectItem(req, "max_trials");
	const cJSON		*nh = cJSON_GetObjectItem(req, "max_node_hours");
	const cJSON		*gh = cJSON_GetObjectItem(req, "max_gpu_hours");
	const cJSON		*wt = cJSON_GetObjectItem(req, "max_wall_time");
	struct engine_budget	 nb;

	if ((n != NULL && (!cJSON_IsNumber(n) || n->valuedouble < 1 ||
	    n->valuedouble > 1000000 ||
	    n->valuedouble != (int)n->valuedouble)) ||
	    (nh != NULL && (!cJSON_IsNumber(nh) || !(nh->valuedouble > 0) ||
	    !isfinite(nh->valuedouble))) ||
	    (gh != NULL && (!cJSON_IsNumber(gh) || !(gh->valuedouble > 0) ||
	    !isfinite(gh->valuedouble))) ||
	    (wt != NULL && !cJSON_IsString(wt))) {
		snprintf(msg, len, "request: max_trials (a positive integer), "
		    "max_node_hours, max_gpu_hours (positive numbers), "
		    "max_wall_time (a duration string)");
		return -1;
	}
	memset(&nb, 0, sizeof(nb));
	nb.max_trials = n ? (int)n->valuedouble : 0;
	nb.max_node_hours = nh ? nh->valuedouble : 0;
	nb.max_gpu_hours = gh ? gh->valuedouble : 0;
	nb.max_wall_time = wt ? wt->valuestring : NULL;
	if (engine_set_budget(e, &nb, msg, len) == -1)
		return -1;
	snprintf(msg, len, "campaign '%s' (id %lld): budget changed\n",
	    engine_name(e), (long long)engine_id(e));
	return 0;
}

/* "cancel" with "trial": one running trial. */
static int
engine_request_cancel(struct engine *e, const cJSON *t, char *msg,
    size_t len)
{
	if (!cJSON_IsNumber(t) || t->valuedouble < 0 ||
	    t->valuedouble > 1e9 || t->valuedouble != (int)t->valuedouble) {
		snprintf(msg, len, "request.trial: expected a trial number");
		return -1;
	}
	switch (engine_cancel_trial(e, (int)t->valuedouble)) {
	case 0:
		break;
	case ENGINE_CANCEL_ENDING:
		snprintf(msg, len, "campaign '%s' is ending: its running "
		    "trials are being stopped with it", engine_name(e));
		return -1;
	case ENGINE_CANCEL_ALREADY:
		snprintf(msg, len, "campaign '%s': trial %d is being stopped "
		    "already", engine_name(e), (int)t->valuedouble);
		return -1;
	default:
		snprintf(msg, len, "campaign '%s': trial %d is not running",
		    engine_name(e), (int)t->valuedouble);
		return -1;
	}
	snprintf(msg, len, "campaign '%s' (id %lld): cancelling trial %d\n",
	    engine_name(e), (long long)engine_id(e), (int)t->valuedouble);
	return 0;
}

int
engine_request(struct engine *e, const struct cJSON *req, char *msg,
    size_t len)
{
	const cJSON	*cmd = cJSON_GetObjectItem(req, "cmd");
	const cJSON	*t = cJSON_GetObjectItem(req, "trial");

	if (cJSON_IsString(cmd) && strcmp(cmd->valuestring, "budget") == 0)
		return engine_request_budget(e, req, msg, len);
	if (cJSON_IsString(cmd) && strcmp(cmd->valuestring, "cancel") == 0 &&
	    t != NULL)
		return engine_request_cancel(e, t, msg, len);
	snprintf(msg, len, "request.cmd: not a campaign request");
	return -1;
}
