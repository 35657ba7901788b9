/*
 * test_search_tpe_same.c: TPE's suggestions over histories of 12 to
 * 3,000 trials (log, linear, integer and choice parameters; running and
 * failed trials; many tied values and points) are, to the last bit, those
 * the code gave before its n log n rewrite (recorded from commit 49aff67,
 * where the Parzen centres were insertion-sorted and every kernel's
 * normalising term recomputed per candidate).  A faster TPE must be the
 * same TPE: a campaign's suggestions, and so its restart equivalence and
 * its bench-search figures, must not move.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "search.h"
#include "space.h"
#include "space_kinds.h"
#include "tap.h"

static const char *const expected[] = {
	"12 0 0: 0.0022178134749803965 0 0.91477853423033451 6 14",
	"12 0 1: 0.019682456230727868 1 0.87473636776431118 7 24",
	"12 0 2: 0.0012818328557388078 1 0.91772343319217864 8 40",
	"12 1 0: 0.0022178134749803965 0 0.91477853423033451 6 14",
	"12 1 1: 0.019682456230727868 1 0.87473636776431118 7 24",
	"12 1 2: 0.0012818328557388078 1 0.91772343319217864 8 40",
	"30 0 0: 0.0074298389960506597 1 0.85022774809979784 2 77",
	"30 0 1: 0.0084256741166150034 1 0.85250100874072554 3 78",
	"30 0 2: 0.0076038184985623017 1 0.85372573485184344 3 70",
	"30 1 0: 0.018259506819123889 1 0.88172240160746496 4 377",
	"30 1 1: 0.015591043357305608 1 0.88072181330877741 4 371",
	"30 1 2: 0.013044655004457707 1 0.8810760190740563 4 428",
	"100 0 0: 0.0086100345513154455 2 0.94981271546739643 3 353",
	"100 0 1: 0.0084730230586236143 2 0.89456573683129026 3 341",
	"100 0 2: 0.0084689029388898846 2 0.94930021372647977 3 353",
	"100 1 0: 0.0086100345513154455 0 0.9066272768799869 8 250",
	"100 1 1: 0.0074075853932658031 0 0.89324658058941397 8 267",
	"100 1 2: 0.007645105883177265 0 0.89288139014111734 8 271",
	"333 0 0: 0.010126171431577367 1 0.94024989285923721 1 190",
	"333 0 1: 0.0095711352104641424 1 0.93895825890923146 1 157",
	"333 0 2: 0.0098620997332385437 1 0.94143720820059107 1 164",
	"333 1 0: 0.0065222910094682182 0 0.90467132770389702 8 8",
	"333 1 1: 0.006255533488186445 0 0.9047804107587395 8 13",
	"333 1 2: 0.007382142232395617 0 0.89527196612082804 8 14",
	"1000 0 0: 0.011142558592346828 1 0.86883174578847056 7 24",
	"1000 0 1: 0.011180046853468998 1 0.86870705779590107 7 25",
	"1000 0 2: 0.011439457722501585 1 0.91409463288881654 7 25",
	"1000 1 0: 0.0061135210117842977 1 0.90510716887136777 6 12",
	"1000 1 1: 0.0063647883257238304 1 0.89532583372264085 6 12",
	"1000 1 2: 0.0061530761263540621 1 0.89484680495657187 6 12",
	"3000 0 0: 0.010254342807051991 0 0.90931915034903887 5 13",
	"3000 0 1: 0.010166715294998376 0 0.90968650787328875 5 13",
	"3000 0 2: 0.010501207991450604 0 0.9456424928630085 5 13",
	"3000 1 0: 0.006352185331775468 0 0.90514858503444229 9 8",
	"3000 1 1: 0.0063955153065771092 0 0.89418377501328639 9 8",
	"3000 1 2: 0.0063187801153812527 0 0.90508380913462461 9 67"
};

/* Fill n observations, with ties (repeated points and values) or not. */
static void
history_make(struct observation *obs, double *xs, size_t n, int si, int ties)
{
	struct rng r;
	size_t i;
	double *x;

	rng_seed(&r, 7 + (uint64_t)si, (uint64_t)ties);
	for (i = 0; i < n; i++) {
		x = &xs[5 * i];
		x[0] = ties ? 0.001 * (double)(1 + rng_next(&r) % 5) :
		    exp(log(0.001) + rng_uniform(&r) * log(200));
		x[1] = (double)(rng_next(&r) % 3);
		x[2] = ties ? 0.9 : 0.85 + 0.1 * rng_uniform(&r);
		x[3] = (double)(1 + rng_next(&r) % 9);
		x[4] = round(exp(log(8) + rng_uniform(&r) * log(64)));
		obs[i].x = x;
		obs[i].state = i % 11 == 5 ? OBS_FAILED : i % 7 == 3 ?
		    OBS_RUNNING : OBS_COMPLETE;
		obs[i].has_value = 1;
		obs[i].value = fabs(log(x[0] / 0.01)) + 0.1 * x[1] +
		    (ties ? (double)(i % 4) : rng_uniform(&r));
	}
}

int
main(void)
{
	const size_t ns[] = { 12, 30, 100, 333, 1000, 3000 };
	struct observation *obs;
	struct search *s;
	struct history h;
	struct space *sp;
	double *xs, out[5];
	char got[512];
	size_t e = 0;
	int si, ties, seed, same = 0;

	sp = space_kinds_new();
	for (si = 0; si < 6; si++)
		for (ties = 0; ties < 2; ties++) {
			xs = calloc(ns[si] * 5, sizeof(*xs));
			obs = calloc(ns[si], sizeof(*obs));
			if (xs == NULL || obs == NULL)
				return 1;
			history_make(obs, xs, ns[si], si, ties);
			h.n = ns[si];
			h.obs = obs;
			h.maximize = 0;
			for (seed = 0; seed < 3; seed++) {
				s = search_new("tpe", sp, (uint64_t)seed, NULL,
				    0);
				search_suggest(s, &h, out);
				snprintf(got, sizeof(got), "%zu %d %d: %.17g "
				    "%.17g %.17g %.17g %.17g", ns[si], ties,
				    seed, out[0], out[1], out[2], out[3],
				    out[4]);
				if (e < sizeof(expected) / sizeof(*expected) &&
				    strcmp(got, expected[e]) == 0)
					same++;
				else
					printf("# got      %s\n# expected %s\n",
					    got, e < sizeof(expected) /
					    sizeof(*expected) ? expected[e] :
					    "nothing");
				e++;
				search_free(s);
			}
			free(xs);
			free(obs);
		}
	is_int(same, (int)(sizeof(expected) / sizeof(*expected)),
	    "every suggestion is the one recorded before the rewrite");
	space_free(sp);
	return tap_done();
}
