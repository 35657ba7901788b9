/*
 * fuzz_pilot.c: libFuzzer target for the pilot protocol's message parser
 * (make fuzz; build/fuzz/fuzz_pilot -max_total_time=60): every accepted
 * message renders to one line that parses back to the same op.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pilot_proto.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pilot_msg	 m, r;
	char			 err[256], *line;
	size_t			 n;

	if (pilot_msg_parse((const char *)data, len, &m, err, sizeof(err)) ==
	    -1)
		return 0;
	if ((line = pilot_msg_render(&m)) != NULL) {
		n = strlen(line);
		if (n == 0 || line[n - 1] != '\n' ||
		    memchr(line, '\n', n - 1) != NULL ||
		    pilot_msg_parse(line, n - 1, &r, err, sizeof(err)) == -1)
			abort();
		if (r.op != m.op)
			abort();
		pilot_msg_release(&r);
		free(line);
	}
	pilot_msg_release(&m);
	return 0;
}
