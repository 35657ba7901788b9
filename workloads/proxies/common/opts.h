/*
 * opts.h: the options every proxy trainer takes, parsed by one function
 * that hands a trainer its own options through a callback.
 */
#ifndef HPOD_PROXY_OPTS_H
#define HPOD_PROXY_OPTS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* The settings every trainer has; see each trainer's usage. */
struct proxy_opts {
	double		 lr;
	int		 batch;
	int		 epochs;
	double		 warmup;	/* epochs */
	double		 wdecay;
	uint64_t	 seed;
	double		 target;	/* < 0: none */
	int		 ntrain;
	int		 neval;
	int		 grid;
};

/* The long options of struct proxy_opts, for a trainer's table. */
#define PROXY_OPT_LR	{ "lr", required_argument, NULL, 'l' }
#define PROXY_OPT_BATCH	{ "batch-size", required_argument, NULL, 'b' }
#define PROXY_OPT_EPOCHS { "epochs", required_argument, NULL, 'e' }
#define PROXY_OPT_WARMUP { "warmup-epochs", required_argument, NULL, 'w' }
#define PROXY_OPT_WDECAY { "weight-decay", required_argument, NULL, 'd' }
#define PROXY_OPT_SEED	{ "seed", required_argument, NULL, 's' }
#define PROXY_OPT_TARGET { "target", required_argument, NULL, 't' }
#define PROXY_OPT_NTRAIN { "train-samples", required_argument, NULL, 'n' }
#define PROXY_OPT_NEVAL	{ "eval-samples", required_argument, NULL, 'v' }
#define PROXY_OPT_GRID	{ "grid", required_argument, NULL, 'g' }
#define PROXY_OPT_HELP	{ "help", no_argument, NULL, 'h' }
#define PROXY_OPT_END	{ NULL, 0, NULL, 0 }

/*
 * A trainer's command line: its long options in the order it documents
 * them (the common ones by the macros above, its own with other letters),
 * the limits of the common ones that differ between trainers, and the
 * callback that takes one of its own options.
 */
struct proxy_cli {
	const char		*usage;		/* synopsis and defaults */
	const struct option	*longopts;
	double			 target_max;
	int			 grid_min, grid_max;
	int			 grid_even;	/* --grid must be even */
	/* Take own option ch and its argument (exit 64 when bad). */
	void			(*take)(void *own, int ch, const char *arg);
	void			*own;
};

/* Print cli's usage on f and exit with status. */
_Noreturn void	 proxy_usage(const struct proxy_cli *cli, FILE *f, int status);

/*
 * Parse argv into o, which holds the defaults, and the trainer's own
 * options through cli; exit 0 after --help, 64 on bad usage.
 */
void		 proxy_opts_parse(struct proxy_opts *o,
		    const struct proxy_cli *cli, int argc, char **argv);

/*
 * Refuse a data set of more than 2^log2max cells (what: "pixels",
 * "voxels"), cells being counted by the trainer from o: exit 64 naming
 * --train-samples.
 */
void		 proxy_opts_cap(const struct proxy_opts *o, double cells,
		    int log2max, const char *what);

#endif
