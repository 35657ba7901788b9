/*
 * spec_search.c: a campaign spec's "search": its algorithm and seed, its
 * early stopper (search.stopper) and the search built once to check it;
 * and what a grid cut by budget.max_trials leaves out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "spec_int.h"

static const char *const search_keys[] = { "algorithm", "seed", "stopper",
	NULL };
static const char *const stopper_keys[] = { "algorithm", "min_resource",
	"max_resource", "eta", "warmup_trials", "warmup_steps", "slack",
	"leader", "leader_running", "power_law", NULL };

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

/* Parse search: algorithm, seed and stopper (after the budget). */
int
sp_search(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	const cJSON	*se;
	double		 seed;

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
	return sp_stopper(sp, s, se);
}

/*
 * Build the search once, as the engine will, so that a space it cannot
 * search (a grid of an int range too wide for one point per integer) is
 * refused by hpoctl check and at submission, naming the file; and count
 * a grid's points (search_points).  A scaling campaign searches each
 * batch size's view of the space instead (scaling_new()); its median
 * stopper is checked here, once a batch size's tuning trials are known.
 */
int
sp_search_check(struct sp *sp, struct campaign_spec *s)
{
	struct search	*se;
	char		 err[512];
	int		 lane;

	/*
	 * A scaling campaign's median judges a trial against the completed
	 * tuning trials of its own batch size: at most its share of the
	 * budget less its confirmation runs (scaling_tuned()).
	 */
	lane = s->scaling.nbatch > 0 ? s->max_trials /
	    (int)s->scaling.nbatch - s->scaling.seeds : 0;
	if (!s->recorded && s->scaling.nbatch > 0 &&
	    strcmp(s->stopper, "median") == 0 &&
	    s->stop.warmup_trials >= lane)
		return sp_fail(sp, "search.stopper.warmup_trials", "%d is not "
		    "below the tuning trials a batch size has at most (%d: "
		    "budget.max_trials %d / %zu batch sizes - %d confirmation "
		    "runs): median judges a trial only against the completed "
		    "ones of its batch size, so it would stop no trial",
		    s->stop.warmup_trials, lane, s->max_trials,
		    s->scaling.nbatch, s->scaling.seeds);
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
