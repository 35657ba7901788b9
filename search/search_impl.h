/*
 * search_impl.h: what an algorithm file shares with the dispatch in
 * search.c.  Callers of search.h never include it.
 *
 * Adding an algorithm: write algo.c defining a `const struct search_ops
 * algo_ops`, declare it here and add it to the table in search.c.
 */
#ifndef HPOD_SEARCH_IMPL_H
#define HPOD_SEARCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "search.h"

struct search_ops {
	const char	*name;
	/* Build s->state and set s->size; return 0, or -1 with err set. */
	int		(*init)(struct search *s, char *err, size_t errlen);
	/* Free s->state; may be NULL when the state is a single block. */
	void		(*free)(struct search *s);
	/* As search_suggest(). */
	int		(*suggest)(struct search *s, const struct history *h,
			    double *x);
	/* After s->budget changed; may be NULL. */
	void		(*budget)(struct search *s);
};

struct search {
	const struct search_ops *ops;
	const struct space *space;	/* borrowed */
	uint64_t	 seed;
	size_t		 size;		/* distinct points, 0 = unbounded */
	size_t		 budget;	/* trials the campaign may run, 0 = ? */
	enum search_rank rank;		/* how the history is ranked */
	double		 target;	/* time to target: the target */
	void		*state;		/* owned by the algorithm */
	const struct history_log *log;	/* during a suggestion, or NULL */
};

/*
 * The index of name among the NULL-terminated names, or -1 (also for a
 * NULL name).  search.c and stop.c find an algorithm's operations at that
 * index of their tables, which list them in the order of their names.
 */
int	 search_name_index(const char *const *names, const char *name);

/* Write a formatted message to err (if any) and return -1. */
int	 search_error(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

extern const struct search_ops grid_ops;
extern const struct search_ops random_ops;
extern const struct search_ops sobol_ops;
extern const struct search_ops tpe_ops;
extern const struct search_ops mtpe_ops;
extern const struct search_ops cmtpe_ops;
extern const struct search_ops auto_ops;

/*
 * What auto chose (*name, "auto" before its first suggestion) and why
 * ("" before it).
 */
const char *auto_reason(const struct search *, const char **name);

/* As search_suggest(), over the history ranked as s->rank says. */
int	 search_suggest_ranked(struct search *, const struct history *,
	    double *x);

/* Parameters sobol supports (Joe-Kuo direction numbers). */
#define SOBOL_MAXDIM	32

/* Coordinate d of point k of the unscrambled Sobol' sequence, as bits. */
uint32_t sobol_bits(uint64_t k, size_t d);

/*
 * Point k of sobol's sequence over sp shifted as the seed says (what
 * sobol with that seed suggests as its point k); 0, or -1 beyond
 * SOBOL_MAXDIM parameters (x untouched).
 */
int	 sobol_point(const struct space *sp, uint64_t seed, uint64_t k,
	    double *x);

#endif
