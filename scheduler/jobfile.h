/*
 * jobfile.h: the attempt's job.json, which tells hpo-trial what to run when
 * a batch system starts it.  The batch script itself only names this file,
 * so parameter values never pass through a shell.
 *
 * {"token": "...", "dir": "/runs/...", "argv": ["prog", "--lr", "0.1"],
 *  "env": ["HPO_LR=0.1"], "limit": 0, "nodes": 1, "gpus": 4, "cpus": 8}
 *
 * nodes, gpus and cpus are what the job asked for in all, which a backend
 * counts when the scheduler has forgotten the job's own record.
 */
#ifndef HPOD_JOBFILE_H
#define HPOD_JOBFILE_H

#include <stddef.h>

/*
 * hpo-trial's exit status when it refuses its arguments or its job file
 * (sysexits.h EX_USAGE), before it writes any record: what hpod gave it
 * is wrong, and would be wrong again in a retry.
 */
#define JOBFILE_EX_USAGE	64

struct jobfile {
	char		*token;
	char		*dir;
	char		**argv;		/* NULL-terminated */
	char		**env;		/* NULL-terminated NAME=VALUE */
	long		 limit;		/* seconds, 0 = none */
	int		 nodes, gpus, cpus;	/* requested totals, 0 = ? */
};

/*
 * The JSON text of jf (malloc'ed), or NULL when out of memory; the Slurm
 * backend writes it with file_save() off the loop thread.
 */
char	*jobfile_render(const struct jobfile *);
/*
 * Read path into jf (free with jobfile_release()).  Return 0, or -1 with err
 * naming the file and what is wrong.
 */
int	 jobfile_read(const char *path, struct jobfile *jf, char *err,
	    size_t errlen);
void	 jobfile_release(struct jobfile *);
/*
 * Line `index` (from 0) of a job list, the file an array job's tasks share:
 * one job.json path per line.  Return a malloc'ed path or NULL with err.
 */
char	*jobfile_list_entry(const char *list, long index, char *err,
	    size_t errlen);
/*
 * The line (from 0) of a job list that is entry, or -1: not there, or
 * the list could not be read (err says why).
 */
long	 jobfile_list_index(const char *list, const char *entry, char *err,
	    size_t errlen);

#endif
