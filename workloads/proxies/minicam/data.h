/*
 * minicam/data.h: minicam's synthetic climate fields (see minicam.c): NCH
 * channels of smooth Gaussian background weather with planted cyclones
 * and atmospheric rivers, and their per-pixel labels.  The same data seed
 * gives the same data set, byte for byte.
 */
#ifndef MINICAM_DATA_H
#define MINICAM_DATA_H

#include <stdint.h>

#define GRID_MAX	128		/* largest --grid */
#define NCH		4		/* TMQ, U850, V850, PSL */
#define NCLASS		3		/* background, cyclone, river */

/* A generated data set: n fields of npix pixels and their labels. */
struct dataset {
	int		 n;
	int		 npix;
	float		*x;		/* n * npix * NCH, pixel-major */
	unsigned char	*y;		/* n * npix classes */
};

/* Generate d with n samples of grid x grid pixels from stream of the data
 * seed; 0, or -1 if out of memory. */
int	dataset_make(struct dataset *, uint64_t seed, uint64_t stream, int n,
	    int grid);
void	dataset_free(struct dataset *);

#endif
