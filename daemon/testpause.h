/*
 * testpause.h: pause points for crash tests only.
 *
 * When the environment variable HPOD_TEST_PAUSE names a point (or a
 * comma-separated list of points), the process stops itself with SIGSTOP
 * each time it gets there, so that a test can SIGKILL it at exactly that
 * moment.  Points: "after-claim" (a new campaign's run directory is
 * made, its record not yet committed), "after-mkdir" (a new attempt's
 * directory and params.json are made, nothing is submitted yet),
 * "after-record" (an attempt is in the ledger, nothing is submitted yet),
 * "after-submit" (the backend says it submitted the job, which the local
 * backend has started if it had the CPUs; its job id is not recorded yet)
 * "after-end" (an attempt's end is written, its trial's new state not
 * yet), "before-commit" (hpod ran a submit, budget or cancel request,
 * whose writes are not committed yet: a test may fill the ledger's file
 * system there), "before-launch-commit" (an engine wrote a new attempt
 * in its batch and commits it next, before anything of the attempt
 * exists: a test may fill the file system there) and "after-reply" (hpod queued a reply on the control
 * socket, which libuv has written already if the socket took it).
 * Never set it outside a test.
 */
#ifndef HPOD_TESTPAUSE_H
#define HPOD_TESTPAUSE_H

/* Stop here if HPOD_TEST_PAUSE names this point. */
void	 testpause_at(const char *point);

#endif
