/*
 * report_alloc.h: the allocations of report rendering (daemon/report,
 * daemon/html, daemon/guide).  Reports run on the daemon's worker
 * threads: memory running out there is an error of the request ("report
 * for campaign 'x': out of memory"), never an abort of the daemon, so
 * these return NULL as malloc does and every caller gives up with -1 or
 * NULL, freeing what it made.  cJSON, which drops a member it has no
 * memory for, allocates through report_alloc_init()'s hooks: a render
 * whose thread ran out anywhere is an error (report_alloc_done()).
 *
 * For tests only: when the environment variable HPOD_TEST_FAIL_ALLOC is
 * "report:N", the Nth allocation of each render, cJSON's included
 * (counted on its thread from report_alloc_arm()), fails as if memory
 * ran out; "report-own:N" counts only those of this module; "control:N"
 * the Nth of each control request answered on hpod's loop.
 */
#ifndef HPOD_REPORT_ALLOC_H
#define HPOD_REPORT_ALLOC_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/*
 * Send cJSON's allocations through this module: call once at start-up,
 * before any thread.
 */
void	 report_alloc_init(void);
/*
 * Start a render on this thread: count its allocations afresh and
 * forget that an earlier one ran out.
 */
void	 report_alloc_arm(void);
/*
 * The same for a request of hpod's control socket, answered on its loop
 * (control.c): the test's "control:N" fails the Nth allocation of each,
 * cJSON's included, until report_alloc_done() or a render's arm.
 */
void	 report_alloc_arm_control(void);
/*
 * End the render on this thread: 1 if an allocation failed since
 * report_alloc_arm().  A test's count stops here, so that it fails no
 * allocation of what the thread does next (on hpod's loop: the control
 * socket).
 */
int	 report_alloc_done(void);
/*
 * How many allocations of this module and cJSON's failed on this thread
 * so far (never reset: compare two readings).  hpod's control socket
 * answers "out of memory" to a request during which one failed.
 */
unsigned long report_alloc_failures(void);
/* calloc, reallocarray and strdup (NULL stays NULL); NULL when out. */
void	*report_calloc(size_t nmemb, size_t size);
void	*report_reallocarray(void *p, size_t nmemb, size_t size);
char	*report_strdup(const char *s);
/* open_memstream(); NULL when out. */
FILE	*report_memstream(char **buf, size_t *len);
/*
 * Close f, a stream of report_memstream() over *buf: 0, or -1 with *buf
 * freed and NULL if memory ran out while it was written.
 */
int	 report_memstream_close(FILE *f, char **buf);
/*
 * Add item to object parent as member k, or to array parent if k is
 * NULL; -1 with item deleted if it is NULL or memory ran out.
 */
int	 report_json_add(cJSON *parent, const char *k, cJSON *item);

#endif
