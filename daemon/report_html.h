/*
 * report_html.h: a campaign's report as one self-contained HTML page
 * (`hpoctl report --format html`): inline CSS and hand-written SVG, no
 * script and no external resource.
 */
#ifndef HPOD_REPORT_HTML_H
#define HPOD_REPORT_HTML_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ledger.h"

struct guide;

/*
 * Render the campaign of g.  report is the tree of `report --format json`
 * (borrowed); the guideline table is that of `report --table --format
 * json`.  Every number the page takes from them is marked with its path
 * (data-key="cost.gpu_hours", data-key="table.rows.0.runs") and its exact
 * value (data-value).  The curves of the best value against the cost come
 * from the ledger's attempts and metrics.  Return 0 with *out (malloc'ed),
 * -1 on a ledger error (err says so).
 */
int	 report_html(struct ledger *, const struct guide *g,
	    const cJSON *report, char **out, char *err, size_t errlen);

#endif
