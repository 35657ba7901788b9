/*
 * guide_int.h: what the files of the guide share: guide.c gathers runs
 * and rows, guide_solution.c derives the time to solution, the winning
 * run, the MLPerf-style figures and the checklist from them.
 */
#ifndef HPOD_GUIDE_INT_H
#define HPOD_GUIDE_INT_H

#include "guide.h"

/* The run of trial number, or NULL. */
const struct guide_run *guide_run_of(const struct guide *, int number);
/*
 * Fill the time to solution, winner, MLPerf figures and checklist; -1
 * if memory ran out.
 */
int	 guide_solution(struct guide *);
/* A cost in hours as JSON, after its number of attempts if attempts. */
struct cJSON;
struct cJSON *guide_json_cost(const struct account_cost *, int attempts);
/* Set key of o to guide_from_name(from), or to null for 0. */
void	 guide_json_from(struct cJSON *o, const char *key, int from);

#endif
