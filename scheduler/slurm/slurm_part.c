/*
 * slurm_part.c: the limits of the partition `sbatch --test-only` chose for
 * a job.  With EnforcePartLimits=NO (Slurm's default) the controller takes
 * a job over its partition's MaxTime or MaxMemPerNode and --test-only says
 * it would start; submitted, it pends for ever (PartitionTimeLimit,
 * MaxMemPerLimit).  (Node counts outside
 * MinNodes..MaxNodes --test-only refuses itself.)  So once sbatch has said
 * yes, the partitions are loaded (libslurm, on a worker thread) and the
 * job's time limit and memory measured against those it names (it runs
 * in any of them), or the default one sbatch chose.
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

/*
 * What job j asks of its partition: its time limit, and its memory per
 * node, from whichever of mem, mem_per_cpu and mem_per_gpu gives it.
 */
void
slurm_part_ask_init(struct slurm_part_ask *a, const struct sched_job *j)
{
	const struct sched_slurm_extra *x = &j->extra;
	int	 cpus;

	memset(a, 0, sizeof(*a));
	a->time_limit = j->time_limit;
	a->mem_key = "mem";
	if (x->mem_mb > 0)
		a->mem_mb = x->mem_mb;
	else if (x->mem_per_cpu_mb > 0) {
		/* With cpus_per_gpu, the CPUs follow the GPUs. */
		cpus = x->cpus_per_gpu > 0 ? x->cpus_per_gpu *
		    j->gpus_per_node : j->cpus_per_task * j->tasks_per_node;
		a->mem_key = "mem_per_cpu";
		a->mem_each = x->mem_per_cpu_mb;
		a->mem_count = cpus;
		a->mem_mb = x->mem_per_cpu_mb * (uint64_t)cpus;
	} else if (x->mem_per_gpu_mb > 0 && j->gpus_per_node > 0) {
		a->mem_key = "mem_per_gpu";
		a->mem_each = x->mem_per_gpu_mb;
		a->mem_count = j->gpus_per_node;
		a->mem_mb = x->mem_per_gpu_mb * (uint64_t)j->gpus_per_node;
	}
}

/* slurm_part_judge(): see slurm_int.h. */
int
slurm_part_judge(const struct slurm_part_limits *p,
    const struct slurm_part_ask *a, char *out, size_t len)
{
	long	 minutes = (a->time_limit + 59) / 60;
	char	 each[96];

	/* No time_limit: Slurm gives the partition's default, within it. */
	if (a->time_limit > 0 && p->max_time != INFINITE &&
	    p->max_time != NO_VAL && minutes > (long)p->max_time) {
		snprintf(out, len, "time_limit: %ld minute%s is over the "
		    "MaxTime (%u minute%s) of partition '%s': Slurm would "
		    "keep the job pending for ever (PartitionTimeLimit)",
		    minutes, minutes == 1 ? "" : "s", p->max_time,
		    p->max_time == 1 ? "" : "s", p->name);
		return -1;
	}
	/*
	 * Memory per node over MaxMemPerNode.  (Over MaxMemPerCPU, Slurm
	 * gives the job more CPUs instead.)
	 */
	if (a->mem_mb > 0 && p->max_mem != 0 &&
	    (p->max_mem & MEM_PER_CPU) == 0 && a->mem_mb > p->max_mem) {
		if (a->mem_count > 0)
			snprintf(each, sizeof(each), " x %d %s per node = "
			    "%llu MB", a->mem_count, strcmp(a->mem_key,
			    "mem_per_gpu") == 0 ? "GPUs" : "CPUs",
			    (unsigned long long)a->mem_mb);
		else
			each[0] = '\0';
		snprintf(out, len, "%s: %llu MB%s is over the MaxMemPerNode "
		    "(%llu MB) of partition '%s': Slurm would keep the job "
		    "pending for ever (MaxMemPerLimit)", a->mem_key,
		    (unsigned long long)(a->mem_count > 0 ? a->mem_each :
		    a->mem_mb), each, (unsigned long long)p->max_mem,
		    p->name);
		return -1;
	}
	return 0;
}

/* The partition named name in msg, or NULL. */
static const partition_info_t *
slurm_part_find(const partition_info_msg_t *msg, const char *name,
    size_t len)
{
	uint32_t	 i;

	for (i = 0; i < msg->record_count; i++) {
		const partition_info_t *pi = &msg->partition_array[i];

		if (pi->name != NULL && strlen(pi->name) == len &&
		    strncmp(pi->name, name, len) == 0)
			return pi;
	}
	return NULL;
}

/* slurm_part_check(): see slurm_int.h. */
int
slurm_part_check(const char *names, const struct slurm_part_ask *a,
    char *out, size_t len)
{
	partition_info_msg_t	*msg = NULL;
	const partition_info_t	*pi;
	struct slurm_part_limits p;
	const char		*n;
	size_t			 nlen;
	int			 rc = -1;

	if (slurm_load_partitions(0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return 0;
	/* A job that lists several runs in any: refuse it only if none. */
	for (n = names; rc == -1 && *n != '\0'; n += nlen + (n[nlen] == ',')) {
		nlen = strcspn(n, ",");
		if ((pi = slurm_part_find(msg, n, nlen)) == NULL) {
			rc = 0;		/* not ours to judge: sbatch took it */
			break;
		}
		snprintf(p.name, sizeof(p.name), "%s", pi->name);
		p.max_time = pi->max_time;
		p.max_mem = pi->max_mem_per_cpu;
		if (slurm_part_judge(&p, a, out, len) == 0)
			rc = 0;
	}
	slurm_free_partition_info_msg(msg);
	return rc;
}
