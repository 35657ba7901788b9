/*
 * importance.c: the first-order variance share of each parameter over the
 * completed trials' values (see importance.h for why it is honest and
 * where it is not).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "importance.h"
#include "report_alloc.h"
#include "report_int.h"
#include "spec.h"

/* Order doubles. */
static int
imp_double_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Whether parameter name is a choice of the spec's space. */
static int
imp_is_choice(const struct guide *g, const char *name)
{
	const struct space	*sp = g->spec ? g->spec->space : NULL;
	int			 k = sp != NULL ? space_find(sp, name) : -1;

	return k >= 0 && sp->params[k].type == PARAM_CHOICE;
}

/*
 * The group of each completed trial's value of parameter name: the index
 * of its distinct value (a choice, or anything not a number), or its
 * quarter of the trials (a number).  Set *np to the count of values;
 * -1 if memory ran out.
 */
static int
imp_groups(const struct guide *g, cJSON **params, const char *name,
    double *val, int *grp, size_t *np)
{
	const struct ledger_trial *t;
	const cJSON	*v, **seen;
	double		*pos, cut[3];
	size_t		 i, j, n = 0, nseen = 0;
	int		 cat = imp_is_choice(g, name);

	pos = report_calloc(2 * g->ntrials + 1, sizeof(*pos));
	seen = report_calloc(g->ntrials + 1, sizeof(*seen));
	if (pos == NULL || seen == NULL) {
		free(pos);
		free(seen);
		return -1;
	}
	for (i = 0; i < g->ntrials; i++) {
		t = &g->trials[i];
		v = cJSON_GetObjectItemCaseSensitive(params[i], name);
		if (strcmp(t->state, "completed") != 0 || !t->has_best ||
		    !isfinite(t->best) || v == NULL)
			continue;
		cat |= !cJSON_IsNumber(v);
		seen[n] = v;
		pos[n] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		val[n++] = t->best;
	}
	for (i = 0; i < n; i++) {
		grp[i] = 0;
		if (!cat)
			continue;
		for (j = 0; j < nseen && !cJSON_Compare(seen[j], seen[i], 1);
		    j++)
			;
		if (j == nseen)
			seen[nseen++] = seen[i];
		grp[i] = (int)j;
	}
	if (!cat && n > 0) {
		memcpy(pos + n, pos, n * sizeof(*pos));
		qsort(pos + n, n, sizeof(*pos), imp_double_cmp);
		for (j = 0; j < 3; j++)
			cut[j] = pos[n + (j + 1) * n / 4];
		for (i = 0; i < n; i++)
			for (j = 0; j < 3; j++)
				grp[i] += pos[i] >= cut[j];
	}
	free(seen);
	free(pos);
	*np = n;
	return 0;
}

/* The share of the variance of values grouped by grp (0..63). */
double
importance_eta2(const double *val, const int *grp, size_t n)
{
	double	 mean = 0, tot = 0, btw = 0, gs[64];
	int	 gn[64];
	size_t	 i;

	memset(gs, 0, sizeof(gs));
	memset(gn, 0, sizeof(gn));
	for (i = 0; i < n; i++) {
		mean += val[i] / n;
		if (grp[i] >= 0 && grp[i] < 64) {
			gs[grp[i]] += val[i];
			gn[grp[i]]++;
		}
	}
	for (i = 0; i < n; i++)
		tot += (val[i] - mean) * (val[i] - mean);
	for (i = 0; i < 64; i++)
		if (gn[i] > 0)
			btw += gn[i] * (gs[i] / gn[i] - mean) *
			    (gs[i] / gn[i] - mean);
	return n >= 3 && tot > 0 ? btw / tot : NAN;
}

/* The parameter names: those of the first trial that has any. */
static const cJSON *
imp_names(const struct guide *g, cJSON **params)
{
	size_t	 i;

	for (i = 0; i < g->ntrials; i++)
		if (cJSON_GetArraySize(params[i]) > 0)
			return params[i];
	return NULL;
}

/*
 * Compute every parameter's share; -1 if memory ran out (imp is
 * released then).  A cJSON_Parse() out of memory is the render's error
 * all the same (report_alloc_done()).
 */
int
importance_compute(const struct guide *g, struct importance *imp)
{
	cJSON		**params;
	const cJSON	*names, *m;
	double		*val;
	int		*grp, rc = -1;
	size_t		 i, n = 0, nn;

	memset(imp, 0, sizeof(*imp));
	params = report_calloc(g->ntrials + 1, sizeof(*params));
	val = report_calloc(g->ntrials + 1, sizeof(*val));
	grp = report_calloc(g->ntrials + 1, sizeof(*grp));
	if (params == NULL || val == NULL || grp == NULL)
		goto out;
	for (i = 0; i < g->ntrials; i++)
		params[i] = cJSON_Parse(g->trials[i].params_json);
	names = imp_names(g, params);
	nn = (size_t)cJSON_GetArraySize(names);
	if ((imp->names = report_calloc(nn + 1, sizeof(*imp->names))) ==
	    NULL || (imp->share = report_calloc(nn + 1,
	    sizeof(*imp->share))) == NULL)
		goto out;
	cJSON_ArrayForEach(m, names) {
		if ((imp->names[imp->n] = report_strdup(m->string)) == NULL ||
		    imp_groups(g, params, m->string, val, grp, &n) == -1)
			goto out;
		imp->share[imp->n++] = n >= IMPORTANCE_MIN_TRIALS ?
		    importance_eta2(val, grp, n) : NAN;
		imp->trials = n > imp->trials ? n : imp->trials;
	}
	rc = 0;
 out:
	for (i = 0; params != NULL && i < g->ntrials; i++)
		cJSON_Delete(params[i]);
	free(params);
	free(val);
	free(grp);
	if (rc == -1) {
		if (imp->names != NULL)
			free(imp->names[imp->n]);
		importance_release(imp);
	}
	return rc;
}

void
importance_release(struct importance *imp)
{
	size_t	 i;

	for (i = 0; i < imp->n; i++)
		free(imp->names[i]);
	free(imp->names);
	free(imp->share);
	memset(imp, 0, sizeof(*imp));
}

/* Add the report's "importance". */
void
importance_json(cJSON *root, const struct importance *imp)
{
	cJSON	*o = cJSON_AddObjectToObject(root, "importance"), *p;
	size_t	 i;

	cJSON_AddStringToObject(o, "method", "eta_squared");
	cJSON_AddNumberToObject(o, "min_trials", IMPORTANCE_MIN_TRIALS);
	cJSON_AddNumberToObject(o, "trials", (double)imp->trials);
	if (imp->trials < IMPORTANCE_MIN_TRIALS) {
		cJSON_AddNullToObject(o, "params");
		return;
	}
	p = cJSON_AddObjectToObject(o, "params");
	for (i = 0; i < imp->n; i++)
		report_json_number(p, imp->names[i], 1, imp->share[i]);
}
