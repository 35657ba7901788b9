/*
 * resume.c: the campaign a foreground engine takes back (see resume.h).
 */
#include <stdio.h>
#include <string.h>

#include "resume.h"

/* The recorded spec of a campaign that may be taken back, or NULL. */
struct campaign_spec *
resume_spec(struct ledger *l, const char *path, const char *name,
    int64_t *id, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct campaign_spec	*s = NULL;

	memset(&c, 0, sizeof(c));
	switch (ledger_campaign_find(l, name, &c)) {
	case 0:
		break;
	case 1:
		snprintf(err, errlen, "%s: no campaign '%s'", path, name);
		return NULL;
	default:
		snprintf(err, errlen, "%s: %s", path, ledger_error(l));
		return NULL;
	}
	if (strcmp(c.state, "running") != 0)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld) is %s: "
		    "nothing to take back", path, c.name, (long long)c.id,
		    c.state);
	else if (c.driver == NULL || strcmp(c.driver, "foreground") != 0)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld) belongs to "
		    "the daemon, which takes it back when it starts; ask the "
		    "daemon (hpoctl cancel without --ledger)", path, c.name,
		    (long long)c.id);
	else if (c.spec_json == NULL)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld): no spec "
		    "recorded", path, c.name, (long long)c.id);
	else if ((s = spec_parse(c.spec_json, strlen(c.spec_json),
	    c.spec_path != NULL ? c.spec_path : c.name, err, errlen)) != NULL)
		*id = c.id;
	ledger_campaign_release(&c);
	return s;
}
