/*
 * prior.c: read a campaign's warm start (see prior.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "log.h"
#include "optuna_read.h"
#include "params.h"
#include "prior.h"
#include "state.h"
#include "xmalloc.h"

/* What is being read, for messages and the source column. */
struct prior_ctx {
	const struct campaign_spec *s;
	const char		*path;
	char			 what[256];	/* "study 'x'" */
	struct ledger_prior	*list;
	size_t			 n;
	char			*err;
	size_t			 errlen;
};

/*
 * Check a trial's parameters against the space and append it: 0 (kept or
 * skipped), or -1 (another space, or out of memory) with err.  Takes
 * params.
 */
static int
prior_add(struct prior_ctx *c, int number, cJSON *params, const char *state,
    int has_value, double value)
{
	const struct space	*sp = c->s->space;
	const cJSON		*j;
	struct ledger_prior	*p;
	double			*x;
	char			*pj, why[256];
	size_t			 i;
	int			 rc = 0;

	cJSON_ArrayForEach(j, params)
		if (space_find(sp, j->string) < 0) {
			snprintf(c->err, c->errlen, "%s: %s: trial %d: "
			    "parameter '%s' is not in the space of campaign "
			    "'%s' (a prior needs the same space)", c->path,
			    c->what, number, j->string, c->s->name);
			rc = -1;
			goto out;
		}
	for (i = 0; i < sp->n; i++)
		if (!cJSON_HasObjectItem(params, sp->params[i].name)) {
			snprintf(c->err, c->errlen, "%s: %s: trial %d: no "
			    "parameter '%s' (space.%s of campaign '%s'; a "
			    "prior needs the same space)", c->path, c->what,
			    number, sp->params[i].name, sp->params[i].name,
			    c->s->name);
			rc = -1;
			goto out;
		}
	if ((x = calloc(sp->n + 1, sizeof(*x))) == NULL ||
	    (pj = cJSON_PrintUnformatted(params)) == NULL) {
		free(x);
		goto nomem;
	}
	if (params_from_json(sp, pj, x, why, sizeof(why)) == -1) {
		log_warnx("%s: %s: trial %d: skipped: %s", c->path, c->what,
		    number, why);
		cJSON_free(pj);
		free(x);
		goto out;
	}
	free(x);
	if ((p = reallocarray(c->list, c->n + 1, sizeof(*c->list))) == NULL) {
		cJSON_free(pj);
		goto nomem;
	}
	c->list = p;
	p = &c->list[c->n];
	memset(p, 0, sizeof(*p));
	/* The source's values as it wrote them. */
	p->params_json = xstrdup(pj);
	cJSON_free(pj);
	p->number = (int)c->n;
	p->source = xasprintf("%s:%s:%s", c->s->prior.kind, c->path,
	    c->s->prior.name != NULL ? c->s->prior.name : "");
	p->source_number = number;
	p->state = xstrdup(state);
	p->has_value = has_value;
	p->value = value;
	c->n++;
	goto out;
nomem:
	snprintf(c->err, c->errlen, "%s: %s: trial %d: out of memory", c->path,
	    c->what, number);
	rc = -1;
out:
	cJSON_Delete(params);
	return rc;
}

/* An Optuna parameter's external value: the choice, or the number. */
static cJSON *
prior_optuna_value(const struct optuna_row_param *p)
{
	cJSON		*d = cJSON_Parse(p->distribution), *v = NULL;
	const cJSON	*name, *choices;
	int		 k = (int)p->internal;

	name = cJSON_GetObjectItemCaseSensitive(d, "name");
	choices = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(d, "attributes"), "choices");
	if (cJSON_IsString(name) && strcmp(name->valuestring,
	    "CategoricalDistribution") == 0) {
		if (cJSON_IsArray(choices) && k >= 0 && k ==
		    p->internal && k < cJSON_GetArraySize(choices))
			v = cJSON_Duplicate(cJSON_GetArrayItem(choices, k), 1);
	} else if (cJSON_IsString(name))
		v = cJSON_CreateNumber(p->internal);
	cJSON_Delete(d);
	return v;
}

/* The trials of an Optuna study. */
static int
prior_optuna(struct prior_ctx *c)
{
	struct optuna_row	*rows = NULL;
	cJSON			*o, *v;
	size_t			 nrows = 0, i, j;
	int			 maximize = 0, rc = -1;

	if (optuna_read(c->path, c->s->prior.name, &maximize, &rows, &nrows,
	    c->err, c->errlen) == -1)
		return -1;
	snprintf(c->what, sizeof(c->what), "study '%s'", c->s->prior.name ?
	    c->s->prior.name : "(the only one)");
	if (maximize != c->s->maximize) {
		snprintf(c->err, c->errlen, "%s: %s: direction %s, but "
		    "campaign '%s' %s '%s'", c->path, c->what, maximize ?
		    "maximize" : "minimize", c->s->name, c->s->maximize ?
		    "maximizes" : "minimizes", c->s->metric);
		goto out;
	}
	for (i = 0; i < nrows; i++) {
		o = cJSON_CreateObject();
		for (j = 0; j < rows[i].nparams; j++) {
			if ((v = prior_optuna_value(&rows[i].params[j])) ==
			    NULL) {
				snprintf(c->err, c->errlen, "%s: %s: trial %d: "
				    "parameter '%s': distribution_json not "
				    "understood", c->path, c->what,
				    rows[i].number, rows[i].params[j].name);
				cJSON_Delete(o);
				goto out;
			}
			cJSON_AddItemToObject(o, rows[i].params[j].name, v);
		}
		if (prior_add(c, rows[i].number, o,
		    trial_state_name(strcmp(rows[i].state, "COMPLETE") == 0 ?
		    TRIAL_COMPLETED : strcmp(rows[i].state, "PRUNED") == 0 ?
		    TRIAL_PRUNED : TRIAL_FAILED),
		    rows[i].has_value, rows[i].value) == -1)
			goto out;
	}
	rc = 0;
out:
	optuna_rows_free(rows, nrows);
	return rc;
}

/* The finished trials of a campaign in another hpod ledger. */
static int
prior_ledger(struct prior_ctx *c)
{
	struct ledger		*l;
	struct ledger_campaign	 lc;
	struct ledger_trial	*t = NULL;
	size_t			 nt = 0, i;
	int			 rc = -1, found;
	char			 lerr[512];

	memset(&lc, 0, sizeof(lc));
	snprintf(c->what, sizeof(c->what), "campaign '%s'", c->s->prior.name);
	if ((l = ledger_open(c->path, LEDGER_READONLY, lerr, sizeof(lerr))) ==
	    NULL) {
		snprintf(c->err, c->errlen, "%s", lerr);
		return -1;
	}
	if ((found = ledger_campaign_find(l, c->s->prior.name, &lc)) != 0) {
		if (found == 1)
			snprintf(c->err, c->errlen, "%s: no campaign '%s'",
			    c->path, c->s->prior.name);
		else
			snprintf(c->err, c->errlen, "%s: %s", c->path,
			    ledger_error(l));
		goto out;
	}
	if (lc.metric == NULL || strcmp(lc.metric, c->s->metric) != 0 ||
	    lc.maximize != c->s->maximize) {
		snprintf(c->err, c->errlen, "%s: %s: objective %s '%s', but "
		    "campaign '%s' %s '%s'", c->path, c->what, lc.maximize ?
		    "maximize" : "minimize", lc.metric ? lc.metric : "(none)",
		    c->s->name, c->s->maximize ? "maximizes" : "minimizes",
		    c->s->metric);
		goto out;
	}
	if (ledger_trial_list(l, lc.id, &t, &nt) == -1) {
		snprintf(c->err, c->errlen, "%s: %s", c->path, ledger_error(l));
		goto out;
	}
	for (i = 0; i < nt; i++) {
		enum trial_state	 st;
		cJSON			*o;

		st = trial_state_parse(t[i].state);
		if (st != TRIAL_COMPLETED && st != TRIAL_PRUNED &&
		    st != TRIAL_FAILED)
			continue;
		if (!cJSON_IsObject(o = cJSON_Parse(t[i].params_json))) {
			cJSON_Delete(o);
			log_warnx("%s: %s: trial %d: skipped: parameters are "
			    "not a JSON object", c->path, c->what,
			    t[i].number);
			continue;
		}
		if (prior_add(c, t[i].number, o, t[i].state, t[i].has_best,
		    t[i].best) == -1)
			goto out;
	}
	rc = 0;
out:
	ledger_trial_list_free(t, nt);
	ledger_campaign_release(&lc);
	ledger_close(l);
	return rc;
}

/* Read the spec's prior. */
int
prior_read(const struct campaign_spec *s, struct ledger_prior **out,
    size_t *n, char *err, size_t errlen)
{
	struct prior_ctx	 c;
	int			 rc;

	*out = NULL;
	*n = 0;
	if (s->prior.kind == NULL)
		return 0;
	memset(&c, 0, sizeof(c));
	c.s = s;
	c.path = s->prior.path;
	c.err = err;
	c.errlen = errlen;
	rc = strcmp(s->prior.kind, "optuna") == 0 ? prior_optuna(&c) :
	    prior_ledger(&c);
	if (rc == -1) {
		ledger_prior_list_free(c.list, c.n);
		return -1;
	}
	*out = c.list;
	*n = c.n;
	return 0;
}

/* Name the spec and its key in a refusal of its prior (prior.h). */
void
prior_error(const struct campaign_spec *s, char *err, size_t errlen)
{
	char	*why = xstrdup(err);

	snprintf(err, errlen, "%s: prior.%s: %s", s->path, s->prior.kind,
	    why);
	free(why);
}

/* Record a campaign with its priors, kept only if claim agrees. */
int
prior_record(struct ledger *l, const struct ledger_campaign *c,
    const struct ledger_prior *pr, size_t n, prior_claim_fn claim, void *arg,
    int64_t *id, char *err, size_t errlen)
{
	size_t	 i;

	if (ledger_begin(l) == -1)
		goto fail;
	if (ledger_campaign_insert(l, c, id) == -1)
		goto fail;
	for (i = 0; i < n; i++)
		if (ledger_prior_insert(l, *id, &pr[i]) == -1)
			goto fail;
	if (claim != NULL && claim(arg, *id, err, errlen) == -1) {
		ledger_rollback(l);
		return -1;
	}
	if (ledger_commit(l) == -1)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s", ledger_error(l));
	ledger_rollback(l);
	return -1;
}
