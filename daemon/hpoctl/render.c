/*
 * render.c: `hpoctl render`, the dry run of one trial.  The point comes
 * from the campaign's search as the engine would ask for it (the N-th
 * suggestion, no results known yet), and the attempt is rendered by the
 * same code that submits it (invoke.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "invoke.h"
#include "params.h"
#include "render.h"
#include "run.h"
#include "search.h"

/* What is rendered, for the two output formats. */
struct render {
	const struct campaign_spec *s;
	const struct workload	*w;
	int			 trial;
	long long		 seed;
	char			*params;	/* JSON object */
	char			*dir;
	char			*token;
	struct invocation	 inv;
	struct spec_resources	 res;	/* at this trial's batch size */
};

static void __attribute__((noreturn))
render_usage(void)
{
	fprintf(stderr, "usage: hpoctl render [--trial n] [--format text|json] "
	    "[--run-dir dir] spec\n");
	exit(64);
}

/*
 * The point of trial n: the search's suggestion after n trials that have
 * no results yet, each at the point suggested before it.
 */
static int
render_point(const struct campaign_spec *s, int n, double *x, char *err,
    size_t errlen)
{
	struct search		*se;
	struct observation	*obs;
	struct history		 h;
	double			*xs;
	size_t			 d = s->space->n;
	int			 k, rc = 0;

	if ((se = search_new(s->algorithm, s->space, s->seed, err, errlen)) ==
	    NULL)
		return -1;
	obs = calloc(n + 1, sizeof(*obs));
	xs = calloc((size_t)(n + 1) * (d + 1), sizeof(*xs));
	if (obs == NULL || xs == NULL) {
		snprintf(err, errlen, "%s: trial %d: out of memory", s->path,
		    n);
		rc = -1;
	}
	memset(&h, 0, sizeof(h));
	h.obs = obs;
	h.maximize = s->maximize;
	for (k = 0; k <= n && rc == 0; k++) {
		h.n = k;
		if (search_suggest(se, &h, xs + (size_t)k * (d + 1)) != 0) {
			snprintf(err, errlen, "%s: trial %d: the %s search has "
			    "only %d point%s", s->path, n, s->algorithm, k,
			    k == 1 ? "" : "s");
			rc = -1;
			break;
		}
		obs[k].x = xs + (size_t)k * (d + 1);
		obs[k].state = OBS_RUNNING;
	}
	if (rc == 0)
		memcpy(x, xs + (size_t)n * (d + 1), d * sizeof(*x));
	free(obs);
	free(xs);
	search_free(se);
	return rc;
}

/* A duration as [D-]HH:MM:SS. */
static void
render_duration(long t, char *buf, size_t len)
{
	if (t >= 86400)
		snprintf(buf, len, "%ld-%02ld:%02ld:%02ld", t / 86400,
		    t % 86400 / 3600, t % 3600 / 60, t % 60);
	else
		snprintf(buf, len, "%02ld:%02ld:%02ld", t / 3600, t % 3600 / 60,
		    t % 60);
}

/* Print the rendering as text. */
static void
render_text(const struct render *r)
{
	const struct campaign_spec *s = r->s;
	const struct workload	*w = r->w;
	char			 t[32], sb[512];
	struct workload_reader_info ri;
	size_t			 i;

	printf("campaign: %s (%s), %s backend\n", s->name, s->path,
	    s->backend);
	printf("workload: %s (%s)\n", w->name, w->path);
	space_shortest(s->target, t, sizeof(t));
	printf("objective: %s, goal %s", s->metric, s->maximize ? "max" :
	    "min");
	if (s->has_target)
		printf(", target %s %s", s->maximize ? ">=" : "<=", t);
	printf(", fidelity %s", w->fidelity);
	if (strcmp(w->step_unit, w->fidelity) != 0)
		printf(" (of %s)", w->step_unit);
	putchar('\n');
	if (workload_reader_info(w, &ri)) {
		printf("reader: %s lines matching '%s': value group %d",
		    r->inv.metric_file != NULL ? r->inv.metric_file : "stdout",
		    ri.pattern, ri.value);
		if (ri.scale != 1)
			printf(" x %g", ri.scale);
		printf(" as %s, ", ri.key);
		if (ri.epoch != 0)
			printf("epoch group %d", ri.epoch);
		else
			printf("no epoch group (points numbered from 1)");
		if (ri.run_start != NULL)
			printf(", run_start '%s'", ri.run_start);
		printf("\n");
	} else if (r->inv.metric_file != NULL)
		printf("reader: MLLOG lines of %s\n", r->inv.metric_file);
	printf("trial: %d, attempt 0, seed %lld\n", r->trial, r->seed);
	printf("params: %s\n", r->params);
	printf("resources: %d node%s, %d GPU%s per node, %d task%s per node, "
	    "%d CPU%s per task", r->res.nodes, r->res.nodes == 1 ? "" : "s",
	    r->res.gpus_per_node, r->res.gpus_per_node == 1 ? "" : "s",
	    r->res.tasks_per_node, r->res.tasks_per_node == 1 ? "" : "s",
	    r->res.cpus_per_task, r->res.cpus_per_task == 1 ? "" : "s");
	if (r->res.time_limit > 0) {
		render_duration(r->res.time_limit, t, sizeof(t));
		printf(", time limit %s", t);
	}
	if (r->res.partition != NULL)
		printf(", partition %s", r->res.partition);
	if (r->res.account != NULL)
		printf(", account %s", r->res.account);
	if (r->res.qos != NULL)
		printf(", qos %s", r->res.qos);
	if (r->res.constraint != NULL)
		printf(", constraint %s", r->res.constraint);
	spec_slurm_sbatch(&r->res.slurm, sb, sizeof(sb));
	if (*sb != '\0')
		printf("\nslurm: %s", sb);
	printf("\nranks: %d (%d node%s x %d)\n", r->inv.ranks, r->res.nodes,
	    r->res.nodes == 1 ? "" : "s", invoke_ranks_per_node(&r->res));
	if (w->batch_global != NULL)
		printf("batch: global %s %ld = local %s %ld x %d rank%s\n",
		    w->batch_global, r->inv.global_batch, w->batch_local,
		    r->inv.local_batch, r->inv.ranks, r->inv.ranks == 1 ?
		    "" : "s");
	if (w->has_flops)
		printf("flops per sample: %g\n", w->flops_per_sample);
	printf("dir: %s\n", r->dir);
	printf("token: %s\n", r->token);
	printf("argv:\n");
	for (i = 0; r->inv.argv[i] != NULL; i++)
		printf("  %s\n", r->inv.argv[i]);
	printf("env:\n");
	for (i = 0; r->inv.env[i] != NULL; i++)
		printf("  %s\n", r->inv.env[i]);
}

/* Add a string member unless it is NULL. */
static void
render_str(cJSON *o, const char *k, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, k, v);
}

/* Print the rendering as JSON. */
static void
render_json(const struct render *r)
{
	const struct campaign_spec *s = r->s;
	const struct workload	*w = r->w;
	cJSON			*o, *j, *a;
	char			*text, t[32], sb[512];
	struct workload_reader_info ri;
	size_t			 i;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "campaign", s->name);
	cJSON_AddStringToObject(o, "spec", s->path);
	cJSON_AddStringToObject(o, "backend", s->backend);
	cJSON_AddStringToObject(o, "workload", w->name);
	cJSON_AddStringToObject(o, "workload_spec", w->path);
	j = cJSON_AddObjectToObject(o, "objective");
	cJSON_AddStringToObject(j, "metric", s->metric);
	cJSON_AddStringToObject(j, "goal", s->maximize ? "max" : "min");
	if (s->has_target)
		cJSON_AddNumberToObject(j, "target", s->target);
	else
		cJSON_AddNullToObject(j, "target");
	cJSON_AddStringToObject(j, "fidelity", w->fidelity);
	cJSON_AddStringToObject(j, "step_unit", w->step_unit);
	if (workload_reader_info(w, &ri)) {
		j = cJSON_AddObjectToObject(o, "metric_reader");
		cJSON_AddStringToObject(j, "pattern", ri.pattern);
		cJSON_AddNumberToObject(j, "value", ri.value);
		if (ri.epoch != 0)
			cJSON_AddNumberToObject(j, "epoch", ri.epoch);
		else
			cJSON_AddNullToObject(j, "epoch");
		cJSON_AddNumberToObject(j, "scale", ri.scale);
		cJSON_AddStringToObject(j, "key", ri.key);
		if (ri.run_start != NULL)
			cJSON_AddStringToObject(j, "run_start", ri.run_start);
		else
			cJSON_AddNullToObject(j, "run_start");
	} else
		cJSON_AddStringToObject(o, "metric_reader", "mllog");
	/* In the attempt directory; null: its stdout. */
	if (r->inv.metric_file != NULL)
		cJSON_AddStringToObject(o, "metric_file", r->inv.metric_file);
	else
		cJSON_AddNullToObject(o, "metric_file");
	cJSON_AddNumberToObject(o, "trial", r->trial);
	cJSON_AddNumberToObject(o, "attempt", 0);
	cJSON_AddNumberToObject(o, "seed", (double)r->seed);
	cJSON_AddRawToObject(o, "params", r->params);
	j = cJSON_AddObjectToObject(o, "resources");
	cJSON_AddNumberToObject(j, "nodes", r->res.nodes);
	cJSON_AddNumberToObject(j, "gpus_per_node", r->res.gpus_per_node);
	cJSON_AddNumberToObject(j, "tasks_per_node", r->res.tasks_per_node);
	cJSON_AddNumberToObject(j, "cpus_per_task", r->res.cpus_per_task);
	if (r->res.time_limit > 0) {
		render_duration(r->res.time_limit, t, sizeof(t));
		cJSON_AddStringToObject(j, "time_limit", t);
	}
	render_str(j, "partition", r->res.partition);
	render_str(j, "account", r->res.account);
	render_str(j, "qos", r->res.qos);
	render_str(j, "constraint", r->res.constraint);
	spec_slurm_sbatch(&r->res.slurm, sb, sizeof(sb));
	render_str(j, "sbatch", *sb != '\0' ? sb : NULL);
	cJSON_AddNumberToObject(o, "ranks", r->inv.ranks);
	if (w->batch_global != NULL) {
		j = cJSON_AddObjectToObject(o, "batch");
		cJSON_AddNumberToObject(j, "global", (double)r->inv.global_batch);
		cJSON_AddNumberToObject(j, "local", (double)r->inv.local_batch);
	} else
		cJSON_AddNullToObject(o, "batch");
	if (w->has_flops)
		cJSON_AddNumberToObject(o, "flops_per_sample",
		    w->flops_per_sample);
	cJSON_AddStringToObject(o, "dir", r->dir);
	cJSON_AddStringToObject(o, "token", r->token);
	a = cJSON_AddArrayToObject(o, "argv");
	for (i = 0; r->inv.argv[i] != NULL; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->inv.argv[i]));
	a = cJSON_AddArrayToObject(o, "env");
	for (i = 0; r->inv.env[i] != NULL; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->inv.env[i]));
	text = cJSON_Print(o);
	printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(o);
}

/* Render trial r->trial of a bound spec; 0 or -1 with err. */
static int
render_trial(struct render *r, const char *run_dir, char *err,
    size_t errlen)
{
	const struct campaign_spec *s = r->s;
	struct invoke_ctx	 ic;
	double			*x;
	int			 rc = -1;

	if ((x = calloc(s->space->n + 1, sizeof(*x))) == NULL) {
		snprintf(err, errlen, "%s: trial %d: out of memory", s->path,
		    r->trial);
		return -1;
	}
	if (render_point(s, r->trial, x, err, errlen) == -1)
		goto out;
	invoke_resources(s, x, &r->res);
	r->seed = invoke_seed(s, r->trial, x);
	/* The campaign id and the token's random part come at submission. */
	r->params = params_to_json(s->space, x);
	if (asprintf(&r->dir, "%s/ID-%s/trial-%04d/attempt-0", run_dir,
	    s->name, r->trial) == -1)
		r->dir = NULL;
	if (asprintf(&r->token, "hpod-ID-%d-0-XXXXXXXX", r->trial) == -1)
		r->token = NULL;
	if (r->params == NULL || r->dir == NULL || r->token == NULL) {
		snprintf(err, errlen, "%s: trial %d: out of memory", s->path,
		    r->trial);
		goto out;
	}
	memset(&ic, 0, sizeof(ic));
	ic.trial = r->trial;
	ic.seed = r->seed;
	ic.dir = r->dir;
	ic.token = r->token;
	ic.x = x;
	ic.resolve = strcmp(s->backend, "local") == 0;
	if (invoke_render(s, r->w, &ic, &r->inv, err, errlen) == -1) {
		if (!ic.resolve)
			goto out;
		/* Show it all the same: the submission would stop here. */
		fprintf(stderr, "hpoctl: warning: %s\n", err);
		ic.resolve = 0;
		if (invoke_render(s, r->w, &ic, &r->inv, err, errlen) == -1)
			goto out;
	}
	rc = 0;
out:
	free(x);
	return rc;
}

/* `hpoctl render`. */
int
render_command(int argc, char **argv, const struct config *cfg)
{
	static const struct option longopts[] = {
		{ "trial", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'F' },
		{ "run-dir", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct campaign_spec	*s;
	struct render		 r;
	const char		*format = "text", *run_dir = cfg->run_dir;
	char			 err[1024], *end;
	long			 n = 0;
	int			 ch, rc = 1;

	optind = 0;	/* GNU: start afresh, options anywhere */
	while ((ch = getopt_long(argc, argv, "t:F:r:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 't':
			n = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || n < 0 ||
			    n > 1000000) {
				fprintf(stderr, "hpoctl: --trial: expected a "
				    "trial number, got '%s'\n", optarg);
				return 64;
			}
			break;
		case 'F':
			format = optarg;
			break;
		case 'r':
			run_dir = optarg;
			break;
		default:
			render_usage();
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "hpoctl %s: expected a spec, got %d "
		    "arguments\n", argv[0], argc - optind);
		render_usage();
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, "hpoctl: --format: expected text or json, got "
		    "'%s'\n", format);
		return 64;
	}
	memset(&r, 0, sizeof(r));
	r.trial = (int)n;
	if ((s = spec_load(argv[optind], err, sizeof(err))) == NULL ||
	    (r.w = run_bind(s, cfg, err, sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		spec_free(s);
		return 1;
	}
	r.s = s;
	if (r.trial >= s->max_trials)
		fprintf(stderr, "hpoctl: %s: trial %d: outside budget.max_trials "
		    "(%d)\n", s->path, r.trial, s->max_trials);
	else if (render_trial(&r, run_dir, err, sizeof(err)) == -1)
		fprintf(stderr, "hpoctl: %s\n", err);
	else {
		if (strcmp(format, "json") == 0)
			render_json(&r);
		else
			render_text(&r);
		rc = 0;
	}
	invoke_release(&r.inv);
	free(r.params);
	free(r.dir);
	free(r.token);
	workload_free((struct workload *)r.w);
	spec_free(s);
	return rc;
}
