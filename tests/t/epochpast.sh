#!/bin/sh
# A point whose epoch_num is past the last epoch a trial can reach (its
# fixed epochs, or 1e9 when it has none) would count as its epochs to the
# target, as a negative one would: the line is reported with its file and
# line and ignored, and the points around it are recorded.  Before, an
# epoch_num of 1e300 was recorded and became the trial's epoch on target.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/bin/ep.sh" <<'SH'
ml() {
	echo ":::MLLOG {\"key\": \"eval_error\", \"value\": $1, \"metadata\": {\"epoch_num\": $2}}"
}
case $1 in
1) ml 0.5 1; ml 0.05 1e300; ml 0.3 2 ;;
2) ml 0.6 1; ml 0.04 4; ml 0.08 3 ;;
esac
SH
# ep takes {epochs} (3): its trials reach epoch 3 at most.
cat >"$T/wl/ep.json" <<JSON
{"name": "ep", "program": "sh", "args": ["$T/bin/ep.sh", "{value}", "{epochs}"],
 "defaults": {"value": 1, "epochs": 3}}
JSON
# nap has no epochs: only 1e9 bounds them.
cat >"$T/wl/nap.json" <<JSON
{"name": "nap", "program": "sh", "args": ["$T/bin/ep.sh", "{value}"],
 "defaults": {"value": 1}}
JSON
campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "$2",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "choice", "values": [1, 2]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 2, "max_parallel": 1}}
JSON
}
campaign ep ep
"$HPOCTL" -f "$CONF" run "$T/ep.json" >/dev/null 2>"$T/run.log" || true
check "epoch 1e300 is reported with its file and line" grep -q \
    "ep: trial 0 attempt 0: $RUNS/1-ep/trial-0000/attempt-0/stdout:2: eval_error: epoch 1e+300 is past the last one a trial can reach (3); line ignored" \
    "$T/run.log"
check "epoch 4 of a 3-epoch trial too" grep -q \
    "ep: trial 1 attempt 0: .*/stdout:2: eval_error: epoch 4 is past the last one a trial can reach (3); line ignored" \
    "$T/run.log"
is "the points around them are recorded" \
    "$(sql "select group_concat(step || ':' || value, ' ') from (select step, value from metrics order by attempt_id, step)")" \
    "1.0:0.5 2.0:0.3 1.0:0.6 3.0:0.08"
is "no trial is on target at a bogus epoch" \
    "$(sql "select group_concat(number || ':' || best || '@' || best_step || ':' || reached, ' ') from (select * from trials order by number)")" \
    "0:0.3@2.0:0 1:0.08@3.0:1"

LEDGER=$T/state/nap.db
sed "s|^ledger = .*|ledger = $LEDGER|" "$CONF" >"$T/nap.conf"
campaign nap nap
"$HPOCTL" -f "$T/nap.conf" run "$T/nap.json" >/dev/null 2>"$T/run.log" || true
check "without epochs, 1e300 is past 1e9" grep -q \
    "nap: trial 0 attempt 0: .*/stdout:2: eval_error: epoch 1e+300 is past the last one a trial can reach (1e+09); line ignored" \
    "$T/run.log"
check "and epoch 4 is kept" test "$(sql "select count(*) from metrics where step = 4")" = 1
done_testing
