/*
 * guide_int.h: what the files of the guide share: guide.c gathers runs
 * and rows, guide_solution.c derives the time to solution, the winning
 * run, the MLPerf-style figures and the checklist from them;
 * guide_format.c and guide_json.c render the table.
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
/* guide_format.c: the GUIDE_FROM_ bits of every row's time to target. */
int	 guide_table_from(const struct guide *);
/* guide_json.c: the params of a row as a JSON object (empty if none). */
struct cJSON *guide_json_params(const struct guide_row *);
/* guide_json.c: the table in RCP JSON form; NULL if memory ran out. */
char	*guide_table_rcp(const struct guide *);

#endif
