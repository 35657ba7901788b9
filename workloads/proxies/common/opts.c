/*
 * opts.c: the command line of a proxy trainer: the options they all take
 * and the checks between them; a trainer's own options go to its callback.
 */
#include <stdio.h>
#include <stdlib.h>

#include "opts.h"
#include "proxy.h"

/* Print cli's usage on f and exit with status. */
_Noreturn void
proxy_usage(const struct proxy_cli *cli, FILE *f, int status)
{
	fputs(cli->usage, f);
	exit(status);
}

/* Take common option ch; 0, or -1 if ch is not one. */
static int
proxy_opt_take(struct proxy_opts *o, const struct proxy_cli *cli, int ch,
    const char *arg)
{
	switch (ch) {
	case 'l':
		o->lr = parse_real("lr", arg, 0, 1e3);
		if (o->lr <= 0)
			bad_option("lr", arg, "must be > 0");
		break;
	case 'b':
		o->batch = parse_int("batch-size", arg, 1, 65536);
		break;
	case 'e':
		o->epochs = parse_int("epochs", arg, 1, 10000);
		break;
	case 'w':
		o->warmup = parse_real("warmup-epochs", arg, 0, 10000);
		break;
	case 'd':
		o->wdecay = parse_real("weight-decay", arg, 0, 1);
		break;
	case 's':
		o->seed = parse_seed("seed", arg);
		break;
	case 't':
		o->target = parse_real("target", arg, 0, cli->target_max);
		break;
	case 'n':
		o->ntrain = parse_int("train-samples", arg, 1, 65536);
		break;
	case 'v':
		o->neval = parse_int("eval-samples", arg, 1, 65536);
		break;
	case 'g':
		o->grid = parse_int("grid", arg, cli->grid_min, cli->grid_max);
		if (cli->grid_even && o->grid % 2 != 0)
			bad_option("grid", arg, "must be even");
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * Parse argv into o, which holds the defaults, and the trainer's own
 * options through cli; exit 0 after --help, 64 on bad usage.
 */
void
proxy_opts_parse(struct proxy_opts *o, const struct proxy_cli *cli,
    int argc, char **argv)
{
	char	 arg[16];
	int	 ch;

	while ((ch = getopt_long(argc, argv, "h", cli->longopts, NULL)) !=
	    -1) {
		if (ch == 'h')
			proxy_usage(cli, stdout, 0);
		if (ch == '?' || ch == ':')
			proxy_usage(cli, stderr, EXIT_USAGE);
		if (proxy_opt_take(o, cli, ch, optarg) == -1)
			cli->take(cli->own, ch, optarg);
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", proxy_prog(),
		    argv[optind]);
		proxy_usage(cli, stderr, EXIT_USAGE);
	}
	if (o->batch > o->ntrain) {
		snprintf(arg, sizeof(arg), "%d", o->batch);
		bad_option("batch-size", arg,
		    "must not exceed --train-samples");
	}
}

/* Refuse more than 2^log2max cells of data: exit 64 naming --train-samples. */
void
proxy_opts_cap(const struct proxy_opts *o, double cells, int log2max,
    const char *what)
{
	char	 arg[16], why[80];

	if (cells <= (double)(1L << log2max))
		return;
	snprintf(arg, sizeof(arg), "%d", o->ntrain);
	snprintf(why, sizeof(why), "too many %s with this --grid (max 2^%d)",
	    what, log2max);
	bad_option("train-samples", arg, why);
}
