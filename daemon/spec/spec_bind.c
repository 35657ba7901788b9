/*
 * spec_bind.c: a parsed campaign spec completed and checked against its
 * workload: the metric, goal and target it declares, the scaling and
 * target keys that follow from it, the values it declares illegal and
 * the parameters its templates use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legal.h"
#include "spec.h"
#include "spec_int.h"

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
