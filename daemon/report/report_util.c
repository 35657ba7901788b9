/*
 * report_util.c: small pieces every report renderer uses (report_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_alloc.h"
#include "report_int.h"
#include "space.h"

/* report_csv_text(): see report_int.h. */
void
report_csv_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Set a number member, or null; -1 if memory ran out. */
int
report_json_number(cJSON *o, const char *k, int has, double v)
{
	char	 num[64];
	cJSON	*j;

	if (has && isfinite(v)) {
		space_shortest(v, num, sizeof(num));
		j = cJSON_CreateRaw(num);
	} else
		j = cJSON_CreateNull();
	if (j == NULL)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, k) != NULL ?
	    !cJSON_ReplaceItemInObjectCaseSensitive(o, k, j) :
	    !cJSON_AddItemToObject(o, k, j)) {
		cJSON_Delete(j);
		return -1;
	}
	return 0;
}

/*
 * Hand a cJSON tree back as text, freeing the tree; NULL if root is NULL
 * or memory ran out.
 */
char *
report_json_text(cJSON *root)
{
	char	*s = root != NULL ? cJSON_Print(root) : NULL;
	char	*out = NULL;
	size_t	 n;

	cJSON_Delete(root);
	if (s != NULL) {
		n = strlen(s);
		if ((out = report_calloc(n + 2, 1)) != NULL) {
			memcpy(out, s, n);
			out[n] = '\n';
		}
	}
	cJSON_free(s);
	return out;
}

/* Render a duration. */
void
report_duration(char *buf, size_t len, double s)
{
	long	 t;

	if (!isfinite(s)) {
		snprintf(buf, len, "-");
		return;
	}
	t = lround(s);
	if (s < 60)
		snprintf(buf, len, "%.1f s", s);
	else if (t < 3600)
		snprintf(buf, len, "%ldm %02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%ldh %02ldm %02lds", t / 3600,
		    (t / 60) % 60, t % 60);
}

/* Wall-clock time now, in seconds since the epoch. */
double
report_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
