/*
 * slowreq.h: status, report and trials requests answered on a worker
 * thread with a read-only ledger connection of their own (slowreq.c).
 */
#ifndef HPOD_SLOWREQ_H
#define HPOD_SLOWREQ_H

#include <cjson/cJSON.h>
#include <uv.h>

#include "control.h"
#include "report.h"

/*
 * From inside ctl's handler: answer req (its "cmd" is "status", "report"
 * or "trials", checked by the caller) later, from the ledger at path.
 * -1 if no work could be queued (the caller answers then).
 */
int	 slowreq_start(uv_loop_t *, struct control *, const char *ledger,
	    const cJSON *req, enum report_format);

#endif
