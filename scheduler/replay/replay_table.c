/*
 * replay_table.c: loading learning-curve tables and finding the run that
 * answers a job (see replay_table.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "replay_table.h"

#define REPLAY_MAX_BYTES	(64 << 20)

/* Say that memory ran out reading path; return -1. */
static int
replay_nomem(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

/* Free a table. */
void
replay_table_free(struct replay_table *t)
{
	size_t i, j;

	if (t == NULL)
		return;
	for (i = 0; i < t->nruns; i++) {
		struct replay_run *r = &t->runs[i];

		for (j = 0; r->xs != NULL && j < t->nparams; j++)
			free(r->xs[j]);
		free(r->xs);
		free(r->x);
		free(r->epoch_s);
		free(r->values);
	}
	free(t->runs);
	for (i = 0; t->names != NULL && i < t->nparams; i++)
		free(t->names[i]);
	for (i = 0; t->fixed_names != NULL && i < t->nfixed; i++)
		free(t->fixed_names[i]);
	free(t->names);
	free(t->logscale);
	free(t->lo);
	free(t->hi);
	free(t->fixed_names);
	free(t->fixed_values);
	free(t->metric);
	free(t);
}

/* Read a whole file. */
static char *
replay_slurp(const char *path, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	long n;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == -1 || (n = ftell(f)) < 0 ||
	    n > REPLAY_MAX_BYTES || fseek(f, 0, SEEK_SET) == -1) {
		snprintf(err, errlen, "%s: unreadable or larger than 64 MiB",
		    path);
		fclose(f);
		return NULL;
	}
	if ((buf = malloc((size_t)n + 1)) == NULL) {
		replay_nomem(path, err, errlen);
		fclose(f);
		return NULL;
	}
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * Fill an array of n numbers from a JSON array; -1 if it is not one, -2
 * when memory ran out.
 */
static int
replay_numbers(const cJSON *a, double **out, size_t *n)
{
	const cJSON *v;
	size_t i = 0;

	if (!cJSON_IsArray(a))
		return -1;
	*n = (size_t)cJSON_GetArraySize(a);
	if ((*out = calloc(*n + 1, sizeof(double))) == NULL)
		return -2;
	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
			return -1;
		(*out)[i++] = v->valuedouble;
	}
	return 0;
}

/* Parse the parameters and fixed values. */
static int
replay_header(struct replay_table *t, const cJSON *root, const char *path,
    char *err, size_t errlen)
{
	const cJSON *ps, *p, *nm, *sc, *fx, *f;
	size_t i = 0;

	nm = cJSON_GetObjectItemCaseSensitive(root, "metric");
	sc = cJSON_GetObjectItemCaseSensitive(root, "goal");
	if (!cJSON_IsString(nm) || (sc != NULL && (!cJSON_IsString(sc) ||
	    (strcmp(sc->valuestring, "min") && strcmp(sc->valuestring,
	    "max"))))) {
		snprintf(err, errlen, "%s: metric: expected a string (and goal "
		    "\"min\" or \"max\")", path);
		return -1;
	}
	if ((t->metric = strdup(nm->valuestring)) == NULL)
		return replay_nomem(path, err, errlen);
	t->maximize = sc != NULL && strcmp(sc->valuestring, "max") == 0;
	ps = cJSON_GetObjectItemCaseSensitive(root, "params");
	if (!cJSON_IsArray(ps) || cJSON_GetArraySize(ps) == 0) {
		snprintf(err, errlen, "%s: params: expected a non-empty array",
		    path);
		return -1;
	}
	t->nparams = (size_t)cJSON_GetArraySize(ps);
	if ((t->names = calloc(t->nparams, sizeof(char *))) == NULL ||
	    (t->logscale = calloc(t->nparams, sizeof(int))) == NULL ||
	    (t->lo = calloc(t->nparams, sizeof(double))) == NULL ||
	    (t->hi = calloc(t->nparams, sizeof(double))) == NULL)
		return replay_nomem(path, err, errlen);
	cJSON_ArrayForEach(p, ps) {
		nm = cJSON_GetObjectItemCaseSensitive(p, "name");
		sc = cJSON_GetObjectItemCaseSensitive(p, "scale");
		if (!cJSON_IsString(nm) || (sc != NULL && !cJSON_IsString(sc))) {
			snprintf(err, errlen, "%s: params[%zu]: expected "
			    "{\"name\": ..., \"scale\": \"linear\"|\"log\"}",
			    path, i);
			return -1;
		}
		if ((t->names[i] = strdup(nm->valuestring)) == NULL)
			return replay_nomem(path, err, errlen);
		t->logscale[i] = sc != NULL && strcmp(sc->valuestring, "log")
		    == 0;
		i++;
	}
	fx = cJSON_GetObjectItemCaseSensitive(root, "fixed");
	if (fx == NULL)
		return 0;
	if (!cJSON_IsObject(fx)) {
		snprintf(err, errlen, "%s: fixed: expected an object", path);
		return -1;
	}
	t->nfixed = (size_t)cJSON_GetArraySize(fx);
	if ((t->fixed_names = calloc(t->nfixed + 1, sizeof(char *))) ==
	    NULL || (t->fixed_values = calloc(t->nfixed + 1,
	    sizeof(double))) == NULL)
		return replay_nomem(path, err, errlen);
	i = 0;
	cJSON_ArrayForEach(f, fx) {
		if (!cJSON_IsNumber(f)) {
			snprintf(err, errlen, "%s: fixed.%s: expected a number",
			    path, f->string);
			return -1;
		}
		if ((t->fixed_names[i] = strdup(f->string)) == NULL)
			return replay_nomem(path, err, errlen);
		t->fixed_values[i++] = f->valuedouble;
	}
	return 0;
}

/* Parse one run. */
static int
replay_run(struct replay_table *t, struct replay_run *r, const cJSON *j,
    size_t k, const char *path, char *err, size_t errlen)
{
	const cJSON *x, *v, *s;
	size_t i = 0, ns = 0;
	int rc;

	x = cJSON_GetObjectItemCaseSensitive(j, "x");
	if (!cJSON_IsArray(x) || (size_t)cJSON_GetArraySize(x) != t->nparams) {
		snprintf(err, errlen, "%s: runs[%zu].x: expected %zu values",
		    path, k, t->nparams);
		return -1;
	}
	if ((r->x = calloc(t->nparams, sizeof(double))) == NULL ||
	    (r->xs = calloc(t->nparams, sizeof(char *))) == NULL)
		return replay_nomem(path, err, errlen);
	cJSON_ArrayForEach(v, x) {
		if (cJSON_IsString(v)) {
			if ((r->xs[i] = strdup(v->valuestring)) == NULL)
				return replay_nomem(path, err, errlen);
			r->x[i] = NAN;
		} else if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
		    (!t->logscale[i] || v->valuedouble > 0))
			r->x[i] = v->valuedouble;
		else {
			snprintf(err, errlen, "%s: runs[%zu].x[%zu]: expected "
			    "a string or a number (> 0 on a log scale)", path,
			    k, i);
			return -1;
		}
		i++;
	}
	s = cJSON_GetObjectItemCaseSensitive(j, "seed");
	r->seed = cJSON_IsNumber(s) ? (long long)s->valuedouble : 0;
	s = cJSON_GetObjectItemCaseSensitive(j, "status");
	r->status = cJSON_IsNumber(s) ? (int)s->valuedouble : 0;
	s = cJSON_GetObjectItemCaseSensitive(j, "start_s");
	r->start_s = cJSON_IsNumber(s) && s->valuedouble >= 0 ?
	    s->valuedouble : 0;
	if ((rc = replay_numbers(cJSON_GetObjectItemCaseSensitive(j,
	    "values"), &r->values, &r->n)) == 0)
		rc = replay_numbers(cJSON_GetObjectItemCaseSensitive(j,
		    "epoch_s"), &r->epoch_s, &ns);
	if (rc == -2)
		return replay_nomem(path, err, errlen);
	if (rc == -1 || ns != r->n) {
		snprintf(err, errlen, "%s: runs[%zu]: expected arrays values "
		    "and epoch_s of numbers, of equal length", path, k);
		return -1;
	}
	for (i = 0; i < ns; i++)
		if (r->epoch_s[i] < 0) {
			snprintf(err, errlen, "%s: runs[%zu].epoch_s[%zu]: "
			    "must be >= 0", path, k, i);
			return -1;
		}
	return 0;
}

/* Group equal configurations and find each parameter's range. */
static void
replay_index(struct replay_table *t)
{
	size_t i, j, p, next = 0;
	double v;

	for (p = 0; p < t->nparams; p++) {
		t->lo[p] = INFINITY;
		t->hi[p] = -INFINITY;
	}
	for (i = 0; i < t->nruns; i++) {
		struct replay_run *r = &t->runs[i];

		for (p = 0; p < t->nparams; p++) {
			if (r->xs[p] != NULL)
				continue;
			v = t->logscale[p] ? log(r->x[p]) : r->x[p];
			t->lo[p] = fmin(t->lo[p], v);
			t->hi[p] = fmax(t->hi[p], v);
		}
		r->config = next;
		for (j = 0; j < i; j++) {
			for (p = 0; p < t->nparams; p++)
				if ((r->xs[p] == NULL) != (t->runs[j].xs[p] ==
				    NULL) || (r->xs[p] != NULL ? strcmp(r->xs[p],
				    t->runs[j].xs[p]) != 0 : r->x[p] !=
				    t->runs[j].x[p]))
					break;
			if (p == t->nparams) {
				r->config = t->runs[j].config;
				break;
			}
		}
		if (r->config == next)
			next++;
	}
}

/* Load a table. */
struct replay_table *
replay_table_load(const char *path, char *err, size_t errlen)
{
	struct replay_table *t;
	const cJSON *runs, *j;
	cJSON *root;
	char *text;
	size_t k = 0;
	int rc = -1;

	if ((text = replay_slurp(path, err, errlen)) == NULL)
		return NULL;
	root = cJSON_Parse(text);
	free(text);
	if (root == NULL || !cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		cJSON_Delete(root);
		return NULL;
	}
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		replay_nomem(path, err, errlen);
		cJSON_Delete(root);
		return NULL;
	}
	if (replay_header(t, root, path, err, errlen) == -1)
		goto out;
	runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
	if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0) {
		snprintf(err, errlen, "%s: runs: expected a non-empty array",
		    path);
		goto out;
	}
	if ((t->runs = calloc((size_t)cJSON_GetArraySize(runs),
	    sizeof(*t->runs))) == NULL) {
		replay_nomem(path, err, errlen);
		goto out;
	}
	cJSON_ArrayForEach(j, runs) {
		t->nruns++;
		if (replay_run(t, &t->runs[k], j, k, path, err, errlen) == -1)
			goto out;
		k++;
	}
	replay_index(t);
	rc = 0;
out:
	cJSON_Delete(root);
	if (rc == -1) {
		replay_table_free(t);
		return NULL;
	}
	return t;
}

/* The value of HPO_<NAME> (upper-cased, '-' and '.' as '_') in env. */
static const char *
replay_param(const char *const *env, const char *name)
{
	char var[128];
	size_t i;

	snprintf(var, sizeof(var), "HPO_%s", name);
	for (i = 4; var[i] != '\0'; i++)
		var[i] = var[i] == '-' || var[i] == '.' ? '_' :
		    (char)toupper((unsigned char)var[i]);
	return replay_env(env, var);
}

/* The value of name in a NAME=VALUE vector, or NULL. */
const char *
replay_env(const char *const *env, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; env != NULL && env[i] != NULL; i++)
		if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

/* Find the run that answers a job's parameters and seed. */
const struct replay_run *
replay_table_find(const struct replay_table *t, const char *const *env,
    char *err, size_t errlen)
{
	const struct replay_run *r, *best = NULL;
	const char *val;
	double *x, d, dist, bestd = INFINITY, range;
	char **xs, *end;
	long long seed = 0;
	size_t i, p, count = 0, pick;

	for (i = 0; i < t->nfixed; i++)
		if ((val = replay_param(env, t->fixed_names[i])) != NULL &&
		    strtod(val, NULL) != t->fixed_values[i]) {
			snprintf(err, errlen, "replay: %s is %s here but the "
			    "table was made with %g", t->fixed_names[i], val,
			    t->fixed_values[i]);
			return NULL;
		}
	x = calloc(t->nparams, sizeof(double));
	xs = calloc(t->nparams, sizeof(char *));
	if (x == NULL || xs == NULL) {
		snprintf(err, errlen, "replay: out of memory");
		free(x);
		free(xs);
		return NULL;
	}
	for (p = 0; p < t->nparams; p++) {
		if ((val = replay_param(env, t->names[p])) == NULL) {
			snprintf(err, errlen, "replay: the job has no value of "
			    "'%s', a parameter of the table", t->names[p]);
			free(x);
			free(xs);
			return NULL;
		}
		x[p] = strtod(val, &end);
		if (*val == '\0' || *end != '\0' || !isfinite(x[p]))
			xs[p] = (char *)val;
	}
	for (i = 0; i < t->nruns; i++) {
		r = &t->runs[i];
		dist = 0;
		for (p = 0; p < t->nparams; p++) {
			if (r->xs[p] != NULL || xs[p] != NULL)
				d = r->xs[p] != NULL && xs[p] != NULL &&
				    strcmp(r->xs[p], xs[p]) == 0 ? 0 : 1;
			else if (t->logscale[p])
				d = x[p] > 0 ? log(x[p]) - log(r->x[p]) : 1e9;
			else
				d = x[p] - r->x[p];
			range = t->hi[p] - t->lo[p];
			if (r->xs[p] == NULL && xs[p] == NULL && range > 0)
				d /= range;
			dist += d * d;
		}
		if (dist < bestd) {
			bestd = dist;
			best = r;
		}
	}
	free(x);
	free(xs);
	if ((val = replay_env(env, "HPO_SEED")) != NULL)
		seed = strtoll(val, NULL, 10);
	for (i = 0; i < t->nruns; i++)
		if (t->runs[i].config == best->config) {
			if (t->runs[i].seed == seed)
				return &t->runs[i];
			count++;
		}
	pick = (size_t)(seed < 0 ? -(seed + 1) : seed) % count;
	for (i = 0; i < t->nruns; i++)
		if (t->runs[i].config == best->config && pick-- == 0)
			return &t->runs[i];
	return best;
}
