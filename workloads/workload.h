/*
 * workload.h: workload specs (workloads/NAME.json, see hpod-workload(5))
 * and the rendering of a trial's argv and environment from them.
 *
 * A spec names a program and an argv template whose elements may contain
 * {placeholders}; each placeholder is a campaign parameter, a default of
 * the spec, or a built-in ({trial}, {attempt}, {seed}, {dir}, {campaign},
 * {nodes}, {ranks}...).  An optional launcher (srun) goes in front of the
 * program.  Rendering substitutes values into single argv elements:
 * nothing ever passes through a shell.
 *
 * A spec may also declare which parameters are tunable and their legal
 * ranges, how the global batch size maps to a local one, and how its
 * output is read (MLLOG, or a line pattern for other logs).
 */
#ifndef HPOD_WORKLOAD_H
#define HPOD_WORKLOAD_H

#include <stddef.h>

#include "mllog.h"

struct workload_var {
	const char	*name;
	const char	*value;
};

/* The legal values of a tunable parameter (all bounds optional). */
struct workload_tunable {
	char		*name;
	int		 has_min, has_max;	/* inclusive bounds */
	double		 min, max;
	int		 has_above, has_below;	/* exclusive bounds */
	double		 above, below;
	int		 integer;	/* whole numbers only */
	char		**values;	/* the legal values as text, or NULL */
};

/* How the two parameters of a constraint compare. */
enum workload_op { WORKLOAD_LE, WORKLOAD_LT, WORKLOAD_GE, WORKLOAD_GT };

/*
 * A rule between two numeric parameters, a op b ("constraints": a batch
 * size no larger than the training set).
 */
struct workload_constraint {
	char		*a, *b;
	enum workload_op op;
};

struct workload_reader;		/* a line pattern (reader.c) */

/* The longest "step_unit" a spec may declare, in bytes. */
#define WORKLOAD_UNIT_MAX	31

struct workload {
	char		*name;
	char		*path;		/* the spec file */
	char		*json;		/* its text, compact (cJSON_free) */
	char		*description;
	char		*program;	/* resolved in progdirs, or NULL */
	char		*program_name;	/* the program as the spec names it */
	char		*launcher;	/* launcher program as named, or NULL */
	char		**launcher_args; /* its templates (NULL-terminated) */
	char		**args;		/* argv templates (NULL-terminated) */
	char		**env;		/* "NAME=template" (NULL-terminated) */
	struct workload_var *defaults;	/* owned name/value pairs */
	size_t		 ndefaults;
	char		*metric;	/* objective defaults, may be NULL */
	int		 has_goal;
	int		 maximize;
	int		 has_target;
	double		 target;
	char		*fidelity;	/* "epochs" or "steps" */
	char		*step_unit;	/* what its steps count, plural:
					   "step_unit", else "epochs" or
					   "steps" as its fidelity */
	char		*step_unit_one;	/* the same in the singular */
	int		 has_tunable;	/* 0: any parameter may be tuned */
	struct workload_tunable *tunable;
	size_t		 ntunable;
	struct workload_constraint *constraints;
	size_t		 nconstraints;
	char		*batch_global;	/* parameter of the global batch size */
	char		*batch_local;	/* placeholder of the local one */
	int		 has_flops;
	double		 flops_per_sample;
	struct workload_reader *reader;	/* NULL: MLLOG lines */
	char		*metric_file;	/* the template of the file its
					   metrics are read from, relative
					   to the attempt directory, or
					   NULL: its stdout */
	char		**metrics;	/* the metrics its program logs
					   (NULL-terminated), or NULL when
					   the spec does not say */
};

/* The names of the built-in placeholders, NULL-terminated. */
extern const char *const workload_builtins[];

/*
 * Load a spec file.  Its program is resolved in the directories progdirs
 * (NULL-terminated) when it is there, and kept as named otherwise: a
 * program of a cluster need not exist where the spec is read.  NULL on
 * error with err naming the file and key.  Free with workload_free().
 */
struct workload	*workload_load(const char *path, const char *const *progdirs,
		    char *err, size_t errlen);
/* Parse a spec from text (len bytes), called path in errors. */
struct workload	*workload_parse_text(const char *text, size_t len,
		    const char *path, const char *const *progdirs, char *err,
		    size_t errlen);
/*
 * Find the spec for name: a path if name contains '/' or ends in ".json"
 * (relative to the directory of relative_to when not absolute), otherwise
 * NAME.json in the first of dirs that has it.
 */
struct workload	*workload_find(const char *name, const char *relative_to,
		    const char *const *dirs, const char *const *progdirs,
		    char *err, size_t errlen);
void		 workload_free(struct workload *);
/*
 * Resolve an executable: name itself if it contains '/', else the first
 * dirs[i]/name, else $PATH.  Return a malloc'ed path, or NULL when there
 * is none (or memory ran out to look).
 */
char		*workload_which(const char *name, const char *const *dirs);

/*
 * Check that every placeholder of the spec is one of names, a default or a
 * built-in.  Return 0, or -1 with err naming the first unknown one.
 */
int	 workload_check(const struct workload *, const char *const *names,
	    size_t n, char *err, size_t errlen);

/* 1 if some argv or environment template uses placeholder name. */
int	 workload_uses(const struct workload *, const char *name);

/*
 * Render argv (launcher and its arguments first, then the program) and the
 * extra environment for one attempt.  vars override the spec's defaults.
 * Both arrays are NULL-terminated and freed with workload_strv_free().
 * argv[0] is a resolved path, or the name as the spec gives it.
 */
int	 workload_render(const struct workload *, const struct workload_var *,
	    size_t nvars, char ***argv, char ***env, char *err, size_t errlen);
void	 workload_strv_free(char **);

/*
 * Render the spec's metric_file with vars (as workload_render() does
 * argv) into *out, a path relative to the attempt directory to free, or
 * NULL when the spec has none (its stdout is read).  0, or -1 with err
 * naming the file and key (a placeholder with no value; a value that
 * makes the path absolute or puts a ".." in it).
 */
int	 workload_metric_file(const struct workload *,
	    const struct workload_var *, size_t nvars, char **out, char *err,
	    size_t errlen);

/* 1 if the program logs metric name, or its spec does not say. */
int	 workload_metric_known(const struct workload *, const char *name);
/* The declared metrics as "a, b, c" in buf ("" when none are). */
void	 workload_metrics_names(const struct workload *, char *buf,
	    size_t len);

/* 1 if values a and b keep the constraint c. */
int	 workload_constraint_holds(const struct workload_constraint *c,
	    double a, double b);
/* 1 if c bounds a from above (<=, <): a's largest value is its worst. */
int	 workload_constraint_upper(const struct workload_constraint *c);
/* Write c as "a <= b" into buf. */
void	 workload_constraint_text(const struct workload_constraint *c,
	    char *buf, size_t len);

/* The declared legal values of a parameter; NULL if none are declared. */
const struct workload_tunable *workload_tunable_find(const struct workload *,
	    const char *name);
/*
 * 1 if a number (or, for a string, is_string with str) is a legal value
 * of t; otherwise 0 with why saying what is legal ("must be < 1").
 */
int	 workload_legal(const struct workload_tunable *, int is_string,
	    double num, const char *str, char *why, size_t whylen);

/*
 * Read one line of a trial's output as its spec says (MLLOG unless the
 * spec has a metric_reader pattern).  Same return values and event as
 * mllog_parse_line(): 0 an event, 1 not a metric line, -1 malformed.
 */
int	 workload_read_line(const struct workload *, const char *line,
	    size_t len, struct mllog_event *, char *err, size_t errlen);
/* A spec's metric_reader, as workload_reader_info() gives it. */
struct workload_reader_info {
	const char	*pattern;
	int		 value;		/* its groups; epoch 0 for none */
	int		 epoch;
	double		 scale;
	const char	*key;
	const char	*run_start;	/* NULL for none */
};

/*
 * Fill info with the spec's metric_reader, its strings owned by w: 1, or
 * 0 when it reads MLLOG lines.
 */
int	 workload_reader_info(const struct workload *,
	    struct workload_reader_info *info);

#endif
