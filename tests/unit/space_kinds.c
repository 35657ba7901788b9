/*
 * space_kinds.c: the search spaces the TPE tests and the tpe-suggest
 * bench share.
 */
#include <stddef.h>

#include "space.h"
#include "space_kinds.h"

/* Add NAME, a choice of the batch sizes 32, 64 and 128, to sp. */
void
space_kinds_add_bs(struct space *sp, const char *name)
{
	struct value bs[3];
	int k;

	for (k = 0; k < 3; k++) {
		bs[k].is_string = 0;
		bs[k].num = 32 << k;
		bs[k].str = NULL;
	}
	space_add_choice(sp, name, bs, 3);
}

/* A space of every kind of parameter (space_kinds.h). */
struct space *
space_kinds_new(void)
{
	struct space *sp = space_new();

	space_add_float(sp, "lr", 0.001, 0.2, SCALE_LOG, 0);
	space_kinds_add_bs(sp, "bs");
	space_add_float(sp, "m", 0.85, 0.95, SCALE_LINEAR, 0);
	space_add_int(sp, "layers", 1, 9, SCALE_LINEAR, 0);
	space_add_int(sp, "width", 8, 512, SCALE_LOG, 0);
	return sp;
}
