/*
 * rcp_load.c: read an RCP file (MLCommons rcps_*.json or hpod's export)
 * into an rcp_set (see rcp.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rcp.h"

/* The whole file at path, NUL-terminated; NULL with err. */
static char *
rcp_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE	*f;
	char	*buf = NULL, *nb;
	size_t	 cap = 0, n;

	*len = 0;
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (cap - *len < 4096) {
			cap = cap ? 2 * cap : 65536;
			if ((nb = realloc(buf, cap + 1)) == NULL) {
				snprintf(err, errlen, "%s: out of memory",
				    path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		if ((n = fread(buf + *len, 1, cap - *len, f)) == 0)
			break;
		*len += n;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	} else
		buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Read entry e into p; -1 with err naming the key. */
static int
rcp_entry(const char *path, const cJSON *e, struct rcp_point *p, char *err,
    size_t errlen)
{
	const cJSON	*b, *bs, *ep, *v;
	size_t		 i = 0;

	memset(p, 0, sizeof(*p));
	b = cJSON_GetObjectItemCaseSensitive(e, "Benchmark");
	bs = cJSON_GetObjectItemCaseSensitive(e, "BS");
	ep = cJSON_GetObjectItemCaseSensitive(e, "Epochs to converge");
	if (!cJSON_IsObject(e)) {
		snprintf(err, errlen, "%s: %s: expected an object", path,
		    e->string);
		return -1;
	}
	if (!cJSON_IsString(b) || b->valuestring[0] == '\0') {
		snprintf(err, errlen, "%s: %s.Benchmark: expected a name",
		    path, e->string);
		return -1;
	}
	if (!cJSON_IsNumber(bs) || !(bs->valuedouble > 0)) {
		snprintf(err, errlen, "%s: %s.BS: expected a positive number",
		    path, e->string);
		return -1;
	}
	if (!cJSON_IsArray(ep) || cJSON_GetArraySize(ep) < 1) {
		snprintf(err, errlen, "%s: %s.Epochs to converge: expected an "
		    "array of numbers", path, e->string);
		return -1;
	}
	if ((p->epochs = calloc((size_t)cJSON_GetArraySize(ep),
	    sizeof(double))) == NULL) {
		snprintf(err, errlen, "%s: %s: out of memory", path, e->string);
		return -1;
	}
	cJSON_ArrayForEach(v, ep) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0)) {
			snprintf(err, errlen, "%s: %s.Epochs to converge[%zu]: "
			    "expected a positive number", path, e->string, i);
			free(p->epochs);
			return -1;
		}
		p->epochs[i++] = v->valuedouble;
	}
	p->n = i;
	p->bs = bs->valuedouble;
	p->key = strdup(e->string);
	p->benchmark = strdup(b->valuestring);
	if (p->key == NULL || p->benchmark == NULL) {
		snprintf(err, errlen, "%s: %s: out of memory", path, e->string);
		free(p->key);
		free(p->benchmark);
		free(p->epochs);
		return -1;
	}
	return 0;
}

/* Free n points and the array. */
static void
rcp_points_free(struct rcp_point *pts, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(pts[i].key);
		free(pts[i].benchmark);
		free(pts[i].epochs);
	}
	free(pts);
}

/* Read every entry of the RCP file at path. */
int
rcp_read(const char *path, struct rcp_point **pts, size_t *n, char *err,
    size_t errlen)
{
	struct rcp_point	 p, *np;
	cJSON			*root, *e, *r;
	char			*text;
	size_t			 len;

	*pts = NULL;
	*n = 0;
	if ((text = rcp_slurp(path, &len, err, errlen)) == NULL)
		return -1;
	root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: expected a JSON object of RCP "
		    "entries", path);
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(e, root) {
		if (rcp_entry(path, e, &p, err, errlen) == -1) {
			cJSON_Delete(root);
			rcp_points_free(*pts, *n);
			*pts = NULL;
			*n = 0;
			return -1;
		}
		r = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(e,
		    "hpod"), "runs");
		p.runs = cJSON_IsNumber(r) && r->valuedouble >= (double)p.n &&
		    r->valuedouble < 1e6 ? (int)r->valuedouble : (int)p.n;
		if ((np = reallocarray(*pts, *n + 1, sizeof(**pts))) == NULL) {
			snprintf(err, errlen, "%s: %s: out of memory", path,
			    p.key);
			free(p.key);
			free(p.benchmark);
			free(p.epochs);
			cJSON_Delete(root);
			rcp_points_free(*pts, *n);
			*pts = NULL;
			*n = 0;
			return -1;
		}
		*pts = np;
		(*pts)[(*n)++] = p;
	}
	cJSON_Delete(root);
	return 0;
}

/* Read the entries of one benchmark of the RCP file at path. */
int
rcp_load(const char *path, const char *benchmark, int subm_runs,
    struct rcp_set *set, char *err, size_t errlen)
{
	struct rcp_point	*all, *pts;
	size_t			 nall, n = 0, i, j;

	memset(set, 0, sizeof(*set));
	if (rcp_read(path, &all, &nall, err, errlen) == -1)
		return -1;
	if ((pts = calloc(nall + 1, sizeof(*pts))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		rcp_points_free(all, nall);
		return -1;
	}
	if (benchmark == NULL && nall > 0)
		benchmark = all[0].benchmark;
	for (i = 0; i < nall; i++) {
		if (strcmp(all[i].benchmark, benchmark) != 0)
			continue;
		for (j = 0; j < n; j++)
			if (pts[j].bs == all[i].bs) {
				snprintf(err, errlen, "%s: %s.BS: %g is also "
				    "the BS of %s", path, all[i].key,
				    all[i].bs, pts[j].key);
				free(pts);
				rcp_points_free(all, nall);
				return -1;
			}
		pts[n++] = all[i];
		memset(&all[i], 0, sizeof(all[i]));
	}
	if (n == 0)
		snprintf(err, errlen, "%s: no entry for benchmark '%s'", path,
		    benchmark ? benchmark : "");
	rcp_points_free(all, nall);
	rcp_set_init(set, pts, n, subm_runs);
	if (n == 0) {
		rcp_release(set);
		return -1;
	}
	return 0;
}
