#!/bin/sh
# Pilots whose agents have trouble calling hpod.  (1) On a host whose own
# name does not resolve (a chroot, a fresh machine without it in
# /etc/hosts), the agents still reach hpod: on hpod's host they call
# loopback first, elsewhere the interfaces' addresses in the pilot file
# after the name.  (2) Pilots that start but whose agents never call are
# not replaced for ever: after three in a row the waiting trials fail,
# saying why, and the campaign ends.
. "$(dirname "$0")/lib.subr"

# write_pilot NAME TRIALS EPOCHS PILOT: a pilot campaign of minicosmo.
write_pilot() {
	write_campaign "$1" "$2" 1 "$3" 0.01
	jq --argjson p "$4" '. + {"dispatch": "pilot", "pilot": $p}' \
	    "$T/$1.json" >"$T/$1.tmp" && mv "$T/$1.tmp" "$T/$1.json"
}

# (1) The host's name resolves nowhere: a UTS namespace of its own.
write_pilot ph 4 2 '{"count": 2, "cpus": 1}'
if [ "$(id -u)" = 0 ] && unshare --uts true 2>/dev/null; then
	name="hpod-unresolvable-$$.invalid"
	rc=0
	timeout 120 unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' \
	    sh "$name" "$HPOCTL" -f "$CONF" run --format json "$T/ph.json" \
	    >"$T/ph.out" 2>"$T/ph.err" || rc=$?
	is "a campaign on a host whose name does not resolve ends" "$rc" 0
	is "the pilot file names that host" \
	    "$(jq -r .host "$RUNS/1-ph/pilot.json")" "$name"
	check "and lists the interfaces' addresses" \
	    jq -e '.addresses | type == "array"' "$RUNS/1-ph/pilot.json"
	is "its trials completed" "$(jq .trials.completed "$T/ph.out")" 4
	is "in the pilots" \
	    "$(sql "select count(*) from attempts where job_id like '%.p%'")" 4
else
	ok "# SKIP a host name that does not resolve: needs root and unshare --uts"
fi

# (2) Agents that never call: the first pilot runs, then the pilot file is
# made unreadable to the agents (mode 0644: they refuse it), and every
# later pilot ends at its 5-second limit without calling.
sed "s|^ledger = .*|ledger = $T/nc.db|" "$CONF" >"$T/nc.conf"
write_pilot pn 400 2 '{"count": 1, "cpus": 1, "time_limit": "0:05"}'
# Its trials state no time limit: one would need a pilot that long.
jq 'del(.resources.time_limit)' "$T/pn.json" >"$T/pn.tmp" &&
    mv "$T/pn.tmp" "$T/pn.json"
# Without the rule the pilots are replaced for ever: give up after 150 s.
timeout 150 "$HPOCTL" -f "$T/nc.conf" run --format json "$T/pn.json" \
    >"$T/pn.out" 2>"$T/pn.err" &
fg=$!

for _ in $(seq 1 300); do
	[ "$(sqlite3 -readonly "$T/nc.db" "select count(*) from attempts
	    where started > 0" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.1
done
PF=$(ls -d "$T"/state/runs/*-pn | head -1)/pilot.json
chmod 0644 "$PF"
rc=0
wait "$fg" || rc=$?
is "the campaign ends on its own" "$rc" 0
check "saying the pilots' agents never called" grep -q \
    "3 pilots in a row ended before their agent called hpod at" "$T/pn.err"
is "four pilots in all" \
    "$(sqlite3 -readonly "$T/nc.db" 'select count(*) from pilots')" 4
check "the trials left failed" test "$(jq .trials.failed "$T/pn.out")" -gt 0
chmod 0600 "$PF"
done_testing
