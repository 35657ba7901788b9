/*
 * check_sbatch.h: `hpoctl check`'s question to the controller about a
 * Slurm campaign's job.
 */
#ifndef HPOD_CHECK_SBATCH_H
#define HPOD_CHECK_SBATCH_H

#include <stddef.h>

struct campaign_spec;

/*
 * For a Slurm campaign (read from path), ask `sbatch --test-only` about
 * each distinct job it submits (spec_test_job()), one after another.
 * Return -1 (said on stderr, naming path, campaign, key and shape) at
 * the first the controller refuses, else 0 with the last answer, or why
 * no cluster could be asked, in note ("" if not asked).
 */
int	 check_sbatch(const struct campaign_spec *, const char *path,
	    char *note, size_t notelen);

#endif
