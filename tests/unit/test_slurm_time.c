/*
 * test_slurm_time.c: resources.time_limit reads every sbatch --time form
 * exactly as libslurm's own parser does.
 */
#include <stdio.h>

#include "spec.h"
#include "tap.h"

/* Exported by libslurm (src/common/parse_time.c), not declared in slurm.h. */
extern int	slurm_time_str2secs(const char *);
extern int	slurm_time_str2mins(const char *);

int
main(void)
{
	static const char *const forms[] = {
		"0", "1", "90", "100000", "1:30", "90:00", "0:59",
		"01:30:00", "1:2:3", "48:00:00", "0-01:30", "0-12", "1-12",
		"1-0", "2-10", "1-12:30", "3-00:00:01", "0-0:0:59", "7-23:59:59",
	};
	size_t	 i;
	long	 ours;
	int	 slurm;
	char	 name[80];

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		ours = spec_parse_duration(forms[i]);
		slurm = slurm_time_str2secs(forms[i]);
		snprintf(name, sizeof(name), "\"%s\": %d s as libslurm reads it",
		    forms[i], slurm);
		is_int(ours, slurm, name);
		slurm = slurm_time_str2mins(forms[i]);
		snprintf(name, sizeof(name), "\"%s\": %d min as sbatch --time",
		    forms[i], slurm);
		is_int((ours + 59) / 60, slurm, name);
	}
	/* What sbatch refuses, hpod refuses. */
	is_int(spec_parse_duration("1:2:3:4"), -1, "four fields refused");
	is_int(spec_parse_duration("1-2:3:4:5"), -1, "D- and four fields");
	is_int(spec_parse_duration("x-1"), -1, "days not a number");
	return tap_done();
}
