/*
 * test_slurm_sbatch.c: the sbatch command line of a submit with
 * resources.sbatch_extra: the options hpod models as sbatch spells them,
 * then the extra ones, then the script.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_int.h"
#include "tap.h"

/* argv joined with single spaces. */
static char *
join(char **argv)
{
	char	*s = NULL;
	size_t	 len = 0, i;
	FILE	*f = open_memstream(&s, &len);

	for (i = 0; argv[i] != NULL; i++)
		fprintf(f, "%s%s", i > 0 ? " " : "", argv[i]);
	fclose(f);
	return s;
}

int
main(void)
{
	struct slurm_desc	 d;
	char			*extra[] = { "--qos=debug", "--licenses=foo",
				    NULL };
	char			**argv, *s;

	memset(&d, 0, sizeof(d));
	d.name = "tok";
	d.comment = "tok";
	d.work_dir = "/r/a";
	d.std_out = "/r/a/slurm.out";
	d.nodes = 2;
	d.tasks_per_node = 4;
	d.cpus_per_task = 8;
	d.gpus_per_node = 4;
	d.time_limit = 5401;	/* rounds up to 91 minutes, as libslurm's */
	d.partition = "gpu";
	d.extra.mem_per_gpu_mb = 8192;
	d.extra.exclusive = 1;
	d.extra.reservation = "r1";
	d.extra.signal = SIGUSR1;
	d.extra.signal_time = 120;
	d.extra.signal_batch = 1;
	d.extra.sbatch = extra;
	argv = slurm_sbatch_argv(&d, "/r/a/sbatch.sh");
	s = join(argv);
	is_str(s, "sbatch --parsable --job-name=tok --comment=tok --chdir=/r/a "
	    "--output=/r/a/slurm.out --nodes=2 --ntasks-per-node=4 --ntasks=8 "
	    "--cpus-per-task=8 --gpus-per-node=4 --time=91 --partition=gpu "
	    "--mem-per-gpu=8192M --exclusive --reservation=r1 "
	    "--signal=B:10@120 --no-requeue --qos=debug --licenses=foo "
	    "/r/a/sbatch.sh", "a single job: modelled options, extra, script");
	free(s);
	slurm_strv_free(argv);

	memset(&d, 0, sizeof(d));
	d.name = "tok";
	d.comment = "hpod-array /r/a/array.list";
	d.work_dir = "/r/a";
	d.std_out = "/r/a/slurm-%a.out";
	d.nodes = d.tasks_per_node = d.cpus_per_task = 1;
	d.array = "0-3";
	d.extra.sbatch = extra + 1;
	argv = slurm_sbatch_argv(&d, "/r/a/sbatch.sh");
	s = join(argv);
	is_str(s, "sbatch --parsable --job-name=tok "
	    "--comment=hpod-array /r/a/array.list --chdir=/r/a "
	    "--output=/r/a/slurm-%a.out --nodes=1 --ntasks-per-node=1 "
	    "--ntasks=1 --cpus-per-task=1 --array=0-3 --no-requeue "
	    "--licenses=foo /r/a/sbatch.sh",
	    "an array: no time limit or GPUs unless asked, --array");
	ok(strcmp(argv[3], "--comment=hpod-array /r/a/array.list") == 0,
	    "the comment is one argument, spaces and all");
	free(s);
	slurm_strv_free(argv);

	/* --test-only of resources.cpus_per_gpu (tests/slurm/keys.sh). */
	memset(&d, 0, sizeof(d));
	d.name = "keys";
	d.comment = "hpoctl check";
	d.work_dir = "/";
	d.std_out = "/dev/null";
	d.nodes = d.tasks_per_node = d.cpus_per_task = 1;
	d.extra.gpus_per_task = 1;
	d.extra.cpus_per_gpu = 2;
	argv = slurm_sbatch_argv(&d, NULL);
	s = join(argv);
	is_str(s, "sbatch --parsable --job-name=keys --comment=hpoctl check "
	    "--chdir=/ --output=/dev/null --nodes=1 --ntasks-per-node=1 "
	    "--ntasks=1 --gpus-per-task=1 --cpus-per-gpu=2 --no-requeue "
	    "--test-only --wrap=true",
	    "cpus_per_gpu: no --cpus-per-task, which sbatch refuses beside it");
	free(s);
	slurm_strv_free(argv);
	return tap_done();
}
