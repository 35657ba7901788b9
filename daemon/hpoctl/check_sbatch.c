/*
 * check_sbatch.c: `hpoctl check` asks the controller, through `sbatch
 * --test-only`, whether it would take a Slurm campaign's jobs (every
 * distinct shape it submits: each batch size's trials, its pilots; their
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
	struct spec_test_what	 what;
	char			 msg[1024], err[2048];
	size_t			 i, n, asked = 0;
	int			 rc = 0;

	*note = '\0';
	if (strcmp(s->backend, "slurm") != 0)
		return 0;
	n = spec_test_njobs(s);
	/* One after another; no answer to one: none to the next either. */
	for (i = 0; i < n && rc == 0; i++) {
		if (spec_test_job(s, i, &job, &what) == -1)
			continue;
		asked++;
		rc = sched_slurm_test(&job, msg, sizeof(msg));
		if (rc == -1) {
			spec_test_say(s, path, &what, asked, rc, msg, err,
			    sizeof(err));
			fprintf(stderr, "hpoctl: %s\n", err);
			return -1;
		}
		spec_test_say(s, path, &what, asked, rc, msg, note, notelen);
	}
	return 0;
}
