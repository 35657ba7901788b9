/*
 * report_alloc.c: allocations of report rendering that return NULL when
 * memory runs out, and the test-only failure of the Nth of them
 * (report_alloc.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_alloc.h"

/*
 * A render runs on one thread from report_alloc_arm() on: the
 * allocations left before the one a test fails (0: none fails), whether
 * cJSON's count, and whether one failed.
 */
static _Thread_local long	 report_alloc_left;
static _Thread_local int	 report_alloc_json_too;
static _Thread_local int	 report_alloc_out;
/* Allocations that failed on this thread, ever (report_alloc_failures). */
static _Thread_local unsigned long report_alloc_nfailed;

/*
 * Read HPOD_TEST_FAIL_ALLOC for what starts on this thread: "SCOPE:N"
 * counts every allocation, "SCOPE-own:N" those of this module only.
 */
static void
report_alloc_arm_scope(const char *scope)
{
	const char	*v = getenv("HPOD_TEST_FAIL_ALLOC"), *num;
	char		*end;
	size_t		 k = strlen(scope);
	long		 n;

	report_alloc_left = 0;
	report_alloc_out = 0;
	if (v == NULL || strncmp(v, scope, k) != 0)
		return;
	if (v[k] == ':')
		num = v + k + 1;
	else if (strncmp(v + k, "-own:", 5) == 0)
		num = v + k + 5;
	else
		return;
	errno = 0;
	n = strtol(num, &end, 10);
	if (errno == 0 && *end == '\0' && n > 0) {
		report_alloc_left = n;
		report_alloc_json_too = num == v + k + 1;
	}
}

/* A new render: "report:N", "report-own:N". */
void
report_alloc_arm(void)
{
	report_alloc_arm_scope("report");
}

/* A control request on hpod's loop: "control:N". */
void
report_alloc_arm_control(void)
{
	report_alloc_arm_scope("control");
}

/* Stop counting; 1 if the render ran out of memory. */
int
report_alloc_done(void)
{
	report_alloc_left = 0;
	return report_alloc_out;
}

/* 1 if the test fails this allocation, cJSON's if json (errno ENOMEM). */
static int
report_alloc_fails(int json)
{
	if (report_alloc_left == 0 || (json && !report_alloc_json_too) ||
	    --report_alloc_left > 0)
		return 0;
	errno = ENOMEM;
	report_alloc_out = 1;
	report_alloc_nfailed++;
	return 1;
}

/* p, the result of an allocation: remember a NULL. */
static void *
report_alloc_got(void *p)
{
	if (p == NULL) {
		report_alloc_out = 1;
		report_alloc_nfailed++;
	}
	return p;
}

/* How many allocations failed on this thread so far. */
unsigned long
report_alloc_failures(void)
{
	return report_alloc_nfailed;
}

/* cJSON's malloc. */
static void *
report_alloc_json(size_t size)
{
	return report_alloc_fails(1) ? NULL : report_alloc_got(malloc(size));
}

/* Install cJSON's hooks. */
void
report_alloc_init(void)
{
	cJSON_Hooks	 h = { report_alloc_json, free };

	cJSON_InitHooks(&h);
}

/* calloc(nmemb, size), or NULL. */
void *
report_calloc(size_t nmemb, size_t size)
{
	return report_alloc_fails(0) ? NULL :
	    report_alloc_got(calloc(nmemb, size));
}

/* reallocarray(p, nmemb, size), or NULL (p is kept then). */
void *
report_reallocarray(void *p, size_t nmemb, size_t size)
{
	return report_alloc_fails(0) ? NULL :
	    report_alloc_got(reallocarray(p, nmemb, size));
}

/* strdup(s), or NULL; NULL stays NULL. */
char *
report_strdup(const char *s)
{
	if (s == NULL || report_alloc_fails(0))
		return NULL;
	return report_alloc_got(strdup(s));
}

/* open_memstream(buf, len), or NULL. */
FILE *
report_memstream(char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	return report_alloc_fails(0) ? NULL :
	    report_alloc_got(open_memstream(buf, len));
}

/*
 * Close f, a stream of report_memstream() over *buf: 0, or -1 with *buf
 * freed and NULL if memory ran out while it was written.
 */
int
report_memstream_close(FILE *f, char **buf)
{
	int	 bad = ferror(f);

	if (fclose(f) != 0 || bad || *buf == NULL) {
		free(*buf);
		*buf = NULL;
		report_alloc_out = 1;
		return -1;
	}
	return 0;
}

/* Add item to parent (k NULL: an array); -1 with item deleted if not. */
int
report_json_add(cJSON *parent, const char *k, cJSON *item)
{
	if (item != NULL && (k != NULL ? cJSON_AddItemToObject(parent, k,
	    item) : cJSON_AddItemToArray(parent, item)))
		return 0;
	cJSON_Delete(item);
	report_alloc_out = 1;
	return -1;
}
