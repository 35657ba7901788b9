/*
 * engine_budget.c: a running campaign's budget changed (`hpoctl budget
 * CAMPAIGN --max-trials N`): the spec the ledger keeps and the engine's
 * own change together, so that a restarted daemon resumes with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine_int.h"
#include "log.h"

int
engine_set_max_trials(struct engine *e, int n, char *err, size_t errlen)
{
	struct campaign_spec	*s = e->spec;
	cJSON			*root, *b;
	char			*json, msg[128];

	if (e->done || e->cancelled || e->stop_reason != NULL) {
		snprintf(err, errlen, "campaign '%s' is ending: its budget "
		    "cannot change", s->name);
		return -1;
	}
	if (s->scaling.nbatch > 0) {
		snprintf(err, errlen, "campaign '%s': a batch-size scaling "
		    "campaign plans its trials per batch size; its max_trials "
		    "cannot change", s->name);
		return -1;
	}
	if (n < 1 || n > 1000000 || n < e->ntrials) {
		snprintf(err, errlen, "campaign '%s': budget.max_trials %d must "
		    "be from %d (the trials made) to 1000000", s->name, n,
		    e->ntrials > 1 ? e->ntrials : 1);
		return -1;
	}
	if ((root = cJSON_Parse(s->json)) == NULL ||
	    (b = cJSON_GetObjectItemCaseSensitive(root, "budget")) == NULL) {
		cJSON_Delete(root);
		snprintf(err, errlen, "campaign '%s': its spec has no budget",
		    s->name);
		return -1;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(b, "max_trials",
	    cJSON_CreateNumber(n));
	json = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (json == NULL)
		abort();
	if (ledger_campaign_set_budget(e->env.ledger, e->id, json, n) == -1) {
		snprintf(err, errlen, "%s", ledger_error(e->env.ledger));
		cJSON_free(json);
		return -1;
	}
	snprintf(msg, sizeof(msg), "budget.max_trials %d -> %d", s->max_trials,
	    n);
	ledger_event(e->env.ledger, e->id, "budget", msg);
	log_info("campaign '%s': %s", s->name, msg);
	cJSON_free(s->json);	/* spec.c allocates it with cJSON too */
	s->json = json;
	s->max_trials = n;
	engine_kick(e);
	return 0;
}
