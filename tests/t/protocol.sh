#!/bin/sh
# The control protocol: malformed or wrong requests get a clear error and
# the daemon keeps serving; SIGHUP with a bad configuration keeps the old.
. "$(dirname "$0")/lib.subr"

start_daemon
# send LINE: one request line on the socket, print the reply line.
send() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "$!";
		print $s "$ARGV[1]\n"; my $r = <$s>; print $r;' "$SOCK" "$1"
}
is "malformed JSON" "$(send '{"cmd": ' | jq -r .error)" \
    "request is not a JSON object"
is "missing cmd" "$(send '{"campaign": "x"}' | jq -r .error)" \
    "request.cmd: expected a string"
is "cmd is case-sensitive" "$(send '{"cmD": "ping"}' | jq -r .error)" \
    "request.cmd: expected a string"
# A key twice: cJSON finds the first, so this was a status request.
is "a key given twice is refused, naming it" \
    "$(send '{"cmd": "status", "cmd": "cancel", "campaign": "x"}' | jq -r .error)" \
    "request.cmd: duplicate key"
is "at any depth" \
    "$(send '{"cmd": "submit", "spec": {"name": "a", "budget": {"max_trials": 1, "max_trials": 2}}}' | jq -r .error)" \
    "request.spec.budget.max_trials: duplicate key"
is "unknown command" "$(send '{"cmd": "explode", "campaign": "x"}' | jq -r .error)" \
    "unknown command 'explode'"
is "bad format" "$(send '{"cmd": "status", "format": "xml"}' | jq -r .error)" \
    'request.format: expected "text", "json", "csv", "markdown", "rcp" or "html"'
is "report without a campaign" "$(send '{"cmd": "report"}' | jq -r .error)" \
    "request.campaign: required"
is "campaign of the wrong type" "$(send '{"cmd": "report", "campaign": 3}' | jq -r .error)" \
    "request.campaign: expected a string"
is "submit without a spec" "$(send '{"cmd": "submit"}' | jq -r .error)" \
    "request.spec: expected an object"
is "submit of an invalid spec names the key" \
    "$(send '{"cmd": "submit", "path": "x.json", "spec": {"name": "a", "workload": "minicosmo", "space": {"lr": {"type": "float", "min": 1, "max": 0}}, "budget": {"max_trials": 1}}}' | jq -r .error)" \
    "x.json: space.lr: min (1) must be <= max (0)"
is "submit of an unknown workload" \
    "$(send '{"cmd": "submit", "path": "y.json", "spec": {"name": "a", "workload": "nosuch", "space": {"lr": {"type": "float", "min": 0, "max": 1}}, "budget": {"max_trials": 1}}}' | jq -r .error | cut -c1-46)" \
    "y.json: workload: workload 'nosuch' not found "
is "ledger untouched by refused submissions" \
    "$(sql 'select count(*) from campaigns')" 0
check "still serving after bad requests" "$HPOCTL" ping

# SIGHUP with a broken configuration keeps the running one.
cp "$CONF" "$T/good.conf"
echo "poll_interval = banana" >>"$CONF"
kill -HUP "$DPID"
sleep 0.5
check "bad reload is logged" grep -q "keeping the running configuration" "$T/hpod.log"
check "daemon still serves after a bad reload" "$HPOCTL" ping
cp "$T/good.conf" "$CONF"
kill -HUP "$DPID"
sleep 0.5
check "good reload is logged" grep -q "configuration reloaded" "$T/hpod.log"
rc=0
"$HPOD" -d -f "$CONF" 2>"$T/second.txt" || rc=$?
is "a second daemon on the same socket refuses to start" "$rc" 1
check "and says why" grep -q "is in use by another hpod" "$T/second.txt"
check "the daemon stops" stop_daemon
done_testing
