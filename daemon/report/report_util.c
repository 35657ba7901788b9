/*
 * report_util.c: small pieces every report renderer uses (report_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "report_int.h"
#include "space.h"
#include "xmalloc.h"

/* Set a number member, or null. */
void
report_json_number(cJSON *o, const char *k, int has, double v)
{
	char	 num[64];
	cJSON	*j;

	if (has && isfinite(v)) {
		space_shortest(v, num, sizeof(num));
		j = cJSON_CreateRaw(num);
	} else
		j = cJSON_CreateNull();
	xneed(j, "report: a number");
	if (cJSON_GetObjectItemCaseSensitive(o, k) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(o, k, j);
	else
		cJSON_AddItemToObject(o, k, j);
}

/* Hand a cJSON tree back as text, freeing the tree. */
char *
report_json_text(cJSON *root)
{
	char	*s = cJSON_Print(root);
	char	*out;

	cJSON_Delete(root);
	out = xasprintf("%s\n", (char *)xneed(s, "report: the JSON text"));
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
