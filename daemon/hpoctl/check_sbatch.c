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
#include "sched.h"
#include "spec.h"

int
check_sbatch(const struct campaign_spec *s, const char *path, char *note,
    size_t notelen)
{
	struct sched_job	 job;
	char			 msg[1024], err[2048];
	int			 rc;

	*note = '\0';
	if (strcmp(s->backend, "slurm") != 0)
		return 0;
	spec_test_job(s, &job);
	rc = sched_slurm_test(&job, msg, sizeof(msg));
	if (rc == -1) {
		spec_test_say(s, path, rc, msg, err, sizeof(err));
		fprintf(stderr, "hpoctl: %s\n", err);
		return -1;
	}
	spec_test_say(s, path, rc, msg, note, notelen);
	return 0;
}
