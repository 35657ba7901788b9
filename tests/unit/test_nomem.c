/*
 * test_nomem.c: when memory runs out in the workload and search code,
 * the caller gets an error ("out of memory", naming the file) or, where
 * an interface has no error to return, a well-formed answer: never a
 * crash, an abort or a leak.
 *
 * The same holds for a campaign spec (daemon/spec), a replay table
 * (scheduler/replay) and an RCP file (daemon/guide's rcp_read).
 *
 * The binary is linked with ld's --wrap for malloc, calloc, realloc,
 * reallocarray, strdup and asprintf (see the Makefile), so that each
 * scenario can be run once for every allocation it makes, failing that
 * one: the first run fails the first allocation, the next the second,
 * until a run makes no allocation that fails.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invoke.h"
#include "rcp.h"
#include "replay_table.h"
#include "score.h"
#include "search.h"
#include "spec.h"
#include "stop.h"
#include "tap.h"
#include "workload.h"

/* The allocation to fail (counted from 0 since arming), -1 for none. */
static long	 fail_at = -1;
static long	 counted;

/* 1 if this allocation is the one to fail (with errno ENOMEM). */
static int
nomem(void)
{
	if (fail_at < 0 || counted++ != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
void	*__real_reallocarray(void *, size_t, size_t);
char	*__real_strdup(const char *);
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);
void	*__wrap_reallocarray(void *, size_t, size_t);
char	*__wrap_strdup(const char *);
int	 __wrap_asprintf(char **, const char *, ...);

void *
__wrap_malloc(size_t n)
{
	return nomem() ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	return nomem() ? NULL : __real_calloc(n, size);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return nomem() ? NULL : __real_realloc(p, n);
}

void *
__wrap_reallocarray(void *p, size_t n, size_t size)
{
	return nomem() ? NULL : __real_reallocarray(p, n, size);
}

char *
__wrap_strdup(const char *s)
{
	return nomem() ? NULL : __real_strdup(s);
}

int
__wrap_asprintf(char **p, const char *fmt, ...)
{
	va_list	 ap;
	int	 rc;

	if (nomem())
		return -1;
	va_start(ap, fmt);
	rc = vasprintf(p, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * One scenario: 0 when it went through, -1 with err set when it reported
 * an error.  It frees what it made either way.
 */
typedef int	(*scenario_fn)(char *err, size_t errlen);

/*
 * Run fn failing each of its allocations in turn; every run must fail
 * with "out of memory" in err, or, unless strict, go through (where an
 * interface falls back), and the last run, which fails nothing, go
 * through.
 */
static void
sweep(const char *name, scenario_fn fn, int strict)
{
	char	 err[512];
	long	 k;
	int	 rc, bad = 0;

	for (k = 0; ; k++) {
		err[0] = '\0';
		counted = 0;
		fail_at = k;
		rc = fn(err, sizeof(err));
		fail_at = -1;
		if (counted <= k)
			break;
		if ((rc != -1 || strstr(err, "out of memory") == NULL) &&
		    (strict || rc != 0)) {
			printf("# %s: allocation %ld failed: rc %d, err "
			    "'%s'\n", name, k, rc, err);
			bad++;
		}
	}
	ok(k > 0 && bad == 0, "%s: each of %ld allocations may fail", name, k);
	ok(rc == 0, "%s: with memory, it goes through (%s)", name, err);
}

/* A spec with every key that allocates. */
static const char spec[] =
    "{\"name\": \"nm\", \"description\": \"every key\", \"program\": \"train\","
    " \"launcher\": {\"program\": \"srun\", \"args\": [\"--ntasks={ranks}\"]},"
    " \"args\": [\"--lr\", \"{lr}\", \"--bs\", \"{local_bs}\", \"{{x}}\"],"
    " \"env\": {\"OPT\": \"{opt}\", \"SEED\": \"{seed}\"},"
    " \"defaults\": {\"lr\": 0.1, \"opt\": \"sgd\", \"batch\": 64},"
    " \"tunable\": {\"lr\": {\"above\": 0, \"max\": 1},"
    " \"opt\": {\"values\": [\"sgd\", \"adam\", 3]}},"
    " \"batch\": {\"global\": \"batch\", \"local\": \"local_bs\"},"
    " \"fidelity\": \"epochs\", \"flops_per_sample\": 1e9,"
    " \"metric_reader\": {\"pattern\": \"acc=([0-9.]+) ep=([0-9]+)\","
    " \"value\": 1, \"epoch\": 2},"
    " \"objective\": {\"metric\": \"acc\", \"goal\": \"max\", \"target\": 0.9}}";

/* Parse the spec. */
static int
parse(char *err, size_t errlen)
{
	struct workload	*w;

	w = workload_parse_text(spec, strlen(spec), "nm.json", NULL, err,
	    errlen);
	workload_free(w);
	return w != NULL ? 0 : -1;
}

/* The spec, parsed with memory to spare. */
static struct workload *parsed;

/* Check the placeholders, render argv and env, read a line. */
static int
render(char *err, size_t errlen)
{
	static const char *const names[] = { "lr", "opt" };
	struct workload_var vars[] = { { "lr", "0.5" }, { "opt", "adam" },
		{ "local_bs", "8" }, { "ranks", "4" }, { "seed", "7" } };
	struct mllog_event ev;
	char	**argv = NULL, **env = NULL;
	int	 rc;

	if ((rc = workload_check(parsed, names, 2, err, errlen)) == 0)
		rc = workload_render(parsed, vars, 5, &argv, &env, err,
		    errlen);
	workload_strv_free(argv);
	workload_strv_free(env);
	if (rc == 0 && workload_read_line(parsed, "acc=0.5 ep=3", 12, &ev,
	    err, errlen) != 0)
		rc = -1;
	return rc;
}

#define EV(t, rest)							\
	":::MLLOG {\"namespace\": \"\", \"time_ms\": " #t ", "		\
	"\"event_type\": \"POINT_IN_TIME\", " rest "}\n"

static const char mllog_run[] =
    EV(0, "\"key\": \"submission_benchmark\", \"value\": \"deepcam\"")
    EV(1, "\"key\": \"run_start\", \"value\": null")
    EV(2, "\"key\": \"opt_base_learning_rate\", \"value\": 0.001")
    EV(3, "\"key\": \"opt_name\", \"value\": \"adamw\"")
    EV(4, "\"key\": \"opt_betas\", \"value\": [0.9, 0.999]")
    EV(5, "\"key\": \"eval_accuracy\", \"value\": 0.85, "
	"\"metadata\": {\"epoch_num\": 4}")
    EV(9, "\"key\": \"run_stop\", \"value\": null, "
	"\"metadata\": {\"status\": \"success\"}");

/* Score an MLLOG run. */
static int
score(char *err, size_t errlen)
{
	struct score_rule rule = { 0 };
	struct score_run r;
	FILE	*f;
	int	 rc;

	if ((f = fmemopen((void *)mllog_run, strlen(mllog_run), "r")) ==
	    NULL)
		return -2;
	rc = score_stream(f, "run.log", &rule, &r, err, errlen);
	fclose(f);
	if (rc == 0)
		score_run_release(&r);
	return rc;
}

/* A space of every kind of parameter. */
static struct space *space;

/* A history of 30 trials over space, every third failed, curves too. */
#define NHIST	30
static double		 hx[NHIST][3], hsteps[3] = { 1, 3, 9 };
static double		 hvals[NHIST][3];
static struct observation hobs[NHIST];

/* Fill the history. */
static void
history_fill(struct history *h)
{
	size_t	 i;

	for (i = 0; i < NHIST; i++) {
		hx[i][0] = 0.001 * (double)(i + 1);
		hx[i][1] = (double)(1 + i % 7);
		hx[i][2] = (double)(i % 2);
		hvals[i][0] = 0.1 + 0.01 * (double)i;
		hvals[i][1] = hvals[i][0] + 0.1;
		hvals[i][2] = hvals[i][1] + 0.1;
		hobs[i].x = hx[i];
		hobs[i].state = i % 3 == 2 ? OBS_FAILED : OBS_COMPLETE;
		hobs[i].has_value = hobs[i].state == OBS_COMPLETE;
		hobs[i].value = hvals[i][2];
		hobs[i].npoints = 3;
		hobs[i].steps = hsteps;
		hobs[i].values = hvals[i];
	}
	h->n = NHIST;
	h->obs = hobs;
	h->maximize = 1;
}

/* Make a search of the algorithm called name and suggest one point. */
static int
suggest(const char *name, int ttt, char *err, size_t errlen)
{
	struct search	*s;
	struct history	 h;
	double		 x[3];
	int		 rc;

	history_fill(&h);
	if ((s = search_new(name, space, 42, err, errlen)) == NULL)
		return -1;
	search_set_budget(s, 40);
	if (ttt)
		search_set_objective(s, SEARCH_RANK_TIME_TO_TARGET, 0.4);
	rc = search_suggest(s, &h, x);
	search_free(s);
	if (rc != 0 || !space_contains(space, 0, x[0]) ||
	    !space_contains(space, 1, x[1]) || !space_contains(space, 2, x[2]))
		return -2;
	return 0;
}

static int s_grid(char *e, size_t n) { return suggest("grid", 0, e, n); }
static int s_sobol(char *e, size_t n) { return suggest("sobol", 0, e, n); }
static int s_tpe(char *e, size_t n) { return suggest("tpe", 0, e, n); }
static int s_mtpe(char *e, size_t n) { return suggest("mtpe", 1, e, n); }
static int s_auto(char *e, size_t n) { return suggest("auto", 0, e, n); }

static int s_ttt(char *e, size_t n) { return suggest("tpe", 1, e, n); }

/* A history of 5,000 trials: TPE's bad group is binned (parzen_bin.c). */
#define NBIG	5000
static double		 bx[NBIG][3];
static struct observation bobs[NBIG];

/* Suggest with algorithm name over the large history. */
static int
suggest_big(const char *name, char *err, size_t errlen)
{
	struct search	*s;
	struct history	 h;
	double		 x[3];
	size_t		 i;
	int		 rc;

	for (i = 0; i < NBIG; i++) {
		bx[i][0] = 1e-4 * pow(1e4, (double)(i % 997) / 997);
		bx[i][1] = (double)(1 + i % 8);
		bx[i][2] = (double)(i % 2);
		bobs[i].x = bx[i];
		bobs[i].state = OBS_COMPLETE;
		bobs[i].has_value = 1;
		bobs[i].value = fabs(log(bx[i][0] / 0.01)) + 0.1 * bx[i][1];
	}
	h.n = NBIG;
	h.obs = bobs;
	h.maximize = 0;
	if ((s = search_new(name, space, 42, err, errlen)) == NULL)
		return -1;
	rc = search_suggest(s, &h, x);
	search_free(s);
	if (rc != 0 || !space_contains(space, 0, x[0]) ||
	    !space_contains(space, 1, x[1]) || !space_contains(space, 2, x[2]))
		return -2;
	return 0;
}

static int
s_tpe_big(char *e, size_t n)
{
	return suggest_big("tpe", e, n);
}

/* mtpe's bad group is merged into grid cells (mtpe_grid.c). */
static int
s_mtpe_big(char *e, size_t n)
{
	return suggest_big("mtpe", e, n);
}

/*
 * Suggest twice over the large history as the engine does, with the log
 * of what changed (tpe keeps the history folded between the two).
 */
static int
s_tpe_big_logged(char *err, size_t errlen)
{
	static size_t	 changed[NBIG];
	struct history_log lg;
	struct search	*s;
	struct history	 h;
	double		 x[3];
	size_t		 i;
	int		 rc, k;

	if (s_tpe_big(err, errlen) != 0)
		return -1;
	for (i = 0; i < NBIG; i++)
		changed[i] = i;
	h.n = NBIG - 1;
	h.obs = bobs;
	h.maximize = 0;
	lg.id = 1;
	lg.changed = changed;
	lg.n = NBIG - 1;
	if ((s = search_new("tpe", space, 42, err, errlen)) == NULL)
		return -1;
	for (k = 0, rc = 0; k < 2 && rc == 0; k++) {
		rc = search_suggest_logged(s, &h, &lg, x);
		if (rc == 0 && (!space_contains(space, 0, x[0]) ||
		    !space_contains(space, 1, x[1]) ||
		    !space_contains(space, 2, x[2])))
			rc = -2;
		h.n = lg.n = NBIG;
	}
	search_free(s);
	return rc;
}

/* Ask each stopper about a trial of the history. */
static int
stoppers(char *err, size_t errlen)
{
	static const char *const names[] = { "asha", "hyperband", "median",
		"target" };
	struct stop_params p;
	struct stopper	*st;
	struct history	 h;
	size_t		 i;

	history_fill(&h);
	stop_defaults(&p);
	p.max_resource = 9;
	p.has_target = 1;
	p.target = 0.4;
	for (i = 0; i < 4; i++) {
		if ((st = stop_new(names[i], &p, err, errlen)) == NULL)
			return -1;
		stop_decide(st, &h, 3, 3, 0.1);
		stop_free(st);
	}
	return 0;
}

/* A folder for the spec, the replay table and the RCP file. */
static char	 dir[] = "/tmp/test_nomem.XXXXXX";
static char	 spec_path[64], table_path[64], rcp_path[64];

/* Reference convergence points: two batch sizes of one benchmark. */
static const char rcps[] =
    "{\"cosmo_ref_64\": {\"Benchmark\": \"cosmoflow\", \"BS\": 64,\n"
    "  \"Epochs to converge\": [20, 21, 22]},\n"
    " \"cosmo_ref_128\": {\"Benchmark\": \"cosmoflow\", \"BS\": 128,\n"
    "  \"Epochs to converge\": [25, 26, 27, 28]}}\n";

/* A replay campaign: fixed values, a choice, a prior, a relative table. */
static const char replay_spec[] =
    "{\"name\": \"nm\", \"workload\": \"minicosmo\",\n"
    " \"objective\": {\"metric\": \"eval_error\", \"goal\": \"min\"},\n"
    " \"space\": {\"lr\": {\"type\": \"float\", \"min\": 0.001, "
    "\"max\": 0.3, \"scale\": \"log\"},\n"
    "  \"opt\": {\"type\": \"choice\", \"values\": [\"sgd\", \"adam\"]}},\n"
    " \"fixed\": {\"epochs\": 9, \"mode\": \"fast\"},\n"
    " \"search\": {\"algorithm\": \"tpe\", \"seed\": 5, \"stopper\": "
    "{\"algorithm\": \"asha\", \"max_resource\": 9}},\n"
    " \"budget\": {\"max_trials\": 8, \"max_parallel\": 2},\n"
    " \"resources\": {\"gpus_per_node\": 1, \"time_limit\": \"01:00:00\"},\n"
    " \"hardware\": \"a100\",\n"
    " \"prior\": {\"optuna\": \"study.db\", \"study\": \"s\"},\n"
    " \"backend\": \"replay\", \"replay\": {\"table\": \"table.json\"}}\n";

/* A Slurm campaign over batch sizes, with sbatch options of its own. */
static const char slurm_spec[] =
    "{\"name\": \"nm2\", \"workload\": \"minicosmo\",\n"
    " \"space\": {\"lr\": {\"type\": \"float\", \"min\": 0.001, "
    "\"max\": 0.3}},\n"
    " \"batch_sizes\": [64, 16, 32],\n"
    " \"scaling\": {\"lr_rule\": \"sqrt\", \"trials_per_batch\": 2},\n"
    " \"budget\": {\"max_trials\": 30},\n"
    " \"resources\": {\"partition\": \"gpu\", \"account\": \"a\", "
    "\"sbatch_extra\": [\"--nice=10\", \"--hold\"]}}\n";

/* A replay table: a log and a choice parameter, fixed values, 3 runs. */
static const char table[] =
    "{\"format\": \"hpod-replay-1\", \"metric\": \"eval_error\", "
    "\"goal\": \"min\",\n"
    " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, "
    "{\"name\": \"opt\"}],\n"
    " \"fixed\": {\"epochs\": 2, \"width\": 8},\n"
    " \"runs\": [\n"
    "  {\"x\": [0.01, \"sgd\"], \"seed\": 1, \"status\": 0, "
    "\"values\": [0.5, 0.4], \"epoch_s\": [10, 10]},\n"
    "  {\"x\": [0.1, \"adam\"], \"seed\": 1, \"status\": 0, "
    "\"values\": [0.4, 0.3], \"epoch_s\": [10, 10]},\n"
    "  {\"x\": [0.1, \"adam\"], \"seed\": 2, \"status\": 2, "
    "\"values\": [0.9], \"epoch_s\": [5]}]}\n";

/* Write text to path; -1 on error. */
static int
put(const char *path, const char *text)
{
	FILE	*f;
	int	 rc;

	if ((f = fopen(path, "w")) == NULL)
		return -1;
	rc = fputs(text, f) < 0 ? -1 : 0;
	return fclose(f) == 0 ? rc : -1;
}

/* Parse a campaign spec from its file. */
static int
spec_one(const char *text, char *err, size_t errlen)
{
	struct campaign_spec	*s;

	if (put(spec_path, text) == -1)
		return -2;
	s = spec_load(spec_path, err, errlen);
	spec_free(s);
	return s != NULL ? 0 : -1;
}

static int c_replay(char *e, size_t n) { return spec_one(replay_spec, e, n); }
static int c_slurm(char *e, size_t n) { return spec_one(slurm_spec, e, n); }

/* Load the replay table and look a job up in it. */
static int
replay_load(char *err, size_t errlen)
{
	static const char *const env[] = { "HPO_LR=0.09", "HPO_OPT=adam",
		"HPO_EPOCHS=2", "HPO_SEED=1", NULL };
	struct replay_table	*t;
	int			 rc = 0;

	if ((t = replay_table_load(table_path, err, errlen)) == NULL)
		return -1;
	if (replay_table_find(t, env, err, errlen) == NULL)
		rc = -1;
	replay_table_free(t);
	return rc;
}

/* Read the RCP file. */
static int
rcp_one(char *err, size_t errlen)
{
	struct rcp_point	*pts;
	size_t			 n, i;

	if (rcp_read(rcp_path, &pts, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		free(pts[i].key);
		free(pts[i].benchmark);
		free(pts[i].epochs);
	}
	free(pts);
	return n == 2 ? 0 : -2;
}

/* A campaign of the workload nm, parsed and bound with memory to spare. */
static struct campaign_spec *bound;

/* Render one attempt of the bound campaign. */
static int
invoke(char *err, size_t errlen)
{
	struct invoke_ctx	 ic;
	struct invocation	 inv;
	double			 x[2] = { 0.5, 1 };
	int			 rc;

	memset(&ic, 0, sizeof(ic));
	ic.trial = 3;
	ic.seed = 42;
	ic.dir = "/runs/1-c/trial-0003/attempt-0";
	ic.token = "tok";
	ic.x = x;
	rc = invoke_render(bound, parsed, &ic, &inv, err, errlen);
	invoke_release(&inv);
	return rc;
}

/* Bind a campaign to the workload nm and render its attempts. */
static void
invoke_sweep(void)
{
	static const char t[] = "{\"name\": \"c\", \"workload\": \"nm\", "
	    "\"space\": {\"lr\": {\"type\": \"float\", \"min\": 0.01, "
	    "\"max\": 1}, \"opt\": {\"type\": \"choice\", \"values\": "
	    "[\"sgd\", \"adam\"]}}, \"budget\": {\"max_trials\": 4}, "
	    "\"backend\": \"slurm\", \"resources\": {\"nodes\": 2, "
	    "\"gpus_per_node\": 4}}";
	char	 err[512] = "";

	bound = spec_parse(t, strlen(t), "c.json", err, sizeof(err));
	if (bound == NULL || spec_bind(bound, parsed, err, sizeof(err)) == -1)
		ok(0, "a campaign of nm binds (%s)", err);
	else
		sweep("invoke_render", invoke, 1);
	spec_free(bound);
}

/* Sweep spec parsing and the replay table loader over files in dir. */
static void
files_sweep(void)
{
	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp %s", dir);
		return;
	}
	snprintf(spec_path, sizeof(spec_path), "%s/c.json", dir);
	snprintf(table_path, sizeof(table_path), "%s/table.json", dir);
	snprintf(rcp_path, sizeof(rcp_path), "%s/rcps.json", dir);
	if (put(table_path, table) == -1 || put(rcp_path, rcps) == -1) {
		ok(0, "write %s and %s", table_path, rcp_path);
		return;
	}
	sweep("spec_load, a replay campaign", c_replay, 1);
	sweep("spec_load, a Slurm scaling campaign", c_slurm, 1);
	sweep("replay_table_load, _find", replay_load, 1);
	sweep("rcp_read", rcp_one, 1);
	unlink(spec_path);
	unlink(table_path);
	unlink(rcp_path);
	rmdir(dir);
}

int
main(void)
{
	static const struct value choices[] = { { 1, 0, "sgd" },
		{ 1, 0, "adam" } };
	char	 err[512];

	sweep("workload_parse_text", parse, 1);
	parsed = workload_parse_text(spec, strlen(spec), "nm.json", NULL, err,
	    sizeof(err));
	ok(parsed != NULL, "the spec parses (%s)", parsed ? "" : err);
	if (parsed == NULL)
		return tap_done();
	sweep("workload_check, _render, _read_line", render, 1);
	invoke_sweep();
	workload_free(parsed);
	sweep("score_stream", score, 1);
	files_sweep();

	if ((space = space_new()) == NULL ||
	    space_add_float(space, "lr", 1e-4, 1, SCALE_LOG, 0) == -1 ||
	    space_add_int(space, "layers", 1, 8, SCALE_LINEAR, 0) == -1 ||
	    space_add_choice(space, "opt", choices, 2) == -1)
		return tap_done();
	/* suggest and decide have no error: they fall back (search.h). */
	sweep("grid", s_grid, 0);
	sweep("sobol", s_sobol, 0);
	sweep("tpe", s_tpe, 0);
	sweep("tpe over 5,000 trials (binned)", s_tpe_big, 0);
	sweep("tpe over 5,000 trials, folded", s_tpe_big_logged, 0);
	sweep("mtpe over 5,000 trials (merged)", s_mtpe_big, 0);
	sweep("mtpe, ranked by time to target", s_mtpe, 0);
	sweep("auto", s_auto, 0);
	sweep("tpe, ranked by time to target", s_ttt, 0);
	sweep("stoppers", stoppers, 0);
	space_free(space);
	return tap_done();
}
