/*
 * space.h: the parameter space of a campaign.
 *
 * A point of the space is an array of doubles, one per parameter, in
 * "internal" coordinates: the value itself for float and int parameters,
 * the index into the list of values for choice parameters.  Search
 * algorithms work only on these arrays; space_format() turns a coordinate
 * into the text a workload receives.
 *
 * Pure code: no I/O, no allocation the caller cannot see.
 */
#ifndef HPOD_SPACE_H
#define HPOD_SPACE_H

#include <stddef.h>

enum param_type { PARAM_FLOAT, PARAM_INT, PARAM_CHOICE };
enum param_scale { SCALE_LINEAR, SCALE_LOG };

/* A choice value: a number or a string. */
struct value {
	int		 is_string;
	double		 num;
	char		*str;		/* owned, NULL unless is_string */
};

struct param_def {
	char		*name;		/* owned */
	enum param_type	 type;
	enum param_scale scale;
	double		 min, max;	/* float and int */
	int		 steps;		/* grid points for float/int; 0 = default */
	size_t		 nchoices;
	struct value	*choices;	/* owned, choice only */
};

struct space {
	size_t		 n;
	struct param_def *params;	/* owned */
};

/* Allocate an empty space; free it with space_free(). */
struct space	*space_new(void);
void		 space_free(struct space *);

/*
 * Add parameters.  The name and the values are copied.  Return 0, or -1 if
 * the definition is invalid (the caller validates first and reports why).
 */
int	 space_add_float(struct space *, const char *name, double min,
	    double max, enum param_scale, int steps);
int	 space_add_int(struct space *, const char *name, double min, double max,
	    enum param_scale, int steps);
int	 space_add_choice(struct space *, const char *name,
	    const struct value *values, size_t n);

/* Index of the parameter called name, or -1. */
int	 space_find(const struct space *, const char *name);

/*
 * Write the text form of coordinate x of parameter i into buf: the shortest
 * decimal that reads back as the same double for floats, an integer for
 * ints, the number or string for choices.  Return the length snprintf
 * would return, or -1 if x is not a valid coordinate of that parameter.
 */
int	 space_format(const struct space *, size_t i, double x, char *buf,
	    size_t len);

/* The shortest decimal text of x that reads back as the same double. */
void	 space_shortest(double x, char *buf, size_t len);

/* 1 if x is a valid coordinate for parameter i (in range, integral...). */
int	 space_contains(const struct space *, size_t i, double x);

/*
 * The point at fraction u of [lo, hi] on p's scale (geometric for a log
 * scale), not clamped: how grid, random and sobol map [0, 1] onto p.
 */
double	 space_lerp(const struct param_def *p, double lo, double hi,
	    double u);

#endif
