#!/bin/sh
# tpe-optuna.sh: the CPU time of one TPE suggestion, hpod's
# (tests/bench/tpe-suggest.c: tpe, and mtpe over the same history)
# against Optuna's TPESampler (tests/bench/optuna_suggest.py, Debian's
# python3-optuna run by /usr/bin/python3), over the same space and the
# same kind of history of N completed trials (make bench).  Optuna's
# column says "-" when /usr/bin/python3 cannot import optuna, or above
# OPTUNA_MAX trials (default 20000: Optuna's suggestion grows linearly,
# about 0.5 s at 20,000, and its study of 10^6 trials would take hours
# to build).
#
#   tests/bench/tpe-optuna.sh [BUILD]
#
# TPE_SIZES (default "100 1000 5000 10000 20000 100000 1000000") and REPS
# (default 5) in the environment replace the history sizes and
# suggestions timed per size.  hpod's tpe is exact up to 4,096 trials in
# a group and binned above (search/parzen_bin.c).  Its suggestions are
# timed as the engine makes them: each after one more trial completed,
# with the log of what changed, so tpe folds in the new trial instead of
# reading the whole history (search/tpe_fold.c); "first" is the first
# suggestion over the N trials at once (one pass, as a resumed campaign's
# first suggestion).
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TPE_SIZES=${TPE_SIZES:-"100 1000 5000 10000 20000 100000 1000000"}
REPS=${REPS:-5}
OPTUNA_MAX=${OPTUNA_MAX:-20000}
have_optuna=0
/usr/bin/python3 -c 'import optuna' 2>/dev/null && have_optuna=1
printf 'tpe: CPU ms per suggestion (median of %d), 3 parameters\n' "$REPS"
printf '| trials | hpod tpe | hpod tpe, first | hpod mtpe | optuna %s |\n' \
    "$([ $have_optuna = 1 ] &&
    /usr/bin/python3 -c 'import optuna; print(optuna.__version__)' ||
    echo '(not installed)')"
printf '|---|---|---|---|---|\n'
for n in $TPE_SIZES; do
	hf=$("$TOP/$BUILD/bench/tpe-suggest" "$n" "$REPS")
	h=$(echo "$hf" | awk '{ print $2 }')
	f=$(echo "$hf" | awk '{ print $4 }')
	m=$("$TOP/$BUILD/bench/tpe-suggest" "$n" "$REPS" mtpe |
	    awk '{ print $2 }')
	o=-
	[ $have_optuna = 0 ] || [ "$n" -gt "$OPTUNA_MAX" ] ||
	    o=$(/usr/bin/python3 "$TOP/tests/bench/optuna_suggest.py" \
	    "$n" "$REPS" | awk '{ print $2 }')
	printf '| %d | %s | %s | %s | %s |\n' "$n" "$h" "$f" "$m" "$o"
done
