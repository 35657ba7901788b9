/*
 * pilot_slots.c: the free room on each node of a pilot (pilot_slots.h).
 */
#include <stdlib.h>

#include "pilot_slots.h"

struct pslots {
	int	 n, cpus, gpus;		/* nodes, each node's size */
	int	*used_cpus, *used_gpus;	/* n of each */
};

struct pslots *
pslots_new(int n, int cpus, int gpus)
{
	struct pslots	*ps;

	if (n < 1 || (ps = calloc(1, sizeof(*ps))) == NULL)
		return NULL;
	ps->n = n;
	ps->cpus = cpus;
	ps->gpus = gpus;
	ps->used_cpus = calloc((size_t)n, sizeof(int));
	ps->used_gpus = calloc((size_t)n, sizeof(int));
	if (ps->used_cpus == NULL || ps->used_gpus == NULL) {
		pslots_free(ps);
		return NULL;
	}
	return ps;
}

void
pslots_free(struct pslots *ps)
{
	if (ps == NULL)
		return;
	free(ps->used_cpus);
	free(ps->used_gpus);
	free(ps);
}

int
pslots_nodes(const struct pslots *ps)
{
	return ps->n;
}

/* How used node i is, CPUs and GPUs as fractions of its size. */
static double
pslots_load(const struct pslots *ps, int i)
{
	double	 l = 0;

	if (ps->cpus > 0)
		l += (double)ps->used_cpus[i] / ps->cpus;
	if (ps->gpus > 0)
		l += (double)ps->used_gpus[i] / ps->gpus;
	return l;
}

static int
pslots_int_cmp(const void *a, const void *b)
{
	int	 x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
pslots_take(struct pslots *ps, int k, int cpus, int gpus, int first_only,
    int *at)
{
	int	 i, j, best, got;

	if (k < 1 || k > ps->n || (first_only && k > 1))
		return -1;
	for (got = 0; got < k; got++) {
		best = -1;
		for (i = 0; i < (first_only ? 1 : ps->n); i++) {
			for (j = 0; j < got && at[j] != i; j++)
				;
			if (j < got || ps->cpus - ps->used_cpus[i] < cpus ||
			    ps->gpus - ps->used_gpus[i] < gpus)
				continue;
			if (best == -1 || pslots_load(ps, i) <
			    pslots_load(ps, best))
				best = i;
		}
		if (best == -1)
			return -1;
		at[got] = best;
	}
	qsort(at, (size_t)k, sizeof(*at), pslots_int_cmp);
	pslots_hold(ps, k, cpus, gpus, at);
	return 0;
}

void
pslots_hold(struct pslots *ps, int k, int cpus, int gpus, const int *at)
{
	int	 i;

	for (i = 0; i < k; i++)
		if (at[i] >= 0 && at[i] < ps->n) {
			ps->used_cpus[at[i]] += cpus;
			ps->used_gpus[at[i]] += gpus;
		}
}

void
pslots_put(struct pslots *ps, int k, int cpus, int gpus, const int *at)
{
	pslots_hold(ps, k, -cpus, -gpus, at);
}
