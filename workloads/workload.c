/*
 * workload.c: loading workload specs (templates and rendering are in
 * workload_template.c).
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "workload.h"
#include "json_nul.h"
#include "workload_int.h"

const char *const workload_builtins[] = { "trial", "attempt", "seed", "dir",
	"campaign", "token", "target", "nodes", "gpus_per_node",
	"tasks_per_node", "cpus_per_task", "ranks", "ranks_per_node", NULL };

static const char *const workload_keys[] = { "name", "description",
	"program", "args", "env", "defaults", "objective", "fidelity",
	"launcher", "tunable", "batch", "flops_per_sample", "metric_reader",
	"metrics", "constraints", "step_unit", "metric_file", NULL };

static const char *const launcher_keys[] = { "program", "args", NULL };

/* Free a NULL-terminated vector of strings. */
void
workload_strv_free(char **v)
{
	size_t	 i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Free a workload. */
void
workload_free(struct workload *w)
{
	size_t	 i;

	if (w == NULL)
		return;
	free(w->name);
	free(w->path);
	cJSON_free(w->json);
	free(w->description);
	free(w->program);
	free(w->program_name);
	free(w->launcher);
	workload_strv_free(w->launcher_args);
	workload_strv_free(w->args);
	workload_strv_free(w->env);
	for (i = 0; i < w->ndefaults; i++) {
		free((char *)w->defaults[i].name);
		free((char *)w->defaults[i].value);
	}
	free(w->defaults);
	free(w->metric);
	free(w->fidelity);
	free(w->step_unit);
	free(w->step_unit_one);
	for (i = 0; i < w->ntunable; i++) {
		free(w->tunable[i].name);
		workload_strv_free(w->tunable[i].values);
	}
	free(w->tunable);
	for (i = 0; i < w->nconstraints; i++) {
		free(w->constraints[i].a);
		free(w->constraints[i].b);
	}
	free(w->constraints);
	free(w->batch_global);
	free(w->batch_local);
	workload_reader_free(w->reader);
	free(w->metric_file);
	workload_strv_free(w->metrics);
	free(w);
}

/* Text of a scalar JSON value: a number (shortest form) or a string. */
char *
workload_scalar(const cJSON *j)
{
	char	 buf[64];
	int	 p;

	if (cJSON_IsString(j))
		return strdup(j->valuestring);
	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
		return NULL;
	/* Whole numbers in full: 2000, not 2e+03 (an int argument). */
	if (j->valuedouble == floor(j->valuedouble) &&
	    fabs(j->valuedouble) < 1e15) {
		snprintf(buf, sizeof(buf), "%.0f", j->valuedouble);
		return strdup(buf);
	}
	for (p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, j->valuedouble);
		if (strtod(buf, NULL) == j->valuedouble)
			break;
	}
	return strdup(buf);
}

static int	 workload_launcher(struct workload *, const cJSON *, char *,
		    size_t);

/* Parse the objective of a workload spec. */
static int
workload_objective(struct workload *w, const cJSON *o, char *err,
    size_t errlen)
{
	static const char *const keys[] = { "metric", "goal", "target",
		NULL };
	const cJSON	*m, *g, *t;
	int		 rc;

	if ((rc = workload_object_read(w, o, "objective", "with metric, goal "
	    "and target", keys, err, errlen)) != 1)
		return rc;
	m = cJSON_GetObjectItemCaseSensitive(o, "metric");
	g = cJSON_GetObjectItemCaseSensitive(o, "goal");
	t = cJSON_GetObjectItemCaseSensitive(o, "target");
	/* An empty one would name no line's key: no trial would report. */
	if (!cJSON_IsString(m) || *m->valuestring == '\0') {
		snprintf(err, errlen, "%s: objective.metric: expected a metric "
		    "name", w->path);
		return -1;
	}
	if ((w->metric = strdup(m->valuestring)) == NULL)
		return workload_oom(w, err, errlen);
	if (g != NULL) {
		if (!cJSON_IsString(g) || (strcmp(g->valuestring, "min") &&
		    strcmp(g->valuestring, "max"))) {
			snprintf(err, errlen, "%s: objective.goal: expected "
			    "\"min\" or \"max\"", w->path);
			return -1;
		}
		w->has_goal = 1;
		w->maximize = strcmp(g->valuestring, "max") == 0;
	}
	if (t != NULL) {
		if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble)) {
			snprintf(err, errlen, "%s: objective.target: expected "
			    "a number", w->path);
			return -1;
		}
		w->has_target = 1;
		w->target = t->valuedouble;
	}
	return 0;
}

/* Parse the "args" and "env" templates and the "defaults" of a spec. */
static int
workload_templates(struct workload *w, const cJSON *root, char *err,
    size_t errlen)
{
	const cJSON	*c, *j;
	char		 at[256];
	size_t		 i, n;

	if (workload_templates_read(w, cJSON_GetObjectItemCaseSensitive(root,
	    "args"), "args", &w->args, err, errlen) == -1)
		return -1;
	j = cJSON_GetObjectItemCaseSensitive(root, "env");
	if (j != NULL && !cJSON_IsObject(j)) {
		snprintf(err, errlen, "%s: env: expected an object", w->path);
		return -1;
	}
	n = j ? (size_t)cJSON_GetArraySize(j) : 0;
	if ((w->env = calloc(n + 1, sizeof(*w->env))) == NULL)
		return workload_oom(w, err, errlen);
	i = 0;
	cJSON_ArrayForEach(c, j) {
		if (*c->string == '\0' || strchr(c->string, '=') != NULL) {
			snprintf(err, errlen, "%s: env.%s: a variable's name may "
			    "not be empty or contain '='", w->path, c->string);
			return -1;
		}
		if (!cJSON_IsString(c) || !workload_template_ok(c->valuestring)) {
			snprintf(err, errlen, "%s: env.%s: expected a string "
			    "with balanced {placeholders}", w->path, c->string);
			return -1;
		}
		if (asprintf(&w->env[i], "%s=%s", c->string, c->valuestring)
		    == -1) {
			w->env[i] = NULL;
			return workload_oom(w, err, errlen);
		}
		i++;
	}
	j = cJSON_GetObjectItemCaseSensitive(root, "defaults");
	if (j != NULL && !cJSON_IsObject(j)) {
		snprintf(err, errlen, "%s: defaults: expected an object",
		    w->path);
		return -1;
	}
	n = j ? (size_t)cJSON_GetArraySize(j) : 0;
	if ((w->defaults = calloc(n + 1, sizeof(*w->defaults))) == NULL)
		return workload_oom(w, err, errlen);
	cJSON_ArrayForEach(c, j) {
		struct workload_var *d = &w->defaults[w->ndefaults];
		char *v;

		snprintf(at, sizeof(at), "defaults.%s", c->string);
		if (workload_scalar_read(w, c, at, &v, err, errlen) == -1)
			return -1;
		d->value = v;
		w->ndefaults++;
		if ((d->name = strdup(c->string)) == NULL)
			return workload_oom(w, err, errlen);
	}
	return 0;
}

/*
 * Parse the fidelity and what a step counts: "step_unit", a plural word
 * of lowercase letters ending in 's' ("samples": OpenFold's epoch_num),
 * else the fidelity's own ("epochs", "steps").  Its singular drops the
 * 's' ("sample"), for messages.
 */
static int
workload_fidelity(struct workload *w, const cJSON *root, char *err,
    size_t errlen)
{
	const cJSON	*j, *u;
	const char	*unit;
	size_t		 n;

	j = cJSON_GetObjectItemCaseSensitive(root, "fidelity");
	if (j != NULL && (!cJSON_IsString(j) ||
	    (strcmp(j->valuestring, "epochs") && strcmp(j->valuestring,
	    "steps")))) {
		snprintf(err, errlen, "%s: fidelity: expected \"epochs\" or "
		    "\"steps\"", w->path);
		return -1;
	}
	if ((w->fidelity = strdup(j ? j->valuestring : "epochs")) == NULL)
		return workload_oom(w, err, errlen);
	u = cJSON_GetObjectItemCaseSensitive(root, "step_unit");
	n = cJSON_IsString(u) ? strlen(u->valuestring) : 0;
	if (u != NULL && (n < 2 || n > WORKLOAD_UNIT_MAX ||
	    strspn(u->valuestring, "abcdefghijklmnopqrstuvwxyz") != n ||
	    u->valuestring[n - 1] != 's')) {
		snprintf(err, errlen, "%s: step_unit: expected what a step "
		    "counts, a plural of at most %d lowercase letters "
		    "ending in 's' (\"samples\")", w->path,
		    WORKLOAD_UNIT_MAX);
		return -1;
	}
	unit = u != NULL ? u->valuestring : w->fidelity;
	if ((w->step_unit = strdup(unit)) == NULL ||
	    (w->step_unit_one = strndup(unit, strlen(unit) - 1)) == NULL)
		return workload_oom(w, err, errlen);
	return 0;
}

/* Parse a workload spec from its JSON tree. */
static int
workload_parse(struct workload *w, const cJSON *root,
    const char *const *progdirs, char *err, size_t errlen)
{
	const cJSON	*j;

	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: expected a JSON object", w->path);
		return -1;
	}
	if (workload_keys_unique(w, root, err, errlen) == -1 ||
	    workload_keys_only(w, root, "", workload_keys, 0, err,
	    errlen) == -1)
		return -1;
	if (workload_text_read(w, root, "name", NULL, &w->name, err,
	    errlen) == -1 || workload_text_read(w, root, "description", "",
	    &w->description, err, errlen) == -1 || workload_text_read(w, root,
	    "program", NULL, &w->program_name, err, errlen) == -1)
		return -1;
	/* Only hpod's own programs are resolved now; see workload_render. */
	if (strchr(w->program_name, '/') != NULL || progdirs != NULL)
		w->program = workload_which_in(w->program_name, progdirs);
	if (workload_launcher(w, cJSON_GetObjectItemCaseSensitive(root,
	    "launcher"), err, errlen) == -1)
		return -1;
	if (workload_templates(w, root, err, errlen) == -1)
		return -1;
	if (workload_objective(w, cJSON_GetObjectItemCaseSensitive(root,
	    "objective"), err, errlen) == -1)
		return -1;
	if (workload_fidelity(w, root, err, errlen) == -1)
		return -1;
	j = cJSON_GetObjectItemCaseSensitive(root, "flops_per_sample");
	if (j != NULL && (!cJSON_IsNumber(j) || !isfinite(j->valuedouble) ||
	    j->valuedouble <= 0)) {
		snprintf(err, errlen, "%s: flops_per_sample: expected a "
		    "positive number", w->path);
		return -1;
	}
	w->has_flops = j != NULL;
	w->flops_per_sample = j ? j->valuedouble : 0;
	if (workload_tunable_parse(w, cJSON_GetObjectItemCaseSensitive(root,
	    "tunable"), err, errlen) == -1 ||
	    workload_batch_parse(w, cJSON_GetObjectItemCaseSensitive(root,
	    "batch"), err, errlen) == -1 ||
	    workload_defaults_check(w, err, errlen) == -1 ||
	    workload_constraints_parse(w, cJSON_GetObjectItemCaseSensitive(root,
	    "constraints"), err, errlen) == -1 ||
	    workload_constraints_check(w, err, errlen) == -1)
		return -1;
	j = cJSON_GetObjectItemCaseSensitive(root, "metric_reader");
	if (j != NULL && !(cJSON_IsString(j) &&
	    strcmp(j->valuestring, "mllog") == 0) &&
	    (w->reader = workload_reader_parse(w, j, err, errlen)) == NULL)
		return -1;
	j = cJSON_GetObjectItemCaseSensitive(root, "metric_file");
	if (j != NULL && (!cJSON_IsString(j) ||
	    !workload_template_ok(j->valuestring) ||
	    !workload_path_inside(j->valuestring))) {
		snprintf(err, errlen, "%s: metric_file: expected a path "
		    "relative to the attempt directory, without \"..\", "
		    "with balanced {placeholders}", w->path);
		return -1;
	}
	if (j != NULL && (w->metric_file = strdup(j->valuestring)) == NULL)
		return workload_oom(w, err, errlen);
	return workload_metrics_parse(w, cJSON_GetObjectItemCaseSensitive(root,
	    "metrics"), err, errlen);
}

/* Parse the launcher: a program and its argument templates. */
static int
workload_launcher(struct workload *w, const cJSON *l, char *err,
    size_t errlen)
{
	const cJSON	*p, *a;
	int		 rc;

	if ((rc = workload_object_read(w, l, "launcher", "with program and "
	    "args", launcher_keys, err, errlen)) != 1)
		return rc;
	p = cJSON_GetObjectItemCaseSensitive(l, "program");
	a = cJSON_GetObjectItemCaseSensitive(l, "args");
	if (!cJSON_IsString(p) || *p->valuestring == '\0' ||
	    strpbrk(p->valuestring, "{} \t\n") != NULL) {
		snprintf(err, errlen, "%s: launcher.program: expected a program "
		    "name (no blanks or placeholders)", w->path);
		return -1;
	}
	if ((w->launcher = strdup(p->valuestring)) == NULL)
		return workload_oom(w, err, errlen);
	return workload_templates_read(w, a, "launcher.args", &w->launcher_args,
	    err, errlen);
}

/* Resolve a program: a path, or in dirs only. */
char *
workload_which_in(const char *name, const char *const *dirs)
{
	char	*p;
	size_t	 i;

	if (strchr(name, '/') != NULL)
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	for (i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		if (asprintf(&p, "%s/%s", dirs[i], name) == -1)
			return NULL;
		if (access(p, X_OK) == 0) {
			char *r = realpath(p, NULL);

			free(p);
			return r;
		}
		free(p);
	}
	return NULL;
}

/* Resolve a program: a path, or in dirs, or in $PATH. */
char *
workload_which(const char *name, const char *const *dirs)
{
	char	*p, *path, *save, *tok;

	if ((p = workload_which_in(name, dirs)) != NULL ||
	    strchr(name, '/') != NULL)
		return p;
	if (getenv("PATH") == NULL || (path = strdup(getenv("PATH"))) == NULL)
		return NULL;
	p = NULL;
	for (tok = strtok_r(path, ":", &save); tok != NULL;
	    tok = strtok_r(NULL, ":", &save)) {
		if (asprintf(&p, "%s/%s", tok, name) == -1) {
			p = NULL;
			break;
		}
		if (access(p, X_OK) == 0)
			break;
		free(p);
		p = NULL;
	}
	free(path);
	return p;
}

/* Load a workload spec file. */
struct workload *
workload_load(const char *path, const char *const *progdirs, char *err,
    size_t errlen)
{
	struct workload	*w;
	struct stat	 st;
	FILE		*f;
	char		*buf;
	size_t		 n;
	long		 sz;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == -1 || (sz = ftell(f)) < 0 ||
	    sz > (1 << 20) || fseek(f, 0, SEEK_SET) == -1) {
		snprintf(err, errlen, "%s: unreadable or larger than 1 MiB",
		    path);
		fclose(f);
		return NULL;
	}
	if ((buf = malloc(sz + 1)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, sz, f);
	fclose(f);
	w = workload_parse_text(buf, n, path, progdirs, err, errlen);
	free(buf);
	return w;
}

/* Parse a spec from text. */
struct workload *
workload_parse_text(const char *text, size_t len, const char *path,
    const char *const *progdirs, char *err, size_t errlen)
{
	struct workload	*w;
	cJSON		*root;
	const char	*p;
	size_t		 at;
	int		 line = 1;

	/* cJSON would cut a string at \u0000: refuse it, never truncate. */
	if ((p = memchr(text, '\0', len)) != NULL ||
	    (at = json_nul_find(text, len, 0)) != len) {
		at = p != NULL ? (size_t)(p - text) : at;
		for (p = text; p < text + at; p++)
			line += *p == '\n';
		snprintf(err, errlen, "%s: line %d: a NUL character is not "
		    "allowed in a string", path, line);
		return NULL;
	}
	if ((root = cJSON_ParseWithLength(text, len)) == NULL) {
		snprintf(err, errlen, "%s: not valid JSON", path);
		return NULL;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->path = strdup(path)) == NULL ||
	    (w->json = cJSON_PrintUnformatted(root)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		workload_free(w);
		w = NULL;
	} else if (workload_parse(w, root, progdirs, err, errlen) == -1) {
		workload_free(w);
		w = NULL;
	}
	cJSON_Delete(root);
	return w;
}

/* Find a workload by name or path. */
struct workload *
workload_find(const char *name, const char *relative_to,
    const char *const *dirs, const char *const *progdirs, char *err,
    size_t errlen)
{
	struct workload	*w;
	const char	*slash;
	char		*p;
	size_t		 i, n = strlen(name);

	if (strchr(name, '/') != NULL || (n > 5 && strcmp(name + n - 5,
	    ".json") == 0)) {
		slash = relative_to ? strrchr(relative_to, '/') : NULL;
		if (*name == '/' || slash == NULL)
			p = strdup(name);
		else if (asprintf(&p, "%.*s/%s", (int)(slash - relative_to),
		    relative_to, name) == -1)
			p = NULL;
		if (p == NULL)
			goto oom;
		w = workload_load(p, progdirs, err, errlen);
		free(p);
		return w;
	}
	for (i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		if (asprintf(&p, "%s/%s.json", dirs[i], name) == -1)
			goto oom;
		if (access(p, R_OK) == 0) {
			w = workload_load(p, progdirs, err, errlen);
			free(p);
			return w;
		}
		free(p);
	}
	snprintf(err, errlen, "workload '%s' not found (searched %s%s)", name,
	    dirs && dirs[0] ? dirs[0] : "nothing", dirs && dirs[0] &&
	    dirs[1] ? " and others; see HPOD_WORKLOAD_PATH" : "");
	return NULL;
oom:
	snprintf(err, errlen, "workload '%s': out of memory", name);
	return NULL;
}
