#!/bin/sh
# tests/fresh.sh: the README's first command on a clean Debian 12 root.
#
# As root with HPOD_FRESH=1: debootstrap a minbase bookworm root (or copy
# the one named by HPOD_FRESH_BASE), install only git and make in it, clone
# this repository's commit HPOD_FRESH_REV (default HEAD) and run `make demo`
# there once: it must succeed the first time.  With HPOD_FRESH_CHECK=1 it
# then runs `make check` too.  The wall times are printed as TAP comments.
# It needs Debian's mirror (HPOD_FRESH_MIRROR) and takes minutes, so it is
# not part of `make check`; it skips itself otherwise.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
if [ "${HPOD_FRESH:-}" != 1 ] || [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP run as root with HPOD_FRESH=1 (debootstrap root)"
	exit 0
fi
MIRROR=${HPOD_FRESH_MIRROR:-http://deb.debian.org/debian}
REV=$(git -C "$TOP" rev-parse "${HPOD_FRESH_REV:-HEAD}")
ROOT=$(mktemp -d /var/tmp/hpod-fresh.XXXXXX)
N=0
FAIL=0

cleanup() {
	rc=$?
	for m in "$ROOT/dev" "$ROOT/proc" "$ROOT/sys"; do
		mountpoint -q "$m" && umount -l "$m"
	done
	if [ -n "${HPOD_FRESH_KEEP:-}" ]; then
		echo "# kept $ROOT"
	else
		rm -rf "$ROOT"
	fi
	exit "$rc"
}
trap cleanup EXIT INT TERM

# timed NAME COMMAND...: run, report ok/not ok and the wall time.
timed() {
	name=$1
	shift
	t0=$(date +%s)
	rc=0
	"$@" >"$ROOT.log" 2>&1 || rc=$?
	t=$(($(date +%s) - t0))
	N=$((N + 1))
	if [ "$rc" = 0 ]; then
		echo "ok $N - $name (${t} s)"
	else
		FAIL=$((FAIL + 1))
		echo "not ok $N - $name (exit $rc, ${t} s)"
		tail -n 25 "$ROOT.log" | sed 's/^/#   /'
		# The whole log stays: what a failing test printed is
		# above its summary, not in the tail.
		mv "$ROOT.log" "$ROOT.$N.failed.log"
		echo "#   whole log: $ROOT.$N.failed.log"
	fi
	rm -f "$ROOT.log"
	return "$rc"
}

in_root() {
	chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb \
	    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	    /bin/sh -c "$1"
}

echo "# commit $REV in $ROOT"
if [ -n "${HPOD_FRESH_BASE:-}" ]; then
	timed "copy the minbase root $HPOD_FRESH_BASE" \
	    cp -a "$HPOD_FRESH_BASE/." "$ROOT/"
else
	timed "debootstrap --variant=minbase bookworm" \
	    debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mount -t proc proc "$ROOT/proc"
mount --bind /dev "$ROOT/dev"
# /sys with its cgroup mounts: slurmd (tests/slurm) needs them.
mount --rbind /sys "$ROOT/sys"
git clone -q --bare "$TOP" "$ROOT/src.git"
git -C "$ROOT/src.git" update-ref refs/heads/fresh "$REV"

timed "apt-get install git make" in_root 'apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q git make'
timed "git clone" in_root 'git clone -q -b fresh /src.git /root/hpod'
timed "make demo, first try" in_root 'cd /root/hpod && make demo' || true
if [ "${HPOD_FRESH_CHECK:-}" = 1 ]; then
	timed "make check" in_root 'cd /root/hpod && make check' || true
fi
echo "1..$N"
[ "$FAIL" = 0 ]
