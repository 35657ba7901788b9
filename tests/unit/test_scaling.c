/*
 * test_scaling.c: batch-size scaling campaigns: the spec's "batch_sizes"
 * and "scaling" keys, the learning-rate rules, resources that follow the
 * batch size, and the plan's decisions on hand-made trial lists.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curves.h"
#include "params.h"
#include "scaling.h"
#include "spec.h"
#include "tap.h"
#include "workload.h"

/* A scaling spec around extra scaling keys and budget. */
static char *
mk(const char *space, const char *batches, const char *scaling,
    const char *budget)
{
	char	*s;

	if (asprintf(&s, "{\"name\": \"s\", \"workload\": \"minicosmo\","
	    " \"objective\": {\"target\": 0.14},"
	    " \"space\": {%s}, \"batch_sizes\": %s, \"scaling\": {%s},"
	    " \"budget\": {%s}}", space, batches, scaling, budget) == -1)
		abort();
	return s;
}

#define LR	"\"lr\": {\"type\": \"float\", \"min\": 0.001, \"max\": 0.5, " \
		"\"scale\": \"log\"}"
#define WU	"\"warmup_epochs\": {\"type\": \"int\", \"min\": 0, \"max\": 2}"

/* Expect spec text to be refused with a message containing want. */
static void
bad(char *text, const char *want)
{
	struct campaign_spec	*s;
	char			 err[1024] = "";

	s = spec_parse(text, strlen(text), "c.json", err, sizeof(err));
	ok(s == NULL, "refused: %s", want);
	like(err, want, "message names the file and key");
	spec_free(s);
	free(text);
}

static void
test_spec_errors(void)
{
	bad(mk(LR, "[16, 32]", "", "\"max_trials\": 20"),
	    "c.json: scaling.lr_rule: required");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"cubic\"", "\"max_trials\": 20"),
	    "c.json: scaling.lr_rule: expected \"linear\", \"sqrt\" or "
	    "\"none\", got \"cubic\"");
	bad(mk(WU, "[16, 32]", "\"lr_rule\": \"linear\"", "\"max_trials\": 20"),
	    "c.json: scaling.lr_param: 'lr' is not a float parameter");
	bad(mk(LR, "[16, 32, 16]", "\"lr_rule\": \"sqrt\"",
	    "\"max_trials\": 20"), "c.json: batch_sizes: 16 is listed twice");
	bad(mk(LR, "[16, 2.5]", "\"lr_rule\": \"sqrt\"", "\"max_trials\": 20"),
	    "c.json: batch_sizes[1]: expected an integer");
	bad(mk(LR, "[]", "\"lr_rule\": \"sqrt\"", "\"max_trials\": 20"),
	    "c.json: batch_sizes: expected a non-empty array");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"sqrt\", \"trials_per_batch\": 8",
	    "\"max_trials\": 20"), "c.json: budget.max_trials: 20 is too few "
	    "for 2 batch sizes x (8 tuning trials + 5 confirmation runs) = 26");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"sqrt\", \"seeds\": 0",
	    "\"max_trials\": 20"), "c.json: scaling.seeds: 0 is out of range");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"sqrt\", \"seeds\": 3, "
	    "\"min_successes\": 4", "\"max_trials\": 20"),
	    "c.json: scaling.min_successes: 4 is out of range [1, 3]");
	bad(mk(LR ", \"seed\": {\"type\": \"int\", \"min\": 0, \"max\": 9}",
	    "[16, 32]", "\"lr_rule\": \"sqrt\"", "\"max_trials\": 20"),
	    "c.json: space.seed: a scaling campaign chooses the seeds");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"sqrt\"",
	    "\"max_trials\": 20, \"stop_on_target\": true"),
	    "c.json: budget.stop_on_target: not with batch_sizes");
	bad(mk(LR, "[16, 48]", "\"lr_rule\": \"sqrt\", \"local_batch\": 32",
	    "\"max_trials\": 20"), "c.json: scaling.local_batch: batch size 16 "
	    "is not a multiple of scaling.local_batch 32");
	bad(mk(LR, "[16, 32]", "\"lr_rule\": \"sqrt\", \"lr\": 1",
	    "\"max_trials\": 20"), "c.json: scaling.lr: unknown key");
	bad(strdup("{\"name\": \"s\", \"workload\": \"w\", \"space\": {" LR "},"
	    " \"scaling\": {\"lr_rule\": \"none\"}, \"budget\": "
	    "{\"max_trials\": 2}}"), "c.json: scaling: only with batch_sizes");
}

/* Parse and bind a spec against the minicosmo workload. */
static struct campaign_spec *
load(char *text, struct workload **wp)
{
	struct campaign_spec	*s;
	struct workload		*w;
	char			 err[1024] = "";

	s = spec_parse(text, strlen(text), "c.json", err, sizeof(err));
	free(text);
	w = workload_load("workloads/minicosmo.json", NULL, err, sizeof(err));
	if (s == NULL || w == NULL || spec_bind(s, w, err, sizeof(err)) == -1) {
		fprintf(stderr, "# %s\n", err);
		spec_free(s);
		workload_free(w);
		return NULL;
	}
	*wp = w;
	return s;
}

static void
test_spec_good(void)
{
	struct campaign_spec	*s;
	struct workload		*w = NULL;
	struct spec_resources	 r;
	char			 err[256], *text;
	size_t			 last;

	s = load(mk(LR "," WU, "[64, 16, 32]", "\"lr_rule\": \"sqrt\"",
	    "\"max_trials\": 21"), &w);
	ok(s != NULL, "a scaling spec binds to minicosmo");
	if (s == NULL)
		return;
	is_int(s->scaling.nbatch, 3, "three batch sizes");
	ok(s->scaling.batch_sizes[0] == 16 && s->scaling.batch_sizes[1] == 32 &&
	    s->scaling.batch_sizes[2] == 64, "kept ascending");
	is_int(s->scaling.seeds, 5, "5 confirmation seeds by default");
	is_int(s->scaling.min_successes, 4, "of which 4 must reach the target");
	is_int(s->scaling.trials_per_batch, 2, "21 / 3 - 5 = 2 tuning trials "
	    "each");
	last = s->space->n - 1;
	is_str(s->space->params[last].name, "batch_size",
	    "the batch size is the space's last parameter");
	ok(s->space->params[last].type == PARAM_CHOICE &&
	    s->space->params[last].nchoices == 3 &&
	    s->space->params[last].choices[2].num == 64, "a choice of the "
	    "batch sizes");
	is_near(spec_lr_transfer(s, 0.1, 16, 64), 0.2, 1e-15,
	    "sqrt rule: x4 batch, x2 lr");
	s->scaling.lr_rule = LR_RULE_LINEAR;
	is_near(spec_lr_transfer(s, 0.1, 16, 64), 0.4, 1e-15,
	    "linear rule: x4 batch, x4 lr");
	is_near(spec_lr_transfer(s, 0.4, 64, 16), 0.1, 1e-15,
	    "linear rule downwards");
	s->scaling.lr_rule = LR_RULE_NONE;
	is_near(spec_lr_transfer(s, 0.1, 16, 64), 0.1, 0, "none: kept");
	is_str(spec_lr_rule_name(LR_RULE_SQRT), "sqrt", "rule names");

	/* Resources follow the batch size: 32 samples per GPU, 4 per node. */
	s->res.gpus_per_node = 4;
	s->scaling.local_batch = 32;
	ok(spec_resources_for(s, 32, &r, err, sizeof(err)) == 0 &&
	    r.nodes == 1 && r.gpus_per_node == 1, "batch 32: 1 node, 1 GPU");
	ok(spec_resources_for(s, 96, &r, err, sizeof(err)) == 0 &&
	    r.nodes == 1 && r.gpus_per_node == 3, "batch 96: 1 node, 3 GPUs");
	ok(spec_resources_for(s, 128, &r, err, sizeof(err)) == 0 &&
	    r.nodes == 1 && r.gpus_per_node == 4, "batch 128: 1 node, 4 GPUs");
	ok(spec_resources_for(s, 1024, &r, err, sizeof(err)) == 0 &&
	    r.nodes == 8 && r.gpus_per_node == 4, "batch 1024: 8 nodes");
	ok(spec_resources_for(s, 192, &r, err, sizeof(err)) == -1, "batch 192: "
	    "6 ranks do not fill nodes of 4");
	like(err, "needs 6 ranks, which do not fill whole nodes of 4",
	    "and says why");
	spec_free(s);
	workload_free(w);

	text = mk(LR ", \"batch_size\": {\"type\": \"choice\", \"values\": "
	    "[8]}", "[16, 32]", "\"lr_rule\": \"sqrt\"", "\"max_trials\": 20");
	s = spec_parse(text, strlen(text), "c.json", err, sizeof(err));
	free(text);
	w = workload_load("workloads/minicosmo.json", NULL, err, sizeof(err));
	ok(s != NULL && w != NULL && spec_bind(s, w, err, sizeof(err)) == -1,
	    "batch_size in the space is refused");
	like(err, "c.json: space: batch_size: set by batch_sizes", "with a "
	    "message");
	spec_free(s);
	workload_free(w);
}

/* Hand-made trial lists. */
struct list {
	struct ledger_trial	 t[32];
	size_t			 n;
};

/* Append a trial. */
static void
add(struct list *l, long batch, const char *role, const char *state,
    double lr, int has_best, double best)
{
	struct ledger_trial	*t = &l->t[l->n];
	char			 pj[128];

	snprintf(pj, sizeof(pj), "{\"lr\":%.17g,\"warmup_epochs\":1,"
	    "\"batch_size\":%ld}", lr, batch);
	memset(t, 0, sizeof(*t));
	t->number = (int)l->n++;
	t->batch_size = batch;
	t->role = strdup(role);
	t->state = strdup(state);
	t->params_json = strdup(pj);
	t->has_best = has_best;
	t->best = best;
}

static void
clear(struct list *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		ledger_trial_release(&l->t[i]);
	l->n = 0;
}

/* A curve for trial `number`: values at epochs 1, 2, ... */
static void
curve(struct curves *cv, int number, const double *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		curves_add(cv, number, number + 1, (double)(i + 1), v[i],
		    (double)(i + 1));
}

static void
test_plan(void)
{
	struct campaign_spec	*s;
	struct workload		*w = NULL;
	struct scaling		*sc;
	struct scaling_plan	 p;
	struct curves		*cv;
	struct list		 l;
	char			 err[256];
	double			 x[3];
	static const double	 slow[] = { 0.30, 0.15, 0.13 };
	static const double	 fast[] = { 0.30, 0.135, 0.138 };
	static const double	 best[] = { 0.30, 0.20, 0.12 };

	/* Batch sizes 16, 32, 64; 2 tuning trials and 2 seeds each. */
	s = load(mk(LR "," WU, "[32, 16, 64]", "\"lr_rule\": \"linear\", "
	    "\"trials_per_batch\": 2, \"seeds\": 2", "\"max_trials\": 12, "
	    "\"max_parallel\": 4"), &w);
	if (s == NULL) {
		ok(0, "spec");
		return;
	}
	sc = scaling_new(s, err, sizeof(err));
	ok(sc != NULL, "plan created");
	cv = curves_new();
	memset(&l, 0, sizeof(l));
	p.x = x;

	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.batch == 16 && p.role == ROLE_SEARCH && x[2] == 0,
	    "first: a search trial at the smallest batch size");
	add(&l, 16, "search", "running", 0.01, 0, 0);
	add(&l, 16, "search", "running", 0.02, 0, 0);
	is_int(scaling_next(sc, l.t, l.n, cv, &p), SCALING_WAIT,
	    "batch 16 has its 2 trials and no result: wait");

	l.t[0].has_best = 1;
	l.t[0].best = 0.2;
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_TRANSFER && p.from_trial == 0,
	    "a result at 16 opens 32, starting from it");
	is_near(x[0], 0.02, 1e-15, "with lr x2 (linear rule, 16 -> 32)");
	is_int((int)x[2], 1, "at batch size 32 (choice 1)");
	like(p.why, "starts from trial 0 (batch size 16), lr 0.01 -> 0.02 "
	    "(linear rule)", "the log says so");

	/* Batch 16 ends: trial 1 reached the target in fewer epochs. */
	free(l.t[0].state);
	l.t[0].state = strdup("completed");
	free(l.t[1].state);
	l.t[1].state = strdup("completed");
	l.t[0].best = 0.13;
	l.t[1].has_best = 1;
	l.t[1].best = 0.135;
	curve(cv, 0, slow, 3);
	curve(cv, 1, fast, 3);
	add(&l, 32, "transfer", "running", 0.02, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 1,
	    "confirmation first, of trial 1 (target at epoch 2, not 3)");
	is_near(x[0], 0.02, 0, "with trial 1's learning rate");
	add(&l, 16, "confirm", "running", 0.02, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW &&
	    p.role == ROLE_CONFIRM && p.lane == 0, "second confirmation run");
	add(&l, 16, "confirm", "running", 0.02, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_SEARCH, "then batch 32's second tuning trial");
	add(&l, 32, "search", "running", 0.3, 0, 0);
	is_int(scaling_next(sc, l.t, l.n, cv, &p), SCALING_WAIT,
	    "batch 32 tuned, no result yet: 64 waits");

	/* A crashed trial is no configuration: 64 starts from trial 5. */
	free(l.t[2].state);
	l.t[2].state = strdup("failed");
	l.t[2].has_best = 1;
	l.t[2].best = 0.01;
	l.t[5].has_best = 1;
	l.t[5].best = 0.25;
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 2 &&
	    p.role == ROLE_TRANSFER && p.from_trial == 5,
	    "64 starts from 32's only live result (the failed one is skipped)");
	is_near(x[0], 0.5, 0, "lr 0.3 x2 clamped to the space's 0.5");
	like(p.why, "clamped to the space", "and says so");
	add(&l, 64, "transfer", "completed", 0.5, 1, 0.12);
	curve(cv, 6, best, 3);
	add(&l, 64, "search", "failed", 0.001, 0, 0);
	free(l.t[5].state);
	l.t[5].state = strdup("completed");
	free(l.t[3].state);
	l.t[3].state = strdup("completed");
	free(l.t[4].state);
	l.t[4].state = strdup("completed");
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 5,
	    "32 confirms trial 5");
	add(&l, 32, "confirm", "completed", 0.3, 1, 0.2);
	add(&l, 32, "confirm", "completed", 0.3, 1, 0.2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 2 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 6,
	    "64 confirms trial 6 (the failed trial 7 is no configuration)");
	add(&l, 64, "confirm", "completed", 0.5, 1, 0.1);
	add(&l, 64, "confirm", "running", 0.5, 0, 0);
	is_int(scaling_next(sc, l.t, l.n, cv, &p), SCALING_WAIT,
	    "all created, one running: wait");
	free(l.t[11].state);
	l.t[11].state = strdup("completed");
	is_int(scaling_next(sc, l.t, l.n, cv, &p), SCALING_DONE,
	    "every batch size tuned and confirmed: done");

	/* Restart: the same list gives the same decisions. */
	clear(&l);
	add(&l, 16, "search", "failed", 0.4, 0, 0);
	add(&l, 16, "search", "failed", 0.5, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_SEARCH, "nothing worked at 16: 32 starts from its "
	    "own search, and 16 is not confirmed");

	clear(&l);
	curves_free(cv);
	scaling_free(sc);
	spec_free(s);
	workload_free(w);
}

/* Set trial i's end: state, best value. */
static void
end(struct list *l, int i, const char *state, double best)
{
	free(l->t[i].state);
	l->t[i].state = strdup(state);
	l->t[i].has_best = 1;
	l->t[i].best = best;
}

/*
 * A candidate that fails its confirmation is followed by the next one,
 * ranked by all the evidence, until one passes or the batch size's share
 * of the budget is spent.
 */
static void
test_candidates(void)
{
	struct campaign_spec	*s, *s12;
	struct workload		*w = NULL, *w12 = NULL;
	struct scaling		*sc, *sc12;
	struct scaling_plan	 p;
	struct curves		*cv;
	struct list		 l;
	char			 err[256];
	double			 x[3];
	static const double	 c0[] = { 0.30, 0.15, 0.135 };
	static const double	 c1[] = { 0.30, 0.20, 0.12 };
	static const double	 hit[] = { 0.30, 0.13 };

	/* 3 tuning trials and 2 seeds (both must reach) per batch size. */
	s = load(mk(LR "," WU, "[16, 32]", "\"lr_rule\": \"linear\", "
	    "\"trials_per_batch\": 3, \"seeds\": 2", "\"max_trials\": 14, "
	    "\"max_parallel\": 4"), &w);
	s12 = load(mk(LR "," WU, "[16, 32]", "\"lr_rule\": \"linear\", "
	    "\"trials_per_batch\": 3, \"seeds\": 2", "\"max_trials\": 12, "
	    "\"max_parallel\": 4"), &w12);
	if (s == NULL || s12 == NULL) {
		ok(0, "specs");
		return;
	}
	sc = scaling_new(s, err, sizeof(err));
	sc12 = scaling_new(s12, err, sizeof(err));
	cv = curves_new();
	memset(&l, 0, sizeof(l));
	p.x = x;

	/*
	 * Both reach the target at epoch 3; trial 1 has the better value,
	 * but its neighbour (lr 0.31) diverged: P(success) of trial 0 is
	 * (1 + 1) / (1 + 2), of trial 1 (1 + 1) / (1.5 + 2).
	 */
	add(&l, 16, "search", "completed", 0.01, 1, 0.135);
	add(&l, 16, "search", "completed", 0.3, 1, 0.12);
	add(&l, 16, "search", "failed", 0.31, 1, 0.9);
	curve(cv, 0, c0, 3);
	curve(cv, 1, c1, 3);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 0, "trial 0 confirmed "
	    "first: 3 / (2/3) = 4.5 epochs beats 3 / (2/3.5) = 5.25");
	add(&l, 16, "confirm", "completed", 0.01, 1, 0.13);
	curve(cv, 3, hit, 2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 0, "its second run");
	add(&l, 16, "confirm", "completed", 0.01, 1, 0.2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 1 &&
	    fabs(x[0] - 0.3) < 1e-12, "it missed (2 of 2 needed): trial 1 is "
	    "confirmed next (3 + 2 + 2 <= a share of 7)");
	like(p.why, "confirmation run 1 of 2 of trial 1's configuration "
	    "(candidate 2", "the log says it is the second candidate");
	ok(scaling_next(sc12, l.t, l.n, cv, &p) == SCALING_NEW &&
	    p.lane == 1 && p.role == ROLE_TRANSFER && p.from_trial == 0,
	    "a share of 6 has no room for it: batch 16 ends unconfirmed and "
	    "32 starts from the best evidence, trial 0");
	add(&l, 16, "confirm", "running", 0.3, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 1,
	    "the second candidate's second run");
	add(&l, 16, "confirm", "running", 0.3, 0, 0);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_TRANSFER && p.from_trial == 1, "both running: "
	    "batch 32 opens from the candidate being confirmed, trial 1");
	end(&l, 5, "completed", 0.13);
	curve(cv, 5, hit, 2);
	end(&l, 6, "completed", 0.11);
	curve(cv, 6, hit, 2);

	/* Batch 32: every candidate fails until its share (7) is spent. */
	add(&l, 32, "transfer", "completed", 0.5, 1, 0.13);
	curve(cv, 7, hit, 2);
	add(&l, 32, "search", "completed", 0.05, 1, 0.135);
	curve(cv, 8, c0, 3);
	add(&l, 32, "search", "completed", 0.002, 1, 0.5);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 7,
	    "batch 32 confirms trial 7 first (2 epochs)");
	add(&l, 32, "confirm", "completed", 0.5, 1, 0.3);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 1 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 8,
	    "its first run missed: trial 8 next (3 + 1 + 2 <= 7)");
	add(&l, 32, "confirm", "completed", 0.05, 1, 0.14);
	add(&l, 32, "confirm", "completed", 0.05, 1, 0.3);
	is_int(scaling_next(sc, l.t, l.n, cv, &p), SCALING_DONE,
	    "trial 8 missed too and 3 + 3 + 2 > 7: trial 9 is never tried, "
	    "batch 32 ends unconfirmed, the campaign is done");

	/* No tuning run reached the target: tune on while the share allows. */
	clear(&l);
	curves_free(cv);
	cv = curves_new();
	add(&l, 16, "search", "completed", 0.01, 1, 0.3);
	add(&l, 16, "search", "completed", 0.02, 1, 0.25);
	add(&l, 16, "search", "completed", 0.04, 1, 0.2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_SEARCH, "none of 3 reached: a 4th tuning trial "
	    "(3 + 2 < 7), not a confirmation");
	like(p.why, "tuning trial 4: no configuration left to confirm "
	    "reached the target", "the log says why");
	add(&l, 16, "search", "completed", 0.08, 1, 0.2);
	add(&l, 16, "search", "completed", 0.16, 1, 0.2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM, "5 + 2 = 7: the share is spent on "
	    "tuning, the best is confirmed");

	/* The only candidate on target failed: tune on rather than confirm. */
	clear(&l);
	curves_free(cv);
	cv = curves_new();
	add(&l, 16, "search", "completed", 0.01, 1, 0.13);
	curve(cv, 0, hit, 2);
	add(&l, 16, "search", "completed", 0.02, 1, 0.25);
	add(&l, 16, "search", "completed", 0.04, 1, 0.2);
	add(&l, 16, "confirm", "completed", 0.01, 1, 0.2);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_SEARCH, "trial 0 failed its confirmation and no "
	    "other reached the target: a 4th tuning trial (3 + 1 + 2 < 7)");
	add(&l, 16, "search", "completed", 0.03, 1, 0.22);
	ok(scaling_next(sc, l.t, l.n, cv, &p) == SCALING_NEW && p.lane == 0 &&
	    p.role == ROLE_CONFIRM && p.from_trial == 0, "4 + 1 + 2 = 7 and "
	    "nothing else on target: trial 0 runs its last seed, no "
	    "configuration that never reached the target is confirmed");

	clear(&l);
	curves_free(cv);
	scaling_free(sc);
	scaling_free(sc12);
	spec_free(s);
	spec_free(s12);
	workload_free(w);
	workload_free(w12);
}

int
main(void)
{
	test_spec_errors();
	test_spec_good();
	test_plan();
	test_candidates();
	return tap_done();
}
