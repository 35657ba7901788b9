/*
 * spec_test.c: what `sbatch --test-only` is asked about a Slurm campaign's
 * job, and its answer told in words naming the spec file, the campaign
 * and the key to blame: `hpoctl check`, `hpoctl run` and hpod's submit
 * ask the same question and say the same thing.
 */
#include <stdio.h>
#include <string.h>

#include "invoke.h"
#include "sched.h"
#include "spec.h"

/* spec_test_job(): see spec.h. */
void
spec_test_job(const struct campaign_spec *s, struct sched_job *job)
{
	memset(job, 0, sizeof(*job));
	job->name = s->name;
	invoke_job_resources(s, NULL, job);
}

/* spec_test_say(): see spec.h. */
void
spec_test_say(const struct campaign_spec *s, const char *path, int rc,
    const char *said, char *out, size_t len)
{
	/* The key to blame: the extra options if any, else the shape. */
	int	 extra = s->res.slurm.sbatch != NULL;

	if (rc == -1)
		snprintf(out, len, "%s: campaign '%s': %s: sbatch --test-only "
		    "refuses the job: %s", path, s->name, extra ?
		    "resources.sbatch_extra" : "resources", said);
	else if (rc == 0)
		snprintf(out, len, "%s: sbatch --test-only: %s", path, said);
	else
		snprintf(out, len, "%s: %s not checked with the controller: "
		    "%s", path, extra ? "sbatch_extra" : "resources", said);
}
