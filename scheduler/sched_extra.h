/*
 * sched_extra.h: the Slurm resource keys a sched_job carries beyond its
 * shape (no libuv here: the spec parser includes it too).
 */
#ifndef HPOD_SCHED_EXTRA_H
#define HPOD_SCHED_EXTRA_H

#include <stdint.h>

/*
 * Slurm's resource keys beyond the shape (hpod-campaign(5)): memory in MB
 * (0 = the partition's default), exclusive nodes, a reservation, a warning
 * signal before the time limit, GPUs per task, CPUs per GPU, and sbatch
 * options beyond those (sbatch_extra).  reservation and sbatch belong to
 * whoever holds the struct (the spec, a backend's copy).  Backends
 * other than Slurm have nothing to enforce them with and ignore them.
 */
struct sched_slurm_extra {
	uint64_t	 mem_mb;		/* per node (--mem) */
	uint64_t	 mem_per_cpu_mb;	/* --mem-per-cpu */
	uint64_t	 mem_per_gpu_mb;	/* --mem-per-gpu */
	int		 exclusive;		/* --exclusive */
	const char	*reservation;		/* --reservation */
	int		 signal;		/* --signal: number, 0 = none */
	int		 signal_time;		/* ... seconds before the end */
	int		 signal_batch;		/* ... "B:": the batch shell only */
	int		 gpus_per_task;		/* --gpus-per-task */
	int		 cpus_per_gpu;		/* --cpus-per-gpu */
	/*
	 * sbatch options hpod does not model ("--qos=debug", ...),
	 * NULL-terminated, NULL if none: a job with them is submitted
	 * through the sbatch program, which parses them.
	 */
	char		**sbatch;
};

#endif
