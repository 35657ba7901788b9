/*
 * export.c: `hpoctl export --format optuna [--ledger file] [--study name]
 * -o file campaign`.  It reads the ledger read-only (WAL lets it run next
 * to the daemon) and writes a new file; it never replaces one.  Without
 * --ledger it reads the ledger of the daemon that answers at the socket,
 * as status and report do, or the configuration's when none answers.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "client.h"
#include "config.h"
#include "export.h"
#include "export_optuna.h"
#include "ledger.h"
#include "run.h"
#include "xmalloc.h"

/*
 * The ledger to read when --ledger is not given: the one of the daemon
 * that answers at cfg's socket, as status and report read theirs, else
 * the configuration's.  *path is malloc'ed; whence says which, for the
 * messages.
 */
static void
export_ledger_find(const struct config *cfg, char **path, char *whence,
    size_t len)
{
	cJSON	*req, *reply = NULL, *j;
	char	 err[1024];

	req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "cmd", "ping");
	if (req != NULL && client_request(cfg->socket, req, &reply, err,
	    sizeof(err)) == 0 &&
	    cJSON_IsString(j = cJSON_GetObjectItem(reply, "ledger"))) {
		*path = xstrdup(j->valuestring);
		snprintf(whence, len, "the ledger of the daemon at %s",
		    cfg->socket);
	} else {
		*path = xstrdup(cfg->ledger);
		snprintf(whence, len, "the configuration's ledger (no daemon "
		    "answers at %s; give --ledger)", cfg->socket);
	}
	cJSON_Delete(req);
	cJSON_Delete(reply);
}

/* Export the campaign from the open ledger; return the exit status. */
static int
export_run(struct ledger *l, const char *path, const char *whence,
    const char *campaign, const char *study, const char *output)
{
	struct ledger_campaign	 c;
	char			 err[1024];
	int			 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = ledger_campaign_find(l, campaign, &c)) != 0) {
		if (rc == 1)
			fprintf(stderr, "hpoctl: no campaign '%s' in %s, "
			    "%s\n", campaign, whence, path);
		else
			fprintf(stderr, "hpoctl: %s\n", ledger_error(l));
		return 1;
	}
	rc = export_optuna(l, &c, study, output, err, sizeof(err));
	if (rc == -1)
		fprintf(stderr, "hpoctl: export: %s\n", err);
	ledger_campaign_release(&c);
	return rc == -1;
}

/* `hpoctl export`. */
int
export_command(int argc, char **argv, const struct config *cfg,
    char *usage_err, size_t usage_errlen)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "study", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*format = NULL, *ledger = NULL, *output = NULL;
	const char	*study = NULL;
	struct ledger	*l;
	char		 err[1024], whence[512], *path;
	int		 ch, rc;

	optind = 0;	/* GNU: start afresh, options anywhere */
	opterr = 0;	/* the refusal names the option (cli_refuse) */
	while ((ch = getopt_long(argc, argv, ":F:l:o:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'F':
			format = optarg;
			break;
		case 'l':
			ledger = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'S':
			study = optarg;
			break;
		case ':':
			snprintf(usage_err, usage_errlen, "option '%s' needs "
			    "a value", argv[optind - 1]);
			return 64;
		default:
			if (optopt != 0)
				snprintf(usage_err, usage_errlen, "unknown "
				    "option '-%c'", optopt);
			else
				snprintf(usage_err, usage_errlen, "unknown "
				    "option '%s'", argv[optind - 1]);
			return 64;
		}
	}
	if (argc - optind != 1) {
		snprintf(usage_err, usage_errlen, argc - optind == 0 ?
		    "campaign missing" : "unexpected argument '%s' (after "
		    "campaign)", argv[argc - 1]);
		return 64;
	}
	if (output == NULL) {
		snprintf(usage_err, usage_errlen, "-o file missing (export "
		    "writes a new file, never stdout)");
		return 64;
	}
	if (format == NULL || strcmp(format, "optuna") != 0) {
		snprintf(usage_err, usage_errlen, "--format: expected optuna, "
		    "got '%s'", format ? format : "");
		return 64;
	}
	if (ledger != NULL) {
		path = xstrdup(ledger);
		snprintf(whence, sizeof(whence), "the ledger --ledger names");
	} else
		export_ledger_find(cfg, &path, whence, sizeof(whence));
	if ((l = run_ledger(path, 1, err, sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s (%s)\n", err, whence);
		free(path);
		return 1;
	}
	rc = export_run(l, path, whence, argv[optind], study, output);
	ledger_close(l);
	free(path);
	return rc;
}
