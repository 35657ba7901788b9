/*
 * export_optuna.c: translate a campaign into the plain structs of
 * ledger/optuna/optuna.h: every trial, its parameters with Optuna distributions
 * taken from the campaign's space, its state and value, and the
 * objective's evaluations as intermediate values.
 *
 * Mapping (documented in hpoctl(1)): completed -> COMPLETE with the
 * trial's value (its best evaluation, as `hpoctl trials` shows); a
 * completed trial without a value, failed and cancelled -> FAIL; pruned
 * -> PRUNED with its last intermediate value, as Optuna records a pruned
 * trial; running -> RUNNING; pending -> WAITING.  The intermediate values
 * are those of the trial's last attempt that reported any, steps rounded
 * to integers.  A parameter the space does not name (a scaling campaign's
 * batch size) becomes a categorical of the values the trials used.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "export_optuna.h"
#include "optuna.h"
#include "spec.h"
#include "state.h"
#include "xmalloc.h"

/* A parameter name's distribution, shared by every trial. */
struct xo_dist {
	const char	*name;		/* borrowed from the first trial */
	int		 numeric;	/* float/int: the value is internal */
	cJSON		*choices;	/* categorical: the values, by index */
	char		*json;		/* Optuna's distribution JSON */
};

struct xo {
	struct ledger_trial	*trials;
	size_t			 ntrials;
	struct ledger_attempt	*attempts;
	size_t			 nattempts;
	struct ledger_metric	*points;
	size_t			 npoints;
	cJSON			**params;	/* per trial, parsed */
	struct xo_dist		*dists;
	size_t			 ndists;
	struct optuna_trial	*out;
	char			**strings;	/* what out points into */
	size_t			 nstrings;
};

/* Keep a malloc'ed string until the export is written; return it. */
static char *
xo_keep(struct xo *x, char *s)
{
	x->strings = xreallocarray(x->strings, x->nstrings + 1,
	    sizeof(*x->strings));
	return x->strings[x->nstrings++] = s;
}

/* The distribution JSON of space parameter i; choices set for a choice. */
static char *
xo_space_dist(const struct param_def *p, cJSON **choices)
{
	cJSON	*d = cJSON_CreateObject(), *a;
	char	*s;
	size_t	 i;

	a = cJSON_CreateObject();
	if (p->type == PARAM_CHOICE) {
		cJSON_AddStringToObject(d, "name", "CategoricalDistribution");
		*choices = cJSON_CreateArray();
		for (i = 0; i < p->nchoices; i++)
			cJSON_AddItemToArray(*choices, p->choices[i].is_string ?
			    cJSON_CreateString(p->choices[i].str) :
			    cJSON_CreateNumber(p->choices[i].num));
		cJSON_AddItemToObject(a, "choices",
		    cJSON_Duplicate(*choices, 1));
	} else {
		cJSON_AddStringToObject(d, "name", p->type == PARAM_INT ?
		    "IntDistribution" : "FloatDistribution");
		cJSON_AddNumberToObject(a, "low", p->min);
		cJSON_AddNumberToObject(a, "high", p->max);
		cJSON_AddBoolToObject(a, "log", p->scale == SCALE_LOG);
		if (p->type == PARAM_INT)
			cJSON_AddNumberToObject(a, "step", 1);
		else
			cJSON_AddNullToObject(a, "step");
	}
	cJSON_AddItemToObject(d, "attributes", a);
	s = cJSON_PrintUnformatted(d);
	cJSON_Delete(d);
	return s;
}

/* The index of value v among choices, or -1. */
static int
xo_choice(const cJSON *choices, const cJSON *v)
{
	const cJSON	*c;
	int		 i = 0;

	cJSON_ArrayForEach(c, choices) {
		if (cJSON_Compare(c, v, 1))
			return i;
		i++;
	}
	return -1;
}

/* The distribution of name, created from the space or the values seen. */
static struct xo_dist *
xo_dist(struct xo *x, const struct space *sp, const char *name)
{
	struct xo_dist	*d;
	cJSON		*j, *a;
	size_t		 i;
	int		 k = sp != NULL ? space_find(sp, name) : -1;

	for (i = 0; i < x->ndists; i++)
		if (strcmp(x->dists[i].name, name) == 0)
			return &x->dists[i];
	x->dists = xreallocarray(x->dists, x->ndists + 1, sizeof(*d));
	d = &x->dists[x->ndists++];
	memset(d, 0, sizeof(*d));
	d->name = name;
	if (k >= 0) {
		d->json = xo_space_dist(&sp->params[k], &d->choices);
		d->numeric = d->choices == NULL;
		return d;
	}
	/* Not in the space: a categorical of the values the trials used. */
	d->choices = cJSON_CreateArray();
	for (i = 0; i < x->ntrials; i++) {
		j = cJSON_GetObjectItemCaseSensitive(x->params[i], name);
		if (j != NULL && xo_choice(d->choices, j) < 0)
			cJSON_AddItemToArray(d->choices, cJSON_Duplicate(j, 1));
	}
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "name", "CategoricalDistribution");
	a = cJSON_AddObjectToObject(j, "attributes");
	cJSON_AddItemToObject(a, "choices", cJSON_Duplicate(d->choices, 1));
	d->json = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return d;
}

/* The parameters of trial i; -1 with err if one is not in its space. */
static int
xo_params(struct xo *x, const struct space *sp, size_t i,
    struct optuna_trial *t, char *err, size_t errlen)
{
	struct optuna_param	*p;
	struct xo_dist		*d;
	const cJSON		*j;
	int			 k;

	t->nparams = (size_t)cJSON_GetArraySize(x->params[i]);
	p = xcalloc(t->nparams + 1, sizeof(*p));
	xo_keep(x, (char *)p);
	t->params = p;
	cJSON_ArrayForEach(j, x->params[i]) {
		d = xo_dist(x, sp, j->string);
		p->name = j->string;
		p->distribution = d->json;
		if (d->numeric && cJSON_IsNumber(j))
			p->internal = j->valuedouble;
		else if (!d->numeric && (k = xo_choice(d->choices, j)) >= 0)
			p->internal = k;
		else {
			snprintf(err, errlen, "trial %d: params.%s: not a "
			    "value of the campaign's space", t->number,
			    j->string);
			return -1;
		}
		p++;
	}
	return 0;
}

/* A trial attribute's JSON value, kept with the export. */
static void
xo_attr(struct xo *x, struct optuna_attr *a, const char *key, cJSON *v)
{
	a->key = key;
	a->value_json = xo_keep(x, cJSON_PrintUnformatted(v));
	cJSON_Delete(v);
}

/* Times, intermediate values and hpod's own facts of trial i. */
static void
xo_attempts(struct xo *x, size_t i, struct optuna_trial *t)
{
	const struct ledger_trial	*lt = &x->trials[i];
	const struct ledger_attempt	*last = NULL;
	struct optuna_point		*pt;
	struct optuna_attr		*a;
	int64_t				 from = -1;
	size_t				 k;

	t->start = lt->created;
	for (k = 0; k < x->nattempts; k++) {
		if (x->attempts[k].trial_number != lt->number)
			continue;
		if (last == NULL && x->attempts[k].started > 0)
			t->start = x->attempts[k].started;
		last = &x->attempts[k];
	}
	if (last != NULL && strcmp(t->state, "RUNNING") &&
	    strcmp(t->state, "WAITING"))
		t->complete = last->ended;
	/* The last attempt that reported points. */
	for (k = 0; k < x->npoints; k++)
		if (x->points[k].trial_number == lt->number)
			from = x->points[k].attempt_id;
	pt = xcalloc(x->npoints + 1, sizeof(*pt));
	xo_keep(x, (char *)pt);
	t->points = pt;
	/* Those the search acted on: none logged past a prune. */
	for (k = 0; k < x->npoints; k++) {
		if (x->points[k].attempt_id != from || x->points[k].late)
			continue;
		if (t->npoints > 0 &&
		    pt[t->npoints - 1].step == lround(x->points[k].step))
			t->npoints--;	/* rounded onto the same step */
		pt[t->npoints].step = lround(x->points[k].step);
		pt[t->npoints++].value = x->points[k].value;
	}
	a = xcalloc(8, sizeof(*a));
	xo_keep(x, (char *)a);
	t->attrs = a;
	xo_attr(x, &a[t->nattrs++], "hpod_state",
	    cJSON_CreateString(lt->state));
	xo_attr(x, &a[t->nattrs++], "hpod_role",
	    cJSON_CreateString(lt->role ? lt->role : "search"));
	xo_attr(x, &a[t->nattrs++], "hpod_attempts",
	    cJSON_CreateNumber(lt->attempts));
	xo_attr(x, &a[t->nattrs++], "hpod_seed",
	    cJSON_CreateNumber((double)lt->seed));
	xo_attr(x, &a[t->nattrs++], "hpod_reached",
	    cJSON_CreateBool(lt->reached));
	if (lt->batch_size > 0)
		xo_attr(x, &a[t->nattrs++], "hpod_batch_size",
		    cJSON_CreateNumber((double)lt->batch_size));
	if (last != NULL && last->job_id != NULL)
		xo_attr(x, &a[t->nattrs++], "hpod_job_id",
		    cJSON_CreateString(last->job_id));
	if (last != NULL && last->host != NULL)
		xo_attr(x, &a[t->nattrs++], "hpod_host",
		    cJSON_CreateString(last->host));
}

/* Optuna's state and value for trial i. */
static void
xo_state(const struct ledger_trial *lt, struct optuna_trial *t)
{
	enum trial_state	 s = trial_state_parse(lt->state);

	t->state = "FAIL";
	if (s == TRIAL_COMPLETED && lt->has_best && !isnan(lt->best)) {
		t->state = "COMPLETE";
		t->has_value = 1;
		t->value = lt->best;
	} else if (s == TRIAL_PRUNED)
		t->state = "PRUNED";
	else if (s == TRIAL_RUNNING)
		t->state = "RUNNING";
	else if (s == TRIAL_PENDING)
		t->state = "WAITING";
}

/* Study attributes: where it came from and what it aimed at. */
static size_t
xo_study_attrs(struct xo *x, const struct ledger_campaign *c,
    struct optuna_attr *a)
{
	size_t	 n = 0;

	xo_attr(x, &a[n++], "hpod_campaign", cJSON_CreateString(c->name));
	xo_attr(x, &a[n++], "hpod_campaign_id",
	    cJSON_CreateNumber((double)c->id));
	xo_attr(x, &a[n++], "hpod_workload",
	    cJSON_CreateString(c->workload ? c->workload : ""));
	xo_attr(x, &a[n++], "hpod_metric",
	    cJSON_CreateString(c->metric ? c->metric : ""));
	if (c->has_target)
		xo_attr(x, &a[n++], "hpod_target",
		    cJSON_CreateNumber(c->target));
	return n;
}

/* Free what the export allocated. */
static void
xo_release(struct xo *x)
{
	size_t	 i;

	for (i = 0; i < x->ntrials && x->params != NULL; i++)
		cJSON_Delete(x->params[i]);
	free(x->params);
	for (i = 0; i < x->ndists; i++) {
		cJSON_Delete(x->dists[i].choices);
		cJSON_free(x->dists[i].json);
	}
	free(x->dists);
	for (i = 0; i < x->nstrings; i++)
		free(x->strings[i]);
	free(x->strings);
	free(x->out);
	ledger_trial_list_free(x->trials, x->ntrials);
	ledger_attempt_list_free(x->attempts, x->nattempts);
	ledger_metric_list_free(x->points, x->npoints);
}

/* Write campaign c as an Optuna study to a new file at path. */
int
export_optuna(struct ledger *l, const struct ledger_campaign *c,
    const char *study, const char *path, char *err, size_t errlen)
{
	struct xo		 x;
	struct optuna_study	 st;
	struct optuna_attr	 sa[8];
	struct campaign_spec	*spec = NULL;
	char			 serr[512];
	size_t			 i;
	int			 rc = -1;

	memset(&x, 0, sizeof(x));
	memset(&st, 0, sizeof(st));
	if (ledger_trial_list(l, c->id, &x.trials, &x.ntrials) == -1 ||
	    ledger_attempt_list(l, c->id, 0, &x.attempts, &x.nattempts) ==
	    -1 || ledger_metric_list(l, c->id, c->metric ? c->metric : "",
	    &x.points, &x.npoints) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		goto done;
	}
	/* A spec that no longer parses: every parameter categorical. */
	if (c->spec_json != NULL)
		spec = spec_parse_recorded(c->spec_json, strlen(c->spec_json),
		    c->spec_path ? c->spec_path : c->name, serr, sizeof(serr));
	x.params = xcalloc(x.ntrials + 1, sizeof(*x.params));
	x.out = xcalloc(x.ntrials + 1, sizeof(*x.out));
	for (i = 0; i < x.ntrials; i++)
		if ((x.params[i] = cJSON_Parse(x.trials[i].params_json)) ==
		    NULL || !cJSON_IsObject(x.params[i])) {
			snprintf(err, errlen, "campaign '%s': trial %d: "
			    "params_json is not a JSON object", c->name,
			    x.trials[i].number);
			goto done;
		}
	for (i = 0; i < x.ntrials; i++) {
		x.out[i].number = x.trials[i].number;
		xo_state(&x.trials[i], &x.out[i]);
		xo_attempts(&x, i, &x.out[i]);
		if (strcmp(x.out[i].state, "PRUNED") == 0 &&
		    x.out[i].npoints > 0) {
			x.out[i].has_value = 1;
			x.out[i].value =
			    x.out[i].points[x.out[i].npoints - 1].value;
			x.out[i].has_value = !isnan(x.out[i].value);
		}
		if (xo_params(&x, spec ? spec->space : NULL, i, &x.out[i],
		    serr, sizeof(serr)) == -1) {
			snprintf(err, errlen, "campaign '%s': %s", c->name,
			    serr);
			goto done;
		}
	}
	st.name = study ? study : c->name;
	st.maximize = c->maximize;
	st.attrs = sa;
	st.nattrs = xo_study_attrs(&x, c, sa);
	st.trials = x.out;
	st.ntrials = x.ntrials;
	rc = optuna_write(path, &st, err, errlen);
 done:
	spec_free(spec);
	xo_release(&x);
	return rc;
}
