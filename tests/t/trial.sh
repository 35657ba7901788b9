#!/bin/sh
# hpo-trial's error paths on a job list (-J), as a Slurm array task meets
# them: each is refused with a message naming the file at fault, exit 64,
# and nothing is touched after it was freed (the sanitizer build aborts).
. "$(dirname "$0")/lib.subr"

TRIAL="$BUILD/hpo-trial"
mkdir -p "$T/a0" "$T/a1"
cat >"$T/job0.json" <<JSON
{"token": "tok0", "dir": "$T/a0", "argv": ["/bin/true"], "env": ["NOEQUALS"]}
JSON
cat >"$T/job1.json" <<JSON
{"token": "tok1", "dir": "$T/a1", "argv": ["/bin/true"], "env": ["=x"]}
JSON
printf '%s\n%s\n' "$T/job0.json" "$T/job1.json" >"$T/list"

for i in 0 1; do
	rc=0
	SLURM_ARRAY_TASK_ID=$i "$TRIAL" -J "$T/list" 2>"$T/err$i.txt" || rc=$?
	is "-J entry $i with a bad environment entry: exit 64" "$rc" 64
	check "  the message names the job file" grep -q \
	    "^hpo-trial: $T/job$i.json: bad environment entry" "$T/err$i.txt"
	check "  and no sanitizer report" sh -c \
	    "! grep -q 'Sanitizer' '$T/err$i.txt'"
done

rc=0
SLURM_ARRAY_TASK_ID=5 "$TRIAL" -J "$T/list" 2>"$T/err.txt" || rc=$?
is "-J past the list's end: exit 64" "$rc" 64
check "  named" grep -q "^hpo-trial: $T/list: no entry 5$" "$T/err.txt"

rc=0
"$TRIAL" -J "$T/list" 2>"$T/err.txt" || rc=$?
is "-J without SLURM_ARRAY_TASK_ID: exit 64" "$rc" 64

done_testing
