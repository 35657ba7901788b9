/*
 * log.c: stderr or syslog logging with a verbosity level.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

/* The logger's settings: part of the process's top-level state. */
static struct {
	const char	*progname;
	int		 to_stderr;
	int		 verbose;
} logstate = { "hpod", 1, 0 };

/* Choose where messages go and how many. */
void
log_init(const char *progname, int to_stderr, int verbose)
{
	logstate.progname = progname;
	logstate.to_stderr = to_stderr;
	logstate.verbose = verbose;
	if (!to_stderr)
		openlog(progname, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

/* Change the verbosity (SIGHUP may change it). */
void
log_setverbose(int v)
{
	logstate.verbose = v;
}

/* Write one message at a syslog priority. */
static void
log_vwrite(int pri, const char *fmt, va_list ap)
{
	char		 buf[2048];
	struct timespec	 ts;
	struct tm	 tm;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!logstate.to_stderr) {
		syslog(pri, "%s", buf);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	fprintf(stderr, "%02d:%02d:%02d %s: %s\n", tm.tm_hour, tm.tm_min,
	    tm.tm_sec, logstate.progname, buf);
	fflush(stderr);
}

/* A warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_WARNING, fmt, ap);
	va_end(ap);
}

/* An informational message, shown with -v. */
void
log_info(const char *fmt, ...)
{
	va_list ap;

	if (logstate.verbose < 1)
		return;
	va_start(ap, fmt);
	log_vwrite(LOG_INFO, fmt, ap);
	va_end(ap);
}

/* A debugging message, shown with -vv. */
void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (logstate.verbose < 2)
		return;
	va_start(ap, fmt);
	log_vwrite(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

/* Log an error and exit. */
void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}
