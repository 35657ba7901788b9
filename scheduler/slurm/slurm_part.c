/*
 * slurm_part.c: the limits of the partition `sbatch --test-only` chose for
 * a job.  With EnforcePartLimits=NO (Slurm's default) the controller takes
 * a job over its partition's MaxTime and --test-only says it would start;
 * submitted, it pends for ever (PartitionTimeLimit).  (Node counts outside
 * MinNodes..MaxNodes --test-only refuses itself.)  So once sbatch has said
 * yes, the partition is loaded (libslurm, on a worker thread) and the
 * job's time limit measured against it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>

#include "slurm_int.h"

/* slurm_part_named(): see slurm_int.h. */
int
slurm_part_named(const char *said, char *name, size_t len)
{
	const char	*p = strstr(said, " in partition ");
	size_t		 n;

	if (p == NULL)
		return -1;
	p += strlen(" in partition ");
	n = strcspn(p, " ;\n");
	if (n == 0 || n >= len)
		return -1;
	memcpy(name, p, n);
	name[n] = '\0';
	return 0;
}

/* slurm_part_judge(): see slurm_int.h. */
int
slurm_part_judge(const struct slurm_part_limits *p, long time_limit,
    char *out, size_t len)
{
	long	 minutes = (time_limit + 59) / 60;

	/* No time_limit: Slurm gives the partition's default, within it. */
	if (time_limit > 0 && p->max_time != INFINITE &&
	    p->max_time != NO_VAL && minutes > (long)p->max_time) {
		snprintf(out, len, "time_limit: %ld minute%s is over the "
		    "MaxTime (%u minute%s) of partition '%s': Slurm would "
		    "keep the job pending for ever (PartitionTimeLimit)",
		    minutes, minutes == 1 ? "" : "s", p->max_time,
		    p->max_time == 1 ? "" : "s", p->name);
		return -1;
	}
	return 0;
}

/*
 * Load partition p->name's limits (on a worker thread); 0, or -1 if it
 * cannot be had (then nothing is judged: sbatch's answer stands).
 */
int
slurm_part_load(struct slurm_part_limits *p)
{
	partition_info_msg_t	*msg = NULL;
	uint32_t		 i;
	int			 rc = -1;

	if (slurm_load_partitions(0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return -1;
	for (i = 0; i < msg->record_count; i++) {
		const partition_info_t *pi = &msg->partition_array[i];

		if (pi->name == NULL || strcmp(pi->name, p->name) != 0)
			continue;
		p->max_time = pi->max_time;
		rc = 0;
		break;
	}
	slurm_free_partition_info_msg(msg);
	return rc;
}
