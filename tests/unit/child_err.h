/*
 * child_err.h: run a function that should abort in a child process, and
 * keep what it wrote on stderr, for the tests of the out-of-memory paths.
 */
#ifndef CHILD_ERR_H
#define CHILD_ERR_H

#include <stddef.h>

/*
 * Run fn(arg) in a child with its stderr into buf (len bytes, NUL
 * terminated); the child's wait status, or -1 if it could not run.
 */
int	 child_err(void (*fn)(void *), void *arg, char *buf, size_t len);

#endif
