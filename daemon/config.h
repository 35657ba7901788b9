/*
 * config.h: hpod.conf, a file of "key = value" lines (see hpod.conf(5)).
 * One table describes every key: name, type, range, default and meaning;
 * it drives parsing, validation, `hpod -n` and the documented defaults.
 */
#ifndef HPOD_CONFIG_H
#define HPOD_CONFIG_H

#include <stddef.h>
#include <stdio.h>

struct config {
	char	*socket;	/* control socket path */
	char	*ledger;	/* ledger file */
	char	*run_dir;	/* attempt directories */
	char	*workload_path;	/* extra workload spec directories */
	long	 local_cpus;	/* CPUs the local backend may use */
	long	 poll_interval;	/* ms between output/scheduler polls */
	long	 slurm_poll_min;	/* ms between slurmctld queries */
	long	 slurm_poll_max;	/* ... at most, after back-off */
	long	 slurm_poll_kick;	/* ms from an end marker to a query */
	long	 slurm_array_min;	/* alike trials per job array, 0 = off */
	long	 min_free;	/* MiB kept free under run_dir and ledger */
};

/*
 * Load path (NULL: defaults only) into cfg.  On error return -1 with err
 * naming the file, line and key; cfg is then untouched, so a reload that
 * fails keeps the running configuration.
 */
int	 config_load(const char *path, struct config *cfg, char *err,
	    size_t errlen);
void	 config_release(struct config *);
/* Print every key with its effective value (hpod -n). */
void	 config_print(const struct config *, FILE *);

#endif
