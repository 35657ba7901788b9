/*
 * invoke.c: rendering what one attempt runs (see invoke.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "invoke.h"
#include "sched.h"
#include "rng.h"

/* Built-ins, then parameters: a parameter of the same name wins. */
#define INVOKE_BUILTINS	15

/* The seed of a trial. */
long long
invoke_seed(const struct campaign_spec *s, int number, const double *x)
{
	struct rng	 r;
	char		 buf[64];
	int		 i;

	if (x != NULL && (i = space_find(s->space, "seed")) != -1 &&
	    space_format(s->space, i, x[i], buf, sizeof(buf)) > 0)
		return strtoll(buf, NULL, 10);
	rng_seed(&r, s->seed ^ 0x5eedULL, (uint64_t)number);
	return (long long)(rng_next(&r) % 2147483647ULL);
}

/* Ranks per node. */
int
invoke_ranks_per_node(const struct spec_resources *res)
{
	return res->gpus_per_node > 0 ? res->gpus_per_node :
	    res->tasks_per_node;
}

/* Ranks of a job. */
int
invoke_ranks(const struct spec_resources *res)
{
	return res->nodes * invoke_ranks_per_node(res);
}

/* The resources of an attempt at point x. */
void
invoke_resources(const struct campaign_spec *s, const double *x,
    struct spec_resources *r)
{
	char	 buf[64], err[256];
	int	 i;

	*r = s->res;
	if (x == NULL || s->scaling.batch_param == NULL ||
	    (i = space_find(s->space, s->scaling.batch_param)) == -1 ||
	    space_format(s->space, (size_t)i, x[i], buf, sizeof(buf)) <= 0 ||
	    spec_resources_for(s, strtol(buf, NULL, 10), r, err,
	    sizeof(err)) == -1)
		*r = s->res;
}

/* A job's resources at point x (see invoke.h). */
void
invoke_job_resources(const struct campaign_spec *s, const double *x,
    struct sched_job *job)
{
	struct spec_resources	 res;

	invoke_resources(s, x, &res);
	job->nodes = res.nodes;
	job->gpus_per_node = res.gpus_per_node;
	job->cpus_per_task = res.cpus_per_task;
	job->tasks_per_node = res.tasks_per_node;
	job->time_limit = res.time_limit;
	job->partition = res.partition;
	job->account = res.account;
	job->qos = res.qos;
	job->constraint = res.constraint;
	job->extra = res.slurm;
}

/* A pilot's job (see invoke.h). */
void
invoke_pilot_job(const struct campaign_spec *s, struct sched_job *job)
{
	invoke_job_resources(s, NULL, job);
	job->nodes = s->pilot.nodes;
	job->tasks_per_node = 1;
	job->cpus_per_task = s->pilot.cpus;
	job->gpus_per_node = s->pilot.gpus;
	job->time_limit = s->pilot.time_limit;
}

/*
 * Upper-case a parameter name into an HPO_ environment variable; NULL when
 * memory ran out.
 */
static char *
invoke_envvar(const char *name, const char *value)
{
	char	*s, *p;

	if (asprintf(&s, "HPO_%s=%s", name, value) == -1)
		return NULL;
	for (p = s + 4; *p != '='; p++)
		*p = (*p == '-' || *p == '.') ? '_' :
		    (*p >= 'a' && *p <= 'z') ? *p - 'a' + 'A' : *p;
	return s;
}

/* The value of a parameter among vars (last wins), else a default. */
static const char *
invoke_value(const struct workload *w, const struct workload_var *vars,
    size_t n, const char *name)
{
	size_t	 i;

	for (i = n; i-- > 0;)
		if (strcmp(vars[i].name, name) == 0)
			return vars[i].value;
	for (i = 0; i < w->ndefaults; i++)
		if (strcmp(w->defaults[i].name, name) == 0)
			return w->defaults[i].value;
	return NULL;
}

/* Split the global batch size over the ranks; -1 if it does not divide. */
static int
invoke_batch(const struct campaign_spec *s, const struct workload *w,
    const struct spec_resources *res, const struct workload_var *vars,
    size_t n, struct invocation *inv, char *err, size_t errlen)
{
	const char	*v = invoke_value(w, vars, n, w->batch_global);
	char		*end;

	if (v == NULL) {
		snprintf(err, errlen, "%s: batch.global: parameter '%s' has no "
		    "value", w->path, w->batch_global);
		return -1;
	}
	inv->global_batch = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || inv->global_batch <= 0) {
		snprintf(err, errlen, "%s: %s: global batch size '%s' is not a "
		    "positive integer", s->path, w->batch_global, v);
		return -1;
	}
	if (inv->global_batch % inv->ranks != 0) {
		snprintf(err, errlen, "%s: %s: global batch size %ld does not "
		    "divide evenly by %d ranks (%d nodes x %d)", s->path,
		    w->batch_global, inv->global_batch, inv->ranks,
		    res->nodes, invoke_ranks_per_node(res));
		return -1;
	}
	inv->local_batch = inv->global_batch / inv->ranks;
	return 0;
}

/*
 * Find argv[0] on this machine, as the local backend will run it: a path
 * must be a file it can execute (a script not made executable would
 * fail each trial with exit 127).
 */
static int
invoke_resolve(const struct workload *w, char **argv, char *err,
    size_t errlen)
{
	const char	*key = w->launcher ? "launcher.program" : "program";
	struct stat	 sb;
	char		*p;

	if (strchr(argv[0], '/') != NULL) {
		/* A directory passes access(X_OK), and fails exec(). */
		if (stat(argv[0], &sb) == 0 && S_ISDIR(sb.st_mode))
			errno = EISDIR;
		else if (access(argv[0], X_OK) == 0)
			return 0;
		snprintf(err, errlen, "%s: %s: '%s' cannot be run on this "
		    "machine: %s%s; the local backend runs it here", w->path,
		    key, argv[0], strerror(errno), argv[0][0] == '/' ? "" :
		    " (a relative path is taken from the working directory "
		    "of the process that read the spec)");
		return -1;
	}
	if ((p = workload_which(argv[0], NULL)) == NULL) {
		snprintf(err, errlen, "%s: %s: '%s' is not an executable on "
		    "this machine (searched $PATH); the local backend runs it "
		    "here", w->path, key, argv[0]);
		return -1;
	}
	free(argv[0]);
	argv[0] = p;
	return 0;
}

/* Whether the local backend can run w's first program here. */
int
invoke_runnable(const struct workload *w, char *err, size_t errlen)
{
	char	*argv[2];
	int	 rc;

	argv[0] = strdup(w->launcher != NULL ? w->launcher :
	    w->program != NULL ? w->program : w->program_name);
	argv[1] = NULL;
	if (argv[0] == NULL) {
		snprintf(err, errlen, "%s: out of memory", w->path);
		return -1;
	}
	rc = invoke_resolve(w, argv, err, errlen);
	free(argv[0]);
	return rc;
}

/* The text of the built-in placeholders' values. */
struct invoke_bufs {
	char	 num[8][24], seed[32], target[32], local[32];
};

/*
 * Set the built-in placeholders of attempt c (on resources res, ranks in
 * all) first in vars, their text in b; return how many.
 */
static size_t
invoke_builtins(const struct campaign_spec *s, const struct invoke_ctx *c,
    const struct spec_resources *res, int ranks, struct invoke_bufs *b,
    struct workload_var *vars)
{
	size_t	 nv = 0;

	snprintf(b->num[0], sizeof(b->num[0]), "%d", c->trial);
	snprintf(b->num[1], sizeof(b->num[1]), "%d", c->attempt);
	snprintf(b->num[2], sizeof(b->num[2]), "%d", res->nodes);
	snprintf(b->num[3], sizeof(b->num[3]), "%d", res->gpus_per_node);
	snprintf(b->num[4], sizeof(b->num[4]), "%d", res->tasks_per_node);
	snprintf(b->num[5], sizeof(b->num[5]), "%d", res->cpus_per_task);
	snprintf(b->num[6], sizeof(b->num[6]), "%d", ranks);
	snprintf(b->num[7], sizeof(b->num[7]), "%d",
	    invoke_ranks_per_node(res));
	snprintf(b->seed, sizeof(b->seed), "%lld", c->seed);
	space_shortest(s->target, b->target, sizeof(b->target));
	vars[nv++] = (struct workload_var){ "trial", b->num[0] };
	vars[nv++] = (struct workload_var){ "attempt", b->num[1] };
	vars[nv++] = (struct workload_var){ "seed", b->seed };
	vars[nv++] = (struct workload_var){ "dir", c->dir };
	vars[nv++] = (struct workload_var){ "campaign", s->name };
	vars[nv++] = (struct workload_var){ "token", c->token };
	/* Without a campaign target the workload's default applies. */
	if (s->has_target)
		vars[nv++] = (struct workload_var){ "target", b->target };
	vars[nv++] = (struct workload_var){ "nodes", b->num[2] };
	vars[nv++] = (struct workload_var){ "gpus_per_node", b->num[3] };
	vars[nv++] = (struct workload_var){ "tasks_per_node", b->num[4] };
	vars[nv++] = (struct workload_var){ "cpus_per_task", b->num[5] };
	vars[nv++] = (struct workload_var){ "ranks", b->num[6] };
	vars[nv++] = (struct workload_var){ "ranks_per_node", b->num[7] };
	return nv;
}

/* Render one attempt. */
int
invoke_render(const struct campaign_spec *s, const struct workload *w,
    const struct invoke_ctx *c, struct invocation *inv, char *err,
    size_t errlen)
{
	struct spec_resources	 res;
	struct workload_var	*vars;
	struct invoke_bufs	 b;
	char			**vals, **wenv = NULL;
	size_t			 i, j, nv = 0, ne;
	int			 len, rc = -1;

	memset(inv, 0, sizeof(*inv));
	invoke_resources(s, c->x, &res);
	inv->ranks = invoke_ranks(&res);
	vals = calloc(s->space->n + 1, sizeof(*vals));
	vars = calloc(INVOKE_BUILTINS + s->space->n + s->nfixed, sizeof(*vars));
	if (vals == NULL || vars == NULL) {
		snprintf(err, errlen, "%s: out of memory", s->path);
		free(vals);
		free(vars);
		return -1;
	}
	nv = invoke_builtins(s, c, &res, inv->ranks, &b, vars);
	j = nv;		/* the local batch size goes here, once known */
	if (w->batch_global != NULL)
		nv++;
	for (i = 0; i < s->space->n; i++) {
		/* Sized by a first call: a string choice may be long. */
		len = space_format(s->space, i, c->x[i], NULL, 0);
		if (len < 0 || (vals[i] = malloc(len + 1)) == NULL) {
			snprintf(err, errlen, "%s: space.%s: out of memory",
			    s->path, s->space->params[i].name);
			goto out;
		}
		space_format(s->space, i, c->x[i], vals[i], len + 1);
		vars[nv].name = s->space->params[i].name;
		vars[nv++].value = vals[i];
	}
	for (i = 0; i < s->nfixed; i++)
		vars[nv++] = s->fixed[i];
	if (w->batch_global != NULL) {
		vars[j].name = w->batch_local;
		vars[j].value = "";
		if (invoke_batch(s, w, &res, vars, nv, inv, err, errlen) == -1)
			goto out;
		snprintf(b.local, sizeof(b.local), "%ld", inv->local_batch);
		vars[j].value = b.local;
	}
	if (workload_render(w, vars, nv, &inv->argv, &wenv, err, errlen) ==
	    -1 || (c->resolve && invoke_resolve(w, inv->argv, err,
	    errlen) == -1) || workload_metric_file(w, vars, nv,
	    &inv->metric_file, err, errlen) == -1)
		goto out;
	for (ne = 0; wenv[ne] != NULL; ne++)
		;
	if ((inv->env = calloc(ne + nv + 1, sizeof(*inv->env))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", s->path);
		goto out;
	}
	memcpy(inv->env, wenv, ne * sizeof(*wenv));
	for (i = 0; i < nv; i++) {
		/* A built-in shadowed by a parameter is not exported twice. */
		for (j = i + 1; j < nv; j++)
			if (strcmp(vars[i].name, vars[j].name) == 0)
				break;
		if (j == nv && (inv->env[ne++] = invoke_envvar(vars[i].name,
		    vars[i].value)) == NULL) {
			snprintf(err, errlen, "%s: out of memory", s->path);
			free(wenv);
			wenv = NULL;
			goto out;
		}
	}
	free(wenv);
	wenv = NULL;
	rc = 0;
out:
	if (rc == -1)
		invoke_release(inv);
	workload_strv_free(wenv);
	for (i = 0; i < s->space->n; i++)
		free(vals[i]);
	free(vals);
	free(vars);
	return rc;
}

/* Free what invoke_render() made. */
void
invoke_release(struct invocation *inv)
{
	workload_strv_free(inv->argv);
	workload_strv_free(inv->env);
	free(inv->metric_file);
	inv->argv = inv->env = NULL;
	inv->metric_file = NULL;
}
