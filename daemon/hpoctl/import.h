/*
 * import.h: `hpoctl import`, a campaign spec warm-started from an Optuna
 * study or another hpod campaign's trials (the spec's "prior").
 */
#ifndef HPOD_IMPORT_H
#define HPOD_IMPORT_H

/* Run `hpoctl import` (argv[0] is "import"); return the exit status. */
int	 import_command(int argc, char **argv);

#endif
