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
