/*
 * check_sbatch.c: `hpoctl check` asks the controller, through `sbatch
 * --test-only`, whether it would take a Slurm campaign's job (its shape,
 * partition, account, QOS and resources.sbatch_extra options), when a
 * cluster can be asked: a job the controller takes but can never run
 * (more nodes than its partition has) would otherwise wait for ever.
 */
#include <stdio.h>
#include <string.h>

#include "check_sbatch.h"
#include "invoke.h"
#include "sched.h"
#include "spec.h"

int
check_sbatch(const struct campaign_spec *s, const char *path, char *note,
    size_t notelen)
{
	struct sched_job	 job;
	const char		*key, *what;
	char			 msg[1024];
	int			 rc;

	*note = '\0';
	if (strcmp(s->backend, "slurm") != 0)
		return 0;
	/* The key to blame: the extra options if any, else the shape. */
	key = s->res.slurm.sbatch != NULL ? "resources.sbatch_extra" :
	    "resources";
	what = s->res.slurm.sbatch != NULL ? "sbatch_extra" : "resources";
	memset(&job, 0, sizeof(job));
	job.name = s->name;
	invoke_job_resources(s, NULL, &job);
	rc = sched_slurm_test(&job, msg, sizeof(msg));
	if (rc == -1) {
		fprintf(stderr, "hpoctl: %s: campaign '%s': %s: sbatch "
		    "--test-only refuses the job: %s\n", path, s->name, key,
		    msg);
		return -1;
	}
	if (rc == 0)
		snprintf(note, notelen, "%s: sbatch --test-only: %s", path,
		    msg);
	else
		snprintf(note, notelen, "%s: %s not checked with the "
		    "controller: %s", path, what, msg);
	return 0;
}
