/*
 * spec_int.h: what the parts of the campaign-spec parser share (spec.c,
 * spec_space.c, spec_search.c, spec_bind.c, spec_scaling.c, spec_util.c
 * and the others below).  Private to daemon/spec/.
 *
 * Every sp_*() fetch returns 0, or -1 after writing "PATH: KEY: message"
 * to the context's err; a missing optional member takes its default.
 */
#ifndef HPOD_SPEC_INT_H
#define HPOD_SPEC_INT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "spec.h"

/* The parse context: where errors go. */
struct sp {
	const char	*path;
	char		*err;
	size_t		 errlen;
};

/* Write "PATH: KEY: message" and return -1. */
int		 sp_fail(struct sp *, const char *key, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
/*
 * A check that refuses a spec for a real reason, which an older hpod may
 * have accepted and recorded: sp_fail() for a new spec; for a recorded
 * one (spec_parse_recorded()) the first such "PATH: KEY: message" goes to
 * s->hold and 0 is returned, the parse going on without what the check
 * refused: the campaign is taken back held (spec.h).
 */
int		 sp_hold(struct sp *, struct campaign_spec *, const char *key,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Join a key path: "budget" + "max_trials" = "budget.max_trials". */
const char	*sp_key(char *buf, size_t len, const char *parent,
		    const char *key);
/* The JSON type of an item, for messages ("a number", ...). */
const char	*sp_type(const cJSON *);
/* A parameter or campaign name: letters, digits, '_', '-', '.' (<= max). */
int		 sp_name_ok(const char *, size_t max);
/* Reject unknown (allowed != NULL) and duplicate keys of an object. */
int	 sp_keys(struct sp *, const cJSON *obj, const char *path,
	    const char *const *allowed);
int	 sp_object(struct sp *, const cJSON *obj, const char *name,
	    const char *path, int required, const cJSON **out);
int	 sp_string(struct sp *, const cJSON *obj, const char *name,
	    const char *path, int required, const char *def, char **out);
int	 sp_number(struct sp *, const cJSON *obj, const char *name,
	    const char *path, double min, double max, double def, int *has,
	    double *out);
int	 sp_int(struct sp *, const cJSON *obj, const char *name,
	    const char *path, int required, long min, long max, long def,
	    long *out);
int	 sp_bool(struct sp *, const cJSON *obj, const char *name,
	    const char *path, int def, int *out);
/* A duration (string "[D-]HH:MM:SS" or minutes) in seconds; 0 if absent. */
int	 sp_duration(struct sp *, const cJSON *obj, const char *name,
	    const char *path, long *out);

/* spec_keys.c: the key tables of a spec's objects, like config.c's. */
enum spk_type {
	SPK_INT,	/* an integer into an int */
	SPK_NUMBER,	/* a number into a double */
	SPK_BOOL,	/* true or false into an int */
	SPK_STRING,	/* a string into a malloc'ed char * (NULL if absent) */
	SPK_DURATION,	/* a duration in seconds into a long */
	SPK_SECONDS,	/* a duration in seconds into a double */
	SPK_CODE	/* allowed here, parsed by code of its own */
};
struct spec_key {
	const char	*name;
	enum spk_type	 type;
	int		 required;	/* SPK_INT and SPK_STRING */
	double		 min, max;	/* SPK_INT and SPK_NUMBER */
	double		 def;		/* SPK_INT, SPK_NUMBER, SPK_BOOL */
	size_t		 offset;	/* in struct campaign_spec */
};
extern const struct spec_key spec_budget_keys[];
extern const struct spec_key spec_resource_keys[];
extern const struct spec_key spec_retry_keys[];
extern const struct spec_key spec_pilot_keys[];
/*
 * Parse object obj (at path; NULL when absent) by table t, ended by a
 * NULL name: unknown and duplicate keys are refused, then every key is
 * checked and stored in s in the table's order.
 */
int	 sp_table(struct sp *, struct campaign_spec *s, const cJSON *obj,
	    const char *path, const struct spec_key *t);

/* spec_space.c: "space" and "fixed", the parameters. */
int	 sp_space(struct sp *, struct campaign_spec *, const cJSON *space);
int	 sp_fixed(struct sp *, struct campaign_spec *, const cJSON *fixed);

/* spec_search.c: "search" and its stopper (after the budget). */
int	 sp_search(struct sp *, struct campaign_spec *, const cJSON *root);
/* spec_search.c: build the search once to check it (after scaling). */
int	 sp_search_check(struct sp *, struct campaign_spec *);

/* spec_pilot.c: "dispatch" and "pilot" (after resources and budget). */
int	 sp_pilot(struct sp *, struct campaign_spec *, const cJSON *root);
int	 sp_pilot_scaling(struct sp *, struct campaign_spec *);

/* spec_nul.c: refuse a NUL byte or a \u0000 escape in a spec's text. */
int	 sp_nul_check(struct sp *, const char *text, size_t len);

/* spec_slurm.c: mem, exclusive, signal, ... of the resources object. */
int	 sp_slurm(struct sp *, const cJSON *resources,
	    struct sched_slurm_extra *);

/* spec_scaling.c: "batch_sizes" and "scaling" (after the budget). */
int	 sp_scaling(struct sp *, struct campaign_spec *, const cJSON *root);
/* spec_scaling.c: complete them from the workload (in spec_bind()). */
int	 sp_scaling_bind(struct sp *, struct campaign_spec *,
	    const struct workload *);

/* spec_prior.c: "prior", the warm start (after search and scaling). */
int	 sp_prior(struct sp *, struct campaign_spec *, const cJSON *root);

/* spec_target.c: objective.rank (in the objective object). */
int	 sp_rank(struct sp *, struct campaign_spec *, const cJSON *objective);
/* spec_target.c: the target stopper and auto's pick of it (spec_bind()). */
int	 sp_target_bind(struct sp *, struct campaign_spec *,
	    const struct workload *);
/* The last step a trial's point may have (campaign_spec.step_max). */
double	 sp_step_max(const struct campaign_spec *, const struct workload *);

#endif
