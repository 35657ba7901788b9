#!/bin/sh
# mtpe over a long replayed campaign is reproducible: past 4,096 trials
# in its bad group the joint kernels are merged into grid cells
# (search/mtpe_grid.c), and the same spec replayed twice records the same
# trials, the same points to the last digit, the same states, values and
# costs.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

replay_twice mtpe "${REPLAY_MTPE_TRIALS:-4400}"
done_testing
