#!/bin/sh
# hpoctl mllog: every real MLPerf HPC v3.0 result log of the fixtures, and
# the summary of each set, give the values that tests/fixtures/mllog/
# expected.pl computed from the logs without hpod; bad input is refused.
. "$(dirname "$0")/lib.subr"

FIX="$TOP/tests/fixtures/mllog"
EXP="$FIX/expected.json"
# The test runs in the fixtures: make the build directory absolute first.
BUILD=$(cd "$BUILD" && pwd)
HPOCTL="$BUILD/hpoctl"
cd "$FIX"

# Every file at once, with relative names as in expected.json.
rc=0
"$HPOCTL" mllog --json */result_*.txt >"$T/files.json" 2>"$T/err.txt" ||
    rc=$?
is "mllog --json on every fixture exits 0" "$rc" 0
is "one JSON object per file" "$(jq -s length "$T/files.json")" \
    "$(jq '.files | length' "$EXP")"
for f in $(jq -r '.files | keys[]' "$EXP"); do
	if jq -e -s --arg f "$f" --slurpfile exp "$EXP" \
	    '(map(select(.file == $f)) | length) == 1 and
	     (map(select(.file == $f))[0] == $exp[0].files[$f])' \
	    "$T/files.json" >/dev/null; then
		ok "$f: every field as expected.pl computed"
	else
		not_ok "$f: every field as expected.pl computed"
		echo "#   got: $(jq -c -s --arg f "$f" \
		    'map(select(.file == $f))' "$T/files.json")"
	fi
done

# Each set's summary.
for d in $(jq -r '.sets | keys[]' "$EXP"); do
	rc=0
	"$HPOCTL" mllog --summary --json "$d" >"$T/set.json" || rc=$?
	is "$d: --summary exits 0" "$rc" 0
	if jq -e --arg d "$d" --slurpfile exp "$EXP" \
	    '. == $exp[0].sets[$d]' "$T/set.json" >/dev/null; then
		ok "$d: summary as expected.pl computed"
	else
		not_ok "$d: summary as expected.pl computed"
		echo "#   got: $(cat "$T/set.json")"
	fi
done

# The text forms.
"$HPOCTL" mllog */result_*.txt >"$T/files.txt"
is "text: a header and one row per file" "$(wc -l <"$T/files.txt")" \
    $(( $(jq '.files | length' "$EXP") + 1 ))
check "text: the row of a run" grep -Eq \
    '^cosmoflow +512 eval_error +<=0.124 +0.121592 +yes +23 +143.669 success +cosmoflow-nvidia-eos-n64/result_0.txt$' \
    "$T/files.txt"
"$HPOCTL" mllog --summary */ >"$T/sets.txt"
check "text: the summary of a set" grep -Eq \
    '^deepcam +5 +5 +5 +3239.086 +53.98 +8.66667 epochs +yes +deepcam-clemson-18x2a100/$' \
    "$T/sets.txt"
check "text: openfold's set does not score, and why" grep -qx \
    'openfold-lbnl-perlmutter-224x4/: does not score: 9 runs; the rules require 10' \
    "$T/sets.txt"

# A stricter target on real logs: every cosmoflow run says "success", but
# only those whose best eval_error (expected.pl) is <= 0.12 reach it.
want=$(jq '[.files[] | select(.benchmark == "cosmoflow" and .best <= 0.12)]
    | length' "$EXP")
is "cosmoflow: $want run(s) reach 0.12" "$want" 1
"$HPOCTL" mllog --target 0.12 --json cosmoflow-nvidia-eos-n64/result_*.txt \
    >"$T/strict.json"
is "--target 0.12: the same runs reach it" \
    "$(jq -s '[.[] | select(.reached)] | length' "$T/strict.json")" "$want"
is "--target 0.12: the others still say success" \
    "$(jq -s '[.[] | select(.reached | not) | .status] | unique | join(",")' \
    -r "$T/strict.json")" success
"$HPOCTL" mllog --target 0.12 cosmoflow-nvidia-eos-n64/result_0.txt \
    >"$T/strict.txt"
check "text: a false success is marked" grep -q ' success\* ' \
    "$T/strict.txt"
check "text: and explained" grep -q \
    'says success, but no evaluation met the target' "$T/strict.txt"
"$HPOCTL" mllog --summary --json --target 0.12 cosmoflow-nvidia-eos-n64 \
    >"$T/strict-set.json"
is "--target 0.12: the set does not score" \
    "$(jq -r '[.converged, .scores, .olympic_mean_s, .reason] | @csv' \
    "$T/strict-set.json")" \
    "$want,false,,\"9 runs did not reach the target; at most 1 may\""

# A log of the proxy trainer: scored with the target given.
"$BUILD/minicosmo" --epochs 2 --train-samples 64 --eval-samples 32 \
    >"$T/stdout"
rc=0
"$HPOCTL" mllog "$T/stdout" 2>"$T/err.txt" || rc=$?
is "minicosmo without --target exits 1" "$rc" 1
check "and asks for it" grep -q "$T/stdout: benchmark 'minicosmo' has no fixed target: give --target" \
    "$T/err.txt"
"$HPOCTL" mllog --json --target 10 "$T/stdout" >"$T/proxy.json"
is "minicosmo with --target 10: reached at epoch 1" \
    "$(jq -r '[.benchmark, .metric, .goal, .reached, .epochs_to_target, .evaluations] | @csv' \
    "$T/proxy.json")" '"minicosmo","eval_error","min",true,1,2'

"$HPOCTL" mllog --json --target 10 - <"$T/stdout" >"$T/stdin.json"
is "a log on the standard input" \
    "$(jq -r '[.file, .reached] | @csv' "$T/stdin.json")" '"(stdin)",true'

# Bad input: named, exit 1; the good files are still scored.
rc=0
"$HPOCTL" mllog --json "$T/nosuch.txt" deepcam-clemson-18x2a100/result_0.txt \
    >"$T/out.json" 2>"$T/err.txt" || rc=$?
is "a missing file: exit 1" "$rc" 1
check "  named" grep -q "^hpoctl: $T/nosuch.txt: No such file or directory$" \
    "$T/err.txt"
is "  the other file is scored" "$(jq -r .file "$T/out.json")" \
    deepcam-clemson-18x2a100/result_0.txt
sed 's/"value": "deepcam"/"value": "climate"/' \
    deepcam-clemson-18x2a100/result_0.txt >"$T/unknown.txt"
rc=0
"$HPOCTL" mllog "$T/unknown.txt" 2>"$T/err.txt" >/dev/null || rc=$?
is "an unknown benchmark: exit 1" "$rc" 1
check "  named, with what to give" grep -q \
    "$T/unknown.txt:[0-9]*: unknown benchmark 'climate' (submission_benchmark; known: cosmoflow, deepcam, oc20, openfold, minicosmo, minicam): give --metric, --target and --maximize or --minimize" \
    "$T/err.txt"
"$HPOCTL" mllog --json --metric eval_accuracy --target 0.82 --maximize \
    "$T/unknown.txt" >"$T/unknown.json"
is "  scored with --metric, --target and --maximize" \
    "$(jq -c '[.reached, .epochs_to_target, .time_to_train_s]' \
    "$T/unknown.json")" "[true,8,2972.276]"
rc=0
"$HPOCTL" mllog --summary "$T" 2>"$T/err.txt" >/dev/null || rc=$?
is "a directory without result files: exit 1" "$rc" 1
check "  named" grep -q "$T: no result_\*.txt files" "$T/err.txt"

# Real faults (tests/fixtures/mllog/../mllog-faults/, made by its make.sh from the
# logs above): scored as the MLCommons scorer would, never refused.
# jqrun FILE: the fields of a scored run that do not name it.
jqrun() { jq -c 'del(.file)' "$1"; }
"$HPOCTL" mllog --json deepcam-clemson-18x2a100/result_0.txt >"$T/dc.json"
"$HPOCTL" mllog --json cosmoflow-nvidia-eos-n64/result_0.txt >"$T/cf.json"

rc=0
"$HPOCTL" mllog --json ../mllog-faults/deepcam-nan.txt >"$T/nan.json" \
    2>"$T/err.txt" || rc=$?
is "\"value\": NaN: exit 0" "$rc" 0
is "  scored as the log without it (the NaN is not the best, never on target)" \
    "$(jqrun "$T/nan.json")" "$(jqrun "$T/dc.json")"
is "  no warning" "$(cat "$T/err.txt")" ""

# The same evaluation written Infinity (DeepCAM maximises its accuracy) and
# the first evaluation of a CosmoFlow log written -Infinity (it minimises
# its error): neither is the best nor meets the target at its epoch.
sed '62s/"value": [0-9.]*,/"value": Infinity,/' \
    deepcam-clemson-18x2a100/result_0.txt >"$T/dc-inf.txt"
line=$(grep -n '"key": "eval_error"' cosmoflow-nvidia-eos-n64/result_0.txt |
    head -n 1 | cut -d: -f1)
sed "${line}s/\"value\": [0-9.]*,/\"value\": -Infinity,/" \
    cosmoflow-nvidia-eos-n64/result_0.txt >"$T/cf-inf.txt"
for f in dc cf; do
	check "$f-inf: the fault is there" grep -q '"value": -*Infinity,' \
	    "$T/$f-inf.txt"
	rc=0
	"$HPOCTL" mllog --json "$T/$f-inf.txt" >"$T/$f-inf.json" \
	    2>"$T/err.txt" || rc=$?
	is "  exit 0" "$rc" 0
	is "  scored as the log without it (not the best, never on target)" \
	    "$(jqrun "$T/$f-inf.json")" "$(jqrun "$T/$f.json")"
done

# The same evaluation written true: no number (it was 1.0, on target at
# epoch 2), skipped with a warning as a string is.
sed '62s/"value": [0-9.]*,/"value": true,/' \
    deepcam-clemson-18x2a100/result_0.txt >"$T/dc-bool.txt"
rc=0
"$HPOCTL" mllog --json "$T/dc-bool.txt" >"$T/dc-bool.json" 2>"$T/err.txt" ||
    rc=$?
is "\"value\": true: exit 0" "$rc" 0
is "  scored as the log without the line" \
    "$(jq -c 'del(.file, .evaluations, .skipped_lines)' "$T/dc-bool.json")" \
    "$(jq -c 'del(.file, .evaluations, .skipped_lines)' "$T/dc.json")"
check "  warned with FILE:LINE" grep -q \
    "^hpoctl: warning: $T/dc-bool.txt:62: eval_accuracy: value is not a number; line skipped$" \
    "$T/err.txt"

rc=0
"$HPOCTL" mllog --json ../mllog-faults/deepcam-truncated.txt >"$T/cut.json" \
    2>"$T/err.txt" || rc=$?
is "a log cut before run_stop: exit 0" "$rc" 0
is "  not reached, aborted, no time to train" \
    "$(jq -c '[.reached, .status, .time_to_train_s, .epochs_to_target]' \
    "$T/cut.json")" '[false,"aborted",null,null]'
# Its partial curve, read from the fixture without hpod.
evals=$(grep '"key": "eval_accuracy"' ../mllog-faults/deepcam-truncated.txt |
    sed 's/^:::MLLOG //' | jq -s -c '[length, (map(.value) | max)]')
is "  with its partial curve: evaluations and best" \
    "$(jq -c '[.evaluations, .best]' "$T/cut.json")" "$evals"
is "  the half-written last line skipped and counted" \
    "$(jq .skipped_lines "$T/cut.json")" 1
check "  warned with FILE:LINE" grep -q \
    "^hpoctl: warning: ../mllog-faults/deepcam-truncated.txt:95: bad JSON after ':::MLLOG'; line skipped$" \
    "$T/err.txt"
check "  and said to be cut short" grep -q \
    "^hpoctl: warning: ../mllog-faults/deepcam-truncated.txt: no run_stop (the log is cut short): scored as aborted$" \
    "$T/err.txt"
"$HPOCTL" mllog ../mllog-faults/deepcam-truncated.txt >"$T/cut.txt" 2>/dev/null
check "  text: a row with no time and the status aborted" grep -Eq \
    '^deepcam +[0-9]+ eval_accuracy +>=0.82 +[0-9.]+ +no +- +- +aborted +../mllog-faults/deepcam-truncated.txt$' \
    "$T/cut.txt"

rc=0
"$HPOCTL" mllog --json ../mllog-faults/cosmoflow-garbage.txt >"$T/gb.json" \
    2>"$T/err.txt" || rc=$?
is "garbage and half-written lines: exit 0" "$rc" 0
is "  scored as the log without them" \
    "$(jq -c 'del(.skipped_lines)' "$T/gb.json" | jq -c 'del(.file)')" \
    "$(jq -c 'del(.skipped_lines)' "$T/cf.json" | jq -c 'del(.file)')"
is "  3 lines skipped" "$(jq .skipped_lines "$T/gb.json")" 3
is "  each warned with FILE:LINE" \
    "$(sed -n 's/^hpoctl: warning: ..\/mllog-faults\/cosmoflow-garbage.txt:\([0-9]*\): .*; line skipped$/\1/p' \
    "$T/err.txt" | tr '\n' ' ')" "101 202 303 "

# A set with a run cut short: that run counts as not converged.
mkdir "$T/set"
for i in 1 2 3 4; do
	cp deepcam-clemson-18x2a100/result_$i.txt "$T/set/"
done
cp ../mllog-faults/deepcam-truncated.txt "$T/set/result_0.txt"
rc=0
"$HPOCTL" mllog --summary --json "$T/set" >"$T/set.json" 2>/dev/null || rc=$?
is "a set with a truncated run: exit 0" "$rc" 0
is "  4 of 5 converged, and it scores (one miss is dropped)" \
    "$(jq -c '[.runs, .converged, .scores]' "$T/set.json")" '[5,4,true]'

# Usage errors exit 64.
for args in "" "--json" "--target x f" "--target 1e999 f" \
    "--maximize --minimize f" "--metric= f" "--frobnicate f"; do
	rc=0
	# shellcheck disable=SC2086
	"$HPOCTL" mllog $args 2>"$T/err.txt" >/dev/null || rc=$?
	is "usage error '$args': exit 64" "$rc" 64
done
check "the usage is printed" grep -q "^usage: hpoctl mllog" "$T/err.txt"
rc=0
"$HPOCTL" mllog --target x f 2>"$T/err.txt" || rc=$?
check "a bad --target is named" grep -q \
    "^hpoctl mllog: --target: expected a number, got 'x'$" "$T/err.txt"

done_testing
