/*
 * params.h: a point of the search space as the JSON object the ledger
 * keeps ({"lr": 0.01, "optimizer": "adam"}) and back.
 */
#ifndef HPOD_PARAMS_H
#define HPOD_PARAMS_H

#include <stddef.h>

#include "space.h"

/* The JSON object for point x; malloc'ed, NULL when out of memory. */
char	*params_to_json(const struct space *, const double *x);
/*
 * Recover the point from its JSON object.  Return 0, or -1 with err when a
 * parameter is missing or not a value of the space (a spec changed under a
 * ledger, or a damaged row).
 */
int	 params_from_json(const struct space *, const char *json, double *x,
	    char *err, size_t errlen);

#endif
