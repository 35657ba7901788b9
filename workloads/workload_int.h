/*
 * workload_int.h: what the files of the workload module share while they
 * parse a spec.  Private to workloads/; cJSON stays inside the module.
 */
#ifndef HPOD_WORKLOAD_INT_H
#define HPOD_WORKLOAD_INT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "workload.h"

/* Text of a number (shortest exact form) or a string; NULL otherwise. */
char	*workload_scalar(const cJSON *);
/* 1 if the braces of a template are balanced. */
int	 workload_template_ok(const char *);
/* Resolve a program given as a path, or found in dirs; NULL otherwise. */
char	*workload_which_in(const char *name, const char *const *dirs);

/* tunable.c: the "tunable" and "batch" keys (j may be NULL). */
int	 workload_tunable_parse(struct workload *, const cJSON *j, char *err,
	    size_t errlen);
int	 workload_batch_parse(struct workload *, const cJSON *j, char *err,
	    size_t errlen);

/* reader.c: a "metric_reader" pattern; NULL with err on a bad one. */
struct workload_reader *workload_reader_parse(const struct workload *,
	    const cJSON *, char *err, size_t errlen);
void	 workload_reader_free(struct workload_reader *);

#endif
