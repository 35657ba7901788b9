/*
 * space_kinds.h: the search spaces the TPE tests and the tpe-suggest
 * bench share.  The caller frees a space with space_free().
 */
#ifndef SPACE_KINDS_H
#define SPACE_KINDS_H

#include "space.h"

/* Add NAME, a choice of the batch sizes 32, 64 and 128, to sp. */
void		 space_kinds_add_bs(struct space *sp, const char *name);
/*
 * A space of every kind of parameter: lr (log float in [0.001, 0.2]),
 * bs (choice of 32, 64, 128), m (linear float in [0.85, 0.95]), layers
 * (linear int in [1, 9]) and width (log int in [8, 512]).
 */
struct space	*space_kinds_new(void);

#endif
