/*
 * guide.c: gather a campaign's runs from the ledger (each trial's last
 * attempt and its curve) and group them into the rows of the guideline
 * table, one per global batch size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "guide_int.h"
#include "invoke.h"
#include "report_alloc.h"
#include "spec.h"
#include "state.h"

/* What guide_compute() reads besides trials and attempts. */
struct guide_points {
	struct ledger_summary	*sum;	/* one per attempt */
	size_t			 nsum;
	struct account_group	*groups;
	size_t			 ngroups;
};

/* Duplicate s into *d (NULL stays NULL); -1 if memory ran out. */
static int
guide_strdup(char **d, const char *s)
{
	*d = report_strdup(s);
	return s != NULL && *d == NULL ? -1 : 0;
}

/*
 * Grow an array of n elements of size to hold n + 1; NULL (p kept) if
 * memory ran out.
 */
static void *
guide_grow(void *p, size_t n, size_t size)
{
	return report_reallocarray(p, n + 1, size);
}

/* The run of trial number, or NULL. */
const struct guide_run *
guide_run_of(const struct guide *g, int number)
{
	size_t	 i;

	for (i = 0; i < g->ntrials; i++)
		if (g->runs[i].trial == number)
			return &g->runs[i];
	return NULL;
}

/*
 * What the spec and the workload say: the scaling plan, the hardware, the
 * global batch parameter, the FLOPs per sample, and the batch size of
 * trials that have none recorded (the spec's fixed value, else the
 * workload's default; 0 if neither says).  -1 if memory ran out.
 */
static int
guide_spec(struct guide *g)
{
	const struct ledger_campaign *c = &g->c;
	struct campaign_spec	*s;
	cJSON			*w = NULL, *j;
	char			 err[512];
	size_t			 i;

	err[0] = '\0';
	if (c->spec_json != NULL && (s = spec_parse_recorded(c->spec_json,
	    strlen(c->spec_json), c->spec_path ? c->spec_path : "spec", err,
	    sizeof(err))) != NULL) {
		g->spec = s;
		if (guide_strdup(&g->hardware, s->hardware) == -1)
			return -1;
		if (s->scaling.nbatch > 0) {
			g->scaling = 1;
			g->lr_rule = spec_lr_rule_name(s->scaling.lr_rule);
			if (guide_strdup(&g->lr_param, s->scaling.lr_param) ==
			    -1)
				return -1;
			g->seeds = s->scaling.seeds;
			g->min_successes = s->scaling.min_successes;
		}
	}
	/* A spec this build cannot read has none; memory out is an error. */
	if (strstr(err, "out of memory") != NULL)
		return -1;
	if (c->workload_json != NULL)
		w = cJSON_Parse(c->workload_json);
	j = cJSON_GetObjectItemCaseSensitive(w, "flops_per_sample");
	if (cJSON_IsNumber(j) && j->valuedouble > 0)
		g->flops_per_sample = j->valuedouble;
	/*
	 * A trial's step is an epoch, or a step for a fidelity of steps,
	 * or what the workload's step_unit says it counts.
	 */
	j = cJSON_GetObjectItemCaseSensitive(w, "fidelity");
	g->epoch_unit = cJSON_IsString(j) && strcmp(j->valuestring,
	    "steps") == 0 ? "steps" : "epochs";
	j = cJSON_GetObjectItemCaseSensitive(w, "step_unit");
	if (cJSON_IsString(j)) {
		if (guide_strdup(&g->step_unit, j->valuestring) == -1) {
			cJSON_Delete(w);
			return -1;
		}
		g->epoch_unit = g->step_unit;
	}
	j = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    w, "batch"), "global");
	if (guide_strdup(&g->batch_param, cJSON_IsString(j) ?
	    j->valuestring : "batch_size") == -1) {
		cJSON_Delete(w);
		return -1;
	}
	j = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    w, "defaults"), g->batch_param);
	if (cJSON_IsNumber(j))
		g->default_batch = (long)j->valuedouble;
	for (i = 0; g->spec != NULL && i < g->spec->nfixed; i++)
		if (strcmp(g->spec->fixed[i].name, g->batch_param) == 0)
			g->default_batch = strtol(g->spec->fixed[i].value,
			    NULL, 10);
	cJSON_Delete(w);
	return 0;
}

/* Whether a trial's state is an end that counts as a run. */
static int
guide_counts(const struct ledger_trial *t)
{
	enum trial_state	 st = trial_state_parse(t->state);

	return t->reached || st == TRIAL_COMPLETED || st == TRIAL_FAILED ||
	    st == TRIAL_PRUNED;
}

/* The attempt of id among attempts [a0, a1), or NULL. */
static struct ledger_attempt *
guide_attempt_by_id(struct guide *g, size_t a0, size_t a1, int64_t id)
{
	for (; a0 < a1; a0++)
		if (g->attempts[a0].id == id)
			return &g->attempts[a0];
	return NULL;
}

/* The name of where times to train count from. */
const char *
guide_from_name(int from)
{
	if (from == GUIDE_FROM_RUN_START)
		return "run_start";
	if (from == GUIDE_FROM_JOB_START)
		return "job_start";
	return from != 0 ? "mixed" : NULL;
}

/* guide_json_from(): see guide_int.h. */
void
guide_json_from(cJSON *o, const char *key, int from)
{
	if (from != 0)
		cJSON_AddStringToObject(o, key, guide_from_name(from));
	else
		cJSON_AddNullToObject(o, key);
}

/*
 * The time to train of run r to its point on target at time at, of
 * attempt a: from the run_start its trainer logged, MLPerf's, else from
 * the attempt's start.  A run_start after that point is another clock's
 * (attempt_when()): not used.
 */
static void
guide_ttt(struct guide_run *r, const struct ledger_attempt *a, double at)
{
	if (a->run_start > 0 && at >= a->run_start) {
		r->ttt_s = at - a->run_start;
		r->ttt_from = GUIDE_FROM_RUN_START;
	} else if (a->started > 0) {
		r->ttt_s = at - a->started;
		r->ttt_from = GUIDE_FROM_JOB_START;
	}
}

/*
 * Fill run r of trial t, whose attempts are [a0, a1) and summaries
 * [s0, s1) of the lists: the first point on target of its attempts in
 * order, the epochs and train_samples of its last attempt.
 */
static void
guide_run(struct guide *g, const struct ledger_trial *t, struct guide_run *r,
    size_t a0, size_t a1, const struct guide_points *pt, size_t s0,
    size_t s1)
{
	const struct ledger_summary *s;
	struct ledger_attempt	*a;
	size_t			 i;

	memset(r, 0, sizeof(*r));
	r->trial = t->number;
	r->confirm = t->role != NULL && strcmp(t->role, "confirm") == 0;
	r->batch = t->batch_size;
	r->state = trial_state_parse(t->state);
	r->counts = guide_counts(t);
	r->value = t->has_best ? t->best : NAN;
	r->epochs = r->ttt_s = NAN;
	if (a1 > a0) {
		r->has_attempt = 1;
		r->attempt = &g->attempts[a1 - 1];
		if (r->attempt->started > 0)
			r->run_s = account_attempt_elapsed(r->attempt, g->now);
	}
	for (i = s0; i < s1; i++) {
		s = &pt->sum[i];
		a = guide_attempt_by_id(g, a0, a1, s->attempt_id);
		if (a != NULL && a == r->attempt) {
			if (s->has_last_step && s->last_step > r->epochs_run)
				r->epochs_run = s->last_step;
			r->train_samples = s->train_samples;
		}
		if (r->reached || !g->c.has_target || !s->reached)
			continue;
		r->reached = 1;
		r->epochs = s->reached_step;
		if (a != NULL)
			guide_ttt(r, a, s->reached_time);
	}
	if (!r->reached && t->reached) {
		/* Met the target by the ledger, its point not kept. */
		r->reached = 1;
		if (r->has_attempt && t->reached_at > 0)
			guide_ttt(r, r->attempt, t->reached_at);
	}
	if (r->has_attempt && r->attempt->ended > 0 && r->run_s > 0 &&
	    r->train_samples > 0 && r->epochs_run > 0)
		r->samples_per_s = r->train_samples * r->epochs_run / r->run_s;
}

/*
 * One run per trial, walking trials, attempts and points in step; -1 if
 * memory ran out.
 */
static int
guide_runs(struct guide *g, const struct guide_points *pt)
{
	size_t	 i, a0 = 0, a1, p0 = 0, p1;
	int	 num;

	if ((g->runs = report_calloc(g->ntrials ? g->ntrials : 1,
	    sizeof(*g->runs))) == NULL)
		return -1;
	for (i = 0; i < g->ntrials; i++) {
		num = g->trials[i].number;
		while (a0 < g->nattempts && g->attempts[a0].trial_number < num)
			a0++;
		for (a1 = a0; a1 < g->nattempts &&
		    g->attempts[a1].trial_number == num; a1++)
			;
		while (p0 < pt->nsum && pt->sum[p0].trial_number < num)
			p0++;
		for (p1 = p0; p1 < pt->nsum && pt->sum[p1].trial_number == num;
		    p1++)
			;
		guide_run(g, &g->trials[i], &g->runs[i], a0, a1, pt, p0, p1);
		a0 = a1;
		p0 = p1;
	}
	return 0;
}

/* Add a batch size to a sorted set of them; -1 if memory ran out. */
static int
guide_key_add(long **keys, size_t *n, long k)
{
	long	*grown;
	size_t	 i;

	for (i = 0; i < *n && (*keys)[i] < k; i++)
		;
	if (i < *n && (*keys)[i] == k)
		return 0;
	if ((grown = guide_grow(*keys, *n, sizeof(**keys))) == NULL)
		return -1;
	*keys = grown;
	memmove(*keys + i + 1, *keys + i, (*n - i) * sizeof(**keys));
	(*keys)[i] = k;
	(*n)++;
	return 0;
}

/*
 * Whether run a is a better choice of hyperparameters than run b: it
 * reached the target in fewer epochs, else it has the better value.
 */
static int
guide_better(const struct guide *g, const struct guide_run *a,
    const struct guide_run *b)
{
	int	 ae = a->reached && isfinite(a->epochs);
	int	 be = b->reached && isfinite(b->epochs);

	if (ae != be)
		return ae;
	if (ae && a->epochs != b->epochs)
		return a->epochs < b->epochs;
	if (isfinite(a->value) != isfinite(b->value))
		return isfinite(a->value);
	if (isfinite(a->value) && a->value != b->value)
		return g->c.maximize ? a->value > b->value :
		    a->value < b->value;
	return 0;
}

/* The ranks and local batch of a row, from the spec's resources. */
static void
guide_row_ranks(const struct guide *g, struct guide_row *row)
{
	struct spec_resources	 res;
	char			 err[256];

	if (g->spec == NULL || row->batch_size <= 0 ||
	    spec_resources_for(g->spec, row->batch_size, &res, err,
	    sizeof(err)) == -1)
		return;
	row->ranks = invoke_ranks(&res);
	if (row->ranks > 0)
		row->local_batch = row->batch_size / row->ranks;
}

/*
 * The configuration whose confirmation runs make a row of a scaling
 * campaign: each configuration confirmed is a candidate; the one that
 * passed (seeds runs ended, min_successes on target), else the last one
 * tried.  *cand is its parameters (borrowed), or NULL; *n is the
 * candidates.  -1 if memory ran out.
 */
static int
guide_row_candidate(const struct guide *g, long key, const char **cand,
    int *n)
{
	const struct guide_run	*r;
	const char		**pj = NULL, *chosen = NULL;
	int			*ended = NULL, *ok = NULL, *all = NULL;
	int			 rc = -1;
	size_t			 i, k, nc = 0;
	void			*q;

	for (i = 0; i < g->ntrials; i++) {
		r = &g->runs[i];
		if (r->batch != key || !r->confirm ||
		    g->trials[i].params_json == NULL)
			continue;
		for (k = 0; k < nc && strcmp(pj[k], g->trials[i].params_json);
		    k++)
			;
		if (k == nc) {
			if ((q = guide_grow(pj, nc, sizeof(*pj))) == NULL)
				goto out;
			pj = q;
			if ((q = guide_grow(ended, nc, sizeof(*ended))) == NULL)
				goto out;
			ended = q;
			if ((q = guide_grow(ok, nc, sizeof(*ok))) == NULL)
				goto out;
			ok = q;
			if ((q = guide_grow(all, nc, sizeof(*all))) == NULL)
				goto out;
			all = q;
			pj[nc] = g->trials[i].params_json;
			ended[nc] = ok[nc] = all[nc] = 0;
			nc++;
		}
		all[k]++;
		if (!trial_state_active(r->state))
			ended[k]++;
		ok[k] += r->reached;
	}
	for (k = 0; k < nc && chosen == NULL; k++)
		if (ended[k] == all[k] && all[k] >= g->seeds &&
		    ok[k] >= g->min_successes)
			chosen = pj[k];
	if (chosen == NULL && nc > 0)
		chosen = pj[nc - 1];
	*n = (int)nc;
	*cand = chosen;
	rc = 0;
 out:
	free(pj);
	free(ended);
	free(ok);
	free(all);
	return rc;
}

/*
 * The configuration a row shows: that of the tuning trial the confirmed
 * configuration cand came from, or else of best (its first confirmation
 * run, or its best tuning trial).  -1 if memory ran out.
 */
static int
guide_row_params(const struct guide *g, struct guide_row *row,
    const char *cand, const struct guide_run *best)
{
	size_t	 i;

	for (i = 0; cand != NULL && i < g->ntrials; i++)
		if (!g->runs[i].confirm && g->runs[i].batch == row->key &&
		    g->trials[i].params_json != NULL &&
		    strcmp(g->trials[i].params_json, cand) == 0) {
			best = &g->runs[i];
			break;
		}
	if (best != NULL) {
		row->params_trial = best->trial;
		for (i = 0; i < g->ntrials; i++) {
			if (g->trials[i].number != best->trial)
				continue;
			free(row->params_json);
			if (guide_strdup(&row->params_json,
			    g->trials[i].params_json) == -1)
				return -1;
		}
	}
	return 0;
}

/*
 * The runs of a row: its confirmation runs, or (ordinary) its trials.
 * -1 if memory ran out.
 */
static int
guide_row_runs(const struct guide *g, struct guide_row *row)
{
	const struct guide_run	*r, *best = NULL, *first_confirm = NULL;
	const char		*cand = NULL;
	double			*ttt = NULL, *grown, sps = 0;
	size_t			 i, nttt = 0, nsps = 0, nconf = 0;
	int			 all_ended = 1;

	if (g->scaling && guide_row_candidate(g, row->key, &cand,
	    &row->candidates) == -1)
		return -1;
	for (i = 0; i < g->ntrials; i++) {
		r = &g->runs[i];
		if (r->batch != row->key)
			continue;
		if (r->confirm)
			row->trials_confirm++;
		else {
			row->trials_tuning++;
			if (best == NULL || guide_better(g, r, best))
				best = r;
		}
		if (g->scaling && (!r->confirm || cand == NULL ||
		    g->trials[i].params_json == NULL ||
		    strcmp(g->trials[i].params_json, cand) != 0))
			continue;
		if (r->confirm && first_confirm == NULL)
			first_confirm = r;
		if (r->confirm) {
			nconf++;
			if (trial_state_active(r->state))
				all_ended = 0;
			else if (r->has_attempt && r->attempt->ended >
			    row->done_at) {
				row->done_at = r->attempt->ended;
				row->done_trial = r->trial;
			}
		}
		if (r->samples_per_s > 0) {
			sps += r->samples_per_s;
			nsps++;
		}
		if (!r->counts)
			continue;
		row->runs++;
		if (!r->reached)
			continue;
		row->successes++;
		if (isfinite(r->epochs)) {
			if ((grown = guide_grow(row->epochs_list, row->nepochs,
			    sizeof(double))) == NULL)
				goto fail;
			row->epochs_list = grown;
			row->epochs_list[row->nepochs++] = r->epochs;
		}
		if (isfinite(r->ttt_s)) {
			if ((grown = guide_grow(ttt, nttt, sizeof(double))) ==
			    NULL)
				goto fail;
			ttt = grown;
			ttt[nttt++] = r->ttt_s;
			row->ttt_from |= r->ttt_from;
		}
	}
	if (guide_row_params(g, row, cand, first_confirm != NULL ?
	    first_confirm : best) == -1)
		goto fail;
	row->success_rate = guide_rate(row->successes, row->runs);
	guide_ci_wilson(row->successes, row->runs, GUIDE_Z, &row->rate_low,
	    &row->rate_high);
	guide_stats(row->epochs_list, row->nepochs, &row->epochs);
	guide_stats(ttt, nttt, &row->ttt);
	free(ttt);
	row->samples_per_s = nsps > 0 ? sps / (double)nsps : 0;
	row->confirmed = g->scaling && nconf > 0 && all_ended &&
	    ((int)nconf >= g->seeds || campaign_state_parse(g->c.state) !=
	    CAMPAIGN_RUNNING) &&
	    row->successes >= g->min_successes && row->successes > 0;
	if (!row->confirmed) {
		row->done_at = 0;
		row->done_trial = -1;
	}
	return 0;
 fail:
	free(ttt);
	return -1;
}

/*
 * The rows: every batch size of the spec, of the trials, of the cost.
 * -1 if memory ran out.
 */
static int
guide_rows(struct guide *g, const struct guide_points *pt)
{
	struct guide_row	*row;
	long			*keys = NULL, dflt;
	size_t			 nkeys = 0, i, j;

	for (i = 0; g->scaling && i < g->spec->scaling.nbatch; i++)
		if (guide_key_add(&keys, &nkeys,
		    g->spec->scaling.batch_sizes[i]) == -1)
			goto fail;
	for (i = 0; i < g->ntrials; i++)
		if (guide_key_add(&keys, &nkeys, g->trials[i].batch_size) == -1)
			goto fail;
	for (i = 0; i < pt->ngroups; i++)
		if (guide_key_add(&keys, &nkeys, pt->groups[i].batch_size) ==
		    -1)
			goto fail;
	if ((g->rows = report_calloc(nkeys ? nkeys : 1, sizeof(*g->rows))) ==
	    NULL)
		goto fail;
	g->nrows = nkeys;
	dflt = g->default_batch;
	for (i = 0; i < nkeys; i++) {
		row = &g->rows[i];
		row->key = keys[i];
		row->batch_size = keys[i] > 0 ? keys[i] : dflt;
		row->params_trial = row->done_trial = -1;
		guide_row_ranks(g, row);
		if (guide_row_runs(g, row) == -1)
			goto fail;
		for (j = 0; j < pt->ngroups; j++) {
			if (pt->groups[j].batch_size != row->key)
				continue;
			account_cost_add(pt->groups[j].confirm ?
			    &row->confirm : &row->tuning, &pt->groups[j].cost);
			account_cost_add(&row->total, &pt->groups[j].cost);
			account_cost_add(&g->total, &pt->groups[j].cost);
			g->total_trials += pt->groups[j].trials;
		}
	}
	free(keys);
	return 0;
 fail:
	free(keys);
	return -1;
}

/* The distinct hosts the attempts ran on, sorted; -1 if out of memory. */
static int
guide_hosts(struct guide *g)
{
	const char	*h;
	char		**grown;
	size_t		 i, j;

	for (i = 0; i < g->nattempts; i++) {
		if ((h = g->attempts[i].host) == NULL || *h == '\0')
			continue;
		for (j = 0; j < g->nhosts && strcmp(g->hosts[j], h) < 0; j++)
			;
		if (j < g->nhosts && strcmp(g->hosts[j], h) == 0)
			continue;
		if ((grown = guide_grow(g->hosts, g->nhosts,
		    sizeof(char *))) == NULL)
			return -1;
		g->hosts = grown;
		memmove(g->hosts + j + 1, g->hosts + j,
		    (g->nhosts - j) * sizeof(char *));
		if (guide_strdup(&g->hosts[j], h) == -1) {
			memmove(g->hosts + j, g->hosts + j + 1,
			    (g->nhosts - j) * sizeof(char *));
			return -1;
		}
		g->nhosts++;
	}
	return 0;
}

/* Compute everything for campaign c at time now. */
int
guide_compute(struct ledger *l, const struct ledger_campaign *c, double now,
    struct guide *g, char *err, size_t errlen)
{
	struct guide_points	 pt;
	const char		*metric = c->metric ? c->metric : "";
	int			 rc = -1;

	memset(g, 0, sizeof(*g));
	memset(&pt, 0, sizeof(pt));
	g->now = now;
	if ((rc = ledger_campaign_get(l, c->id, &g->c)) != 0) {
		if (rc == 1)
			snprintf(err, errlen, "no campaign id %lld in the "
			    "ledger", (long long)c->id);
		else
			snprintf(err, errlen, "%s", ledger_error(l));
		return -1;
	}
	rc = -1;
	/* The account's sums come from the lists (account_lists()). */
	if (ledger_trial_list(l, c->id, &g->trials, &g->ntrials) == -1 ||
	    ledger_attempt_list(l, c->id, 0, &g->attempts, &g->nattempts) ==
	    -1 || account_lists(l, &g->c, now, g->trials, g->ntrials,
	    g->attempts, g->nattempts, &g->acct, &pt.groups, &pt.ngroups) ==
	    -1 || ledger_summary_list(l, c->id, metric, g->c.has_target,
	    g->c.maximize, g->c.target, &pt.sum, &pt.nsum) == -1)
		goto fail;
	if (guide_spec(g) == -1 || guide_runs(g, &pt) == -1 ||
	    guide_rows(g, &pt) == -1 || guide_hosts(g) == -1 ||
	    guide_solution(g) == -1) {
		snprintf(err, errlen, "report for campaign '%s': out of memory",
		    g->c.name);
		guide_release(g);
		goto out;
	}
	rc = 0;
 fail:
	if (rc == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		guide_release(g);
	}
 out:
	free(pt.sum);
	free(pt.groups);
	return rc;
}

/* Read the objective's points, which the HTML page draws its curves from. */
int
guide_load_points(struct ledger *l, struct guide *g, char *err,
    size_t errlen)
{
	ledger_metric_list_free(g->points, g->npoints);
	g->points = NULL;
	g->npoints = 0;
	if (ledger_metric_values(l, g->c.id, g->c.metric ? g->c.metric : "",
	    &g->points, &g->npoints) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		return -1;
	}
	return 0;
}

/* Free what guide_compute() allocated. */
void
guide_release(struct guide *g)
{
	size_t	 i;

	if (g == NULL)
		return;
	for (i = 0; i < g->nrows; i++) {
		free(g->rows[i].params_json);
		free(g->rows[i].epochs_list);
	}
	free(g->rows);
	for (i = 0; i < g->nhosts; i++)
		free(g->hosts[i]);
	free(g->hosts);
	free(g->runs);
	ledger_trial_list_free(g->trials, g->ntrials);
	ledger_attempt_list_free(g->attempts, g->nattempts);
	ledger_metric_list_free(g->points, g->npoints);
	account_release(&g->acct);
	ledger_campaign_release(&g->c);
	spec_free(g->spec);
	free(g->lr_param);
	free(g->hardware);
	free(g->batch_param);
	free(g->step_unit);
	memset(g, 0, sizeof(*g));
}
