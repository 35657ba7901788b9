/*
 * test_report_nomem.c: memory running out anywhere in a render of a
 * report, a guideline table, the trial list, the status or the watch
 * snapshot is the request's error ("... out of memory"), never an abort,
 * a crash or a leak (ASan's leak check at exit): the daemon renders them
 * on its worker threads.
 *
 * Each render is run once for every allocation it makes, failing that
 * one (HPOD_TEST_FAIL_ALLOC=report:N, report_alloc.h, the hook hpod has
 * too): every run must return -1 with "out of memory" and no output,
 * until N is past its last allocation; that run must give the same text
 * as the render with memory.  The campaign is a small scaling campaign
 * (a spec, confirmation runs, two batch sizes, hosts, curves), so that
 * every part of the guide, the JSON report and the HTML page is drawn;
 * a second one of 2,001 trials (HTML_ALL_TRIALS + 1), only 20 with
 * parameters and curves, has the page draw densities and bands: of its
 * 5,000 allocations, mostly cJSON's for each trial's parameters, each of
 * the page's own is failed ("report-own:N"), cJSON's being swept on the
 * small campaign.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ledger.h"
#include "ledger_tmp.h"
#include "report.h"
#include "report_alloc.h"
#include "tap.h"
#include "trials_opts.h"

static const char spec[] = "{\"name\":\"nm\",\"workload\":\"minicosmo\","
    "\"objective\":{\"metric\":\"eval_error\",\"goal\":\"min\","
    "\"target\":0.2},"
    "\"space\":{\"lr\":{\"type\":\"float\",\"min\":0.001,\"max\":1,"
    "\"scale\":\"log\"},\"opt\":{\"type\":\"choice\","
    "\"values\":[\"sgd\",\"adam\"]}},"
    "\"batch_sizes\":[16,32],"
    "\"scaling\":{\"lr_rule\":\"sqrt\",\"trials_per_batch\":2,"
    "\"seeds\":2,\"min_successes\":1,\"local_batch\":16},"
    "\"budget\":{\"max_trials\":12},"
    "\"resources\":{\"tasks_per_node\":2},\"hardware\":\"rig\"}";

/*
 * Trial number of campaign cid, of batch size batch and role, ended in
 * state, its curve of epochs ending at last (none if epochs is 0, and no
 * parameters then).
 */
static void
fill_trial(struct ledger *l, int64_t cid, int number, long batch,
    const char *role, const char *state, double last, int epochs)
{
	struct ledger_trial t = { .campaign_id = cid, .number = number,
	    .batch_size = batch, .seed = number, .state = (char *)state,
	    .role = (char *)role, .created = 1000 };
	struct ledger_attempt a = { .number = 0, .dir = "/nowhere",
	    .created = 999 };
	char	 params[128], tok[32];
	int64_t	 tid = 0, aid = 0;
	int	 i, reached = last <= 0.2;

	snprintf(params, sizeof(params), "{\"lr\":%g,\"opt\":\"%s\","
	    "\"batch_size\":%ld}", 0.01 * (number % 5 + 1), number % 2 ?
	    "adam" : "sgd", batch);
	t.params_json = epochs > 0 ? params : NULL;
	snprintf(tok, sizeof(tok), "tok-%lld-%d", (long long)cid, number);
	a.token = tok;
	if (ledger_trial_insert(l, &t, &tid) == -1 || (epochs > 0 &&
	    ledger_trial_set_best(l, tid, last, epochs, reached,
	    reached ? 1000 + 10.0 * epochs : 0) == -1))
		printf("# trial %d: %s\n", number, ledger_error(l));
	a.trial_id = tid;
	if (ledger_attempt_insert(l, &a, &aid) == -1 ||
	    ledger_attempt_submitted(l, aid, "job", 999) == -1 ||
	    ledger_attempt_started(l, aid, NULL, 1000, 1, 2, 4, 0,
	    number % 2 ? "node-b" : "node-a") == -1 ||
	    (strcmp(state, "running") != 0 && ledger_attempt_finished(l, aid,
	    state, 1000 + 10.0 * epochs + 1, 0, 0, NULL) == -1))
		printf("# attempt of %d: %s\n", number, ledger_error(l));
	for (i = 1; i <= epochs; i++)
		ledger_metric_insert(l, aid, i, "eval_error", i == epochs ?
		    last : last + 0.1 * (epochs - i), 1000 + 10.0 * i);
	if (epochs > 0)
		ledger_metric_insert(l, aid, 0, "train_samples", 1000, 1000);
}

/*
 * The campaign "wide": 2,001 trials (the page draws the 500 best and
 * the others as densities and bands), 20 with parameters and curves.
 */
static void
fill_wide(struct ledger *l)
{
	struct ledger_campaign c = { .name = "wide", .workload = "minicosmo",
	    .backend = "local", .metric = "eval_error", .started = 1000,
	    .max_trials = 2001 };
	int64_t	 cid = 0;
	int	 i;

	if (ledger_campaign_insert(l, &c, &cid) == -1 ||
	    ledger_batch_open(l) == -1)
		printf("# campaign: %s\n", ledger_error(l));
	for (i = 0; i < 2001; i++)
		fill_trial(l, cid, i, 16, "search", "completed",
		    0.3 + 0.01 * (i % 7), i % 100 == 0 ? 2 + i % 3 : 0);
	if (ledger_batch_flush(l) == -1 ||
	    ledger_campaign_set_state(l, cid, "finished", 2000) == -1)
		printf("# campaign: %s\n", ledger_error(l));
}

/*
 * The campaign "nm", finished: tuning and confirmation runs of two batch
 * sizes, one failed, one pruned, one cancelled.
 */
static void
fill(struct ledger *l)
{
	struct ledger_campaign c = { .name = "nm", .workload = "minicosmo",
	    .backend = "local", .spec_json = (char *)spec,
	    .spec_path = "nm.json", .metric = "eval_error",
	    .has_target = 1, .target = 0.2, .started = 1000,
	    .max_trials = 12,
	    .workload_json = "{\"name\":\"minicosmo\","
	    "\"flops_per_sample\":1e6,"
	    "\"batch\":{\"global\":\"batch_size\",\"local\":\"lb\"}}" };
	int64_t	 cid = 0;
	int	 i;

	if (ledger_campaign_insert(l, &c, &cid) == -1)
		printf("# campaign: %s\n", ledger_error(l));
	for (i = 0; i < 10; i++)
		fill_trial(l, cid, i, i < 5 ? 16 : 32, i % 5 < 3 ? "search" :
		    "confirm", i == 4 ? "failed" : i == 9 ? "cancelled" :
		    i == 2 ? "pruned" : "completed",
		    0.15 + 0.03 * i, 3 + i % 4);
	/* Ended, so that the time now is in no figure. */
	if (ledger_campaign_set_state(l, cid, "finished", 2000) == -1)
		printf("# campaign: %s\n", ledger_error(l));
}

/* One render: a read command, or the trial list with options. */
struct render {
	const char		*cmd;
	const char		*campaign;
	enum report_format	 fmt;
	const char		*trials;	/* a trials request, JSON */
	const char		*hook;	/* "report-own": not cJSON's */
};

/* Render r; its rc, *out and err as the daemon gets them. */
static int
render(struct ledger *l, const struct render *r, char **out, char *err,
    size_t errlen)
{
	cJSON	*req;
	int	 rc;

	*out = NULL;
	err[0] = '\0';
	if (r->trials == NULL)
		return report_command(l, r->cmd, r->campaign, r->fmt, out, err,
		    errlen);
	if ((req = cJSON_Parse(r->trials)) == NULL)
		return -3;
	rc = trials_request(l, r->campaign, r->fmt, req, out, err, errlen);
	cJSON_Delete(req);
	return rc;
}

/* Cut from s what follows from up to to: the time now. */
static void
untimed(char *s, const char *from, const char *to)
{
	char	*p, *q;

	if ((p = strstr(s, from)) == NULL ||
	    (q = strstr(p + strlen(from), to)) == NULL)
		return;
	p += strlen(from);
	memmove(p, q, strlen(q) + 1);
}

/* 1 if a and b are the same text but for the time they were made. */
static int
same(char *a, char *b)
{
	untimed(a, "Written by hpoctl from the ledger, ", ".</p>");
	untimed(b, "Written by hpoctl from the ledger, ", ".</p>");
	untimed(a, "\"now\":", ",");
	untimed(b, "\"now\":", ",");
	return strcmp(a, b) == 0;
}

/* Fail each allocation of render r in turn; name says which. */
static void
sweep(struct ledger *l, const char *name, const struct render *r)
{
	char	 err[512], *ref, *out, arg[64];
	long	 k;
	int	 rc, bad = 0;

	unsetenv("HPOD_TEST_FAIL_ALLOC");
	if (render(l, r, &ref, err, sizeof(err)) != 0) {
		ok(0, "%s: renders with memory (%s)", name, err);
		return;
	}
	for (k = 1; k < 1000000; k++) {
		snprintf(arg, sizeof(arg), "%s:%ld", r->hook ? r->hook :
		    "report", k);
		setenv("HPOD_TEST_FAIL_ALLOC", arg, 1);
		if ((rc = render(l, r, &out, err, sizeof(err))) == 0)
			break;
		if (rc != -1 || out != NULL ||
		    strstr(err, "out of memory") == NULL) {
			if (bad++ < 5)
				printf("# %s: allocation %ld failed: rc %d, "
				    "err '%s'\n", name, k, rc, err);
		}
		free(out);
	}
	unsetenv("HPOD_TEST_FAIL_ALLOC");
	ok(k > 1 && bad == 0, "%s: each of %ld %sallocations may fail", name,
	    k - 1, r->hook ? "own " : "");
	ok(rc == 0 && out != NULL && same(out, ref),
	    "%s: past them, the same text", name);
	free(out);
	free(ref);
}

int
main(void)
{
	static const struct render renders[] = {
		{ "report", "nm", REPORT_TEXT, NULL, NULL },
		{ "report", "nm", REPORT_JSON, NULL, NULL },
		{ "report", "nm", REPORT_CSV, NULL, NULL },
		{ "report", "nm", REPORT_HTML, NULL, NULL },
		{ "table", "nm", REPORT_TEXT, NULL, NULL },
		{ "table", "nm", REPORT_JSON, NULL, NULL },
		{ "table", "nm", REPORT_CSV, NULL, NULL },
		{ "table", "nm", REPORT_MARKDOWN, NULL, NULL },
		{ "table", "nm", REPORT_RCP, NULL, NULL },
		{ "status", NULL, REPORT_TEXT, NULL, NULL },
		{ "status", "nm", REPORT_JSON, NULL, NULL },
		{ "status", NULL, REPORT_CSV, NULL, NULL },
		{ "watch", "nm", REPORT_JSON, NULL, NULL },
		{ "trials", "nm", REPORT_TEXT, "{}", NULL },
		{ "trials", "nm", REPORT_JSON, "{}", NULL },
		{ "trials", "nm", REPORT_CSV, "{\"state\":\"completed\"}",
		    NULL },
		{ "trials", "nm", REPORT_TEXT,
		    "{\"fields\":\"trial,lr,best,host\"}", NULL },
		{ "trials", "nm", REPORT_TEXT, "{\"parsable\":true}", NULL },
		{ "report", "wide", REPORT_HTML, NULL, "report-own" },
	};
	static const char *const fmts[] = { "text", "json", "csv",
		"markdown", "rcp", "html" };
	struct ledger	*l;
	char		 dir[64], name[128];
	size_t		 i;

	report_alloc_init();
	if ((l = ledger_tmp_open("test_report_nomem", dir, sizeof(dir))) ==
	    NULL)
		return 1;
	fill(l);
	fill_wide(l);
	for (i = 0; i < sizeof(renders) / sizeof(renders[0]); i++) {
		snprintf(name, sizeof(name), "%s %s %s%s%s", renders[i].cmd,
		    renders[i].campaign ? renders[i].campaign : "(all)",
		    fmts[renders[i].fmt], renders[i].trials ? " " : "",
		    renders[i].trials ? renders[i].trials : "");
		sweep(l, name, &renders[i]);
	}
	ledger_tmp_close(l, dir);
	return tap_done();
}
