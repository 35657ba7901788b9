/*
 * fuzz_mllog.c: libFuzzer target for the MLLOG line parser
 * (make fuzz; build/fuzz/fuzz_mllog -max_total_time=60).
 */
#include <stddef.h>
#include <stdint.h>

#include "mllog.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct mllog_event	 ev;
	char			 err[256];

	mllog_parse_line((const char *)data, len, &ev, err, sizeof(err));
	return 0;
}
