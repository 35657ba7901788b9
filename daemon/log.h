/*
 * log.h: logging for hpod and hpoctl, after OpenBSD's log.c.
 * Messages go to stderr until log_init() says otherwise (syslog for a
 * daemon that went to the background).
 */
#ifndef HPOD_LOG_H
#define HPOD_LOG_H

#include <stdarg.h>

/* to_stderr: 1 keeps stderr, 0 sends messages to syslog; verbose: 0..2. */
void	 log_init(const char *progname, int to_stderr, int verbose);
void	 log_setverbose(int);
void	 log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
/* Log and exit(1): start-up failures and broken invariants only. */
void	 fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
