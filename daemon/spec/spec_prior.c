/*
 * spec_prior.c: the "prior" key of a campaign spec, the warm start:
 * {"optuna": FILE, "study": NAME} or {"ledger": FILE, "campaign": NAME}.
 * Only the shape is checked here; daemon/plan/prior.c reads the file when the
 * campaign starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

static const char *const prior_keys[] = { "optuna", "study", "ledger",
	"campaign", NULL };

/* FILE taken relative to the spec's directory (malloc'ed), or NULL. */
static char *
sp_prior_path(const char *spec_path, const char *file)
{
	const char	*slash = strrchr(spec_path, '/');
	char		*p;

	if (file[0] == '/' || slash == NULL || strcmp(spec_path, "-") == 0)
		p = strdup(file);
	else if (asprintf(&p, "%.*s/%s", (int)(slash - spec_path), spec_path,
	    file) == -1)
		p = NULL;
	return p;
}

/* Parse "prior". */
int
sp_prior(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	const cJSON	*o;
	const char	*kind, *namekey;
	char		*file = NULL;

	if (sp_object(sp, root, "prior", "", 0, &o) == -1)
		return -1;
	if (o == NULL)
		return 0;
	if (sp_keys(sp, o, "prior", prior_keys) == -1)
		return -1;
	if (cJSON_HasObjectItem(o, "optuna") == cJSON_HasObjectItem(o,
	    "ledger"))
		return sp_fail(sp, "prior", "expected one of \"optuna\" (an "
		    "Optuna storage) or \"ledger\" (an hpod ledger)");
	kind = cJSON_HasObjectItem(o, "optuna") ? "optuna" : "ledger";
	namekey = strcmp(kind, "optuna") == 0 ? "study" : "campaign";
	if (cJSON_HasObjectItem(o, strcmp(kind, "optuna") == 0 ? "campaign" :
	    "study"))
		return sp_fail(sp, "prior", "\"%s\" goes with \"%s\"",
		    namekey, kind);
	if (sp_string(sp, o, kind, "prior", 1, NULL, &file) == -1 ||
	    sp_string(sp, o, namekey, "prior", strcmp(kind, "ledger") == 0,
	    NULL, &s->prior.name) == -1) {
		free(file);
		return -1;
	}
	s->prior.kind = strdup(kind);
	s->prior.path = sp_prior_path(s->path, file);
	free(file);
	if (s->prior.kind == NULL || s->prior.path == NULL)
		return sp_fail(sp, "prior", "out of memory");
	if (strcmp(s->algorithm, "tpe") != 0 &&
	    strcmp(s->algorithm, "mtpe") != 0 &&
	    strcmp(s->algorithm, "cmtpe") != 0)
		return sp_fail(sp, "prior", "needs search.algorithm \"tpe\", "
		    "\"mtpe\" or \"cmtpe\" (the searches that learn from "
		    "history), not \"%s\"", s->algorithm);
	if (s->scaling.nbatch > 0)
		return sp_fail(sp, "prior", "a batch-size scaling campaign "
		    "takes no prior");
	return 0;
}
