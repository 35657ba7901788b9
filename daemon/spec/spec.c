/*
 * spec.c: parsing and validation of campaign specs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "legal.h"
#include "search.h"
#include "spec.h"
#include "spec_int.h"

static const char *const param_keys[] = { "type", "min", "max", "scale",
	"steps", "values", NULL };

/* Parse parameter k of type "choice": its values only. */
static int
sp_choice(struct sp *sp, struct space *space, const cJSON *p, const char *k)
{
	const cJSON	*vals, *v;
	struct value	*cv;
	char		 kk[320];
	size_t		 n, i, j;
	int		 rc;

	vals = cJSON_GetObjectItemCaseSensitive(p, "values");
	if (cJSON_GetObjectItemCaseSensitive(p, "min") ||
	    cJSON_GetObjectItemCaseSensitive(p, "max") ||
	    cJSON_GetObjectItemCaseSensitive(p, "scale") ||
	    cJSON_GetObjectItemCaseSensitive(p, "steps")) {
		sp_fail(sp, k, "a choice takes only 'values'");
		return -1;
	}
	if (!cJSON_IsArray(vals) || cJSON_GetArraySize(vals) == 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "values"),
		    "expected a non-empty array");
		return -1;
	}
	n = cJSON_GetArraySize(vals);
	if ((cv = calloc(n, sizeof(*cv))) == NULL)
		return sp_fail(sp, k, "out of memory");
	i = 0;
	cJSON_ArrayForEach(v, vals) {
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
			cv[i].num = v->valuedouble;
		else if (cJSON_IsString(v)) {
			cv[i].is_string = 1;
			cv[i].str = v->valuestring;
		} else {
			snprintf(kk, sizeof(kk), "%s.values[%zu]", k, i);
			sp_fail(sp, kk, "expected a number or a string, "
			    "got %s", sp_type(v));
			free(cv);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (cv[j].is_string == cv[i].is_string &&
			    (cv[i].is_string ? strcmp(cv[j].str,
			    cv[i].str) == 0 : cv[j].num == cv[i].num))
				break;
		if (j < i) {
			snprintf(kk, sizeof(kk), "%s.values[%zu]", k, i);
			sp_fail(sp, kk, "duplicate value");
			free(cv);
			return -1;
		}
		i++;
	}
	errno = 0;
	rc = space_add_choice(space, strchr(k, '.') + 1, cv, n);
	free(cv);
	if (rc == -1)
		sp_fail(sp, k, errno == ENOMEM ? "out of memory" :
		    "invalid choice");
	return rc;
}

/* Parse one parameter of the space. */
static int
sp_param(struct sp *sp, struct campaign_spec *s, const cJSON *p,
    const char *k)
{
	struct space	*space = s->space;
	char		*type = NULL, *scale = NULL, kk[320];
	double		 min, max;
	long		 steps;
	int		 rc = -1, has_min, has_max, log;

	if (!cJSON_IsObject(p))
		return sp_fail(sp, k, "expected an object, got %s",
		    sp_type(p));
	if (sp_keys(sp, p, k, param_keys) == -1 ||
	    sp_string(sp, p, "type", k, 1, NULL, &type) == -1)
		goto out;
	if (strcmp(type, "choice") == 0) {
		rc = sp_choice(sp, space, p, k);
		goto out;
	}
	if (strcmp(type, "float") != 0 && strcmp(type, "int") != 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "type"),
		    "expected \"float\", \"int\" or \"choice\", got \"%s\"",
		    type);
		goto out;
	}
	if (cJSON_GetObjectItemCaseSensitive(p, "values") != NULL) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "values"),
		    "only a choice takes values");
		goto out;
	}
	if (sp_number(sp, p, "min", k, -HUGE_VAL, HUGE_VAL, 0, &has_min,
	    &min) == -1 || sp_number(sp, p, "max", k, -HUGE_VAL, HUGE_VAL, 0,
	    &has_max, &max) == -1 ||
	    sp_string(sp, p, "scale", k, 0, "linear", &scale) == -1 ||
	    sp_int(sp, p, "steps", k, 0, 2, 10000, 0, &steps) == -1)
		goto out;
	if (!has_min || !has_max) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, has_min ? "max" : "min"),
		    "required");
		goto out;
	}
	if (strcmp(scale, "linear") != 0 && strcmp(scale, "log") != 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "scale"),
		    "expected \"linear\" or \"log\", got \"%s\"", scale);
		goto out;
	}
	log = strcmp(scale, "log") == 0;
	if (min > max) {
		sp_fail(sp, k, "min (%g) must be <= max (%g)", min, max);
		goto out;
	}
	if (min == max) {
		sp_fail(sp, k, "empty range [%g, %g]; use \"fixed\" for a "
		    "constant", min, max);
		goto out;
	}
	/* The searches map [min, max] through its width: it must exist. */
	if (!isfinite(min) || !isfinite(max)) {
		sp_fail(sp, k, "the range [%g, %g] is wider than the largest "
		    "number (its width max - min overflows); narrow it or use "
		    "scale \"log\"", min, max);
		goto out;
	}
	if (!log && !isfinite(max - min) && sp_hold(sp, s, k, "the range "
	    "[%g, %g] is wider than the largest number (its width max - min "
	    "overflows); narrow it or use scale \"log\"", min, max) == -1)
		goto out;
	if (log && min <= 0) {
		sp_fail(sp, sp_key(kk, sizeof(kk), k, "min"),
		    "must be > 0 for scale \"log\" (got %g)", min);
		goto out;
	}
	if (type[0] == 'i' && (min != floor(min) || max != floor(max))) {
		sp_fail(sp, k, "int bounds must be integers (got %g, %g)", min,
		    max);
		goto out;
	}
	/* The search keeps an int as a double: exact only up to 2^53. */
	if (type[0] == 'i' && (fabs(min) > 9007199254740992.0 ||
	    fabs(max) > 9007199254740992.0)) {
		sp_fail(sp, k, "int bounds must be within +-2^53 "
		    "(9007199254740992; got %g, %g)", min, max);
		goto out;
	}
	errno = 0;
	rc = type[0] == 'i' ?
	    space_add_int(space, strchr(k, '.') + 1, min, max,
	    log ? SCALE_LOG : SCALE_LINEAR, (int)steps) :
	    space_add_float(space, strchr(k, '.') + 1, min, max,
	    log ? SCALE_LOG : SCALE_LINEAR, (int)steps);
	if (rc == -1)
		sp_fail(sp, k, errno == ENOMEM ? "out of memory" :
		    "invalid parameter");
out:
	free(type);
	free(scale);
	return rc;
}

/* A parameter or campaign name: letters, digits, '_', '-', '.'. */
static int
sp_name_ok(const char *s, size_t max)
{
	size_t	 i;

	if (*s == '\0' || strlen(s) > max || !isalpha((unsigned char)*s))
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("_-.", s[i]) ==
		    NULL)
			return 0;
	return 1;
}

/* Parse the space object. */
static int
sp_space(struct sp *sp, struct campaign_spec *s, const cJSON *obj)
{
	const cJSON	*p;
	char		 k[256];

	if (obj == NULL || obj->child == NULL)
		return sp_fail(sp, "space", "expected at least one parameter");
	if (sp_keys(sp, obj, "space", NULL) == -1)
		return -1;
	cJSON_ArrayForEach(p, obj) {
		snprintf(k, sizeof(k), "space.%s", p->string);
		if (!sp_name_ok(p->string, 63) || strchr(p->string, '.'))
			return sp_fail(sp, k, "a parameter name is a letter "
			    "followed by letters, digits, '_' or '-'");
		if (sp_param(sp, s, p, k) == -1)
			return -1;
	}
	return 0;
}

/* Parse the fixed parameters: numbers or strings. */
static int
sp_fixed(struct sp *sp, struct campaign_spec *s, const cJSON *obj)
{
	const cJSON	*p;
	char		 k[256], num[64];
	size_t		 i = 0;

	if (obj == NULL)
		return 0;
	if (sp_keys(sp, obj, "fixed", NULL) == -1)
		return -1;
	if (cJSON_GetArraySize(obj) == 0)
		return 0;
	if ((s->fixed = calloc(cJSON_GetArraySize(obj), sizeof(*s->fixed))) ==
	    NULL)
		return sp_fail(sp, "fixed", "out of memory");
	cJSON_ArrayForEach(p, obj) {
		snprintf(k, sizeof(k), "fixed.%s", p->string);
		if (!sp_name_ok(p->string, 63))
			return sp_fail(sp, k, "a parameter name is a letter "
			    "followed by letters, digits, '_' or '-'");
		if (space_find(s->space, p->string) != -1)
			return sp_fail(sp, k, "also defined in space");
		if (cJSON_IsNumber(p) && isfinite(p->valuedouble))
			space_shortest(p->valuedouble, num, sizeof(num));
		else if (!cJSON_IsString(p))
			return sp_fail(sp, k, "expected a number or a string, "
			    "got %s", sp_type(p));
		s->fixed[i].name = strdup(p->string);
		s->fixed[i].value = strdup(cJSON_IsString(p) ? p->valuestring :
		    num);
		s->nfixed = ++i;
		if (s->fixed[i - 1].name == NULL ||
		    s->fixed[i - 1].value == NULL)
			return sp_fail(sp, k, "out of memory");
	}
	return 0;
}

static const char *const top_keys[] = { "name", "description", "workload",
	"objective", "space", "fixed", "search", "budget", "resources",
	"backend", "retry", "replay", "hardware", "batch_sizes", "scaling",
	"prior", "dispatch", "pilot", NULL };
static const char *const replay_keys[] = { "table", NULL };
static const char *const objective_keys[] = { "metric", "goal", "target",
	"rank", NULL };
static const char *const search_keys[] = { "algorithm", "seed", "stopper",
	NULL };
static const char *const stopper_keys[] = { "algorithm", "min_resource",
	"max_resource", "eta", "warmup_trials", "warmup_steps", "slack",
	"leader", "leader_running", "power_law", NULL };

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
 * Refuse a key of search.stopper that another stopper reads but this one
 * does not ("leader" given to "asha"): it would change nothing, silently.
 */
static int
sp_stopper_keys(struct sp *sp, const char *name, const cJSON *o)
{
	const cJSON	*k;
	const char *const *keys, *const *p;
	char		 took[256], path[300];

	if (o == NULL || (keys = stop_keys(name)) == NULL)
		return 0;
	took[0] = '\0';
	for (p = keys; *p != NULL; p++)
		snprintf(took + strlen(took), sizeof(took) - strlen(took),
		    "%s%s", took[0] ? ", " : "", *p);
	cJSON_ArrayForEach(k, o) {
		if (strcmp(k->string, "algorithm") == 0)
			continue;
		for (p = keys; *p != NULL && strcmp(*p, k->string) != 0; p++)
			;
		if (*p != NULL)
			continue;
		snprintf(path, sizeof(path), "search.stopper.%s", k->string);
		return sp_fail(sp, path, "not read by the \"%s\" stopper, "
		    "which would ignore it (%s%s)", name, took[0] ?
		    "it reads " : "it reads no other key", took);
	}
	return 0;
}

/* Parse search.stopper (absent: "none"). */
static int
sp_stopper(struct sp *sp, struct campaign_spec *s, const cJSON *se)
{
	const cJSON	*o;
	double		 d;
	long		 n;
	int		 has_max;
	char		 err[256];
	struct stopper	*st;
	const char *const *names;

	stop_defaults(&s->stop);
	s->stop.seed = s->seed;
	if (sp_object(sp, se, "stopper", "search", 0, &o) == -1 ||
	    (o && sp_keys(sp, o, "search.stopper", stopper_keys) == -1) ||
	    sp_string(sp, o, "algorithm", "search.stopper", o != NULL, "none",
	    &s->stopper) == -1)
		return -1;
	if (!stop_known(s->stopper)) {
		err[0] = '\0';
		for (names = stop_algorithms(); *names != NULL; names++)
			snprintf(err + strlen(err), sizeof(err) - strlen(err),
			    "%s\"%s\"", err[0] ? ", " : "", *names);
		return sp_fail(sp, "search.stopper.algorithm", "expected one "
		    "of %s, got \"%s\"", err, s->stopper);
	}
	if (!s->recorded && sp_stopper_keys(sp, s->stopper, o) == -1)
		return -1;
	if (sp_number(sp, o, "min_resource", "search.stopper", 1e-9, 1e9, 1,
	    NULL, &s->stop.min_resource) == -1 ||
	    sp_number(sp, o, "max_resource", "search.stopper", 1e-9, 1e9, 0,
	    &has_max, &s->stop.max_resource) == -1 ||
	    sp_int(sp, o, "eta", "search.stopper", 0, 2, 100, 3, &n) == -1)
		return -1;
	s->stop.eta = (int)n;
	if (sp_int(sp, o, "warmup_trials", "search.stopper", 0, 0, 1000000, 5,
	    &n) == -1 || sp_number(sp, o, "warmup_steps", "search.stopper", 0,
	    1e9, 0, &s->stop_has_grace, &d) == -1 || sp_number(sp, o, "slack",
	    "search.stopper", 0, 1e9, 0, NULL, &s->stop.slack) == -1 ||
	    sp_number(sp, o, "leader", "search.stopper", 0, 1e9, 2, NULL,
	    &s->stop.leader) == -1 || sp_number(sp, o, "leader_running",
	    "search.stopper", 0, 1e9, 3, NULL, &s->stop.leader_running) == -1 ||
	    sp_bool(sp, o, "power_law", "search.stopper", 0,
	    &s->stop.power_law) == -1)
		return -1;
	if (s->stop.leader > 0 && s->stop.leader < 1)
		return sp_fail(sp, "search.stopper.leader", "must be 0 (off) "
		    "or >= 1, got %g", s->stop.leader);
	if (s->stop.leader_running > 0 && s->stop.leader_running < 1)
		return sp_fail(sp, "search.stopper.leader_running", "must be "
		    "0 (as leader) or >= 1, got %g", s->stop.leader_running);
	s->stop_given = o != NULL;
	s->stop_has_max = has_max;
	s->stop.warmup_trials = (int)n;
	s->stop.warmup_steps = d;
	if (has_max && s->stop.max_resource < s->stop.min_resource)
		return sp_fail(sp, "search.stopper.max_resource", "must be >= "
		    "min_resource (%g)", s->stop.min_resource);
	/* No rung is at or past max_resource: at min_resource, none at all. */
	if (!s->recorded && has_max &&
	    s->stop.max_resource == s->stop.min_resource &&
	    (strcmp(s->stopper, "asha") == 0 ||
	    strcmp(s->stopper, "hyperband") == 0))
		return sp_fail(sp, "search.stopper.max_resource", "must be > "
		    "min_resource (%g): %s has no rung at or past max_resource, "
		    "so it would have none and stop no trial", s->stop.min_resource,
		    s->stopper);
	if (!has_max && strcmp(s->stopper, "hyperband") == 0)
		return sp_fail(sp, "search.stopper.max_resource", "required "
		    "for hyperband (the epochs a full trial runs)");
	/* Median judges a trial against warmup_trials completed others. */
	if (!s->recorded && strcmp(s->stopper, "median") == 0 &&
	    s->stop.warmup_trials >= s->max_trials)
		return sp_fail(sp, "search.stopper.warmup_trials", "%d%s is not "
		    "below budget.max_trials (%d): median judges a trial only "
		    "once %d others have completed, so it would stop no trial",
		    s->stop.warmup_trials, cJSON_GetObjectItemCaseSensitive(o,
		    "warmup_trials") != NULL ? "" : " (the default)",
		    s->max_trials, s->stop.warmup_trials);
	if (strcmp(s->stopper, "target") == 0 && s->stop.warmup_trials < 1)
		return sp_fail(sp, "search.stopper.warmup_trials", "must be >= "
		    "1 for target (the trials on target before their curves "
		    "serve as a reference), got %d", s->stop.warmup_trials);
	/* The target stopper is checked once bound (sp_target_bind()). */
	if (strcmp(s->stopper, "target") == 0)
		return 0;
	if ((st = stop_new(s->stopper, &s->stop, err, sizeof(err))) == NULL)
		return sp_fail(sp, "search.stopper", "%s", err);
	stop_free(st);
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
	const cJSON	*b, *se, *r, *re;
	double		 seed;

	if (sp_object(sp, root, "budget", "", 1, &b) == -1 ||
	    sp_table(sp, s, b, "budget", spec_budget_keys) == -1)
		return -1;

	if (sp_object(sp, root, "search", "", 0, &se) == -1 ||
	    (se && sp_keys(sp, se, "search", search_keys) == -1) ||
	    sp_string(sp, se, "algorithm", "search", 0, "random",
	    &s->algorithm) == -1 ||
	    sp_number(sp, se, "seed", "search", 0, 9007199254740992.0, 0, NULL,
	    &seed) == -1)
		return -1;
	if (seed != floor(seed))
		return sp_fail(sp, "search.seed", "expected an integer");
	s->seed = (uint64_t)seed;
	if (!search_known(s->algorithm))
		return sp_fail(sp, "search.algorithm", "unknown algorithm "
		    "\"%s\"", s->algorithm);
	if (sp_stopper(sp, s, se) == -1)
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

/*
 * Build the search once, as the engine will, so that a space it cannot
 * search (a grid of an int range too wide for one point per integer) is
 * refused by hpoctl check and at submission, naming the file; and count
 * a grid's points (search_points).  A scaling campaign searches each
 * batch size's view of the space instead (scaling_new()).
 */
static int
sp_search(struct sp *sp, struct campaign_spec *s)
{
	struct search	*se;
	char		 err[512];

	if (s->scaling.nbatch > 0)
		return 0;
	if (s->hold[0] != '\0')
		return 0;	/* held: no search is set up */
	if ((se = search_new(s->algorithm, s->space, s->seed, err,
	    sizeof(err))) == NULL)
		return sp_hold(sp, s, "search.algorithm", "%s", err);
	if (strcmp(s->algorithm, "grid") == 0)
		s->search_points = search_size(se);
	search_free(se);
	return 0;
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
	    sp_search(&sp, s) == -1)
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

/*
 * Say in buf, and return it, that a grid larger than budget.max_trials is
 * cut: only its first points in grid order run, the first parameter
 * varying slowest, so most of that parameter's values are never tried.
 */
const char *
spec_grid_cut(const struct campaign_spec *s, char *buf, size_t len)
{
	snprintf(buf, len, "grid: %zu points but budget.max_trials is %d: "
	    "only the first %d in grid order run (the last parameter varies "
	    "fastest, the first, %s, slowest), %zu never do", s->search_points,
	    s->max_trials, s->max_trials, s->space->params[0].name,
	    s->search_points - (size_t)s->max_trials);
	return buf;
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

/* Complete a spec from its workload. */
int
spec_bind(struct campaign_spec *s, const struct workload *w, char *err,
    size_t errlen)
{
	struct sp	 sp = { s->path, err, errlen };
	const char	**names;
	char		 names_buf[512];
	size_t		 i, n = 0;
	int		 rc;

	if (s->metric == NULL && w->metric != NULL &&
	    (s->metric = strdup(w->metric)) == NULL)
		return sp_fail(&sp, "objective.metric", "out of memory");
	if (s->metric == NULL)
		return sp_fail(&sp, "objective.metric", "required (workload "
		    "'%s' declares none)", w->name);
	if (!workload_metric_known(w, s->metric)) {
		workload_metrics_names(w, names_buf, sizeof(names_buf));
		return sp_fail(&sp, "objective.metric", "'%s' is not logged "
		    "by workload '%s' (%s), which logs %s", s->metric, w->name,
		    w->path, names_buf);
	}
	if (!s->has_goal && w->has_goal && strcmp(s->metric, w->metric) == 0) {
		s->has_goal = 1;
		s->maximize = w->maximize;
	}
	if (!s->has_goal)
		return sp_fail(&sp, "objective.goal", "required (workload '%s' "
		    "has no goal for '%s')", w->name, s->metric);
	if (!s->has_target && w->has_target && strcmp(s->metric, w->metric)
	    == 0) {
		s->has_target = 1;
		s->target = w->target;
	}
	if (strcmp(s->backend, "local") == 0 && s->res.nodes != 1)
		return sp_fail(&sp, "resources.nodes", "the local backend runs "
		    "single-node trials (got %d)", s->res.nodes);
	s->step_max = sp_step_max(s, w);
	if (sp_scaling_bind(&sp, s, w) == -1 ||
	    sp_target_bind(&sp, s, w) == -1)
		return -1;
	/* A value the workload declares illegal: a recorded spec is held. */
	if (legal_check(s, w, err, errlen) == -1) {
		if (!s->recorded)
			return -1;
		if (s->hold[0] == '\0')
			snprintf(s->hold, sizeof(s->hold), "%s", err);
	}
	/* A parameter no template uses would silently change nothing. */
	for (i = 0; i < s->space->n + s->nfixed; i++) {
		const char *pn = i < s->space->n ? s->space->params[i].name :
		    s->fixed[i - s->space->n].name;

		if (!workload_uses(w, pn))
			return sp_fail(&sp, NULL, "%s.%s: not used by workload "
			    "'%s' (%s)", i < s->space->n ? "space" : "fixed", pn,
			    w->name, w->path);
	}
	if ((names = calloc(s->space->n + s->nfixed + 1, sizeof(*names))) ==
	    NULL)
		return sp_fail(&sp, NULL, "out of memory");
	for (i = 0; i < s->space->n; i++)
		names[n++] = s->space->params[i].name;
	for (i = 0; i < s->nfixed; i++)
		names[n++] = s->fixed[i].name;
	rc = workload_check(w, names, n, err, errlen);
	free(names);
	return rc;
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
