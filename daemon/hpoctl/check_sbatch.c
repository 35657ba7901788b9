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
	struct spec_resources	 res;
	struct sched_job	 job;
	char			 msg[1024];
	int			 rc;

	*note = '\0';
	if (strcmp(s->backend, "slurm") != 0 || s->res.slurm.sbatch == NULL)
		return 0;
	invoke_resources(s, NULL, &res);
	memset(&job, 0, sizeof(job));
	job.name = s->name;
	job.nodes = res.nodes;
	job.gpus_per_node = res.gpus_per_node;
	job.cpus_per_task = res.cpus_per_task;
	job.tasks_per_node = res.tasks_per_node;
	job.time_limit = res.time_limit;
	job.partition = res.partition;
	job.account = res.account;
	job.qos = res.qos;
	job.constraint = res.constraint;
	job.extra = res.slurm;
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
