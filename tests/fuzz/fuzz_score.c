/*
 * fuzz_score.c: libFuzzer target for the scoring of a whole MLLOG result
 * log (make fuzz; build/fuzz/fuzz_score -max_total_time=60).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "score.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const struct score_rule rules[] = {
		{ NULL, 0, SCORE_MIN, 0, 0 },
		{ "eval_error", 1, SCORE_MIN, 1, 0.5 },
	};
	struct score_run	 r[2];
	struct score_set	 set;
	char			 err[256];
	FILE			*f;
	size_t			 i, n = 0;

	for (i = 0; i < 2 && len > 0; i++) {
		if ((f = fmemopen((void *)data, len, "r")) == NULL)
			return 0;
		if (score_stream(f, "fuzz", &rules[i], &r[n], err,
		    sizeof(err)) == 0)
			n++;
		fclose(f);
	}
	if (n > 0)
		score_summary(r, n, &set, err, sizeof(err));
	for (i = 0; i < n; i++)
		score_run_release(&r[i]);
	return 0;
}
