/*
 * pilot_agent.h: hpo-trial's agent mode (hpo-trial --pilot FILE -i PILOT
 * -n SLOTS), which runs inside a pilot allocation: it asks hpod for jobs
 * over TCP (pilot_proto.h) and runs each through `hpo-trial -j job.json`,
 * up to SLOTS at once, until hpod says drain.
 */
#ifndef HPOD_PILOT_AGENT_H
#define HPOD_PILOT_AGENT_H

/* Run the agent; argv[1] is "--pilot".  Returns the exit status. */
int	 pilot_agent_main(int argc, char **argv);

#endif
