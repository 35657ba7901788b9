/*
 * minicam/data.c: minicam's synthetic climate fields (see data.h).
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"
#include "data.h"

#define BG_SIGMA	1.6		/* smoothing of the background, pixels */
#define NOISE		0.35		/* white noise on top of it */
#define AMP_MIN		3.0		/* amplitude of a planted feature, in */
#define AMP_MAX		4.0		/* units of the background's deviation */

/* A uniform number in (lo, hi). */
static double
rng_range(uint64_t *s, double lo, double hi)
{
	return lo + (hi - lo) * rng_uniform(s);
}

/*
 * Fill f[0..n) with white noise of mean 0 and variance 1: uniform, which
 * is cheaper than normal and becomes Gaussian once smoothed.
 */
static void
rng_noise(uint64_t *s, double *f, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		f[i] = (rng_uniform(s) - 0.5) * 3.4641016151377544;
}

/*
 * Smooth every row of src (n^2, periodic) with the kernel k[-r..r] and
 * write the result transposed into dst.
 */
static void
smooth_transpose(double *dst, const double *src, int n, const double *k,
    int r)
{
	double	 row[GRID_MAX + 2 * 6];
	int	 i, j, t;

	for (i = 0; i < n; i++) {
		for (j = -r; j < n + r; j++)
			row[j + r] = src[i * n + (j + n) % n];
		for (j = 0; j < n; j++) {
			double	 acc = 0;

			for (t = 0; t <= 2 * r; t++)
				acc += k[t] * row[j + t];
			dst[j * n + i] = acc;
		}
	}
}

/*
 * Fill f (n^2) with a periodic Gaussian random field of unit variance and
 * correlation length BG_SIGMA: white noise smoothed along both axes.
 */
static void
field_make(double *f, double *tmp, int n, uint64_t *s)
{
	double	 k[13], norm = 0;
	int	 t, r = 6;

	for (t = -r; t <= r; t++) {
		k[t + r] = exp(-0.5 * t * t / (BG_SIGMA * BG_SIGMA));
		norm += k[t + r] * k[t + r];
	}
	for (t = 0; t <= 2 * r; t++)
		k[t] /= sqrt(norm);
	rng_noise(s, f, n * n);
	smooth_transpose(tmp, f, n, k, r);
	smooth_transpose(f, tmp, n, k, r);
}

/*
 * Plant an atmospheric river in sample x (n^2 pixels, NCH channels) and
 * its labels y: a band through a random centre at a random angle, 0.6 to
 * 1 field long, 1 to 1.8 pixels wide, bent into a parabola, with moisture
 * and a wind along it peaking on its axis.
 */
static void
river_plant(float *x, unsigned char *y, int n, uint64_t *s)
{
	double	 cx = rng_range(s, 0, n), cy = rng_range(s, 0, n);
	double	 th = rng_range(s, 0, 3.141592653589793);
	double	 hl = rng_range(s, 0.3, 0.5) * n;
	double	 bend = rng_range(s, -0.12, 0.12);
	double	 w = rng_range(s, 1.0, 1.8);
	double	 sense = rng_uniform(s) < 0.5 ? -1 : 1;
	double	 amp = rng_range(s, AMP_MIN, AMP_MAX);
	double	 c = cos(th), sn = sin(th);
	int	 i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double	 dx = j - cx, dy = i - cy;
			double	 along = dx * c + dy * sn;
			double	 across = -dx * sn + dy * c;
			double	 off, d2, g;
			float	*p = x + (size_t)(i * n + j) * NCH;

			off = across - bend * along * along / hl;
			d2 = off * off;
			if (fabs(along) > hl)
				d2 += (fabs(along) - hl) * (fabs(along) - hl);
			if (d2 > 16 * w * w)
				continue;
			g = exp(-0.5 * d2 / (w * w));
			p[0] += (float)(amp * g);
			p[1] += (float)(sense * amp * g * c);
			p[2] += (float)(sense * amp * g * sn);
			if (d2 <= 1.44 * w * w)
				y[i * n + j] = 2;
		}
}

/*
 * Plant a tropical cyclone in x and y: a compact blob of radius 1.8 to 3
 * pixels with low pressure, moisture and a tangential wind that peaks at
 * the radius, turning either way.
 */
static void
cyclone_plant(float *x, unsigned char *y, int n, uint64_t *s)
{
	double	 r = rng_range(s, 1.8, 3.0);
	double	 cx = rng_range(s, r, n - 1 - r);
	double	 cy = rng_range(s, r, n - 1 - r);
	double	 sense = rng_uniform(s) < 0.5 ? -1 : 1;
	double	 amp = rng_range(s, AMP_MIN, AMP_MAX);
	int	 i, j, i0, i1, j0, j1;

	i0 = cy - 4 * r < 0 ? 0 : (int)(cy - 4 * r);
	i1 = cy + 4 * r > n - 1 ? n - 1 : (int)(cy + 4 * r);
	j0 = cx - 4 * r < 0 ? 0 : (int)(cx - 4 * r);
	j1 = cx + 4 * r > n - 1 ? n - 1 : (int)(cx + 4 * r);
	for (i = i0; i <= i1; i++)
		for (j = j0; j <= j1; j++) {
			double	 dx = j - cx, dy = i - cy;
			double	 d2 = dx * dx + dy * dy, g, vt;
			float	*p = x + (size_t)(i * n + j) * NCH;

			if (d2 > 16 * r * r)
				continue;
			g = exp(-0.5 * d2 / (r * r));
			vt = amp * sqrt(d2) / r * exp(0.5 - 0.5 * d2 / (r * r));
			p[0] += (float)(0.6 * amp * g);
			if (d2 > 0) {
				p[1] += (float)(-sense * vt * dy / sqrt(d2));
				p[2] += (float)(sense * vt * dx / sqrt(d2));
			}
			p[3] -= (float)(amp * g);
			if (d2 <= 2.25 * r * r)
				y[i * n + j] = 1;
		}
}

/*
 * Generate sample number idx of stream into x and y: background weather
 * and noise in every channel, 1 or 2 rivers, then 1 or 2 cyclones, whose
 * labels win where they overlap a river.
 */
static void
sample_make(uint64_t seed, uint64_t stream, int idx, int n, float *x,
    unsigned char *y, double *f, double *tmp)
{
	uint64_t	 s = rng_stream(seed + stream, (uint64_t)idx);
	int		 i, c, k, npix = n * n;

	memset(y, 0, (size_t)npix);
	for (c = 0; c < NCH; c++) {
		field_make(f, tmp, n, &s);
		rng_noise(&s, tmp, npix);
		for (i = 0; i < npix; i++)
			x[i * NCH + c] = (float)(f[i] + NOISE * tmp[i]);
	}
	for (k = 1 + (int)(rng_next(&s) % 2); k > 0; k--)
		river_plant(x, y, n, &s);
	for (k = 1 + (int)(rng_next(&s) % 2); k > 0; k--)
		cyclone_plant(x, y, n, &s);
}

/* Generate d with n samples of stream; return 0 or -1 if out of memory. */
int
dataset_make(struct dataset *d, uint64_t seed, uint64_t stream, int n,
    int grid)
{
	double	*f, *tmp;
	int	 i;

	d->n = n;
	d->npix = grid * grid;
	d->x = malloc(sizeof(*d->x) * (size_t)n * d->npix * NCH);
	d->y = malloc((size_t)n * d->npix);
	f = malloc(sizeof(*f) * d->npix);
	tmp = malloc(sizeof(*tmp) * d->npix);
	if (d->x == NULL || d->y == NULL || f == NULL || tmp == NULL) {
		free(f);
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++)
		sample_make(seed, stream, i, grid,
		    d->x + (size_t)i * d->npix * NCH,
		    d->y + (size_t)i * d->npix, f, tmp);
	free(f);
	free(tmp);
	return 0;
}

/* Free what dataset_make allocated. */
void
dataset_free(struct dataset *d)
{
	free(d->x);
	free(d->y);
}
