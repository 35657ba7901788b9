/*
 * workload_int.h: what the files of the workload module share while they
 * parse a spec.  Private to workloads/; cJSON stays inside the module.
 */
#ifndef HPOD_WORKLOAD_INT_H
#define HPOD_WORKLOAD_INT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "workload.h"

/*
 * Text of a number (shortest exact form) or a string; NULL otherwise, or
 * when memory ran out (workload_scalar_read() tells which).
 */
char	*workload_scalar(const cJSON *);
/* 1 if the braces of a template are balanced. */
int	 workload_template_ok(const char *);
/* 1 if path is relative, not empty, and has no ".." component. */
int	 workload_path_inside(const char *path);
/*
 * Resolve a program given as a path, or found in dirs; NULL otherwise
 * (none, or no memory to look).
 */
char	*workload_which_in(const char *name, const char *const *dirs);

/*
 * keys.c: refuse a key an object of root holds twice, at any depth, as
 * "FILE: KEY.PATH: duplicate key".
 */
int	 workload_keys_unique(const struct workload *, const cJSON *root,
	    char *err, size_t errlen);
/* keys.c: "FILE: out of memory"; return -1. */
int	 workload_oom(const struct workload *, char *err, size_t errlen);
/*
 * Refuse a member of o not in keys (NULL-terminated) as "FILE: ATKEY:
 * unknown key", with " (expected a, b or c)" when list is set.
 */
int	 workload_keys_only(const struct workload *, const cJSON *o,
	    const char *at, const char *const *keys, int list, char *err,
	    size_t errlen);
/* Read key's array of templates (j may be NULL) into *out, w's to free. */
int	 workload_templates_read(const struct workload *, const cJSON *j,
	    const char *key, char ***out, char *err, size_t errlen);
/* The text of scalar j in *out, or "FILE: AT: expected a number or...". */
int	 workload_scalar_read(const struct workload *, const cJSON *j,
	    const char *at, char **out, char *err, size_t errlen);

/*
 * The optional object j at key: 0 if absent, 1 if an object whose members
 * are all in keys (NULL: any), -1 with "FILE: KEY: expected an object
 * WHAT" or an unknown member's error.
 */
int	 workload_object_read(const struct workload *, const cJSON *j,
	    const char *key, const char *what, const char *const *keys,
	    char *err, size_t errlen);
/* Member key of o, a non-empty string (def NULL) or any string or def. */
int	 workload_text_read(const struct workload *, const cJSON *o,
	    const char *key, const char *def, char **out, char *err,
	    size_t errlen);
/* 1 if s may name a placeholder: not empty, no brace, blank or '='. */
int	 workload_name_ok(const char *s);

/* tunable.c: the "tunable" and "batch" keys (j may be NULL). */
int	 workload_tunable_parse(struct workload *, const cJSON *j, char *err,
	    size_t errlen);
int	 workload_batch_parse(struct workload *, const cJSON *j, char *err,
	    size_t errlen);
/* Refuse a default of a tunable parameter that is not legal. */
int	 workload_defaults_check(const struct workload *, char *err,
	    size_t errlen);

/*
 * constraint.c: the "constraints" key (j may be NULL), parsed after
 * "tunable"; and the defaults checked against it.
 */
int	 workload_constraints_parse(struct workload *, const cJSON *j,
	    char *err, size_t errlen);
int	 workload_constraints_check(const struct workload *, char *err,
	    size_t errlen);

/* reader.c: a "metric_reader" pattern; NULL with err on a bad one. */
struct workload_reader *workload_reader_parse(const struct workload *,
	    const cJSON *, char *err, size_t errlen);
void	 workload_reader_free(struct workload_reader *);
/* The metric a reader's points are recorded as. */
const char *workload_reader_key(const struct workload_reader *);

/* metrics.c: the "metrics" key (j may be NULL), parsed last. */
int	 workload_metrics_parse(struct workload *, const cJSON *j, char *err,
	    size_t errlen);

#endif
