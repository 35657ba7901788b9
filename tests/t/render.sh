#!/bin/sh
# hpoctl render: what a trial of each reference campaign would run on a
# cluster, compared with tests/golden/render-*.  HPOD_GOLDEN_UPDATE=1
# rewrites the golden files (review every change by eye).
. "$(dirname "$0")/lib.subr"

cd "$TOP"
# Relative paths keep the output the same on every machine.
export HPOD_WORKLOAD_PATH=workloads

# golden FILE ARGS...: render and compare with tests/golden/FILE.
golden() {
	g=$1
	shift
	rc=0
	"$HPOCTL" render --run-dir /scratch/hpod/runs "$@" >"$T/$g" \
	    2>"$T/err.txt" || rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "$g: rendered"
		sed 's/^/#   /' "$T/err.txt"
	elif [ -n "${HPOD_GOLDEN_UPDATE:-}" ]; then
		cp "$T/$g" "tests/golden/$g"
		ok "$g: updated"
	elif cmp -s "$T/$g" "tests/golden/$g"; then
		ok "$g: as the golden file"
	else
		not_ok "$g: as the golden file"
		diff -u "tests/golden/$g" "$T/$g" | sed 's/^/#   /'
	fi
}

golden render-cosmoflow.txt etc/campaigns/cosmoflow-tune.json
golden render-deepcam.txt --trial 5 etc/campaigns/deepcam-lamb.json
golden render-deepcam.json --trial 5 --format json etc/campaigns/deepcam-lamb.json
golden render-oc20.txt --trial 1 etc/campaigns/oc20-tune.json
golden render-openfold.txt --trial 2 etc/campaigns/openfold-tune.json
golden render-resnet50.txt etc/campaigns/resnet50-tune.json

# The JSON form says the same as the text form.
j="$T/render-deepcam.json"
is "json argv is the text argv" \
    "$(jq -r '.argv[]' "$j" | sed 's/^/  /')" \
    "$(sed -n '/^argv:$/,/^env:$/p' "$T/render-deepcam.txt" | sed '1d;$d')"
is "json batch split" "$(jq -c .batch "$j")" '{"global":1024,"local":8}'
# Grid point 5 (last parameter fastest): batch 1024|2048, optimizer
# LAMB|AdamW, start_lr 0.001|0.0031623|0.01, two schedules -> 0,0,2,1.
is "trial 5 is the sixth grid point" "$(jq -c .params "$j")" \
    '{"batch_size":1024,"optimizer":"LAMB","start_lr":0.01,"lr_schedule":"type=cosine_annealing,t_max=9000,eta_min=0"}'

# The OC20 example's schedule is in steps: at every trial's global batch
# size its last decay falls within the epochs it trains (2M samples an
# epoch), as the reference's 125008 steps at 256 fall at epoch 16 of 30.
for n in 0 1 2 3 4 5 6 7; do
	"$HPOCTL" render --trial $n --format json etc/campaigns/oc20-tune.json
done >"$T/oc20.json"
is "oc20-tune: every trial's lr decays before its last epoch" \
    "$(jq -s -c 'map(.batch.global as $b | .argv |
	(map(select(startswith("--optim.lr_milestones=")))[0] | ltrimstr("--optim.lr_milestones=") | fromjson | max) as $m |
	(map(select(startswith("--optim.max_epochs=")))[0] | ltrimstr("--optim.max_epochs=") | tonumber) as $e |
	($m * $b / 2000000 < $e)) | unique' "$T/oc20.json")" '[true]'

# One node, one rank: said in the singular.
write_campaign one 2 1 1
is "one node, one rank" "$("$HPOCTL" render "$T/one.json" | grep '^ranks:')" \
    "ranks: 1 (1 node x 1)"

# Nothing is submitted and no ledger is written.
check "no ledger was created" test ! -e "$LEDGER"

# Errors: beyond the budget, a bad option, a campaign beyond the rules.
rc=0
"$HPOCTL" render --trial 24 etc/campaigns/deepcam-lamb.json 2>"$T/err.txt" ||
    rc=$?
is "a trial beyond budget.max_trials fails" "$rc" 1
check "naming the key" grep -q "outside budget.max_trials (24)" "$T/err.txt"
rc=0
"$HPOCTL" render --format csv etc/campaigns/deepcam-lamb.json 2>/dev/null ||
    rc=$?
is "an unknown format exits 64" "$rc" 64
sed 's/"values": \[1024, 2048\]/"values": [1024, 1000]/' \
    etc/campaigns/deepcam-lamb.json >"$T/bad-batch.json"
rc=0
"$HPOCTL" render "$T/bad-batch.json" 2>"$T/err.txt" || rc=$?
is "a global batch that does not divide by the ranks fails" "$rc" 1
check "naming the file and key" grep -q \
    "bad-batch.json: space.batch_size.values\[1\]: 1000 is not legal for workload 'deepcam'" \
    "$T/err.txt"
sed 's/"weight_decay": 0.01/"weight_decay": -0.01/' \
    etc/campaigns/deepcam-lamb.json >"$T/bad-wd.json"
rc=0
"$HPOCTL" check "$T/bad-wd.json" 2>"$T/err.txt" >/dev/null || rc=$?
is "a fixed value outside the legal range fails the check" "$rc" 1
check "naming the file, key and rule" grep -q \
    "bad-wd.json: fixed.weight_decay: -0.01 is not legal for workload 'deepcam' (workloads/deepcam.json): must be >= 0" \
    "$T/err.txt"

# A local campaign: the same path as hpoctl run, with the program found here.
"$HPOCTL" render --format json etc/campaigns/demo.json >"$T/demo.json"
check "a local trial runs the proxy found on this machine" \
    test -x "$(jq -r '.argv[0]' "$T/demo.json")"
done_testing
