/*
 * watch_trials.c: the running and the most recent trials of a campaign,
 * for the snapshot of `hpoctl watch` and its table on a terminal.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report_alloc.h"
#include "watch_trials.h"
#include "state.h"

/* The trials shown: running ones, then the others, newest first. */
static size_t
wt_pick(const struct ledger_trial *t, size_t n, size_t *pick)
{
	size_t	 i, k = 0;

	for (i = n; i-- > 0 && k < WATCH_TRIALS_MAX;)
		if (trial_state_parse(t[i].state) == TRIAL_RUNNING)
			pick[k++] = i;
	for (i = n; i-- > 0 && k < WATCH_TRIALS_MAX;)
		if (trial_state_parse(t[i].state) != TRIAL_RUNNING)
			pick[k++] = i;
	return k;
}

/* One trial's row: its last attempt, its last evaluation. */
static cJSON *
wt_row(const struct ledger_trial *t, const struct ledger_attempt *a,
    size_t na, const struct ledger_metric *m, size_t nm, double now)
{
	const struct ledger_attempt	*last = NULL;
	cJSON				*o = cJSON_CreateObject();
	double				 epoch = NAN, end;
	size_t				 i;

	for (i = 0; i < na; i++)
		if (a[i].trial_number == t->number)
			last = &a[i];
	for (i = 0; i < nm; i++)
		if (m[i].trial_number == t->number && last != NULL &&
		    m[i].attempt_id == last->id)
			epoch = m[i].step;
	cJSON_AddNumberToObject(o, "trial", t->number);
	cJSON_AddStringToObject(o, "state", t->state);
	cJSON_AddNumberToObject(o, "attempts", t->attempts);
	if (last != NULL && last->host != NULL)
		cJSON_AddStringToObject(o, "host", last->host);
	else
		cJSON_AddNullToObject(o, "host");
	if (last != NULL && last->started > 0) {
		end = last->ended > 0 ? last->ended : now;
		cJSON_AddNumberToObject(o, "elapsed_s", end > last->started ?
		    end - last->started : 0);
	} else
		cJSON_AddNullToObject(o, "elapsed_s");
	if (isfinite(epoch))
		cJSON_AddNumberToObject(o, "epoch", epoch);
	else
		cJSON_AddNullToObject(o, "epoch");
	if (t->has_best && isfinite(t->best))
		cJSON_AddNumberToObject(o, "value", t->best);
	else
		cJSON_AddNullToObject(o, "value");
	if (t->params_json != NULL)
		report_json_add(o, "params", cJSON_Parse(t->params_json));
	return o;
}

/* Add the running and most recent trials to the snapshot. */
int
watch_trials_json(struct ledger *l, const struct ledger_campaign *c,
    double now, cJSON *root, char *err, size_t errlen)
{
	struct ledger_trial	*t = NULL;
	struct ledger_attempt	*a = NULL;
	struct ledger_metric	*m = NULL;
	size_t			 nt = 0, na = 0, nm = 0, i, k;
	size_t			 pick[WATCH_TRIALS_MAX];
	cJSON			*arr;
	int			 rc = -1;

	if (ledger_trial_list(l, c->id, &t, &nt) == -1 ||
	    ledger_attempt_list(l, c->id, 0, &a, &na) == -1 ||
	    ledger_metric_list(l, c->id, c->metric ? c->metric : "", &m,
	    &nm) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		goto done;
	}
	arr = cJSON_AddArrayToObject(root, "recent");
	k = wt_pick(t, nt, pick);
	for (i = 0; i < k; i++)
		report_json_add(arr, NULL, wt_row(&t[pick[i]], a, na, m, nm,
		    now));
	rc = 0;
 done:
	ledger_trial_list_free(t, nt);
	ledger_attempt_list_free(a, na);
	ledger_metric_list_free(m, nm);
	return rc;
}

/* A number of a row, or "-". */
static void
wt_num(char *buf, size_t len, const cJSON *o, const char *k, const char *fmt)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(o, k);

	if (cJSON_IsNumber(j))
		snprintf(buf, len, fmt, j->valuedouble);
	else
		snprintf(buf, len, "-");
}

/* The parameters as "lr=0.01 batch_size=64". */
static void
wt_params(FILE *f, const cJSON *p)
{
	const cJSON	*j;
	char		*s;

	cJSON_ArrayForEach(j, p) {
		if (cJSON_IsString(j))
			fprintf(f, " %s=%s", j->string, j->valuestring);
		else if (cJSON_IsNumber(j))
			fprintf(f, " %s=%.6g", j->string, j->valuedouble);
		else if ((s = cJSON_PrintUnformatted(j)) != NULL) {
			fprintf(f, " %s=%s", j->string, s);
			cJSON_free(s);
		}
	}
}

/*
 * The header of the step column: the snapshot's epoch_unit in the
 * singular, in capitals ("EPOCH", "SAMPLE"); "EPOCH" when it has none.
 */
static void
wt_unit(const cJSON *snap, char *buf, size_t len)
{
	const cJSON	*u;
	size_t		 i, n;

	u = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    snap, "campaign"), "epoch_unit");
	snprintf(buf, len, "%s", cJSON_IsString(u) && *u->valuestring !=
	    '\0' ? u->valuestring : "epochs");
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == 's')
		buf[--n] = '\0';
	for (i = 0; i < n; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
}

/* Print the table of a snapshot's "recent" member. */
void
watch_trials_print(FILE *f, const cJSON *snap)
{
	const cJSON	*rows = cJSON_GetObjectItemCaseSensitive(snap, "recent");
	const cJSON	*r, *h, *m;
	char		 el[32], ep[32], v[32], unit[32];

	m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    snap, "campaign"), "metric");
	if (cJSON_GetArraySize(rows) == 0)
		return;
	wt_unit(snap, unit, sizeof(unit));
	fprintf(f, "\n%5s  %-9s  %3s  %-12s  %9s  %6s  %12s  %s\n", "TRIAL",
	    "STATE", "ATT", "HOST", "ELAPSED-S", unit,
	    cJSON_IsString(m) ? m->valuestring : "value", "PARAMETERS");
	cJSON_ArrayForEach(r, rows) {
		h = cJSON_GetObjectItemCaseSensitive(r, "host");
		wt_num(el, sizeof(el), r, "elapsed_s", "%.1f");
		wt_num(ep, sizeof(ep), r, "epoch", "%g");
		wt_num(v, sizeof(v), r, "value", "%.6g");
		fprintf(f, "%5.0f  %-9s  %3.0f  %-12.12s  %9s  %6s  %12s ",
		    cJSON_GetObjectItemCaseSensitive(r, "trial")->valuedouble,
		    cJSON_GetObjectItemCaseSensitive(r, "state")->valuestring,
		    cJSON_GetObjectItemCaseSensitive(r, "attempts")->valuedouble,
		    cJSON_IsString(h) ? h->valuestring : "-", el, ep, v);
		wt_params(f, cJSON_GetObjectItemCaseSensitive(r, "params"));
		fprintf(f, "\n");
	}
}
