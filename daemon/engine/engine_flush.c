/*
 * engine_flush.c: the engine's ledger writes in batches.  A campaign's
 * writes of one loop iteration (a trial's end, its metric points and
 * progress lines, the next trial's events) join one transaction, which
 * is committed before the loop waits for I/O (prepare), after the I/O
 * callbacks (check), and before a job is submitted (attempt_launch()), so
 * that an attempt is recorded before its job exists and no write waits
 * in a batch while the loop sleeps.  A crash loses at most the writes of
 * the iteration it interrupts: a job's submission, start, output and end
 * are read again from the scheduler, the attempt's output and its
 * result.json when the campaign is resumed.
 */
#include "engine_int.h"
#include "log.h"

/*
 * Commit the engine's batch, if one is open.  A commit that fails rolls
 * the batch back (ledger_batch_flush): the campaign is then as a crash
 * at this point left it, and the owner takes it back so (env.lost).
 */
int
engine_flush(struct engine *e)
{
	if (ledger_batch_flush(e->env.ledger) == 0)
		return 0;
	if (e->env.lost != NULL)
		e->env.lost(e->env.arg, e, ledger_error(e->env.ledger));
	else
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	return -1;
}

/* Open a batch for the writes that follow, unless one is open. */
void
engine_batch(struct engine *e)
{
	switch (ledger_batch_open(e->env.ledger)) {
	case -1:
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
		break;
	case 1:
		e->batch_since = uv_now(e->timer.loop);
		break;
	}
}

/*
 * Before the loop polls for I/O: flush if it may wait there, or if the
 * batch has been open for ENGINE_BATCH_MS already.
 */
static void
engine_flush_prep(uv_prepare_t *h)
{
	struct engine *e = h->data;

	if (uv_backend_timeout(h->loop) != 0 ||
	    uv_now(h->loop) - e->batch_since >= ENGINE_BATCH_MS)
		engine_flush(e);
}

/* Start the handle; it does not keep the loop alive. */
void
engine_flush_init(struct engine *e, uv_loop_t *loop)
{
	uv_prepare_init(loop, &e->flush_prep);
	e->flush_prep.data = e;
	uv_prepare_start(&e->flush_prep, engine_flush_prep);
	uv_unref((uv_handle_t *)&e->flush_prep);
	e->nopen++;
}

/*
 * Flush what is left and close the handle; cb runs when it is closed.
 * The engine is going: a failure is only logged.
 */
void
engine_flush_close(struct engine *e, uv_close_cb cb)
{
	if (ledger_batch_flush(e->env.ledger) == -1)
		log_warnx("campaign '%s': %s", e->spec->name,
		    ledger_error(e->env.ledger));
	uv_close((uv_handle_t *)&e->flush_prep, cb);
}
