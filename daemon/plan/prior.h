/*
 * prior.h: a campaign's warm start, read from the spec's "prior" source
 * (an Optuna study or another hpod campaign over the same space) when the
 * campaign starts.  Priors enter the ledger's priors table with the
 * campaign, and from there the search history (obsbook), at the start as
 * at a resume.  They have no attempts: they cost this campaign nothing
 * and count neither in its trials nor in its time-to-solution.
 */
#ifndef HPOD_PRIOR_H
#define HPOD_PRIOR_H

#include <stddef.h>

#include "ledger.h"
#include "spec.h"

/*
 * Read the finished trials of s's prior (none when it has no "prior")
 * as priors numbered 0, 1, ...  A trial with a parameter the space lacks,
 * or lacking one of the space's, means another space: refused.  A value
 * outside the space skips its trial with a warning.  Each message names
 * the file, the trial and the key.  Return 0, or -1 with err.  Free the
 * list with ledger_prior_list_free().
 */
int	 prior_read(const struct campaign_spec *s, struct ledger_prior **out,
	    size_t *n, char *err, size_t errlen);
/*
 * Put s's file and its key (prior.optuna or prior.ledger) before err, the
 * reason prior_read() refused the prior, as for any other key of a spec.
 */
void	 prior_error(const struct campaign_spec *s, char *err,
	    size_t errlen);
/*
 * What must hold for a new campaign to be kept, given its id (the engine
 * claims its run directory): 0, or -1 with err.
 */
typedef int (*prior_claim_fn)(void *arg, int64_t id, char *err,
    size_t errlen);

/*
 * Record campaign c and its priors in one transaction, and keep them only
 * if claim (when not NULL) succeeds: either all are in the ledger or
 * nothing.  The new campaign's id in *id.  0, or -1 with err.
 */
int	 prior_record(struct ledger *, const struct ledger_campaign *c,
	    const struct ledger_prior *, size_t n, prior_claim_fn claim,
	    void *arg, int64_t *id, char *err, size_t errlen);

#endif
