/*
 * spec_target.c: the spec keys that serve the campaign's target:
 * objective.rank ("value" or "time_to_target"), the target stopper's
 * defaults (its last step and grace period from the workload), and the
 * stopper "auto" picks when a target is known.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

/* Parse objective.rank (absent: "value"). */
int
sp_rank(struct sp *sp, struct campaign_spec *s, const cJSON *o)
{
	char	*rank = NULL;

	if (sp_string(sp, o, "rank", "objective", 0, "value", &rank) == -1)
		return -1;
	if (strcmp(rank, "value") == 0)
		s->rank = SEARCH_RANK_VALUE;
	else if (strcmp(rank, "time_to_target") == 0)
		s->rank = SEARCH_RANK_TIME_TO_TARGET;
	else {
		sp_fail(sp, "objective.rank", "expected \"value\" or "
		    "\"time_to_target\", got \"%s\"", rank);
		free(rank);
		return -1;
	}
	free(rank);
	return 0;
}

/* Numeric value of name among the fixed values, then the workload's. */
static int
sp_target_var(const struct campaign_spec *s, const struct workload *w,
    const char *name, double *out)
{
	const char	*v = NULL;
	char		*end;
	size_t		 i;

	if (space_find(s->space, name) != -1)
		return -1;
	for (i = 0; i < s->nfixed && v == NULL; i++)
		if (strcmp(s->fixed[i].name, name) == 0)
			v = s->fixed[i].value;
	for (i = 0; i < w->ndefaults && v == NULL; i++)
		if (strcmp(w->defaults[i].name, name) == 0)
			v = w->defaults[i].value;
	if (v == NULL)
		return -1;
	*out = strtod(v, &end);
	return end != v && *end == '\0' && isfinite(*out) ? 0 : -1;
}

/*
 * Refuse a rung stopper whose first rung, or a median stopper whose grace
 * period, is past the last step any trial reaches (step_max, known from
 * the fixed or default epochs or the space): it would stop no trial.
 */
static int
sp_stop_reach(struct sp *sp, const struct campaign_spec *s)
{
	const char	*key, *from = "the workload's default epochs";
	double		 first;
	size_t		 i;

	if (s->recorded || s->step_max >= SPEC_STEP_MAX)
		return 0;
	if (strcmp(s->stopper, "asha") == 0 ||
	    strcmp(s->stopper, "hyperband") == 0) {
		key = "search.stopper.min_resource";
		first = s->stop.min_resource;
	} else if (strcmp(s->stopper, "median") == 0) {
		key = "search.stopper.warmup_steps";
		first = s->stop.warmup_steps;
	} else
		return 0;
	if (first <= s->step_max)
		return 0;
	for (i = 0; i < s->nfixed; i++)
		if (strcmp(s->fixed[i].name, "epochs") == 0)
			from = "fixed.epochs";
	if (space_find(s->space, "epochs") != -1)
		from = "the most space.epochs gives";
	return sp_fail(sp, key, "%g is past the last epoch a trial reaches "
	    "(%g, %s), so %s would stop no trial", first, s->step_max, from,
	    s->stopper);
}

/*
 * Complete the stopper from the workload (in spec_bind()): auto's pick of
 * the target stopper, and the target stopper's target, last step
 * (max_resource: the fixed or default epochs, or steps, of a trial) and
 * grace period (warmup_steps: the warm-up epochs + 3, so that two points
 * past the first one after the warm-up give a rate), and the first step
 * its leader rule may stop at (leader_steps: the one after the warm-up).
 */
int
sp_target_bind(struct sp *sp, struct campaign_spec *s,
    const struct workload *w)
{
	const char	*fid = w->fidelity != NULL ? w->fidelity : "epochs";
	char		 err[256];
	struct stopper	*st;
	double		 last = 0, warm = 0;
	int		 has_last;

	if (s->rank == SEARCH_RANK_TIME_TO_TARGET && !s->has_target)
		return sp_fail(sp, "objective.rank", "time_to_target needs a "
		    "target (objective.target, or the workload's)");
	has_last = sp_target_var(s, w, fid, &last) == 0 && last > 0;
	if (!s->stop_given && strcmp(s->algorithm, "auto") == 0 &&
	    s->has_target && s->scaling.nbatch == 0 && has_last) {
		free(s->stopper);
		if ((s->stopper = strdup("target")) == NULL)
			return sp_fail(sp, "search.stopper", "out of memory");
		snprintf(s->stop_why, sizeof(s->stop_why), "target: the "
		    "campaign has a target (%s %s %g) and trials end at %s "
		    "%g, so a trial stops when its curve cannot reach the "
		    "target by then or it is twice as slow as the campaign's "
		    "leader", s->metric, s->maximize ? ">=" : "<=",
		    s->target, w->step_unit_one != NULL ? w->step_unit_one :
		    strcmp(fid, "steps") == 0 ? "step" : "epoch", last);
	}
	if (strcmp(s->stopper, "target") != 0)
		return sp_stop_reach(sp, s);
	s->stop.has_target = s->has_target;
	s->stop.target = s->target;
	if (!s->stop_has_max && has_last)
		s->stop.max_resource = last;
	if (strcmp(fid, "epochs") != 0 ||
	    sp_target_var(s, w, "warmup_epochs", &warm) == -1 || warm < 0)
		warm = 0;
	if (!s->stop_has_grace)
		s->stop.warmup_steps = warm + 3;
	s->stop.leader_steps = warm + 1;
	if (!(s->stop.max_resource > 0))
		return sp_fail(sp, "search.stopper.max_resource", "required "
		    "for target (the %s a trial ends at; fixed.%s does not "
		    "give it)", fid, fid);
	if ((st = stop_new(s->stopper, &s->stop, err, sizeof(err))) == NULL)
		return sp_fail(sp, "search.stopper", "%s", err);
	stop_free(st);
	return 0;
}

/*
 * The last step a trial's point may have (in spec_bind()): with fidelity
 * epochs and a workload that takes {epochs}, the fixed or default epochs,
 * or the most the space gives; SPEC_STEP_MAX otherwise.
 */
double
sp_step_max(const struct campaign_spec *s, const struct workload *w)
{
	const struct param_def	*p;
	double			 v = 0, c;
	char			*end;
	size_t			 i;
	int			 pi;

	if (w->fidelity == NULL || strcmp(w->fidelity, "epochs") != 0 ||
	    !workload_uses(w, "epochs"))
		return SPEC_STEP_MAX;
	if ((pi = space_find(s->space, "epochs")) == -1)
		return sp_target_var(s, w, "epochs", &v) == 0 && v > 0 &&
		    v < SPEC_STEP_MAX ? v : SPEC_STEP_MAX;
	p = &s->space->params[pi];
	if (p->type != PARAM_CHOICE)
		v = p->max;
	for (i = 0; p->type == PARAM_CHOICE && i < p->nchoices; i++) {
		c = p->choices[i].num;
		if (p->choices[i].is_string &&
		    ((c = strtod(p->choices[i].str, &end)) == 0 ||
		    *end != '\0'))
			return SPEC_STEP_MAX;
		v = c > v ? c : v;
	}
	return v > 0 && v < SPEC_STEP_MAX ? v : SPEC_STEP_MAX;
}
