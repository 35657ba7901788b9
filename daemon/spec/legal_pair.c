/*
 * legal_pair.c: a campaign against its workload's constraints between two
 * parameters (batch_size <= train_samples).  Each side takes its values
 * from the space (a range, a choice, or a scaling campaign's batch sizes),
 * a fixed value or the workload's default; a pair of the campaign's that
 * breaks a constraint is refused, and so is a space that can draw one,
 * since such a trial would fail whatever its other parameters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legal.h"

/* The values one side of a constraint can take in a campaign. */
struct pair_side {
	int	 has;		/* a numeric value is known */
	int	 drawn;		/* from the space */
	int	 campaign;	/* set by the campaign, not a default */
	double	 lo, hi;
	char	 lokey[128], hikey[128];	/* where lo and hi are set */
};

/* Widen side with v, set at key. */
static void
pair_take(struct pair_side *sd, double v, const char *key)
{
	if (!sd->has || v < sd->lo) {
		sd->lo = v;
		snprintf(sd->lokey, sizeof(sd->lokey), "%s", key);
	}
	if (!sd->has || v > sd->hi) {
		sd->hi = v;
		snprintf(sd->hikey, sizeof(sd->hikey), "%s", key);
	}
	sd->has = 1;
}

/* The values of a searched parameter (p), by the keys that set them. */
static void
pair_space(const struct campaign_spec *s, const struct param_def *p,
    struct pair_side *sd)
{
	char	 key[128];
	size_t	 i;
	int	 scaled = s->scaling.batch_param != NULL &&
		    strcmp(s->scaling.batch_param, p->name) == 0;

	sd->drawn = sd->campaign = 1;
	if (p->type != PARAM_CHOICE) {
		snprintf(key, sizeof(key), "space.%s.min", p->name);
		pair_take(sd, p->min, key);
		snprintf(key, sizeof(key), "space.%s.max", p->name);
		pair_take(sd, p->max, key);
		return;
	}
	for (i = 0; i < p->nchoices; i++) {
		if (p->choices[i].is_string)
			continue;
		if (scaled)
			snprintf(key, sizeof(key), "batch_sizes[%zu]", i);
		else
			snprintf(key, sizeof(key), "space.%s.values[%zu]",
			    p->name, i);
		pair_take(sd, p->choices[i].num, key);
	}
}

/* Take a value given as text, when it is a number. */
static void
pair_text(struct pair_side *sd, const char *value, const char *key)
{
	char	*end;
	double	 v = strtod(value, &end);

	if (*value != '\0' && *end == '\0')
		pair_take(sd, v, key);
}

/* The values parameter name can take in the campaign. */
static void
pair_side_find(const struct campaign_spec *s, const struct workload *w,
    const char *name, struct pair_side *sd)
{
	char	 key[128];
	size_t	 i;
	int	 pi;

	memset(sd, 0, sizeof(*sd));
	if ((pi = space_find(s->space, name)) != -1) {
		pair_space(s, &s->space->params[pi], sd);
		return;
	}
	for (i = 0; i < s->nfixed; i++)
		if (strcmp(s->fixed[i].name, name) == 0) {
			sd->campaign = 1;
			snprintf(key, sizeof(key), "fixed.%s", name);
			pair_text(sd, s->fixed[i].value, key);
			return;
		}
	for (i = 0; i < w->ndefaults; i++)
		if (strcmp(w->defaults[i].name, name) == 0) {
			snprintf(key, sizeof(key), "the workload's default");
			pair_text(sd, w->defaults[i].value, key);
			return;
		}
}

/* Check constraint i of the workload. */
static int
pair_check(const struct campaign_spec *s, const struct workload *w,
    size_t i, char *err, size_t errlen)
{
	const struct workload_constraint *c = &w->constraints[i];
	struct pair_side a, b;
	const struct pair_side *blame, *other;
	const char	*oname, *bkey, *okey;
	double		 va, vb;
	char		 rule[256], why[768], vnum[64], onum[64];
	int		 up = workload_constraint_upper(c), on_a, high;

	pair_side_find(s, w, c->a, &a);
	pair_side_find(s, w, c->b, &b);
	if (!a.has || !b.has || (!a.campaign && !b.campaign))
		return 0;
	/* The worst pair: a at its largest and b at its smallest for <=. */
	va = up ? a.hi : a.lo;
	vb = up ? b.lo : b.hi;
	if (workload_constraint_holds(c, va, vb))
		return 0;
	/*
	 * Blame the side the campaign draws, else the one it sets, at its
	 * worst end: a's upper one (b's lower one) for <=, the other's
	 * opposite end beside it.
	 */
	on_a = a.drawn || (a.campaign && !b.drawn);
	blame = on_a ? &a : &b;
	other = on_a ? &b : &a;
	oname = on_a ? c->b : c->a;
	high = on_a ? up : !up;
	bkey = high ? blame->hikey : blame->lokey;
	okey = high ? other->lokey : other->hikey;
	space_shortest(on_a ? va : vb, vnum, sizeof(vnum));
	space_shortest(on_a ? vb : va, onum, sizeof(onum));
	workload_constraint_text(c, rule, sizeof(rule));
	snprintf(why, sizeof(why), "with %s %s (%s) it breaks "
	    "constraints[%zu], %s%s", oname, onum, okey, i, rule,
	    blame->drawn || other->drawn ? "; the space can draw such a "
	    "pair, and every trial of it would fail" : "");
	snprintf(err, errlen, "%s: %s: %s is not legal for workload '%s' "
	    "(%s): %s", s->path, bkey, vnum, w->name, w->path, why);
	return -1;
}

/* Check the campaign against every constraint of its workload. */
int
legal_pairs(const struct campaign_spec *s, const struct workload *w,
    char *err, size_t errlen)
{
	size_t	 i;

	for (i = 0; i < w->nconstraints; i++)
		if (pair_check(s, w, i, err, errlen) == -1)
			return -1;
	return 0;
}
