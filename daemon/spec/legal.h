/*
 * legal.h: a campaign against the limits its workload declares: only
 * tunable parameters are searched, within their legal values, and the
 * global batch size divides evenly by the ranks of the campaign's jobs.
 */
#ifndef HPOD_LEGAL_H
#define HPOD_LEGAL_H

#include <stddef.h>

#include "spec.h"
#include "workload.h"

/*
 * Return 0, or -1 with err naming the campaign file, its key and the
 * workload's rule ("c.json: space.lr.max: 2 is not legal for workload
 * 'deepcam' (workloads/deepcam.json): must be <= 1").
 */
int	 legal_check(const struct campaign_spec *, const struct workload *,
	    char *err, size_t errlen);

/*
 * The constraints between two parameters (legal_pair.c): 0, or -1 with err
 * naming the campaign's key that breaks one, or can draw a value that
 * does.
 */
int	 legal_pairs(const struct campaign_spec *, const struct workload *,
	    char *err, size_t errlen);

#endif
