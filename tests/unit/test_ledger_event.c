/*
 * test_ledger_event.c: an event about one trial keeps the trial's number
 * as data (ledger_event_trial), which ledger_event_each hands back
 * whatever the message says; a ledger of schema 8, whose 'cancel_trial'
 * events carried the number in their message only, reads the same
 * numbers once migrated.
 */
#include <stdio.h>
#include <string.h>

#include "ledger.h"
#include "ledger_int.h"
#include "ledger_tmp.h"
#include "tap.h"

/* What ledger_event_each handed over: "TRIAL:MESSAGE " for each event. */
struct seen {
	char	 buf[512];
};

static void
seen_add(void *arg, int trial, const char *message)
{
	struct seen	*s = arg;
	size_t		 len = strlen(s->buf);

	snprintf(s->buf + len, sizeof(s->buf) - len, "%d:%s ", trial,
	    message);
}

/* The events of kind of campaign cid, as seen_add() writes them. */
static const char *
events_of(struct ledger *l, int64_t cid, const char *kind, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	if (ledger_event_each(l, cid, kind, seen_add, s) == -1)
		snprintf(s->buf, sizeof(s->buf), "error: %s", ledger_error(l));
	return s->buf;
}

/* Recorded with a number, read back with it, whatever the message. */
static void
test_trial_data(void)
{
	struct ledger	*l;
	struct seen	 s;
	char		 dir[64];
	int64_t		 cid;

	if ((l = ledger_tmp_open("hpod-event", dir, sizeof(dir))) == NULL)
		return;
	cid = ledger_tmp_campaign(l, "c", 4);
	ok(ledger_event_trial(l, cid, "cancel_trial", 3, "any words") == 0,
	    "an event about trial 3 is recorded");
	ok(ledger_event_trial(l, cid, "cancel_trial", 0, NULL) == 0,
	    "one about trial 0, with no message");
	ok(ledger_event(l, cid, "cancel_trial", "trial 7 cancelled on request")
	    == 0, "one about no trial, whose message names one");
	ok(ledger_event(l, cid, "cancel", "campaign cancelled") == 0,
	    "an event of another kind");
	is_str(events_of(l, cid, "cancel_trial", &s),
	    "3:any words 0: -1:trial 7 cancelled on request ",
	    "each reads back its number as recorded, never the message's");
	is_str(events_of(l, cid, "cancel", &s), "-1:campaign cancelled ",
	    "the other kind alone, about no trial");
	is_str(events_of(l, cid + 1, "cancel_trial", &s), "",
	    "another campaign has none");
	ledger_tmp_close(l, dir);
}

/* A schema-8 ledger's 'cancel_trial' events, migrated: their numbers. */
static void
test_migration(void)
{
	struct ledger	*l;
	struct seen	 s;
	char		 dir[64], path[128];

	if (ledger_tmp_dir("hpod-event-v8", dir, sizeof(dir)) == -1)
		return;
	snprintf(path, sizeof(path), "%s/v8.db", dir);
	ledger_tmp_schema(path, 8);
	ledger_tmp_sql(path, "INSERT INTO campaigns (id, name, started)"
	    " VALUES (1, 'old', 1000);"
	    "INSERT INTO events (campaign_id, time, kind, message) VALUES"
	    " (1, 1001, 'cancel_trial', 'trial 12 cancelled on request'),"
	    " (1, 1002, 'cancel', 'campaign cancelled on request'),"
	    " (1, 1003, 'cancel_trial', 'trial 0 cancelled on request'),"
	    " (1, 1004, 'cancel_trial', 'something else');");
	l = ledger_tmp_open_file(path, 0);
	is_int(ledger_schema_version(l), ledger_schema_latest(),
	    "a schema-8 ledger is migrated to the latest");
	is_str(events_of(l, 1, "cancel_trial", &s),
	    "12:trial 12 cancelled on request 0:trial 0 cancelled on request "
	    "-1:something else ",
	    "its cancel_trial events carry their trial's number as data");
	is_str(events_of(l, 1, "cancel", &s),
	    "-1:campaign cancelled on request ",
	    "an event of another kind is about no trial");
	ok(ledger_event_trial(l, 1, "cancel_trial", 5, "reworded") == 0 &&
	    strcmp(events_of(l, 1, "cancel_trial", &s) + strlen(s.buf) -
	    strlen("5:reworded "), "5:reworded ") == 0,
	    "and a new one is recorded beside them");
	ledger_close(l);
	ledger_tmp_remove(dir);
}

int
main(void)
{
	test_trial_data();
	test_migration();
	return tap_done();
}
