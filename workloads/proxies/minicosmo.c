/*
 * minicosmo.c: a CosmoFlow-like proxy trainer for hpod.
 *
 * Each sample is a small periodic 3D density field whose statistics depend
 * on two hidden "cosmological" parameters theta = (theta1, theta2), both
 * uniform in [-1, 1]: Gaussian white noise is smoothed by a Gaussian kernel
 * whose width depends on theta2, exponentiated into a log-normal density
 * whose amplitude depends on theta1, and log1p-transformed as CosmoFlow
 * does.  A small 3D convolutional network with CosmoFlow's leaky ReLU,
 *
 *	conv3d(1->C1, 3^3, periodic) + LReLU -> avgpool 2^3
 *	-> conv3d(C1->C2, 3^3, periodic) + LReLU -> global average pool
 *	-> dense(C2->H) + LReLU -> dense(H->2)
 *
 * is trained with hand-written backprop, minibatch SGD with momentum, an
 * MSE loss on theta and CosmoFlow's schedule: the peak learning rate is
 * --lr, or with --lr-scaling, --lr scaled from --base-batch-size to the
 * batch size linearly or by the square root; a linear warm-up reaches it
 * from --lr (from --lr / 10 without scaling), then the rate is halved at
 * 50% and again at 75% of the epochs.  The metric, eval_error, is the
 * validation mean absolute error of theta averaged over both parameters;
 * predicting 0 gives 0.5.  Progress is written to stdout as MLCommons
 * mlperf_logging lines.
 *
 * The data set comes from a fixed data seed, so every trial sees the same
 * data; --seed only sets the initial weights and the shuffling.  The same
 * arguments give byte-identical output except time_ms.  No setlocale() is
 * called, so numbers are printed in the C locale.
 *
 * Exit status: 0 when training ends (target reached or not), 2 when the
 * loss diverges, 64 on bad usage, 1 when memory runs out.
 */

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proxy.h"

#define DATA_SEED	0x636f736d6f666c77ULL	/* shared by all trials */
#define NTAPS		27		/* 3x3x3 kernel */
#define C1		8		/* channels of the first conv */
#define C2		16		/* channels of the second conv */
#define HIDDEN		32		/* width of the hidden dense layer */
#define NOUT		2		/* theta1, theta2 */
#define LEAK		0.3f		/* leaky ReLU slope, as CosmoFlow */
#define NBAR		4.0		/* mean count per voxel */
#define LOSS_DIVERGED	100.0		/* a batch MSE this large diverged */

enum scaling { SCALE_NONE, SCALE_LINEAR, SCALE_SQRT };

static const char *const scaling_names[] = { "none", "linear", "sqrt" };

/* Command-line settings; see usage(). */
struct opts {
	double		 lr;
	enum scaling	 scaling;
	int		 base_batch;
	int		 batch;
	int		 epochs;
	double		 warmup;
	double		 momentum;
	double		 wdecay;
	uint64_t	 seed;
	double		 target;	/* < 0: none */
	int		 ntrain;
	int		 neval;
	int		 grid;
};

/* A generated data set: n fields of nvox voxels and their theta. */
struct dataset {
	int		 n;
	int		 nvox;
	float		*x;		/* n * nvox, standardized log1p */
	float		*y;		/* n * NOUT */
};

/*
 * The network: every parameter lives in one array so that the optimizer is
 * a single loop; the offsets name the layers inside it.
 */
enum { W1, B1, W2, B2, W3, B3, W4, B4, NSEG };

struct net {
	int		 grid, pgrid;	/* fine and pooled grid edge */
	int		 nvox, npool;
	int		*nbr1;		/* nvox * NTAPS periodic neighbours */
	int		*nbr2;		/* npool * NTAPS */
	int		*parent;	/* nvox: pooled voxel of each voxel */
	size_t		 off[NSEG + 1];
	float		*w;		/* parameters */
	float		*g;		/* gradient accumulated over a batch */
	float		*v;		/* momentum buffer */
	/* activations of one sample, and the pooled layer's gradient */
	float		*a1;		/* nvox * C1 */
	float		*p1, *dp;	/* npool * C1 */
	float		*a2;		/* npool * C2 */
	float		 gap[C2], h[HIDDEN], out[NOUT];
};

/* Sizes of the parameter segments, in the order of the enum. */
static const size_t seg_size[NSEG] = {
	NTAPS * C1, C1, NTAPS * C1 * C2, C2, C2 * HIDDEN, HIDDEN,
	HIDDEN * NOUT, NOUT
};

/* Fan-in of each segment; 0 marks biases: zero init, no weight decay. */
static const int seg_fanin[NSEG] = {
	NTAPS, 0, NTAPS * C1, 0, C2, 0, HIDDEN, 0
};

static const struct option longopts[] = {
	{ "lr",			required_argument, NULL, 'l' },
	{ "lr-scaling",		required_argument, NULL, 'L' },
	{ "base-batch-size",	required_argument, NULL, 'B' },
	{ "batch-size",		required_argument, NULL, 'b' },
	{ "epochs",		required_argument, NULL, 'e' },
	{ "warmup-epochs",	required_argument, NULL, 'w' },
	{ "momentum",		required_argument, NULL, 'm' },
	{ "weight-decay",	required_argument, NULL, 'd' },
	{ "seed",		required_argument, NULL, 's' },
	{ "target",		required_argument, NULL, 't' },
	{ "train-samples",	required_argument, NULL, 'n' },
	{ "eval-samples",	required_argument, NULL, 'v' },
	{ "grid",		required_argument, NULL, 'g' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL,			0,		   NULL, 0 }
};


/* Print the synopsis and exit with status. */
static _Noreturn void
usage(FILE *f, int status)
{
	fprintf(f,
	    "usage: minicosmo [--lr X] [--lr-scaling none|linear|sqrt] "
	    "[--base-batch-size N]\n"
	    "                 [--batch-size N] [--epochs N] "
	    "[--warmup-epochs X] [--momentum M]\n"
	    "                 [--weight-decay W] [--seed N] [--target X] "
	    "[--train-samples N]\n"
	    "                 [--eval-samples N] [--grid N]\n"
	    "defaults: --lr 0.03 --lr-scaling none --base-batch-size 32 "
	    "--batch-size 32\n"
	    "          --epochs 8 --warmup-epochs 1 --momentum 0.9 "
	    "--weight-decay 0 --seed 0,\n"
	    "          no target, --train-samples 1024 --eval-samples 256 "
	    "--grid 8\n");
	exit(status);
}

/* Fill o from argv; exit 64 on bad usage. */
static void
opts_parse(struct opts *o, int argc, char **argv)
{
	int	 ch;

	*o = (struct opts){ .lr = 0.03, .scaling = SCALE_NONE,
	    .base_batch = 32, .batch = 32, .epochs = 8,
	    .warmup = 1, .momentum = 0.9, .wdecay = 0, .seed = 0,
	    .target = -1, .ntrain = 1024, .neval = 256, .grid = 8 };
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			o->lr = parse_real("lr", optarg, 0, 1e3);
			if (o->lr <= 0)
				bad_option("lr", optarg, "must be > 0");
			break;
		case 'L':
			o->scaling = parse_word("lr-scaling", optarg,
			    scaling_names, 3);
			break;
		case 'B':
			o->base_batch = parse_int("base-batch-size", optarg, 1,
			    65536);
			break;
		case 'b':
			o->batch = parse_int("batch-size", optarg, 1, 65536);
			break;
		case 'e':
			o->epochs = parse_int("epochs", optarg, 1, 10000);
			break;
		case 'w':
			o->warmup = parse_real("warmup-epochs", optarg, 0,
			    10000);
			break;
		case 'm':
			o->momentum = parse_real("momentum", optarg, 0, 1);
			if (o->momentum >= 1)
				bad_option("momentum", optarg, "must be < 1");
			break;
		case 'd':
			o->wdecay = parse_real("weight-decay", optarg, 0, 1);
			break;
		case 's':
			o->seed = parse_seed("seed", optarg);
			break;
		case 't':
			o->target = parse_real("target", optarg, 0, 1e9);
			break;
		case 'n':
			o->ntrain = parse_int("train-samples", optarg, 1,
			    65536);
			break;
		case 'v':
			o->neval = parse_int("eval-samples", optarg, 1, 65536);
			break;
		case 'g':
			o->grid = parse_int("grid", optarg, 4, 32);
			if (o->grid % 2 != 0)
				bad_option("grid", optarg, "must be even");
			break;
		case 'h':
			usage(stdout, 0);
		default:
			usage(stderr, EXIT_USAGE);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "minicosmo: unexpected argument '%s'\n",
		    argv[optind]);
		usage(stderr, EXIT_USAGE);
	}
	if (o->batch > o->ntrain) {
		char	arg[16];

		snprintf(arg, sizeof(arg), "%d", o->batch);
		bad_option("batch-size", arg,
		    "must not exceed --train-samples");
	}
	if ((double)o->ntrain * o->grid * o->grid * o->grid > 1 << 27) {
		char	arg[16];

		snprintf(arg, sizeof(arg), "%d", o->ntrain);
		bad_option("train-samples", arg,
		    "too many voxels with this --grid (max 2^27)");
	}
}

/* Smooth f (n^3, periodic) along axis with the 1D kernel k[-r..r]. */
static void
smooth_axis(double *f, double *tmp, int n, int axis, const double *k, int r)
{
	int	 stride = axis == 0 ? 1 : axis == 1 ? n : n * n;
	int	 i, j, t, c;

	for (i = 0; i < n * n * n; i++) {
		c = (i / stride) % n;
		tmp[i] = 0;
		for (t = -r; t <= r; t++) {
			j = i + (((c + t + n) % n) - c) * stride;
			tmp[i] += k[t + r] * f[j];
		}
	}
	memcpy(f, tmp, sizeof(*f) * n * n * n);
}

/*
 * Generate sample number idx of stream into x (n^3 voxels) and y.  The
 * smoothing kernel is normalized so that the smoothed noise has unit
 * variance; theta1 sets the log-normal amplitude, 0.25 to 1 on a log
 * scale, theta2 the smoothing width, 0.4 to 1.2 voxels.
 */
static void
sample_make(uint64_t stream, int idx, int n, float *x, float *y,
    double *f, double *tmp)
{
	uint64_t	 s = rng_stream(DATA_SEED + stream, (uint64_t)idx);
	double		 t1, t2, amp, sigma, k[7], norm = 0;
	int		 i, r, nvox = n * n * n;

	t1 = 2 * rng_uniform(&s) - 1;
	t2 = 2 * rng_uniform(&s) - 1;
	amp = 0.5 * exp2(t1);
	sigma = 0.8 + 0.4 * t2;
	r = n / 2 - 1 < 3 ? n / 2 - 1 : 3;
	for (i = -r; i <= r; i++) {
		k[i + r] = exp(-0.5 * i * i / (sigma * sigma));
		norm += k[i + r] * k[i + r];
	}
	for (i = 0; i <= 2 * r; i++)
		k[i] /= sqrt(norm);
	for (i = 0; i < nvox; i++)
		f[i] = rng_normal(&s);
	smooth_axis(f, tmp, n, 0, k, r);
	smooth_axis(f, tmp, n, 1, k, r);
	smooth_axis(f, tmp, n, 2, k, r);
	for (i = 0; i < nvox; i++)
		x[i] = (float)log1p(NBAR * exp(amp * f[i] - 0.5 * amp * amp));
	y[0] = (float)t1;
	y[1] = (float)t2;
}

/* Generate d with n samples of stream; return 0 or -1 if out of memory. */
static int
dataset_make(struct dataset *d, uint64_t stream, int n, int grid)
{
	double	*f, *tmp;
	int	 i;

	d->n = n;
	d->nvox = grid * grid * grid;
	d->x = malloc(sizeof(*d->x) * (size_t)n * d->nvox);
	d->y = malloc(sizeof(*d->y) * (size_t)n * NOUT);
	f = malloc(sizeof(*f) * d->nvox);
	tmp = malloc(sizeof(*tmp) * d->nvox);
	if (d->x == NULL || d->y == NULL || f == NULL || tmp == NULL) {
		free(f);
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++)
		sample_make(stream, i, grid, d->x + (size_t)i * d->nvox,
		    d->y + (size_t)i * NOUT, f, tmp);
	free(f);
	free(tmp);
	return 0;
}

/* Standardize every voxel of d with mean mu and deviation sd. */
static void
dataset_standardize(struct dataset *d, double mu, double sd)
{
	size_t	 i, n = (size_t)d->n * d->nvox;

	for (i = 0; i < n; i++)
		d->x[i] = (float)((d->x[i] - mu) / sd);
}

/* Free what dataset_make allocated. */
static void
dataset_free(struct dataset *d)
{
	free(d->x);
	free(d->y);
}

/* Return a table of the 27 periodic neighbours of every voxel of n^3. */
static int *
neighbours_make(int n)
{
	int	*t, v, x, y, z, tap, k = 0;

	if ((t = malloc(sizeof(*t) * n * n * n * NTAPS)) == NULL)
		return NULL;
	for (v = 0; v < n * n * n; v++) {
		z = v / (n * n);
		y = v / n % n;
		x = v % n;
		for (tap = 0; tap < NTAPS; tap++)
			t[k++] = (z + tap / 9 - 1 + n) % n * n * n +
			    (y + tap / 3 % 3 - 1 + n) % n * n +
			    (x + tap % 3 - 1 + n) % n;
	}
	return t;
}

/* Allocate net for grid and He-initialise it from seed; 0 or -1. */
static int
net_init(struct net *net, int grid, uint64_t seed)
{
	uint64_t	 s = rng_stream(seed, 1);
	size_t		 i, np;
	int		 seg, x, y, z;

	memset(net, 0, sizeof(*net));
	net->grid = grid;
	net->pgrid = grid / 2;
	net->nvox = grid * grid * grid;
	net->npool = net->pgrid * net->pgrid * net->pgrid;
	for (seg = 0; seg < NSEG; seg++)
		net->off[seg + 1] = net->off[seg] + seg_size[seg];
	np = net->off[NSEG];
	net->nbr1 = neighbours_make(grid);
	net->nbr2 = neighbours_make(net->pgrid);
	net->parent = malloc(sizeof(int) * net->nvox);
	net->w = calloc(np, sizeof(float));
	net->g = calloc(np, sizeof(float));
	net->v = calloc(np, sizeof(float));
	net->a1 = malloc(sizeof(float) * net->nvox * C1);
	net->p1 = malloc(sizeof(float) * net->npool * C1);
	net->dp = malloc(sizeof(float) * net->npool * C1);
	net->a2 = malloc(sizeof(float) * net->npool * C2);
	if (net->nbr1 == NULL || net->nbr2 == NULL || net->parent == NULL ||
	    net->w == NULL || net->g == NULL || net->v == NULL ||
	    net->a1 == NULL || net->p1 == NULL ||
	    net->dp == NULL || net->a2 == NULL)
		return -1;
	for (z = 0; z < grid; z++)
		for (y = 0; y < grid; y++)
			for (x = 0; x < grid; x++)
				net->parent[(z * grid + y) * grid + x] =
				    ((z / 2) * net->pgrid + y / 2) *
				    net->pgrid + x / 2;
	for (seg = 0; seg < NSEG; seg++) {
		double	 sd = seg_fanin[seg] ? sqrt(2.0 / seg_fanin[seg]) : 0;

		if (seg == W4)		/* linear output: Xavier, not He */
			sd = sqrt(1.0 / seg_fanin[seg]);
		for (i = net->off[seg]; i < net->off[seg + 1]; i++)
			net->w[i] = (float)(sd * rng_normal(&s));
	}
	return 0;
}

/* Free what net_init allocated. */
static void
net_free(struct net *net)
{
	free(net->nbr1);
	free(net->nbr2);
	free(net->parent);
	free(net->w);
	free(net->g);
	free(net->v);
	free(net->a1);
	free(net->p1);
	free(net->dp);
	free(net->a2);
}

/* CosmoFlow's activation; its derivative is 1 or LEAK by the sign. */
static inline float
leaky(float z)
{
	return z > 0 ? z : LEAK * z;
}

/* Run the network on one field x; the prediction lands in net->out. */
static void
net_forward(struct net *net, const float *x)
{
	const float	*w = net->w;
	const float	*w1 = w + net->off[W1], *b1 = w + net->off[B1];
	const float	*w2 = w + net->off[W2], *b2 = w + net->off[B2];
	const float	*w3 = w + net->off[W3], *b3 = w + net->off[B3];
	const float	*w4 = w + net->off[W4], *b4 = w + net->off[B4];
	int		 v, u, k, ci, co, j;

	for (v = 0; v < net->nvox; v++) {
		const int *nb = net->nbr1 + v * NTAPS;
		float	 acc[C1];

		for (co = 0; co < C1; co++)
			acc[co] = b1[co];
		for (k = 0; k < NTAPS; k++) {
			float	 xv = x[nb[k]];

			for (co = 0; co < C1; co++)
				acc[co] += w1[k * C1 + co] * xv;
		}
		for (co = 0; co < C1; co++)
			net->a1[v * C1 + co] = leaky(acc[co]);
	}
	memset(net->p1, 0, sizeof(float) * net->npool * C1);
	for (v = 0; v < net->nvox; v++)
		for (ci = 0; ci < C1; ci++)
			net->p1[net->parent[v] * C1 + ci] +=
			    0.125f * net->a1[v * C1 + ci];
	for (co = 0; co < C2; co++)
		net->gap[co] = 0;
	for (u = 0; u < net->npool; u++) {
		const int *nb = net->nbr2 + u * NTAPS;
		float	 acc[C2];

		for (co = 0; co < C2; co++)
			acc[co] = b2[co];
		for (k = 0; k < NTAPS; k++) {
			const float *p = net->p1 + nb[k] * C1;
			const float *wk = w2 + k * C1 * C2;

			for (ci = 0; ci < C1; ci++)
				for (co = 0; co < C2; co++)
					acc[co] += wk[ci * C2 + co] * p[ci];
		}
		for (co = 0; co < C2; co++) {
			acc[co] = leaky(acc[co]);
			net->a2[u * C2 + co] = acc[co];
			net->gap[co] += acc[co];
		}
	}
	for (co = 0; co < C2; co++)
		net->gap[co] /= (float)net->npool;
	for (j = 0; j < HIDDEN; j++) {
		float	 s = b3[j];

		for (ci = 0; ci < C2; ci++)
			s += w3[ci * HIDDEN + j] * net->gap[ci];
		net->h[j] = leaky(s);
	}
	for (k = 0; k < NOUT; k++) {
		float	 s = b4[k];

		for (j = 0; j < HIDDEN; j++)
			s += w4[j * NOUT + k] * net->h[j];
		net->out[k] = s;
	}
}

/*
 * Backpropagate dout (the loss gradient on net->out) through the last
 * net_forward() on x, adding the parameter gradient to net->g.
 */
static void
net_backward(struct net *net, const float *x, const float *dout)
{
	const float	*w2 = net->w + net->off[W2];
	const float	*w3 = net->w + net->off[W3];
	const float	*w4 = net->w + net->off[W4];
	float		*g = net->g;
	float		*gw1 = g + net->off[W1], *gb1 = g + net->off[B1];
	float		*gw2 = g + net->off[W2], *gb2 = g + net->off[B2];
	float		*gw3 = g + net->off[W3], *gb3 = g + net->off[B3];
	float		*gw4 = g + net->off[W4], *gb4 = g + net->off[B4];
	float		 dh[HIDDEN], dgap[C2], dz[C2];
	int		 v, u, k, ci, co, j;

	for (j = 0; j < HIDDEN; j++) {
		float	 s = 0;

		for (k = 0; k < NOUT; k++) {
			gw4[j * NOUT + k] += net->h[j] * dout[k];
			s += w4[j * NOUT + k] * dout[k];
		}
		dh[j] = net->h[j] > 0 ? s : LEAK * s;
	}
	for (k = 0; k < NOUT; k++)
		gb4[k] += dout[k];
	for (ci = 0; ci < C2; ci++) {
		float	 s = 0;

		for (j = 0; j < HIDDEN; j++) {
			gw3[ci * HIDDEN + j] += net->gap[ci] * dh[j];
			s += w3[ci * HIDDEN + j] * dh[j];
		}
		dgap[ci] = s / (float)net->npool;
	}
	for (j = 0; j < HIDDEN; j++)
		gb3[j] += dh[j];
	memset(net->dp, 0, sizeof(float) * net->npool * C1);
	for (u = 0; u < net->npool; u++) {
		const float *a = net->a2 + u * C2;
		const int *nb = net->nbr2 + u * NTAPS;

		for (co = 0; co < C2; co++) {
			dz[co] = a[co] > 0 ? dgap[co] : LEAK * dgap[co];
			gb2[co] += dz[co];
		}
		for (k = 0; k < NTAPS; k++) {
			const float *restrict p = net->p1 + nb[k] * C1;
			const float *restrict wk = w2 + k * C1 * C2;
			float	*restrict gk = gw2 + k * C1 * C2;
			float	*restrict dp = net->dp + nb[k] * C1;

			for (ci = 0; ci < C1; ci++) {
				float	 s = 0;

				for (co = 0; co < C2; co++)
					gk[ci * C2 + co] += p[ci] * dz[co];
				for (co = 0; co < C2; co++)
					s += wk[ci * C2 + co] * dz[co];
				dp[ci] += s;
			}
		}
	}
	for (v = 0; v < net->nvox; v++) {
		const float *a = net->a1 + v * C1;
		const float *dp = net->dp + net->parent[v] * C1;
		const int *nb = net->nbr1 + v * NTAPS;
		float	 d[C1];

		for (co = 0; co < C1; co++) {
			d[co] = 0.125f * (a[co] > 0 ? dp[co] : LEAK * dp[co]);
			gb1[co] += d[co];
		}
		for (k = 0; k < NTAPS; k++) {
			float	 xv = x[nb[k]];
			float	*restrict gk = gw1 + k * C1;

			for (co = 0; co < C1; co++)
				gk[co] += xv * d[co];
		}
	}
}

/*
 * One SGD step with momentum (PyTorch's form, v = m v + g; w -= lr v) on
 * the gradient summed over n samples; weight decay spares the biases.
 */
static void
net_step(struct net *net, int n, double lr, double momentum, double wdecay)
{
	float	 scale = 1.0f / (float)n, m = (float)momentum;
	float	 rate = (float)lr;
	size_t	 i;
	int	 seg;

	for (seg = 0; seg < NSEG; seg++) {
		float	 wd = seg_fanin[seg] ? (float)wdecay : 0;

		for (i = net->off[seg]; i < net->off[seg + 1]; i++) {
			float	 g = net->g[i] * scale + wd * net->w[i];

			net->v[i] = m * net->v[i] + g;
			net->w[i] -= rate * net->v[i];
			net->g[i] = 0;
		}
	}
}

/* The peak learning rate: --lr scaled from the base batch size. */
static double
lr_peak(const struct opts *o)
{
	double	 ratio = (double)o->batch / o->base_batch;

	switch (o->scaling) {
	case SCALE_LINEAR:
		return o->lr * ratio;
	case SCALE_SQRT:
		return o->lr * sqrt(ratio);
	case SCALE_NONE:
		break;
	}
	return o->lr;
}

/*
 * The learning rate at step (counted from 0) of steps per epoch: linear
 * warm-up over the warm-up epochs to the peak, from --lr as CosmoFlow's
 * when the rate is scaled, from a tenth of it when not; then x0.5 once
 * half and once three quarters of the epochs are done.
 */
static double
lr_at(const struct opts *o, long step, int steps, int epoch)
{
	double	 lr = lr_peak(o), wsteps = o->warmup * steps;
	double	 start = o->scaling == SCALE_NONE ? lr / 10 : o->lr;

	if (step < wsteps)
		return start + (lr - start) * step / wsteps;
	if (epoch >= (o->epochs + 1) / 2)
		lr *= 0.5;
	if (epoch >= (3 * o->epochs + 3) / 4)
		lr *= 0.5;
	return lr;
}

/* Mean absolute error of theta over d, averaged over both parameters. */
static double
net_eval(struct net *net, const struct dataset *d)
{
	double	 sum = 0;
	int	 i, k;

	for (i = 0; i < d->n; i++) {
		net_forward(net, d->x + (size_t)i * d->nvox);
		for (k = 0; k < NOUT; k++)
			sum += fabs((double)net->out[k] - d->y[i * NOUT + k]);
	}
	return sum / ((double)d->n * NOUT);
}

/* Print a POINT_IN_TIME event with a numeric value and its epoch. */
static void
mllog_epoch_num(const char *key, double value, int epoch, int line)
{
	char	 num[32], meta[32];

	json_num(num, sizeof(num), value);
	snprintf(meta, sizeof(meta), "\"epoch_num\": %d", epoch);
	mllog("POINT_IN_TIME", key, num, line, meta);
}

/* Log the settings of the run. */
static void
log_settings(const struct opts *o)
{
	char	 buf[40];

	MLLOG_EVENT("submission_benchmark", "\"minicosmo\"");
	snprintf(buf, sizeof(buf), "%d", o->batch);
	MLLOG_EVENT("global_batch_size", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->seed);
	MLLOG_EVENT("seed", buf);
	MLLOG_EVENT("opt_name", "\"SGD\"");
	json_num(buf, sizeof(buf), lr_peak(o));
	MLLOG_EVENT("opt_base_learning_rate", buf);
	json_num(buf, sizeof(buf), o->warmup);
	MLLOG_EVENT("opt_learning_rate_warmup_epochs", buf);
	json_num(buf, sizeof(buf), lr_peak(o) / o->lr);
	MLLOG_EVENT("opt_learning_rate_warmup_factor", buf);
	snprintf(buf, sizeof(buf), "[%d, %d]", (o->epochs + 1) / 2,
	    (3 * o->epochs + 3) / 4);
	MLLOG_EVENT("opt_learning_rate_decay_boundary_epochs", buf);
	MLLOG_EVENT("opt_learning_rate_decay_factor", "0.5");
	json_num(buf, sizeof(buf), o->momentum);
	MLLOG_EVENT("opt_momentum", buf);
	json_num(buf, sizeof(buf), o->wdecay);
	MLLOG_EVENT("opt_weight_decay", buf);
	snprintf(buf, sizeof(buf), "%d", o->ntrain);
	MLLOG_EVENT("train_samples", buf);
	snprintf(buf, sizeof(buf), "%d", o->neval);
	MLLOG_EVENT("eval_samples", buf);
}

/*
 * Train for one epoch over train in the order perm, starting at *step;
 * return the mean training loss, or a non-finite or huge value as soon as
 * a batch diverges.
 */
static double
train_epoch(struct net *net, const struct opts *o, const struct dataset *d,
    const int *perm, long *step, int epoch)
{
	int	 steps = (d->n + o->batch - 1) / o->batch;
	int	 b, i, k, n;
	double	 total = 0;

	for (b = 0; b < d->n; b += o->batch, (*step)++) {
		double	 loss = 0;

		n = d->n - b < o->batch ? d->n - b : o->batch;
		for (i = b; i < b + n; i++) {
			const float *x = d->x + (size_t)perm[i] * d->nvox;
			const float *y = d->y + (size_t)perm[i] * NOUT;
			float	 dout[NOUT];

			net_forward(net, x);
			for (k = 0; k < NOUT; k++) {
				float	 e = net->out[k] - y[k];

				loss += (double)e * e / NOUT;
				dout[k] = 2 * e / NOUT;
			}
			net_backward(net, x, dout);
		}
		if (!isfinite(loss) || loss / n > LOSS_DIVERGED)
			return loss / n;
		total += loss;
		net_step(net, n, lr_at(o, *step, steps, epoch), o->momentum,
		    o->wdecay);
	}
	return total / d->n;
}

/*
 * Train net for the epochs of o, evaluating after each; stop early at the
 * target or when the loss diverges.  Return the exit status.
 */
static int
run_training(struct net *net, const struct opts *o, const struct dataset *tr,
    const struct dataset *ev, int *perm)
{
	uint64_t	 shuf = rng_stream(o->seed, 2);
	long		 step = 0;
	double		 loss, err;
	char		 meta[32];
	int		 epoch;

	for (epoch = 1; epoch <= o->epochs; epoch++) {
		snprintf(meta, sizeof(meta), "\"epoch_num\": %d", epoch);
		MLLOG_START("epoch_start", meta);
		shuffle(perm, tr->n, &shuf);
		loss = train_epoch(net, o, tr, perm, &step, epoch - 1);
		if (!isfinite(loss) || loss > LOSS_DIVERGED) {
			MLLOG_END("epoch_stop", meta);
			return diverged(epoch, "loss", loss, __LINE__);
		}
		mllog_epoch_num("train_loss", loss, epoch, __LINE__);
		MLLOG_END("epoch_stop", meta);
		err = net_eval(net, ev);
		if (!isfinite(err) || err * err > LOSS_DIVERGED)
			return diverged(epoch, "eval_error", err,
			    __LINE__);
		mllog_epoch_num("eval_error", err, epoch, __LINE__);
		if (o->target >= 0 && err <= o->target) {
			MLLOG_END("run_stop", "\"status\": \"success\"");
			return 0;
		}
	}
	MLLOG_END("run_stop", "\"status\": \"aborted\"");
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct dataset	 train, eval;
	struct net	 net;
	int		*perm;
	double		 mu = 0, var = 0;
	size_t		 i, nx;
	int		 status;

	proxy_init("minicosmo", "minicosmo.c");
	opts_parse(&o, argc, argv);
	log_settings(&o);
	MLLOG_START("init_start", "");
	if (dataset_make(&train, 0, o.ntrain, o.grid) == -1 ||
	    dataset_make(&eval, 1, o.neval, o.grid) == -1 ||
	    net_init(&net, o.grid, o.seed) == -1 ||
	    (perm = malloc(sizeof(*perm) * o.ntrain)) == NULL) {
		fprintf(stderr, "minicosmo: out of memory\n");
		return 1;
	}
	nx = (size_t)train.n * train.nvox;
	for (i = 0; i < nx; i++)
		mu += train.x[i];
	mu /= (double)nx;
	for (i = 0; i < nx; i++)
		var += (train.x[i] - mu) * (train.x[i] - mu);
	var /= (double)nx;
	dataset_standardize(&train, mu, sqrt(var));
	dataset_standardize(&eval, mu, sqrt(var));
	for (i = 0; i < (size_t)o.ntrain; i++)
		perm[i] = (int)i;
	MLLOG_END("init_stop", "");
	MLLOG_START("run_start", "");
	status = run_training(&net, &o, &train, &eval, perm);
	free(perm);
	net_free(&net);
	dataset_free(&train);
	dataset_free(&eval);
	return status;
}
