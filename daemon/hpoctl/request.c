/*
 * request.c: hpoctl's requests to the daemon or a ledger (see request.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "client.h"
#include "request.h"
#include "run.h"
#include "trials_opts.h"

/* Write a command's output to the file of -o, or to the standard output. */
int
request_output(const char *path, const char *text)
{
	FILE	*f;

	if (path == NULL) {
		fputs(text, stdout);
		return 0;
	}
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "hpoctl: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fputs(text, f);
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "hpoctl: write %s: %s\n", path,
		    strerror(errno));
		return 1;
	}
	return 0;
}

/* status/trials/report straight from a ledger file, as req asks. */
int
request_ledger(const char *cmd, const char *path, const char *campaign,
    enum report_format fmt, const cJSON *req, const char *output)
{
	struct ledger	*l;
	char		 err[1024], *out = NULL;
	int		 rc;

	if ((l = run_ledger(path, 1, err, sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	if (strcmp(cmd, "trials") == 0)
		rc = trials_request(l, campaign, fmt, req, &out, err,
		    sizeof(err));
	else
		rc = report_command(l, cmd, campaign, fmt, &out, err,
		    sizeof(err));
	ledger_close(l);
	if (rc != 0) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return rc == -2 ? CLI_EX_USAGE : 1;
	}
	rc = request_output(output, out);
	free(out);
	return rc;
}

/* Send a request to the daemon and print its output (to output if set). */
int
request_daemon(const char *socket, cJSON *req, const char *output)
{
	cJSON		*reply = NULL, *j;
	char		 err[1024];
	int		 rc = 1;

	if (client_request(socket, req, &reply, err, sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		cJSON_Delete(req);
		return 1;
	}
	cJSON_Delete(req);
	if (!cJSON_IsTrue(cJSON_GetObjectItem(reply, "ok"))) {
		j = cJSON_GetObjectItem(reply, "error");
		fprintf(stderr, "hpoctl: %s\n", cJSON_IsString(j) ?
		    j->valuestring : "the daemon gave no reason");
		if (cJSON_IsTrue(cJSON_GetObjectItem(reply, "usage")))
			rc = CLI_EX_USAGE;
	} else {
		j = cJSON_GetObjectItem(reply, "output");
		rc = cJSON_IsString(j) ? request_output(output,
		    j->valuestring) : 0;
	}
	cJSON_Delete(reply);
	return rc;
}
