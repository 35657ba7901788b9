/*
 * spec.c: parsing and validation of campaign specs: the entry points
 * (spec_parse, spec_parse_recorded, spec_load, spec_free), the top-level
 * keys in their order, the objective, and where and how the trials run
 * (budget, resources, retry, backend, replay).  The parameters are
 * spec_space.c's, the search spec_search.c's, the completion from the
 * workload spec_bind.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "search.h"
#include "spec.h"
#include "spec_int.h"

static const char *const top_keys[] = { "name", "description", "workload",
	"objective", "space", "fixed", "search", "budget", "resources",
	"backend", "retry", "replay", "hardware", "batch_sizes", "scaling",
	"prior", "dispatch", "pilot", NULL };
static const char *const replay_keys[] = { "table", NULL };
static const char *const objective_keys[] = { "metric", "goal", "target",
	"rank", NULL };

/* Parse the objective object (it may be absent: the workload has one). */
static int
sp_objective(struct sp *sp, struct campaign_spec *s, const cJSON *o)
{
	char	*goal = NULL;

	if (o == NULL)
		return 0;
	if (sp_keys(sp, o, "objective", objective_keys) == -1 ||
	    sp_string(sp, o, "metric", "objective", 0, NULL, &s->metric) == -1 ||
	    sp_string(sp, o, "goal", "objective", 0, NULL, &goal) == -1 ||
	    sp_number(sp, o, "target", "objective", -HUGE_VAL, HUGE_VAL, 0,
	    &s->has_target, &s->target) == -1 || sp_rank(sp, s, o) == -1) {
		free(goal);
		return -1;
	}
	if (goal != NULL) {
		s->has_goal = 1;
		if (strcmp(goal, "min") == 0)
			s->maximize = 0;
		else if (strcmp(goal, "max") == 0)
			s->maximize = 1;
		else {
			sp_fail(sp, "objective.goal",
			    "expected \"min\" or \"max\", got \"%s\"", goal);
			free(goal);
			return -1;
		}
	}
	free(goal);
	return 0;
}

/*
 * Parse the replay object: required by the replay backend, refused by the
 * others.  A relative table is relative to the spec's directory.
 */
static int
sp_replay(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	const cJSON	*o;
	char		*table = NULL;
	const char	*slash;
	int		 rc = -1;

	if (sp_object(sp, root, "replay", "", strcmp(s->backend, "replay") ==
	    0, &o) == -1)
		return -1;
	if (o == NULL)
		return 0;
	if (strcmp(s->backend, "replay") != 0)
		return sp_fail(sp, "replay", "only for backend \"replay\"");
	if (sp_keys(sp, o, "replay", replay_keys) == -1 ||
	    sp_string(sp, o, "table", "replay", 1, NULL, &table) == -1)
		goto out;
	slash = strrchr(s->path, '/');
	if (table[0] == '/' || slash == NULL || strcmp(s->path, "-") == 0)
		s->replay_table = strdup(table);
	else if (asprintf(&s->replay_table, "%.*s/%s", (int)(slash - s->path),
	    s->path, table) == -1)
		s->replay_table = NULL;
	if (s->replay_table == NULL) {
		sp_fail(sp, "replay.table", "out of memory");
		goto out;
	}
	if (access(s->replay_table, R_OK) == -1) {
		sp_fail(sp, "replay.table", "%s: %s", s->replay_table,
		    strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(table);
	return rc;
}

/* Parse budget, search, resources, retry and backend. */
static int
sp_run(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	const cJSON	*b, *r, *re;

	if (sp_object(sp, root, "budget", "", 1, &b) == -1 ||
	    sp_table(sp, s, b, "budget", spec_budget_keys) == -1)
		return -1;

	if (sp_search(sp, s, root) == -1)
		return -1;

	if (sp_object(sp, root, "resources", "", 0, &r) == -1 ||
	    sp_table(sp, s, r, "resources", spec_resource_keys) == -1 ||
	    sp_slurm(sp, r, &s->res.slurm) == -1)
		return -1;

	if (sp_object(sp, root, "retry", "", 0, &re) == -1 ||
	    sp_table(sp, s, re, "retry", spec_retry_keys) == -1)
		return -1;

	if (sp_string(sp, root, "backend", "", 0, "local", &s->backend) == -1)
		return -1;
	if (strcmp(s->backend, "local") != 0 && strcmp(s->backend, "slurm") &&
	    strcmp(s->backend, "replay"))
		return sp_fail(sp, "backend", "expected \"local\", \"slurm\" or "
		    "\"replay\", got \"%s\"", s->backend);
	if (sp_pilot(sp, s, root) == -1)
		return -1;
	return sp_replay(sp, s, root);
}

/* Point at the line and column of a JSON syntax error. */
static int
sp_syntax(struct sp *sp, const char *text, size_t len)
{
	const char	*at = cJSON_GetErrorPtr(), *p;
	int		 line = 1, col = 1;

	if (at == NULL || at < text || at > text + len)
		return sp_fail(sp, NULL, "not valid JSON");
	for (p = text; p < at; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else
			col++;
	}
	return sp_fail(sp, NULL, "line %d, column %d: JSON syntax error", line,
	    col);
}

/* Parse and validate a campaign spec. */
static struct campaign_spec *
spec_parse_as(const char *text, size_t len, const char *path, int recorded,
    char *err, size_t errlen)
{
	struct sp		 sp = { path, err, errlen };
	struct campaign_spec	*s;
	cJSON			*root;
	const cJSON		*o;
	int			 rc = -1;

	if (sp_nul_check(&sp, text, len) == -1)
		return NULL;
	if ((root = cJSON_ParseWithLength(text, len)) == NULL) {
		sp_syntax(&sp, text, len);
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL) {
		sp_fail(&sp, NULL, "out of memory");
		cJSON_Delete(root);
		return NULL;
	}
	s->recorded = recorded;
	s->step_max = SPEC_STEP_MAX;	/* until spec_bind() knows better */
	if ((s->path = strdup(path)) == NULL ||
	    (s->space = space_new()) == NULL) {
		sp_fail(&sp, NULL, "out of memory");
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		sp_fail(&sp, NULL, "expected a JSON object");
		goto out;
	}
	/* A workload spec given for a campaign: say which it is. */
	if (cJSON_GetObjectItemCaseSensitive(root, "program") != NULL &&
	    cJSON_GetObjectItemCaseSensitive(root, "workload") == NULL) {
		sp_fail(&sp, NULL, "a workload spec (it has \"program\"; see "
		    "hpod-workload(5)), not a campaign spec: a campaign names "
		    "it in its \"workload\" key (hpod-campaign(5))");
		goto out;
	}
	if (sp_keys(&sp, root, "", top_keys) == -1 ||
	    sp_string(&sp, root, "name", "", 1, NULL, &s->name) == -1)
		goto out;
	if (!sp_name_ok(s->name, 64)) {
		sp_fail(&sp, "name", "\"%s\" must start with a letter and use "
		    "only letters, digits, '_', '-', '.' (at most 64)", s->name);
		goto out;
	}
	o = cJSON_GetObjectItemCaseSensitive(root, "description");
	if (o != NULL && !cJSON_IsString(o)) {
		sp_fail(&sp, "description", "expected a string, got %s",
		    sp_type(o));
		goto out;
	}
	if (sp_string(&sp, root, "workload", "", 1, NULL, &s->workload) == -1 ||
	    sp_object(&sp, root, "objective", "", 0, &o) == -1 ||
	    sp_objective(&sp, s, o) == -1 ||
	    sp_object(&sp, root, "space", "", 1, &o) == -1 ||
	    sp_space(&sp, s, o) == -1 ||
	    sp_object(&sp, root, "fixed", "", 0, &o) == -1 ||
	    sp_fixed(&sp, s, o) == -1 ||
	    sp_run(&sp, s, root) == -1 ||
	    sp_string(&sp, root, "hardware", "", 0, NULL, &s->hardware) == -1 ||
	    sp_scaling(&sp, s, root) == -1 ||
	    sp_pilot_scaling(&sp, s) == -1 || sp_prior(&sp, s, root) == -1 ||
	    sp_search_check(&sp, s) == -1)
		goto out;
	s->json = cJSON_PrintUnformatted(root);
	rc = 0;
out:
	cJSON_Delete(root);
	if (rc == -1) {
		spec_free(s);
		return NULL;
	}
	return s;
}

/* spec_parse(): see spec.h. */
struct campaign_spec *
spec_parse(const char *text, size_t len, const char *path, char *err,
    size_t errlen)
{
	return spec_parse_as(text, len, path, 0, err, errlen);
}

/* spec_parse_recorded(): see spec.h. */
struct campaign_spec *
spec_parse_recorded(const char *text, size_t len, const char *path,
    char *err, size_t errlen)
{
	return spec_parse_as(text, len, path, 1, err, errlen);
}

/* Read a whole file (or stdin for "-") into memory. */
static char *
spec_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE	*f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char	*buf = NULL, *nbuf;
	size_t	 cap = 0, n = 0, r;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			if (cap > (16 << 20)) {
				snprintf(err, errlen, "%s: larger than 16 MiB",
				    path);
				free(buf);
				buf = NULL;
				break;
			}
			if ((nbuf = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "%s: out of memory",
				    path);
				free(buf);
				buf = NULL;
				break;
			}
			buf = nbuf;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	if (buf != NULL && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf != NULL) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

/* Load a spec file. */
struct campaign_spec *
spec_load(const char *path, char *err, size_t errlen)
{
	struct campaign_spec	*s;
	size_t			 len;
	char			*text;

	if ((text = spec_slurp(path, &len, err, errlen)) == NULL)
		return NULL;
	s = spec_parse(text, len, path, err, errlen);
	free(text);
	return s;
}

/* Free a spec. */
void
spec_free(struct campaign_spec *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	free(s->path);
	cJSON_free(s->json);
	free(s->name);
	free(s->workload);
	free(s->backend);
	free(s->metric);
	space_free(s->space);
	for (i = 0; i < s->nfixed; i++) {
		free((char *)s->fixed[i].name);
		free((char *)s->fixed[i].value);
	}
	free(s->fixed);
	free(s->algorithm);
	free(s->stopper);
	free(s->replay_table);
	free(s->res.partition);
	free(s->res.account);
	free(s->res.qos);
	free(s->res.constraint);
	free((char *)s->res.slurm.reservation);
	for (i = 0; s->res.slurm.sbatch != NULL &&
	    s->res.slurm.sbatch[i] != NULL; i++)
		free(s->res.slurm.sbatch[i]);
	free(s->res.slurm.sbatch);
	free(s->hardware);
	free(s->scaling.batch_sizes);
	free(s->scaling.batch_pos);
	free(s->scaling.lr_param);
	free(s->scaling.batch_param);
	free(s->prior.kind);
	free(s->prior.path);
	free(s->prior.name);
	free(s);
}
