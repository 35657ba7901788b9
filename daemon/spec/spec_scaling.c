/*
 * spec_scaling.c: the "batch_sizes" and "scaling" members of a campaign
 * spec, and what follows from them: the learning-rate transfer rule and the
 * resources of a trial at a given batch size.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

static const char *const scaling_keys[] = { "lr_rule", "lr_param",
	"trials_per_batch", "seeds", "min_successes", "local_batch", NULL };

/* The name of a rule. */
const char *
spec_lr_rule_name(enum lr_rule r)
{
	switch (r) {
	case LR_RULE_LINEAR:
		return "linear";
	case LR_RULE_SQRT:
		return "sqrt";
	default:
		return "none";
	}
}

/* Scale a learning rate from one batch size to another. */
double
spec_lr_transfer(const struct campaign_spec *s, double lr, long from, long to)
{
	double	 k = from > 0 ? (double)to / (double)from : 1;

	switch (s->scaling.lr_rule) {
	case LR_RULE_LINEAR:
		return lr * k;
	case LR_RULE_SQRT:
		return lr * sqrt(k);
	default:
		return lr;
	}
}

/* Resources at a batch size. */
int
spec_resources_for(const struct campaign_spec *s, long batch,
    struct spec_resources *r, char *err, size_t errlen)
{
	long	 ranks, rpn;

	*r = s->res;
	if (s->scaling.local_batch <= 0)
		return 0;
	rpn = r->gpus_per_node > 0 ? r->gpus_per_node : r->tasks_per_node;
	ranks = batch / s->scaling.local_batch;
	if (batch % s->scaling.local_batch != 0 || ranks < 1) {
		snprintf(err, errlen, "batch size %ld is not a multiple of "
		    "scaling.local_batch %ld", batch, s->scaling.local_batch);
		return -1;
	}
	if (ranks <= rpn) {
		r->nodes = 1;
		if (r->gpus_per_node > 0)
			r->gpus_per_node = (int)ranks;
		else
			r->tasks_per_node = (int)ranks;
		return 0;
	}
	if (ranks % rpn != 0 || ranks / rpn > 100000) {
		snprintf(err, errlen, "batch size %ld needs %ld ranks, which do "
		    "not fill whole nodes of %ld", batch, ranks, rpn);
		return -1;
	}
	r->nodes = (int)(ranks / rpn);
	return 0;
}

/* Compare batch sizes for qsort(). */
static int
sp_cmp_long(const void *a, const void *b)
{
	long	 x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Parse "batch_sizes": distinct positive integers, kept ascending. */
static int
sp_batch_sizes(struct sp *sp, struct spec_scaling *sc, const cJSON *a)
{
	const cJSON	*v;
	char		 k[64];
	size_t		 i = 0;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1)
		return sp_fail(sp, "batch_sizes", "expected a non-empty array "
		    "of global batch sizes, got %s", sp_type(a));
	sc->nbatch = (size_t)cJSON_GetArraySize(a);
	if ((sc->batch_sizes = calloc(sc->nbatch, sizeof(long))) == NULL)
		return sp_fail(sp, "batch_sizes", "out of memory");
	cJSON_ArrayForEach(v, a) {
		snprintf(k, sizeof(k), "batch_sizes[%zu]", i);
		if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble)
		    || v->valuedouble < 1 || v->valuedouble > 1e9)
			return sp_fail(sp, k, "expected an integer in [1, 1e9]");
		sc->batch_sizes[i++] = (long)v->valuedouble;
	}
	qsort(sc->batch_sizes, sc->nbatch, sizeof(long), sp_cmp_long);
	for (i = 1; i < sc->nbatch; i++)
		if (sc->batch_sizes[i] == sc->batch_sizes[i - 1])
			return sp_fail(sp, "batch_sizes", "%ld is listed twice",
			    sc->batch_sizes[i]);
	/* Where each one is in the file, for messages naming its key. */
	if ((sc->batch_pos = calloc(sc->nbatch, sizeof(size_t))) == NULL)
		return sp_fail(sp, "batch_sizes", "out of memory");
	for (i = 0; i < sc->nbatch; i++)
		while ((long)cJSON_GetArrayItem(a, (int)sc->batch_pos[i])->
		    valuedouble != sc->batch_sizes[i])
			sc->batch_pos[i]++;
	return 0;
}

/* Parse the learning-rate rule and check its parameter. */
static int
sp_lr_rule(struct sp *sp, struct campaign_spec *s, const cJSON *o)
{
	struct spec_scaling	*sc = &s->scaling;
	char			*rule = NULL;
	int			 i, rc = -1;

	if (sp_string(sp, o, "lr_rule", "scaling", 1, NULL, &rule) == -1 ||
	    sp_string(sp, o, "lr_param", "scaling", 0, "lr", &sc->lr_param) ==
	    -1)
		goto out;
	if (strcmp(rule, "linear") == 0)
		sc->lr_rule = LR_RULE_LINEAR;
	else if (strcmp(rule, "sqrt") == 0)
		sc->lr_rule = LR_RULE_SQRT;
	else if (strcmp(rule, "none") == 0)
		sc->lr_rule = LR_RULE_NONE;
	else {
		sp_fail(sp, "scaling.lr_rule", "expected \"linear\", \"sqrt\" "
		    "or \"none\", got \"%s\"", rule);
		goto out;
	}
	i = space_find(s->space, sc->lr_param);
	if (sc->lr_rule != LR_RULE_NONE && (i == -1 ||
	    s->space->params[i].type != PARAM_FLOAT)) {
		sp_fail(sp, "scaling.lr_param", "'%s' is not a float parameter "
		    "of the space (the %s rule scales it)", sc->lr_param, rule);
		goto out;
	}
	rc = 0;
out:
	free(rule);
	return rc;
}

/* Parse the budget split and the confirmation runs. */
static int
sp_scaling_budget(struct sp *sp, struct campaign_spec *s, const cJSON *o)
{
	struct spec_scaling	*sc = &s->scaling;
	long			 n, nb = (long)sc->nbatch, def;

	if (sp_int(sp, o, "seeds", "scaling", 0, 1, 100, 5, &n) == -1)
		return -1;
	sc->seeds = (int)n;
	if (sp_int(sp, o, "min_successes", "scaling", 0, 1, sc->seeds,
	    (sc->seeds * 4 + 4) / 5, &n) == -1)
		return -1;
	sc->min_successes = (int)n;
	def = s->max_trials / nb - sc->seeds;
	if (sp_int(sp, o, "trials_per_batch", "scaling", 0, 1, 1000000,
	    def > 0 ? def : 1, &n) == -1)
		return -1;
	sc->trials_per_batch = (int)n;
	if (nb * (sc->trials_per_batch + sc->seeds) > s->max_trials)
		return sp_fail(sp, "budget.max_trials", "%d is too few for %ld "
		    "batch sizes x (%d tuning trials + %d confirmation runs) = "
		    "%ld", s->max_trials, nb, sc->trials_per_batch, sc->seeds,
		    nb * (sc->trials_per_batch + sc->seeds));
	return 0;
}

/* Parse "batch_sizes" and "scaling". */
int
sp_scaling(struct sp *sp, struct campaign_spec *s, const cJSON *root)
{
	struct spec_scaling	*sc = &s->scaling;
	struct spec_resources	 r;
	const cJSON		*a, *o;
	char			 err[256];
	size_t			 i;

	a = cJSON_GetObjectItemCaseSensitive(root, "batch_sizes");
	if (sp_object(sp, root, "scaling", "", a != NULL, &o) == -1)
		return -1;
	if (a == NULL) {
		if (o != NULL)
			return sp_fail(sp, "scaling", "only with batch_sizes");
		return 0;
	}
	if (sp_batch_sizes(sp, sc, a) == -1 ||
	    sp_keys(sp, o, "scaling", scaling_keys) == -1 ||
	    sp_lr_rule(sp, s, o) == -1 || sp_scaling_budget(sp, s, o) == -1 ||
	    sp_int(sp, o, "local_batch", "scaling", 0, 1, 1000000000, 0,
	    &sc->local_batch) == -1)
		return -1;
	if (s->stop_on_target)
		return sp_fail(sp, "budget.stop_on_target", "not with "
		    "batch_sizes: every batch size is tuned and confirmed");
	if (space_find(s->space, "seed") != -1)
		return sp_fail(sp, "space.seed", "a scaling campaign chooses "
		    "the seeds of its confirmation runs itself");
	for (i = 0; i < sc->nbatch; i++)
		if (spec_resources_for(s, sc->batch_sizes[i], &r, err,
		    sizeof(err)) == -1)
			return sp_fail(sp, "scaling.local_batch", "%s", err);
	return 0;
}

/* Add the batch parameter to the space, as a choice of the batch sizes. */
int
sp_scaling_bind(struct sp *sp, struct campaign_spec *s,
    const struct workload *w)
{
	struct spec_scaling	*sc = &s->scaling;
	struct spec_resources	 r;
	struct value		*v;
	const char		*name;
	char			 err[256];
	size_t			 i;
	int			 rc;

	if (sc->nbatch == 0 || sc->batch_param != NULL)
		return 0;
	name = w->batch_global != NULL ? w->batch_global : "batch_size";
	if (space_find(s->space, name) != -1)
		return sp_fail(sp, "space", "%s: set by batch_sizes in a "
		    "scaling campaign", name);
	for (i = 0; i < s->nfixed; i++)
		if (strcmp(s->fixed[i].name, name) == 0)
			return sp_fail(sp, "fixed", "%s: set by batch_sizes in "
			    "a scaling campaign", name);
	if (w->batch_global == NULL && !workload_uses(w, name))
		return sp_fail(sp, "batch_sizes", "workload '%s' (%s) has no "
		    "batch size: neither batch.global nor a {batch_size} "
		    "placeholder", w->name, w->path);
	for (i = 0; i < sc->nbatch; i++)
		if (strcmp(s->backend, "local") == 0 &&
		    spec_resources_for(s, sc->batch_sizes[i], &r, err,
		    sizeof(err)) == 0 && r.nodes != 1)
			return sp_fail(sp, "scaling.local_batch", "batch size "
			    "%ld needs %d nodes; the local backend runs "
			    "single-node trials", sc->batch_sizes[i], r.nodes);
	if ((v = calloc(sc->nbatch, sizeof(*v))) == NULL)
		return sp_fail(sp, "batch_sizes", "out of memory");
	for (i = 0; i < sc->nbatch; i++)
		v[i].num = (double)sc->batch_sizes[i];
	errno = 0;
	rc = space_add_choice(s->space, name, v, sc->nbatch);
	free(v);
	if (rc == -1)
		return sp_fail(sp, "batch_sizes", errno == ENOMEM ? "out of "
		    "memory" : "cannot add %s to the space", name);
	if ((sc->batch_param = strdup(name)) == NULL)
		return sp_fail(sp, "batch_sizes", "out of memory");
	return 0;
}
