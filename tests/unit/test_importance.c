/*
 * test_importance.c: the parameter importance of the report is the
 * first-order variance share (eta squared) of the values by group.
 */
#include <math.h>
#include <stddef.h>

#include "importance.h"
#include "tap.h"

int
main(void)
{
	/* The groups explain everything: values equal within a group. */
	static const double	 all[] = { 1, 1, 5, 5, 9, 9 };
	static const int	 gall[] = { 0, 0, 1, 1, 2, 2 };
	/* Nothing: each group holds the same values. */
	static const double	 none[] = { 1, 3, 1, 3, 1, 3 };
	static const int	 gnone[] = { 0, 0, 1, 1, 2, 2 };
	/*
	 * By hand: mean 2.5, total sum of squares 2.25 + 0.25 + 0.25 +
	 * 2.25 = 5; group means 1.5 and 3.5, between 2 * 1 + 2 * 1 = 4.
	 */
	static const double	 half[] = { 1, 2, 3, 4 };
	static const int	 ghalf[] = { 0, 0, 1, 1 };
	static const double	 flat[] = { 2, 2, 2 };
	static const int	 gflat[] = { 0, 1, 2 };

	is_near(importance_eta2(all, gall, 6), 1, 1e-12, "groups that explain all");
	is_near(importance_eta2(none, gnone, 6), 0, 1e-12,
	    "groups that explain nothing");
	is_near(importance_eta2(half, ghalf, 4), 0.8, 1e-12, "worked by hand: 4/5");
	ok(isnan(importance_eta2(flat, gflat, 3)), "no variance: NAN");
	ok(isnan(importance_eta2(half, ghalf, 2)), "under 3 values: NAN");
	return tap_done();
}
