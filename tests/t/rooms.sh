#!/bin/sh
# rooms.sh: the build keeps the rooms of the code apart.  For every room
# and one header of every other room, the header resolves with the room's
# compile flags exactly when the Makefile's SEES_ table lets the room see
# that header's folder: a forbidden include fails the build, and every
# allowed one still resolves.  (Header names are unique across rooms.)
. "$(dirname "$0")/lib.subr"

cd "$TOP"
CC=${CC:-cc}
mk() { make -s --no-print-directory "$@"; }
resolves() { # resolves FLAGS HEADER
	printf '#include "%s"\n' "$2" | $CC -E $1 -x c - >/dev/null 2>&1
}
rooms=$(mk room-list)
for room in $rooms; do
	flags=$(mk room-flags ROOM="$room")
	seen=$(printf '%s\n' $flags | grep -v '^-iquote$' | tr '\n' ' ')
	wrong=
	for other in $rooms; do
		[ "$other" = "$room" ] && continue
		h=$(ls "$other"/*.h 2>/dev/null | head -n 1)
		[ -n "$h" ] || continue
		if resolves "$flags" "$(basename "$h")"; then got=yes; else got=no; fi
		case " $seen" in *" $other "*) want=yes ;; *) want=no ;; esac
		[ "$got" = "$want" ] || wrong="$wrong $h(resolves=$got)"
	done
	is "room $room sees exactly: $seen" "${wrong:-none wrong}" "none wrong"
done
for room in search ledger workloads; do
	is "$room sees only itself" "$(mk room-flags ROOM="$room")" "-iquote $room"
done
if resolves "$(mk room-flags ROOM=search)" ledger.h; then
	not_ok "search/ cannot include ledger.h"
else ok "search/ cannot include ledger.h"; fi
done_testing
