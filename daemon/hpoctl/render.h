/*
 * render.h: `hpoctl render SPEC [--trial N] [--format text|json]
 * [--run-dir DIR]`: what trial N of a campaign would run (argument
 * vector, environment, resources, directory) without submitting anything
 * or touching a ledger.
 */
#ifndef HPOD_RENDER_H
#define HPOD_RENDER_H

#include "config.h"

/* Run the command; argv[0] is "render".  Return the exit status. */
int	 render_command(int argc, char **argv, const struct config *);

#endif
