/*
 * pilot_slots.h: the free CPUs and GPUs on each node of a pilot, and
 * where a job of k nodes goes: the k nodes with room for its CPUs and
 * GPUs on each, the least used first (ties: the lowest index), so that
 * one-node jobs spread over the nodes and each node keeps room.
 */
#ifndef HPOD_PILOT_SLOTS_H
#define HPOD_PILOT_SLOTS_H

struct pslots;

/* A pilot of n nodes of cpus CPUs and gpus GPUs each; NULL: no memory. */
struct pslots	*pslots_new(int n, int cpus, int gpus);
void		 pslots_free(struct pslots *);
int		 pslots_nodes(const struct pslots *);
/*
 * Take cpus and gpus on each of k nodes (only node 0 when first_only):
 * their indices into at[k], ascending.  Return 0, or -1 (nothing taken)
 * when not k nodes have that room now.
 */
int		 pslots_take(struct pslots *, int k, int cpus, int gpus,
		    int first_only, int *at);
/* Give back what pslots_take() took on the k nodes at[]. */
void		 pslots_put(struct pslots *, int k, int cpus, int gpus,
		    const int *at);
/*
 * Take what a job taken back after a restart holds on the nodes at[]
 * (its room may no longer be free: counted all the same).
 */
void		 pslots_hold(struct pslots *, int k, int cpus, int gpus,
		    const int *at);

#endif
