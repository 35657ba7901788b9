#!/bin/sh
# hpoctl mllog --table: the guideline table of the fixtures' real MLPerf
# HPC v3.0 result folders, one table per benchmark, one row per global
# batch size; its figures agree with what tests/fixtures/mllog/expected.pl
# computed from the logs without hpod, its hyperparameters are the logs'
# opt_* keys, every format works, and hpoctl rcp-check reads its RCP
# export.
. "$(dirname "$0")/lib.subr"

FIX="$TOP/tests/fixtures/mllog"
EXP="$FIX/expected.json"
RCP="$TOP/tests/fixtures/rcp/rcps_cosmoflow.json"
BUILD=$(cd "$BUILD" && pwd)
HPOCTL="$BUILD/hpoctl"
cd "$FIX"
SETS="cosmoflow-nvidia-eos-n64 deepcam-clemson-18x2a100
    oc20-lbnl-perlmutter-128x4 openfold-lbnl-perlmutter-224x4"

rc=0
"$HPOCTL" mllog --table --format json $SETS >"$T/t.json" 2>"$T/err.txt" ||
    rc=$?
is "--table --format json exits 0" "$rc" 0
is "one table per benchmark, by name" \
    "$(jq -c '[.[].published.benchmark]' "$T/t.json")" \
    '["cosmoflow","deepcam","oc20","openfold"]'
is "one row per global batch size" \
    "$(jq -c '[.[] | .rows | map(.batch_size)]' "$T/t.json")" \
    "$(jq -c '[.files | to_entries | group_by(.value.benchmark)[] | map(.value.global_batch_size) | unique]' "$EXP")"
is "runs and successes as expected.pl counted" \
    "$(jq -c '[.[] | .rows[] | [.runs, .successes]]' "$T/t.json")" \
    "$(jq -c '[.sets[] | [.runs, .converged]]' "$EXP")"
is "epochs to target: the olympic mean expected.pl computed" \
    "$(jq -c '[.[] | .rows[] | .epochs.olympic_mean * 1e6 | round]' "$T/t.json")" \
    "$(jq -c '[.sets[] | .mean_epochs_to_target * 1e6 | round]' "$EXP")"
is "time to train: the olympic mean expected.pl computed" \
    "$(jq -c '[.[] | .rows[] | .time_to_target_s.olympic_mean * 1e2 | round]' "$T/t.json")" \
    "$(jq -c '[.sets[] | .olympic_mean_s * 1e2 | round]' "$EXP")"
# Wilson for 10 of 10 at z = 1.96: z^2 / (n + z^2) = 3.8415 / 13.8415.
is "success rate: Wilson interval of 10/10 is [0.7225, 1]" \
    "$(jq -c '.[0].rows[0] | [(.success_rate_ci_low * 1e4 | round), .success_rate_ci_high]' "$T/t.json")" \
    "[7225,1]"
is "epochs interval: Student t around the plain mean" \
    "$(jq -c '[.[] | .rows[] | .epochs | (.ci_low < .mean and .mean < .ci_high and ((.ci_low + .ci_high) / 2 - .mean | fabs) < 1e-9)] | unique' "$T/t.json")" \
    "[true]"
is "no cost for published results" \
    "$(jq -c '[.[] | .rows[] | .cost] | unique' "$T/t.json")" "[null]"
is "hyperparameters: the opt_* keys of the logs" \
    "$(jq -c '.[1].rows[0].params | [.opt_name, .opt_lr, .opt_betas, .opt_bias_correction]' "$T/t.json")" \
    '["LAMB",0.004000000189989805,[0.9,0.999],true]'
is "hyperparameters: no other key" \
    "$(jq -c '[.[] | .rows[] | .params | keys[] | startswith("opt_")] | unique' "$T/t.json")" \
    "[true]"

"$HPOCTL" mllog --table $SETS >"$T/t.txt"
is "text: a header line per benchmark" \
    "$(grep -c '^guideline table of published results: benchmark' "$T/t.txt")" 4
check "text: cosmoflow row with its interval and optimizer" \
    grep -Eq '^ +512 .* 10/10 +1\.00 \[0\.72,1\.00\] +22\.62 \[.* opt_name=sgd' "$T/t.txt"
check "text: openfold's unit is samples" \
    grep -q 'benchmark openfold.*epochs to target in samples' "$T/t.txt"
"$HPOCTL" mllog --table --format csv $SETS >"$T/t.csv"
is "csv: one header and a line per row" "$(wc -l <"$T/t.csv" | tr -d ' ')" 5
is "csv: the benchmark first" "$(cut -d, -f1,2 "$T/t.csv" | tr '\n' ' ')" \
    "benchmark,batch_size cosmoflow,512 deepcam,144 oc20,2048 openfold,218 "
"$HPOCTL" mllog --table --format markdown $SETS >"$T/t.md"
is "markdown: 4 tables of header, rule and a row" "$(grep -c '^|' "$T/t.md")" 12
"$HPOCTL" mllog --table --format rcp $SETS >"$T/t.rcp"
is "rcp: one entry per benchmark and batch size" "$(jq -c 'keys' "$T/t.rcp")" \
    '["cosmoflow_mllog_512","deepcam_mllog_144","oc20_mllog_2048","openfold_mllog_218"]'
is "rcp: the epochs of the runs" \
    "$(jq -c '.cosmoflow_mllog_512["Epochs to converge"] | sort' "$T/t.rcp")" \
    "$(jq -c '[.files[] | select(.benchmark == "cosmoflow") | .epochs_to_target] | sort' "$EXP")"

# The published CosmoFlow runs against MLCommons' reference: BS 512 is a
# point (kept by the pruning); RCP mean 22.833, Min Epochs 22.1995 (t of
# df 24 at 0.05: -1.710882, stdev 0.87178, runs 18 and 8); their olympic
# mean 22.625 passes, normalised by 22.833 / 22.625.
rc=0
"$HPOCTL" rcp-check --json "$RCP" cosmoflow-nvidia-eos-n64 >"$T/c.json" || rc=$?
is "rcp-check: the CosmoFlow folder passes" "$rc" 0
is "rcp-check: RCP found, its figures" \
    "$(jq -c '[.rcp, .pass, (.mean_epochs * 1e3 | round), (.rcp_mean * 1e3 | round), (.min_epochs * 1e3 | round), (.norm_factor * 1e4 | round)]' "$T/c.json")" \
    '["found",true,22625,22833,22200,10092]'
rc=0
"$HPOCTL" rcp-check --json "$RCP" "$T/t.rcp" >"$T/c2.json" 2>"$T/err.txt" || rc=$?
is "rcp-check: the export of the table reads the same" \
    "$(jq -c 'select(.benchmark == "cosmoflow") | [.pass, .mean_epochs]' "$T/c2.json")" \
    "[true,22.625]"
is "rcp-check: other benchmarks have no RCP in the file" "$rc" 1
check "rcp-check: and says so" grep -q "no entry for benchmark 'deepcam'" "$T/err.txt"
rc=0
"$HPOCTL" rcp-check "$RCP" cosmoflow-nvidia-eos-n64 --json >"$T/c4.json" || rc=$?
is "rcp-check: an option after the operands is an option" \
    "$rc:$(jq -c '.pass' "$T/c4.json")" "0:true"
rc=0
"$HPOCTL" rcp-check "$RCP" cosmoflow-nvidia-eos-n64 --maximize --minimize \
    2>"$T/err.txt" >/dev/null || rc=$?
is "rcp-check: --maximize with --minimize is refused (usage)" "$rc" 64
check "rcp-check: and says why" grep -q "exclude each other" "$T/err.txt"
# A reference that is slower by 8 epochs, stdev 0: Min Epochs 30.
printf '{"cosmoflow_ref_512": {"Benchmark": "cosmoflow", "BS": 512, "Epochs to converge": [30, 30, 30]}}\n' >"$T/slow.json"
rc=0
"$HPOCTL" rcp-check "$T/slow.json" cosmoflow-nvidia-eos-n64 >"$T/c3.txt" || rc=$?
is "rcp-check: faster than a slow reference fails" "$rc" 1
check "rcp-check: the line says no" grep -Eq '^cosmoflow +512 +10 +22\.625 +30\.000 +30\.000 +1\.326 no ' "$T/c3.txt"
printf '{"x": {"Benchmark": "cosmoflow", "BS": "512", "Epochs to converge": [1]}}\n' >"$T/bad.json"
rc=0
"$HPOCTL" rcp-check "$T/bad.json" cosmoflow-nvidia-eos-n64 2>"$T/err.txt" || rc=$?
is "rcp-check: a bad RCP file fails" "$rc" 1
check "rcp-check: the error names the file and key" \
    grep -q "bad.json: x.BS: expected a positive number" "$T/err.txt"

# A set with the garbage fixture and a log cut short: --table, rcp-check
# and --summary warn about the same lines, FILE:LINE, as mllog does.
mkdir "$T/faulty"
cp cosmoflow-nvidia-eos-n64/result_*.txt "$T/faulty/"
cp ../mllog-faults/cosmoflow-garbage.txt "$T/faulty/result_0.txt"
head -n 100 cosmoflow-nvidia-eos-n64/result_1.txt >"$T/faulty/result_1.txt"
"$HPOCTL" mllog --summary "$T/faulty" 2>"$T/want.txt" >/dev/null || :
check "  --summary warns (the lines to expect)" grep -q \
    "^hpoctl: warning: $T/faulty/result_0.txt:202: bad JSON after ':::MLLOG'; line skipped$" \
    "$T/want.txt"
check "  and about the log cut short" grep -q \
    "^hpoctl: warning: $T/faulty/result_1.txt: no run_stop (the log is cut short): scored as aborted$" \
    "$T/want.txt"
for cmd in "mllog --table" "rcp-check $RCP"; do
	rc=0
	# shellcheck disable=SC2086
	"$HPOCTL" $cmd "$T/faulty" 2>"$T/err.txt" >/dev/null || rc=$?
	is "$cmd on a set with skipped lines: exit 0" "$rc" 0
	is "  the same warnings as --summary" "$(cat "$T/err.txt")" \
	    "$(cat "$T/want.txt")"
done

# A run on target at an evaluation without epoch_num: the row has no
# epochs (as --summary says), not the olympic mean of the other runs', and
# rcp-check refuses the set rather than count the run as not converged.
mkdir "$T/noepoch"
cp cosmoflow-nvidia-eos-n64/result_*.txt "$T/noepoch/"
sed -i 's/, "epoch_num": [0-9]*//' "$T/noepoch/result_3.txt"
check "  the fault is there" sh -c \
    "! grep -q epoch_num '$T/noepoch/result_3.txt'"
"$HPOCTL" mllog --summary --json "$T/noepoch" >"$T/ne-sum.json"
is "  --summary: no mean epochs" "$(jq .mean_epochs_to_target \
    "$T/ne-sum.json")" null
rc=0
"$HPOCTL" mllog --table --format json "$T/noepoch" >"$T/ne.json" \
    2>"$T/err.txt" || rc=$?
is "--table, a run on target without epoch_num: exit 0" "$rc" 0
is "  its row has 10/10 runs on target and no epochs" \
    "$(jq -c '.[0].rows[0] | [.successes, .runs, .epochs.olympic_mean, .epochs.min]' "$T/ne.json")" \
    '[10,10,null,null]'
check "  and says why" grep -q \
    "^hpoctl: warning: $T/noepoch/result_3.txt: the evaluation that met the target has no epoch_num" \
    "$T/err.txt"
rc=0
"$HPOCTL" rcp-check "$RCP" "$T/noepoch" 2>"$T/err.txt" >/dev/null || rc=$?
is "rcp-check on it: exit 1" "$rc" 1
check "  naming the file" grep -q \
    "^hpoctl: $T/noepoch/result_3.txt: the evaluation that met the target has no epoch_num: no epochs to converge$" \
    "$T/err.txt"

# A benchmark the rules do not know, named with a comma and quotes in its
# logs: CSV quotes it, so every line has the header's fields.
mkdir "$T/named"
for i in 1 2 3; do
	sed 's/"value": "cosmoflow"/"value": "cosmo, \\"v2\\""/' \
	    cosmoflow-nvidia-eos-n64/result_$i.txt >"$T/named/result_$i.txt"
done
"$HPOCTL" mllog --table --format csv --metric eval_error --target 0.124 \
    --minimize "$T/named" >"$T/named.csv"
mkdir "$T/plain"
cp cosmoflow-nvidia-eos-n64/result_[123].txt "$T/plain/"
"$HPOCTL" mllog --table --format csv --metric eval_error --target 0.124 \
    --minimize "$T/plain" >"$T/plain.csv"
is "csv: a benchmark name with a comma and quotes is quoted" \
    "$(sed -n 2p "$T/named.csv" | cut -c1-19)" '"cosmo, ""v2""",512'
is "  and the rest of its row is that of the same logs named cosmoflow" \
    "$(sed -n 2p "$T/named.csv" | sed 's/^"cosmo, ""v2""",//')" \
    "$(sed -n 2p "$T/plain.csv" | sed 's/^cosmoflow,//')"

rc=0
"$HPOCTL" mllog --table --format html $SETS 2>"$T/err.txt" || rc=$?
is "--format html is refused" "$rc" 64
rc=0
"$HPOCTL" mllog --table "$T" 2>"$T/err.txt" || rc=$?
is "a folder without result files fails" "$rc" 1

done_testing
