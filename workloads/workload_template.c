/*
 * workload_template.c: a workload's argument and environment templates:
 * their brace syntax ("{name}" a placeholder, "{{" and "}}" literal
 * braces), the check of every placeholder, and the rendering of argv and
 * env for one attempt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "workload_int.h"

/*
 * Scan a template: "{{" and "}}" are literal braces, "{name}" a
 * placeholder.  Call emit for each literal run and each placeholder.
 * Return 0, or -1 for an unbalanced brace or an empty name.
 */
static int
workload_scan(const char *t, int (*emit)(void *, int, const char *, size_t),
    void *arg)
{
	const char	*p, *q;

	for (p = t; *p != '\0'; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			if (emit(arg, 0, p, 1) == -1)
				return -1;
			p++;
		} else if (*p == '}')
			return -1;
		else if (*p == '{') {
			for (q = p + 1; *q != '\0' && *q != '}'; q++)
				if (strchr("{ \t\n", *q) != NULL)
					return -1;
			if (*q != '}' || q == p + 1 ||
			    emit(arg, 1, p + 1, q - p - 1) == -1)
				return -1;
			p = q;
		} else if (emit(arg, 0, p, 1) == -1)
			return -1;
	}
	return 0;
}

/* An emitter that accepts everything (for syntax checks). */
static int
workload_emit_none(void *arg, int placeholder, const char *s, size_t n)
{
	return 0;
}

/* Check the brace syntax of a template. */
int
workload_template_ok(const char *t)
{
	return workload_scan(t, workload_emit_none, NULL) == 0;
}


/* Look a placeholder up in vars, then the defaults. */
static const char *
workload_lookup(const struct workload *w, const struct workload_var *vars,
    size_t n, const char *name, size_t len)
{
	size_t	 i;

	for (i = n; i-- > 0;)
		if (strlen(vars[i].name) == len &&
		    strncmp(vars[i].name, name, len) == 0)
			return vars[i].value;
	for (i = 0; i < w->ndefaults; i++)
		if (strlen(w->defaults[i].name) == len &&
		    strncmp(w->defaults[i].name, name, len) == 0)
			return w->defaults[i].value;
	return NULL;
}

/* State of one substitution. */
struct subst {
	const struct workload	*w;
	const struct workload_var *vars;
	size_t			 n;
	char			*out;
	size_t			 len, cap;
	char			*err;
	size_t			 errlen;
};

/* Append a literal run or a placeholder's value. */
static int
workload_emit(void *arg, int placeholder, const char *s, size_t n)
{
	struct subst	*st = arg;
	const char	*v = s;
	char		*out;

	if (placeholder) {
		if ((v = workload_lookup(st->w, st->vars, st->n, s, n)) ==
		    NULL) {
			snprintf(st->err, st->errlen, "%s: placeholder '%.*s' "
			    "has no value", st->w->path, (int)n, s);
			return -1;
		}
		n = strlen(v);
	}
	if (st->len + n + 1 > st->cap) {
		if ((out = realloc(st->out, (st->len + n + 1) * 2)) == NULL)
			return workload_oom(st->w, st->err, st->errlen);
		st->out = out;
		st->cap = (st->len + n + 1) * 2;
	}
	memcpy(st->out + st->len, v, n);
	st->len += n;
	st->out[st->len] = '\0';
	return 0;
}

/* Substitute the placeholders of one template. */
static char *
workload_subst(const struct workload *w, const char *t,
    const struct workload_var *vars, size_t n, char *err, size_t errlen)
{
	struct subst	 st = { w, vars, n, NULL, 0, 0, err, errlen };

	if (workload_emit(&st, 0, "", 0) == -1 ||
	    workload_scan(t, workload_emit, &st) == -1) {
		free(st.out);
		return NULL;
	}
	return st.out;
}

/* Is path relative, not empty, with no ".." component? */
int
workload_path_inside(const char *path)
{
	const char	*p;
	size_t		 n;

	if (*path == '\0' || *path == '/')
		return 0;
	for (p = path; *p != '\0'; p += n + (p[n] == '/')) {
		n = strcspn(p, "/");
		if (n == 2 && strncmp(p, "..", 2) == 0)
			return 0;
	}
	return 1;
}

/*
 * Substitute the placeholders of the metric file's template; NULL with
 * "FILE: metric_file: placeholder 'x' has no value" in err.
 */
static char *
workload_metric_subst(const struct workload *w,
    const struct workload_var *vars, size_t n, char *err, size_t errlen)
{
	char	*out, *why;
	size_t	 len = strlen(w->path);

	if ((out = workload_subst(w, w->metric_file, vars, n, err,
	    errlen)) == NULL && strncmp(err, w->path, len) == 0 &&
	    strncmp(err + len, ": ", 2) == 0 &&
	    (why = strdup(err + len + 2)) != NULL) {
		snprintf(err, errlen, "%s: metric_file: %s", w->path, why);
		free(why);
	}
	return out;
}

/* Render the metric file's path for one attempt. */
int
workload_metric_file(const struct workload *w,
    const struct workload_var *vars, size_t n, char **out, char *err,
    size_t errlen)
{
	*out = NULL;
	if (w->metric_file == NULL)
		return 0;
	if ((*out = workload_metric_subst(w, vars, n, err, errlen)) == NULL)
		return -1;
	if (!workload_path_inside(*out)) {
		snprintf(err, errlen, "%s: metric_file: '%s' is not a path "
		    "inside the attempt directory (it is absolute or has a "
		    "\"..\")", w->path, *out);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Check every placeholder against names, defaults and built-ins. */
int
workload_check(const struct workload *w, const char *const *names, size_t n,
    char *err, size_t errlen)
{
	struct workload_var	*vars;
	char			**argv = NULL, **env = NULL;
	size_t			 i, nb, k = 0;
	int			 rc;

	for (nb = 0; workload_builtins[nb] != NULL; nb++)
		;
	if ((vars = calloc(n + nb + 2, sizeof(*vars))) == NULL)
		return workload_oom(w, err, errlen);
	if (w->batch_local != NULL) {
		vars[k].name = w->batch_local;
		vars[k++].value = "";
	}
	for (i = 0; i < n; i++) {
		vars[k].name = names[i];
		vars[k++].value = "";
	}
	for (i = 0; i < nb; i++) {
		vars[k].name = workload_builtins[i];
		vars[k++].value = "";
	}
	rc = workload_render(w, vars, k, &argv, &env, err, errlen);
	/* Placeholders only: an empty value may make no path. */
	if (rc == 0 && w->metric_file != NULL) {
		char *f = workload_metric_subst(w, vars, k, err, errlen);

		rc = f == NULL ? -1 : 0;
		free(f);
	}
	workload_strv_free(argv);
	workload_strv_free(env);
	free(vars);
	return rc;
}

/* Render argv and env for one attempt. */
int
workload_render(const struct workload *w, const struct workload_var *vars,
    size_t n, char ***argvp, char ***envp, char *err, size_t errlen)
{
	char	**argv, **env;
	size_t	 i, k = 0, nl = 0, na, ne;

	for (na = 0; w->args[na] != NULL; na++)
		;
	for (ne = 0; w->env[ne] != NULL; ne++)
		;
	for (nl = 0; w->launcher_args && w->launcher_args[nl] != NULL; nl++)
		;
	argv = calloc(nl + na + 3, sizeof(*argv));
	env = calloc(ne + 1, sizeof(*env));
	if (argv == NULL || env == NULL)
		goto oom;
	if (w->launcher != NULL) {
		if ((argv[k++] = strdup(w->launcher)) == NULL)
			goto oom;
		for (i = 0; i < nl; i++)
			if ((argv[k++] = workload_subst(w, w->launcher_args[i],
			    vars, n, err, errlen)) == NULL)
				goto fail;
	}
	if ((argv[k++] = strdup(w->program ? w->program : w->program_name)) ==
	    NULL)
		goto oom;
	for (i = 0; i < na; i++)
		if ((argv[k++] = workload_subst(w, w->args[i], vars, n, err,
		    errlen)) == NULL)
			goto fail;
	for (i = 0; i < ne; i++)
		if ((env[i] = workload_subst(w, w->env[i], vars, n, err,
		    errlen)) == NULL)
			goto fail;
	*argvp = argv;
	*envp = env;
	return 0;
oom:
	workload_oom(w, err, errlen);
fail:
	workload_strv_free(argv);
	workload_strv_free(env);
	*argvp = *envp = NULL;
	return -1;
}

/* Does a template mention placeholder name? */
static int
workload_mentions(const char *t, const char *name)
{
	const char	*p;
	size_t		 n = strlen(name);

	for (p = t; (p = strchr(p, '{')) != NULL; p++)
		if (strncmp(p + 1, name, n) == 0 && p[n + 1] == '}' &&
		    (p == t || p[-1] != '{'))
			return 1;
	return 0;
}

/*
 * Is name used by any argv or environment template?  The global batch
 * size counts as used when its local share is.
 */
int
workload_uses(const struct workload *w, const char *name)
{
	size_t	 i;

	if (w->batch_global != NULL && strcmp(name, w->batch_global) == 0 &&
	    workload_uses(w, w->batch_local))
		return 1;
	for (i = 0; w->launcher_args && w->launcher_args[i] != NULL; i++)
		if (workload_mentions(w->launcher_args[i], name))
			return 1;
	for (i = 0; w->args[i] != NULL; i++)
		if (workload_mentions(w->args[i], name))
			return 1;
	for (i = 0; w->env[i] != NULL; i++)
		if (workload_mentions(strchr(w->env[i], '=') + 1, name))
			return 1;
	return 0;
}
