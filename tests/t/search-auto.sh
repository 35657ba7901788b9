#!/bin/sh
# mtpe and auto through the real engine on the replay backend: auto says
# what it chose and why; mtpe with four trials at a time gives the same
# trials when run again (suggestions made while trials run are a pure
# function of seed and history); failed (diverged) trials steer mtpe away
# from the region that diverges, where tpe keeps returning to it.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A synthetic table: 12 learning rates x 2 batch sizes, 6 epochs of 10
# virtual seconds; lr >= 0.1 diverges in its first epoch, and the best
# learning rate, 0.05, borders that region.
replay_table "$T/table.json" "$(log_lrs 12 3)" "32 64" 6 10 '
	l = log(lr / 0.05) / log(10)
	v = 0.1 + 0.3 / e + 0.2 * l * l + (b == 64 ? 0.01 : 0)' 'lr >= 0.1'
SPACE='
    "lr": {"type": "float", "min": 0.001, "max": 1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}'

# campaign NAME ALGORITHM PARALLEL: 40 trials over the table.
campaign() { replay_spec "$1" "$2" 3 40 "$3" "$SPACE" 6; }
failed() {
	sql "select count(*) from trials where campaign_id = $(cid "$1") and state = 'failed'"
}

campaign auto auto 1
check "an auto campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/auto.json"
"$HPOCTL" -f "$CONF" run "$T/auto.json" >"$T/auto.out" 2>&1
check "auto says what it chose and why" \
    grep -q "search: auto chose cmtpe: the budget and 2 parameters" "$T/auto.out"
# hpoctl check says it before anything runs, in the run's words.
"$HPOCTL" -f "$CONF" check "$T/auto.json" >"$T/auto.check"
check "hpoctl check says what auto will choose" \
    grep -q "auto.json: search: auto chose cmtpe: the budget and 2 parameters" "$T/auto.check"
is "hpoctl check says what auto will choose, as the run did" \
    "$(sed -n 's/^.*auto.json: \(search: auto chose .*\)$/\1/p' "$T/auto.check")" \
    "$(sed -n 's/^.*: auto: \(search: auto chose .*\)$/\1/p' "$T/auto.out")"
is "40 trials" "$(sql "select count(*) from trials where campaign_id = $(cid auto)")" 40

campaign par mtpe 4
"$HPOCTL" -f "$CONF" run -q "$T/par.json" >/dev/null
A=$(cid par)
"$HPOCTL" -f "$CONF" run -q "$T/par.json" >/dev/null
is "mtpe, 4 at a time, run again: the same trials" "$(trials "$(cid par)")" "$(trials "$A")"

campaign ftpe tpe 1
"$HPOCTL" -f "$CONF" run -q "$T/ftpe.json" >/dev/null
campaign fmtpe mtpe 1
"$HPOCTL" -f "$CONF" run -q "$T/fmtpe.json" >/dev/null
nt=$(failed ftpe)
nm=$(failed fmtpe)
check "mtpe fails fewer trials than tpe next to a diverging region ($nm < $nt)" \
    test "$nm" -lt "$nt"

done_testing
