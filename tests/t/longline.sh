#!/bin/sh
# A trainer's output line of 1 MiB (an MLLOG event with a large metadata
# member) is read whole; one of more than 4 MiB (a progress bar that
# rewrites itself with CRs and no newline) is reported once and ignored,
# and counts as one line.  Before, a line was passed on in pieces of
# 256 KiB and more: the 1 MiB event was "bad JSON" and its point lost,
# and each piece counted as a line, so later messages named wrong lines.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
ml() {
	printf ':::MLLOG {"key": "eval_error", "value": %s, "metadata": {"epoch_num": %s%s}}\n' "$1" "$2" "$3"
}
blob=$(head -c 1048576 /dev/zero | tr '\0' x)
ml 0.9 1
ml 0.5 2 ", \"blob\": \"$blob\""
head -c 5000000 /dev/zero | tr '\0' '\r'
echo
echo ':::MLLOG {"key": "eval_error", broken'
ml 0.4 3
SH
cat >"$T/ll.json" <<JSON
{"name": "ll", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [1]}},
 "budget": {"max_trials": 1}}
JSON
"$HPOCTL" -f "$CONF" run "$T/ll.json" >/dev/null 2>"$T/run.log" || true
is "the point of a 1 MiB line is recorded, with those around it" \
    "$(sql "select group_concat(step || ':' || value, ' ') from (select step, value from metrics order by step)")" \
    "1.0:0.9 2.0:0.5 3.0:0.4"
is "a line over 4 MiB is said to be ignored, once" \
    "$(grep -c 'stdout:[0-9]*: longer than 4 MiB; line ignored' "$T/run.log" || true)" 1
is "as line 3" "$(grep -c 'stdout:3: longer than 4 MiB; line ignored' "$T/run.log" || true)" 1
is "and the line after it is line 4" \
    "$(grep -c "stdout:4: bad JSON after ':::MLLOG'; line ignored" "$T/run.log" || true)" 1
is "nothing else is said of them" "$(grep -c 'line ignored' "$T/run.log" || true)" 2
done_testing
