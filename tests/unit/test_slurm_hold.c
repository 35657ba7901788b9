/*
 * test_slurm_hold: libslurm's teardown waits for the work that holds it
 * (a check's partition query on a worker thread), and comes once.
 */
#include <stdio.h>
#include <string.h>

#include <uv.h>

#include "slurm_int.h"
#include "tap.h"

int
main(void)
{
	struct slurm_hold	 h;

	/* No hold: the teardown is due at once, and only once. */
	memset(&h, 0, sizeof(h));
	is_int(slurm_hold_fini(&h), 1, "no hold: teardown now");
	is_int(slurm_hold_fini(&h), 0, "asked again: not twice");

	/* A hold taken: the teardown waits for its release. */
	memset(&h, 0, sizeof(h));
	slurm_hold_take(&h);
	is_int(slurm_hold_fini(&h), 0, "a query in flight: teardown waits");
	is_int(slurm_hold_drop(&h), 1, "its release: teardown now");
	is_int(slurm_hold_drop(&h), 0, "a stray release: not twice");

	/* Two holds: the last release brings it. */
	memset(&h, 0, sizeof(h));
	slurm_hold_take(&h);
	slurm_hold_take(&h);
	is_int(slurm_hold_fini(&h), 0, "two in flight: waits");
	is_int(slurm_hold_drop(&h), 0, "one left: still waits");
	is_int(slurm_hold_drop(&h), 1, "the last: teardown now");

	/* Holds come and go before the teardown is asked: nothing due. */
	memset(&h, 0, sizeof(h));
	slurm_hold_take(&h);
	is_int(slurm_hold_drop(&h), 0, "not asked: release does nothing");
	is_int(slurm_hold_fini(&h), 1, "asked later: teardown now");

	/* After the teardown, a hold and its release do not repeat it. */
	slurm_hold_take(&h);
	is_int(slurm_hold_drop(&h), 0, "after the teardown: nothing more");
	return tap_done();
}
