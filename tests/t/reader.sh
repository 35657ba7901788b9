#!/bin/sh
# A trainer of one's own whose log is not MLLOG, read with a workload's
# metric_reader pattern (hpod-workload(5)).
#
# Its value group: a CRLF line's "0.25\r" was "not a number", "0x10" was
# 16, and "nan" was "not a number" where an MLLOG NaN is a value that is
# not finite, so a diverged trainer ended "no loss reported" as if it had
# logged nothing.  A step logged twice with two values (a trainer that
# evaluates twice an epoch): the ledger kept the first, the trial's best
# and its reach of the target took the second, which no curve showed;
# now the ledger keeps the better of them.
# A line that matches metric_reader.run_start is MLPerf's run_start, where
# a time to train counts from: a regex reader had none, so a time to
# train counted from the job's start.  A trainer that logs to stderr (as
# Python's logging module does) ended "no loss reported", no more said.
# Points of a pattern with no epoch group are numbered from 1: the first
# was at step 0, so a trainer on target at its first evaluation took 0
# epochs to it in the guideline table.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/wl/own.json" <<JSON
{"name": "own", "program": "sh", "args": ["$T/bin/own.sh", "{value}"],
 "objective": {"metric": "loss", "goal": "min"},
 "metric_reader": {"pattern": "^ep ([^ ]*) loss: (.*)$", "value": 2,
                   "epoch": 1, "run_start": "^=+ training starts =+$"}}
JSON
cat >"$T/bin/own.sh" <<'SH'
case $1 in
1) printf 'ep 1 loss: 0.9\r\nep 2 loss:  0.5 \nep 3 loss: 0x10\nep 4 loss: 2,5\nep 5 loss: .25\n' ;;
2) printf 'ep 1 loss: nan\nep 2 loss: -Infinity\nep 3 loss: 1e400\n' ;;
3) printf 'loading\n=== training starts ===\nep 1 loss: 0.9\nep 2 loss: 0.8\nep 2 loss: 0.1\nep 3 loss: 0.7\nep 3 loss: 0.75\nep 4 loss: 0.15\n' ;;
4) printf 'ep 1 loss: 0.5\nep 2 loss: 0.4\n' >&2 ;;
esac
SH
cat >"$T/own.json" <<JSON
{"name": "own", "workload": "own",
 "objective": {"metric": "loss", "goal": "min", "target": 0.2},
 "space": {"value": {"type": "choice", "values": [1, 2, 3, 4]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 4, "max_parallel": 1}}
JSON
is "render shows how the trials' output is read" \
    "$("$HPOCTL" -f "$CONF" render "$T/own.json" | grep '^reader:')" \
    "reader: stdout lines matching '^ep ([^ ]*) loss: (.*)\$': value group 2 as loss, epoch group 1, run_start '^=+ training starts =+\$'"
"$HPOCTL" -f "$CONF" run "$T/own.json" >/dev/null 2>"$T/run.log" || true
pts() {
	sql "select group_concat(step || ':' || value, ' ') from (select m.step, m.value from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.number = $1 order by m.step)"
}
is "a value with blanks or a CR around it is read, .25 too" "$(pts 0)" \
    "1.0:0.9 2.0:0.5 5.0:0.25"
is "a hexadecimal number is no number, and the message quotes it" \
    "$(grep -c "stdout:3: loss: '0x10' is not a number; line ignored" "$T/run.log" || true)" 1
is "nor is a decimal comma" \
    "$(grep -c "stdout:4: loss: '2,5' is not a number; line ignored" "$T/run.log" || true)" 1
is "nan, -Infinity and 1e400 are values that are not finite, not errors" \
    "$(grep -c 'own: trial 1: completed: exit 0, no finite loss reported (3 NaN or infinite)$' "$T/run.log" || true)" 1
is "and none is recorded" "$(pts 1)" ""
is "a step logged again with a better value: the curve holds the better" \
    "$(pts 2)" "1.0:0.9 2.0:0.1 3.0:0.7 4.0:0.15"
is "the trial's best and its reach of the target are in its curve" \
    "$(sql "select best, best_step, reached from trials where number = 2")" \
    "0.1|2.0|1"
is "its time of the target is that of the better value" \
    "$(sql "select m.time = t.reached_at from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.number = 2 and m.step = 2")" 1
is "the run_start line is the trial's run_start; none where none matched" \
    "$(sql "select group_concat(a.run_start is not null and a.run_start >= a.started, ' ') from (select a.* from attempts a join trials t on t.id = a.trial_id order by t.number) a")" \
    "0 0 1 0"
"$HPOCTL" report --ledger "$LEDGER" own >"$T/report" 2>&1
is "it is said so where it counts" \
    "$(grep -c 'time to train .* from run_start' "$T/report" || true)" 1
is "a trainer that logs to stderr is told so" \
    "$(grep -c 'own: trial 3 attempt 0: .*/trial-0003/attempt-0/stderr has 2 loss lines, but only stdout is read' "$T/run.log" || true)" 1
is "and nothing else is" "$(grep -c 'stderr has' "$T/run.log" || true)" 1

cat >"$T/wl/own2.json" <<JSON
{"name": "own2", "program": "sh", "args": ["$T/bin/own2.sh", "{value}"],
 "objective": {"metric": "loss", "goal": "min"},
 "metric_reader": {"pattern": "^loss: (.*)$"}}
JSON
printf 'printf "loss: 0.5\\nloss: 0.1\\n"\n' >"$T/bin/own2.sh"
sed 's/"own"/"own2"/g; s/\[1, 2, 3, 4\]/[1]/' "$T/own.json" >"$T/own2.json"
"$HPOCTL" -f "$CONF" run "$T/own2.json" >/dev/null 2>"$T/run2.log" || true
is "points with no epoch group are numbered from 1" \
    "$(sql "select group_concat(m.step || ':' || m.value, ' ') from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'own2'")" \
    "1.0:0.5 2.0:0.1"
is "and the second is on target at epoch 2" \
    "$(grep -c 'own2: trial 0: loss 0.1 at epoch 2 meets the target' "$T/run2.log" || true)" 1

# An attempt running when hpod is upgraded, whose first points an older
# hpod recorded from step 0: its output, read anew from its start, goes
# on from 0.  Numbered from 1, its points were recorded again one step on
# (0.4 at 1 and at 2), and a better value could replace another's.
cat >"$T/bin/own3.sh" <<SH
printf 'loss: 0.5\nloss: 0.4\n'
while [ ! -e "$T/go3" ]; do sleep 0.1; done
printf 'loss: 0.3\nloss: 0.1\n'
SH
sed 's/own2/own3/g' "$T/wl/own2.json" >"$T/wl/own3.json"
sed 's/own2/own3/g' "$T/own2.json" >"$T/own3.json"
pts3() {
	sql "select group_concat(m.step || ':' || m.value, ' ') from (select m.* from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'own3' order by m.step) m"
}
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/own3.json" \
    >/dev/null 2>"$T/run3.log" &
pid=$!
for _ in $(seq 1 300); do
	[ "$(pts3)" = "1.0:0.5 2.0:0.4" ] && break
	sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
is "own3: two points before the kill" "$(pts3)" "1.0:0.5 2.0:0.4"
# As an hpod before 1-based steps recorded them.
sqlite3 "$LEDGER" "update metrics set step = step - 1 where attempt_id in (select a.id from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'own3')"
touch "$T/go3"
check "own3: hpoctl resume takes it back to its end" \
    timeout 60 "$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" own3
is "own3: its points go on from the older hpod's step 0, none twice" \
    "$(pts3)" "0.0:0.5 1.0:0.4 2.0:0.3 3.0:0.1"
done_testing
