/*
 * fuzz_spec.c: libFuzzer target for the campaign spec parser
 * (make fuzz; build/fuzz/fuzz_spec -max_total_time=60).
 */
#include <stddef.h>
#include <stdint.h>

#include "spec.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char	 err[1024];

	spec_free(spec_parse((const char *)data, len, "fuzz.json", err,
	    sizeof(err)));
	return 0;
}
