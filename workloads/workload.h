/*
 * workload.h: workload specs (workloads/NAME.json, see hpod-workload(5))
 * and the rendering of a trial's argv and environment from them.
 *
 * A spec names a program and an argv template whose elements may contain
 * {placeholders}; each placeholder is a campaign parameter, a default of
 * the spec, or a built-in ({trial}, {attempt}, {seed}, {dir}, {campaign}).
 * Rendering substitutes values into single argv elements: nothing ever
 * passes through a shell.
 */
#ifndef HPOD_WORKLOAD_H
#define HPOD_WORKLOAD_H

#include <stddef.h>

struct workload_var {
	const char	*name;
	const char	*value;
};

struct workload {
	char		*name;
	char		*path;		/* the spec file */
	char		*description;
	char		*program;	/* resolved path of the executable */
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
};

/* The names of the built-in placeholders, NULL-terminated. */
extern const char *const workload_builtins[];

/*
 * Load a spec file; resolve its program in the directories progdirs
 * (NULL-terminated; then $PATH).  NULL on error with err naming the file
 * and key.  Free with workload_free().
 */
struct workload	*workload_load(const char *path, const char *const *progdirs,
		    char *err, size_t errlen);
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
 * dirs[i]/name, else $PATH.  Return a malloc'ed path or NULL.
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
 * Render argv (program first) and the extra environment for one attempt.
 * vars override the spec's defaults.  Both arrays are NULL-terminated and
 * freed with workload_strv_free().
 */
int	 workload_render(const struct workload *, const struct workload_var *,
	    size_t nvars, char ***argv, char ***env, char *err, size_t errlen);
void	 workload_strv_free(char **);

#endif
