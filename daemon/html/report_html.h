/*
 * report_html.h: a campaign's report as one self-contained HTML page
 * (`hpoctl report --format html`): inline CSS and hand-written SVG, no
 * script and no external resource.
 */
#ifndef HPOD_REPORT_HTML_H
#define HPOD_REPORT_HTML_H

#include <stddef.h>

struct guide;

/*
 * Render the campaign of g from the structures that `report --format
 * json` and `report --table --format json` are built from.  Every number
 * the page shows from them is marked with the path of its JSON member
 * (data-key="cost.gpu_hours", data-key="table.rows.0.runs") and its exact
 * value (data-value).  The curves of the best value against the cost come
 * from the attempts and objective points the guide read from the ledger.
 * Return the page (malloc'ed), or NULL if memory ran out.
 */
char	*report_html(const struct guide *g);

#endif
