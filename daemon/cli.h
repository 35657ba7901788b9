/*
 * cli.h: what every program and subcommand does the same way: --help,
 * --version, and a reason on stderr whenever an argument is refused.
 */
#ifndef HPOD_CLI_H
#define HPOD_CLI_H

/* Exit status of a refused command line (sysexits' EX_USAGE). */
#define CLI_EX_USAGE	64

/* Print "prog VERSION (backends)" on stdout. */
void	 cli_version(const char *prog);
/*
 * If argv (up to a "--") holds --help or --version, print usage or the
 * version on stdout and exit 0.  usage is the text after "usage: ".
 */
void	 cli_help_version(int argc, char **argv, const char *prog,
	    const char *usage);
/* Print "prog: reason" and the usage on stderr, and exit 64. */
void	 cli_refuse(const char *prog, const char *usage, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4), noreturn));

#endif
