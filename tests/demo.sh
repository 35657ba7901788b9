#!/bin/sh
# make demo: run the example campaign of the proxy trainer in the
# foreground (no daemon) with a fresh ledger, and print its report.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
STATE="$TOP/$BUILD/demo"
rm -rf "$STATE"
mkdir -p "$STATE"
echo "demo: hpoctl run etc/campaigns/demo.json (ledger $STATE/ledger.db)"
"$TOP/$BUILD/hpoctl" run --ledger "$STATE/ledger.db" --run-dir "$STATE/runs" \
    "$TOP/etc/campaigns/demo.json"
echo
"$TOP/$BUILD/hpoctl" trials --ledger "$STATE/ledger.db" demo
echo
echo "demo: read it again with: $BUILD/hpoctl report --ledger $STATE/ledger.db demo"
reached=$("$TOP/$BUILD/hpoctl" report --ledger "$STATE/ledger.db" --format csv demo |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "reached_target") c = i }
	NR == 2 { print $c }')
if [ "${reached:-0}" -gt 0 ]; then
	echo "demo: the target was reached by $reached trial(s)"
else
	echo "demo: no trial reached the target" >&2
	exit 1
fi

# The second example: a batch-size scaling campaign over four batch sizes,
# then its guideline table.
echo
echo "demo: hpoctl run etc/campaigns/scaling-minicosmo.json"
"$TOP/$BUILD/hpoctl" run -q --ledger "$STATE/ledger.db" --run-dir "$STATE/runs" \
    "$TOP/etc/campaigns/scaling-minicosmo.json"
echo
"$TOP/$BUILD/hpoctl" report --ledger "$STATE/ledger.db" --table scaling-minicosmo
rows=$("$TOP/$BUILD/hpoctl" report --ledger "$STATE/ledger.db" --table \
    --format csv scaling-minicosmo | tail -n +2 | wc -l)
if [ "${rows:-0}" -ne 4 ]; then
	echo "demo: the guideline table has ${rows:-no} rows, not 4" >&2
	exit 1
fi
confirmed=$("$TOP/$BUILD/hpoctl" report --ledger "$STATE/ledger.db" --table \
    --format csv scaling-minicosmo | awk -F, 'NR > 1 { n += $4 } END { print n + 0 }')
echo "demo: $confirmed of the 4 batch sizes confirmed"
echo
echo "demo: the time-to-solution report: $BUILD/hpoctl report --ledger $STATE/ledger.db scaling-minicosmo"
echo "demo: as a web page: $BUILD/hpoctl report --ledger $STATE/ledger.db --format html scaling-minicosmo > report.html"
