/*
 * fuzz_workload.c: libFuzzer target for the workload spec parser, and for
 * what a parsed spec then does: render an attempt's argv, environment and
 * metric_file, and read output lines with its metric reader
 * (make fuzz; build/fuzz/fuzz_workload -max_total_time=60).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "mllog.h"
#include "workload.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const progdirs[] = { NULL };
	static const char *const names[] = { "lr", "batch_size" };
	static const struct workload_var vars[] = {
		{ "lr", "0.01" }, { "batch_size", "64" }, { "trial", "3" },
	};
	static const char line[] = ":::MLLOG {\"key\": \"eval_error\", "
	    "\"value\": 0.3, \"metadata\": {\"epoch_num\": 2}} loss 0.25 "
	    "epoch 7";
	struct workload		*w;
	struct mllog_event	 ev;
	char			 err[1024], **argv, **env, *file;

	w = workload_parse_text((const char *)data, len, "fuzz.json",
	    progdirs, err, sizeof(err));
	if (w == NULL)
		return 0;
	workload_check(w, names, 2, err, sizeof(err));
	if (workload_render(w, vars, 3, &argv, &env, err, sizeof(err)) == 0) {
		workload_strv_free(argv);
		workload_strv_free(env);
	}
	if (workload_metric_file(w, vars, 3, &file, err, sizeof(err)) == 0)
		free(file);
	workload_read_line(w, line, sizeof(line) - 1, &ev, err, sizeof(err));
	workload_free(w);
	return 0;
}
