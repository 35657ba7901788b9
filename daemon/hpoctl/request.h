/*
 * request.h: hpoctl's read and control requests, sent to the daemon or
 * answered from a ledger file, their output written where -o says.
 */
#ifndef HPOD_REQUEST_H
#define HPOD_REQUEST_H

#include <cjson/cJSON.h>

#include "report.h"

/* Write a command's output to path, or to the standard output (NULL). */
int	 request_output(const char *path, const char *text);
/*
 * Answer status/trials/report (cmd) about campaign from the ledger file
 * at path, as req asks, into output (NULL: the standard output).
 */
int	 request_ledger(const char *cmd, const char *path, const char *campaign,
	    enum report_format fmt, const cJSON *req, const char *output);
/*
 * Send req (taken) to the daemon at socket and print its output (to
 * output if set).  0, or 1 with the error on stderr.
 */
int	 request_daemon(const char *socket, cJSON *req, const char *output);

#endif
