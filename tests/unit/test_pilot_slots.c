/*
 * test_pilot_slots: where a pilot puts its jobs (pilot_slots.h): a k-node
 * job on k nodes with room, one-node jobs spread over the nodes, a job
 * that does not fit waits, room given back is free again.
 */
#include <stdio.h>

#include "pilot_slots.h"
#include "tap.h"

/* A pilot of 2 nodes of 4 CPUs and 2 GPUs. */
static void
test_two_nodes(void)
{
	struct pslots	*ps = pslots_new(2, 4, 2);
	int		 a[2], b[2], c[2];

	ok(ps != NULL && pslots_nodes(ps) == 2, "a pilot of 2 nodes");
	is_int(pslots_take(ps, 2, 2, 1, 0, a), 0, "a 2-node job fits");
	ok(a[0] == 0 && a[1] == 1, "on both nodes, in order");
	is_int(pslots_take(ps, 2, 2, 1, 0, b), 0, "a second one fits beside");
	is_int(pslots_take(ps, 2, 1, 0, 0, c), -1,
	    "a third does not: no CPU left on either node");
	is_int(pslots_take(ps, 1, 1, 0, 0, c), -1,
	    "nor a one-node job");
	pslots_put(ps, 2, 2, 1, a);
	is_int(pslots_take(ps, 1, 2, 1, 0, c), 0,
	    "given back: a one-node job fits");
	pslots_put(ps, 1, 2, 1, c);
	pslots_put(ps, 2, 2, 1, b);
	is_int(pslots_take(ps, 1, 1, 0, 0, a), 0, "one-node job 1");
	is_int(pslots_take(ps, 1, 1, 0, 0, b), 0, "one-node job 2");
	ok(a[0] != b[0], "two one-node jobs go on different nodes");
	is_int(pslots_take(ps, 2, 3, 0, 0, c), 0,
	    "a 2-node job of 3 CPUs a node still fits beside them");
	is_int(pslots_take(ps, 1, 1, 0, 0, c), -1, "then all CPUs are used");
	pslots_free(ps);
}

/* A job kept to the first node, a fuller node passed over, GPUs counted. */
static void
test_placement(void)
{
	struct pslots	*ps = pslots_new(3, 4, 4);
	int		 a[3], b[3];

	is_int(pslots_take(ps, 1, 1, 0, 1, a), 0, "first node only: fits");
	is_int(a[0], 0, "on node 0");
	is_int(pslots_take(ps, 1, 1, 0, 1, b), 0, "again");
	is_int(b[0], 0, "on node 0 again, though others are idle");
	is_int(pslots_take(ps, 2, 1, 0, 1, b), -1,
	    "a 2-node job cannot keep to one node");
	is_int(pslots_take(ps, 2, 1, 4, 0, b), 0,
	    "a 2-node job of 4 GPUs a node");
	ok(b[0] == 1 && b[1] == 2, "on the least used nodes, not node 0");
	is_int(pslots_take(ps, 1, 0, 1, 0, a), 0, "a one-node GPU job");
	is_int(a[0], 0, "on the one node with GPUs left");
	is_int(pslots_take(ps, 4, 1, 0, 0, b), -1, "4 nodes of 3: never");
	pslots_free(ps);
	ok(pslots_new(0, 1, 1) == NULL, "a pilot of no node: refused");
}

int
main(void)
{
	test_two_nodes();
	test_placement();
	return tap_done();
}
