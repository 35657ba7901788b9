/*
 * check_sbatch.c: `hpoctl check` asks the controller, through `sbatch
 * --test-only`, whether it would take a Slurm campaign's job with its
 * resources.sbatch_extra options, when a cluster can be asked.
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
	char			 msg[1024];
	int			 rc;

	*note = '\0';
	if (strcmp(s->backend, "slurm") != 0 || s->res.slurm.sbatch == NULL)
		return 0;
	memset(&job, 0, sizeof(job));
	job.name = s->name;
	invoke_job_resources(s, NULL, &job);
	rc = sched_slurm_test(&job, msg, sizeof(msg));
	if (rc == -1) {
		fprintf(stderr, "hpoctl: %s: campaign '%s': "
		    "resources.sbatch_extra: sbatch --test-only refuses the "
		    "job: %s\n", path, s->name, msg);
		return -1;
	}
	snprintf(note, notelen, "%s: %s: %s", path, rc == 0 ?
	    "sbatch --test-only" : "sbatch_extra not checked with the "
	    "controller", msg);
	return 0;
}
