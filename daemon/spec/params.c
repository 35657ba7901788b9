/*
 * params.c: conversion between points of the space and their JSON form.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "params.h"

/*
 * The JSON object of a point.  Numbers are written in their shortest exact
 * form (cJSON's own printing may drop the last bit), so that the ledger
 * holds exactly the values the trial received.
 */
char *
params_to_json(const struct space *sp, const double *x)
{
	cJSON			*o = cJSON_CreateObject();
	const struct param_def	*p;
	char			*s, num[64];
	size_t			 i;

	for (i = 0; i < sp->n; i++) {
		p = &sp->params[i];
		if (p->type == PARAM_CHOICE && p->choices[(size_t)x[i]].is_string)
			cJSON_AddStringToObject(o, p->name,
			    p->choices[(size_t)x[i]].str);
		else {
			space_format(sp, i, x[i], num, sizeof(num));
			cJSON_AddRawToObject(o, p->name, num);
		}
	}
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

/* The coordinate of one JSON value for parameter p; -1 if none. */
static int
params_coord(const struct param_def *p, const cJSON *j, double *x)
{
	size_t	 k;

	if (p->type != PARAM_CHOICE) {
		if (!cJSON_IsNumber(j))
			return -1;
		*x = j->valuedouble;
		return 0;
	}
	for (k = 0; k < p->nchoices; k++) {
		if (p->choices[k].is_string ? cJSON_IsString(j) &&
		    strcmp(j->valuestring, p->choices[k].str) == 0 :
		    cJSON_IsNumber(j) && j->valuedouble == p->choices[k].num) {
			*x = (double)k;
			return 0;
		}
	}
	return -1;
}

/* Recover a point from JSON. */
int
params_from_json(const struct space *sp, const char *json, double *x,
    char *err, size_t errlen)
{
	cJSON	*o = cJSON_Parse(json);
	size_t	 i;
	int	 rc = 0;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "parameters are not a JSON object");
		cJSON_Delete(o);
		return -1;
	}
	for (i = 0; i < sp->n && rc == 0; i++) {
		const cJSON *j = cJSON_GetObjectItemCaseSensitive(o,
		    sp->params[i].name);

		if (j == NULL || params_coord(&sp->params[i], j, &x[i]) == -1 ||
		    !space_contains(sp, i, x[i])) {
			snprintf(err, errlen, "parameter '%s' is missing or "
			    "outside the space", sp->params[i].name);
			rc = -1;
		}
	}
	cJSON_Delete(o);
	return rc;
}
