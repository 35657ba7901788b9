/*
 * engine_budget.c: a running campaign's budget changed (`hpoctl budget
 * CAMPAIGN --max-trials N --max-node-hours H ...`): the spec the ledger
 * keeps and the engine's own change together, so that a restarted daemon
 * resumes with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine_int.h"
#include "log.h"
#include "xmalloc.h"

/* Set key of the spec's budget object to item, in place. */
static void
budget_set(cJSON *b, const char *key, cJSON *item)
{
	if (cJSON_GetObjectItemCaseSensitive(b, key) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(b, key, item);
	else
		cJSON_AddItemToObject(b, key, item);
}

/* Check the change against the campaign; 0, or -1 with err set. */
static int
budget_check(const struct engine *e, const struct engine_budget *nb,
    char *err, size_t errlen)
{
	const char	*name = e->spec->name;

	if (e->done || e->cancelled || e->stop_reason != NULL) {
		snprintf(err, errlen, "campaign '%s' is ending: its budget "
		    "cannot change", name);
		return -1;
	}
	if (nb->max_trials > 0 && e->spec->scaling.nbatch > 0) {
		snprintf(err, errlen, "campaign '%s': a batch-size scaling "
		    "campaign plans its trials per batch size; its max_trials "
		    "cannot change", name);
		return -1;
	}
	if (nb->max_trials > 0 && (nb->max_trials > 1000000 ||
	    nb->max_trials < e->ntrials)) {
		snprintf(err, errlen, "campaign '%s': budget.max_trials %d must "
		    "be from %d (the trials made) to 1000000", name,
		    nb->max_trials, e->ntrials > 1 ? e->ntrials : 1);
		return -1;
	}
	if (nb->max_trials <= 0 && nb->max_node_hours <= 0 &&
	    nb->max_gpu_hours <= 0 && nb->max_wall_time == NULL) {
		snprintf(err, errlen, "campaign '%s': no budget to change",
		    name);
		return -1;
	}
	if (nb->max_wall_time != NULL &&
	    spec_parse_duration(nb->max_wall_time) <= 0) {
		snprintf(err, errlen, "budget.max_wall_time: expected a "
		    "duration as sbatch --time takes it, got '%s'",
		    nb->max_wall_time);
		return -1;
	}
	return 0;
}

int
engine_set_budget(struct engine *e, const struct engine_budget *nb,
    char *err, size_t errlen)
{
	struct campaign_spec	*s = e->spec;
	cJSON			*root, *b;
	char			*json, msg[256];
	int			 n;

	if (budget_check(e, nb, err, errlen) == -1)
		return -1;
	if ((root = cJSON_Parse(s->json)) == NULL ||
	    (b = cJSON_GetObjectItemCaseSensitive(root, "budget")) == NULL) {
		cJSON_Delete(root);
		snprintf(err, errlen, "campaign '%s': its spec has no budget",
		    s->name);
		return -1;
	}
	n = nb->max_trials > 0 ? nb->max_trials : s->max_trials;
	budget_set(b, "max_trials", cJSON_CreateNumber(n));
	if (nb->max_node_hours > 0)
		budget_set(b, "max_node_hours",
		    cJSON_CreateNumber(nb->max_node_hours));
	if (nb->max_gpu_hours > 0)
		budget_set(b, "max_gpu_hours",
		    cJSON_CreateNumber(nb->max_gpu_hours));
	if (nb->max_wall_time != NULL)
		budget_set(b, "max_wall_time",
		    cJSON_CreateString(nb->max_wall_time));
	json = cJSON_PrintUnformatted(b);
	snprintf(msg, sizeof(msg), "budget %s", json ? json : "?");
	cJSON_free(json);
	json = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (json == NULL) {
		snprintf(err, errlen, "campaign '%s': out of memory", s->name);
		return -1;
	}
	if (ledger_campaign_set_budget(e->env.ledger, e->id, json, n) == -1) {
		snprintf(err, errlen, "%s", ledger_error(e->env.ledger));
		cJSON_free(json);
		return -1;
	}
	ledger_event(e->env.ledger, e->id, "budget", msg);
	log_info("campaign '%s': %s", s->name, msg);
	cJSON_free(s->json);	/* spec.c allocates it with cJSON too */
	s->json = json;
	s->max_trials = n;
	if (nb->max_node_hours > 0)
		s->max_node_hours = nb->max_node_hours;
	if (nb->max_gpu_hours > 0)
		s->max_gpu_hours = nb->max_gpu_hours;
	if (nb->max_wall_time != NULL)
		s->max_wall_time = (double)spec_parse_duration(
		    nb->max_wall_time);
	engine_kick(e);
	return 0;
}
