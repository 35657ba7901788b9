/*
 * legal.c: checking a campaign's space and fixed values against its
 * workload's tunable parameters and batch split.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invoke.h"
#include "legal.h"

/* Say that a value under key is not legal and return -1. */
static int
legal_fail(const struct campaign_spec *s, const struct workload *w,
    const char *key, const char *value, const char *why, char *err,
    size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s is not legal for workload '%s' "
	    "(%s): %s", s->path, key, value, w->name, w->path, why);
	return -1;
}

/* The names of the tunable parameters, for a message. */
static void
legal_names(const struct workload *w, char *buf, size_t len)
{
	size_t	 i, n;

	buf[0] = '\0';
	for (i = 0; i < w->ntunable; i++) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
		    w->tunable[i].name);
	}
}

/* Check one searched parameter against its legal values. */
static int
legal_param(const struct campaign_spec *s, const struct workload *w,
    const struct param_def *p, char *err, size_t errlen)
{
	const struct workload_tunable *t = workload_tunable_find(w, p->name);
	char		 key[128], why[256], num[64], names[512];
	size_t		 i;

	if (t == NULL) {
		legal_names(w, names, sizeof(names));
		snprintf(err, errlen, "%s: space.%s: not tunable in workload "
		    "'%s' (%s); tunable: %s", s->path, p->name, w->name,
		    w->path, names);
		return -1;
	}
	if (p->type == PARAM_CHOICE) {
		for (i = 0; i < p->nchoices; i++) {
			const struct value *v = &p->choices[i];

			if (workload_legal(t, v->is_string, v->num, v->str, why,
			    sizeof(why)))
				continue;
			snprintf(key, sizeof(key), "space.%s.values[%zu]",
			    p->name, i);
			if (!v->is_string)
				space_shortest(v->num, num, sizeof(num));
			return legal_fail(s, w, key, v->is_string ? v->str :
			    num, why, err, errlen);
		}
		return 0;
	}
	if (t->values != NULL || (t->integer && p->type == PARAM_FLOAT)) {
		snprintf(err, errlen, "%s: space.%s: workload '%s' (%s) takes "
		    "%s; use a choice%s", s->path, p->name, w->name, w->path,
		    t->values ? "only listed values" : "whole numbers",
		    t->values ? "" : " or an int");
		return -1;
	}
	snprintf(key, sizeof(key), "space.%s.min", p->name);
	if (!workload_legal(t, 0, p->min, NULL, why, sizeof(why))) {
		space_shortest(p->min, num, sizeof(num));
		return legal_fail(s, w, key, num, why, err, errlen);
	}
	snprintf(key, sizeof(key), "space.%s.max", p->name);
	if (!workload_legal(t, 0, p->max, NULL, why, sizeof(why))) {
		space_shortest(p->max, num, sizeof(num));
		return legal_fail(s, w, key, num, why, err, errlen);
	}
	return 0;
}

/* Check a fixed value of a tunable parameter. */
static int
legal_fixed(const struct campaign_spec *s, const struct workload *w,
    const struct workload_var *f, char *err, size_t errlen)
{
	const struct workload_tunable *t = workload_tunable_find(w, f->name);
	char		 key[128], why[256], *end;
	double		 v;

	if (t == NULL)
		return 0;
	v = strtod(f->value, &end);
	if (workload_legal(t, *f->value == '\0' || *end != '\0', v, f->value,
	    why, sizeof(why)))
		return 0;
	snprintf(key, sizeof(key), "fixed.%s", f->name);
	return legal_fail(s, w, key, f->value, why, err, errlen);
}

/*
 * The campaign's target reaches the program as {target}: check it as a
 * value of the tunable parameter "target" when the workload has one.
 */
static int
legal_target(const struct campaign_spec *s, const struct workload *w,
    char *err, size_t errlen)
{
	const struct workload_tunable *t = workload_tunable_find(w, "target");
	char		 why[256], num[64];

	if (t == NULL || !s->has_target || !workload_uses(w, "target") ||
	    workload_legal(t, 0, s->target, NULL, why, sizeof(why)))
		return 0;
	space_shortest(s->target, num, sizeof(num));
	return legal_fail(s, w, "objective.target", num, why, err, errlen);
}

/* Does a global batch size (text) divide evenly by the ranks? */
static int
legal_divides(const char *v, int ranks)
{
	char	*end;
	long	 n = strtol(v, &end, 10);

	return *v != '\0' && *end == '\0' && n > 0 && n % ranks == 0;
}

/* Check that every global batch size the campaign can give divides. */
static int
legal_batch(const struct campaign_spec *s, const struct workload *w,
    char *err, size_t errlen)
{
	const struct param_def	*p;
	char			 why[128], key[128], num[64];
	size_t			 i;
	int			 pi, ranks = invoke_ranks(&s->res);

	snprintf(why, sizeof(why), "a global batch size must divide evenly "
	    "by the %d ranks (%d nodes x %d)", ranks, s->res.nodes,
	    invoke_ranks_per_node(&s->res));
	if ((pi = space_find(s->space, w->batch_global)) != -1) {
		p = &s->space->params[pi];
		if (p->type != PARAM_CHOICE) {
			snprintf(err, errlen, "%s: space.%s: %s; make it a "
			    "choice of such values", s->path, p->name, why);
			return -1;
		}
		for (i = 0; i < p->nchoices; i++) {
			if (p->choices[i].is_string)
				snprintf(num, sizeof(num), "%s",
				    p->choices[i].str);
			else
				space_shortest(p->choices[i].num, num,
				    sizeof(num));
			if (legal_divides(num, ranks))
				continue;
			snprintf(key, sizeof(key), "space.%s.values[%zu]",
			    p->name, i);
			return legal_fail(s, w, key, num, why, err, errlen);
		}
		return 0;
	}
	for (i = 0; i < s->nfixed; i++)
		if (strcmp(s->fixed[i].name, w->batch_global) == 0) {
			if (legal_divides(s->fixed[i].value, ranks))
				return 0;
			snprintf(key, sizeof(key), "fixed.%s", w->batch_global);
			return legal_fail(s, w, key, s->fixed[i].value, why,
			    err, errlen);
		}
	for (i = 0; i < w->ndefaults; i++)
		if (strcmp(w->defaults[i].name, w->batch_global) == 0) {
			if (legal_divides(w->defaults[i].value, ranks))
				return 0;
			snprintf(err, errlen, "%s: resources: the default %s %s "
			    "of workload '%s' (%s) does not fit: %s; set it in "
			    "fixed", s->path, w->batch_global,
			    w->defaults[i].value, w->name, w->path, why);
			return -1;
		}
	snprintf(err, errlen, "%s: fixed.%s: required: workload '%s' (%s) "
	    "splits it over the ranks and has no default", s->path,
	    w->batch_global, w->name, w->path);
	return -1;
}

/* Check a campaign against its workload's limits. */
int
legal_check(const struct campaign_spec *s, const struct workload *w,
    char *err, size_t errlen)
{
	size_t	 i;

	for (i = 0; w->has_tunable && i < s->space->n; i++)
		if (legal_param(s, w, &s->space->params[i], err, errlen) == -1)
			return -1;
	for (i = 0; w->has_tunable && i < s->nfixed; i++)
		if (legal_fixed(s, w, &s->fixed[i], err, errlen) == -1)
			return -1;
	if (w->has_tunable && legal_target(s, w, err, errlen) == -1)
		return -1;
	if (w->batch_global != NULL && legal_batch(s, w, err, errlen) == -1)
		return -1;
	return legal_pairs(s, w, err, errlen);
}
