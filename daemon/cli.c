/*
 * cli.c: --help, --version and refused arguments, the same everywhere.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "version.h"

/* The backends this build has. */
#ifdef HPOD_NO_SLURM
#define CLI_BACKENDS	"local, replay; built without libslurm"
#else
#define CLI_BACKENDS	"local, replay, slurm"
#endif

void
cli_version(const char *prog)
{
	printf("%s %s (backends: %s)\n", prog, HPOD_VERSION, CLI_BACKENDS);
}

void
cli_help_version(int argc, char **argv, const char *prog, const char *usage)
{
	int	 i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		if (strcmp(argv[i], "--help") == 0) {
			printf("usage: %s\n", usage);
			exit(0);
		}
		if (strcmp(argv[i], "--version") == 0) {
			cli_version(prog);
			exit(0);
		}
	}
}

void
cli_refuse(const char *prog, const char *usage, const char *fmt, ...)
{
	va_list	 ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s\n", usage);
	exit(CLI_EX_USAGE);
}
