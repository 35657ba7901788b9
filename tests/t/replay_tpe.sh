#!/bin/sh
# TPE over a long replayed campaign is reproducible: tpe keeps the
# history folded between suggestions (search/tpe_fold.c, fed by the
# obsbook's log of what changed), its bad group binned past 4,096
# trials, and the same spec replayed twice records the same trials, the
# same points to the last digit, the same states, values and costs.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

replay_twice tpe "${REPLAY_TPE_TRIALS:-4400}"
done_testing
