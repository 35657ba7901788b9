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

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/conv.h"
#include "common/norm.h"
#include "common/proxy.h"
#include "common/train.h"
#include "common/weights.h"

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

/* Command-line settings; see usage. */
struct opts {
	struct proxy_opts p;
	enum scaling	 scaling;
	int		 base_batch;
	double		 momentum;
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
	struct weights	 wt;		/* v: the momentum buffer */
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
	PROXY_OPT_LR,
	{ "lr-scaling",		required_argument, NULL, 'L' },
	{ "base-batch-size",	required_argument, NULL, 'B' },
	PROXY_OPT_BATCH,
	PROXY_OPT_EPOCHS,
	PROXY_OPT_WARMUP,
	{ "momentum",		required_argument, NULL, 'm' },
	PROXY_OPT_WDECAY,
	PROXY_OPT_SEED,
	PROXY_OPT_TARGET,
	PROXY_OPT_NTRAIN,
	PROXY_OPT_NEVAL,
	PROXY_OPT_GRID,
	PROXY_OPT_HELP,
	PROXY_OPT_END
};

static const char usage[] =
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
	"--grid 8\n";

/* Take one of minicosmo's own options into own, a struct opts. */
static void
opts_take(void *own, int ch, const char *arg)
{
	struct opts	*o = own;

	switch (ch) {
	case 'L':
		o->scaling = parse_word("lr-scaling", arg, scaling_names, 3);
		break;
	case 'B':
		o->base_batch = parse_int("base-batch-size", arg, 1, 65536);
		break;
	case 'm':
		o->momentum = parse_real("momentum", arg, 0, 1);
		if (o->momentum >= 1)
			bad_option("momentum", arg, "must be < 1");
		break;
	}
}

/* Fill o from argv; exit 64 on bad usage. */
static void
opts_parse(struct opts *o, int argc, char **argv)
{
	const struct proxy_cli cli = { usage, longopts, 1e9, 4, 32, 1,
	    opts_take, o };

	*o = (struct opts){ .p = { .lr = 0.03, .batch = 32, .epochs = 8,
	    .warmup = 1, .wdecay = 0, .seed = 0, .target = -1,
	    .ntrain = 1024, .neval = 256, .grid = 8 },
	    .scaling = SCALE_NONE, .base_batch = 32, .momentum = 0.9 };
	proxy_opts_parse(&o->p, &cli, argc, argv);
	proxy_opts_cap(&o->p, (double)o->p.ntrain * o->p.grid * o->p.grid *
	    o->p.grid, 27, "voxels");
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
	int		 x, y, z;

	memset(net, 0, sizeof(*net));
	net->grid = grid;
	net->pgrid = grid / 2;
	net->nvox = grid * grid * grid;
	net->npool = net->pgrid * net->pgrid * net->pgrid;
	if (weights_alloc(&net->wt, seg_size, seg_fanin, NSEG, W4, &s) == -1)
		return -1;
	net->nbr1 = neighbours_make(grid);
	net->nbr2 = neighbours_make(net->pgrid);
	net->parent = malloc(sizeof(int) * net->nvox);
	net->a1 = malloc(sizeof(float) * net->nvox * C1);
	net->p1 = malloc(sizeof(float) * net->npool * C1);
	net->dp = malloc(sizeof(float) * net->npool * C1);
	net->a2 = malloc(sizeof(float) * net->npool * C2);
	if (net->nbr1 == NULL || net->nbr2 == NULL || net->parent == NULL ||
	    net->a1 == NULL || net->p1 == NULL || net->dp == NULL ||
	    net->a2 == NULL)
		return -1;
	for (z = 0; z < grid; z++)
		for (y = 0; y < grid; y++)
			for (x = 0; x < grid; x++)
				net->parent[(z * grid + y) * grid + x] =
				    ((z / 2) * net->pgrid + y / 2) *
				    net->pgrid + x / 2;
	return 0;
}

/* Free what net_init allocated. */
static void
net_free(struct net *net)
{
	free(net->nbr1);
	free(net->nbr2);
	free(net->parent);
	weights_free(&net->wt);
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
	const size_t	*off = net->wt.off;
	const float	*w = net->wt.w;
	const float	*w1 = w + off[W1], *b1 = w + off[B1];
	const float	*w2 = w + off[W2], *b2 = w + off[B2];
	const float	*w3 = w + off[W3], *b3 = w + off[B3];
	const float	*w4 = w + off[W4], *b4 = w + off[B4];
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
 * net_forward() on x, adding the parameter gradient to net->wt.g.
 */
static void
net_backward(struct net *net, const float *x, const float *dout)
{
	const size_t	*off = net->wt.off;
	const float	*w2 = net->wt.w + off[W2];
	const float	*w3 = net->wt.w + off[W3];
	const float	*w4 = net->wt.w + off[W4];
	float		*g = net->wt.g;
	float		*gw1 = g + off[W1], *gb1 = g + off[B1];
	float		*gw2 = g + off[W2], *gb2 = g + off[B2];
	float		*gw3 = g + off[W3], *gb3 = g + off[B3];
	float		*gw4 = g + off[W4], *gb4 = g + off[B4];
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
		for (k = 0; k < NTAPS; k++)
			conv_tap_backward(gw2 + k * C1 * C2,
			    net->dp + nb[k] * C1, net->p1 + nb[k] * C1,
			    w2 + k * C1 * C2, dz, C1, C2);
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
	const size_t	*off = net->wt.off;
	size_t	 i;
	int	 seg;

	for (seg = 0; seg < NSEG; seg++) {
		float	 wd = seg_fanin[seg] ? (float)wdecay : 0;

		for (i = off[seg]; i < off[seg + 1]; i++) {
			float	 g = net->wt.g[i] * scale +
			    wd * net->wt.w[i];

			net->wt.v[i] = m * net->wt.v[i] + g;
			net->wt.w[i] -= rate * net->wt.v[i];
			net->wt.g[i] = 0;
		}
	}
}

/* The peak learning rate: --lr scaled from the base batch size. */
static double
lr_peak(const struct opts *o)
{
	double	 ratio = (double)o->p.batch / o->base_batch;

	switch (o->scaling) {
	case SCALE_LINEAR:
		return o->p.lr * ratio;
	case SCALE_SQRT:
		return o->p.lr * sqrt(ratio);
	case SCALE_NONE:
		break;
	}
	return o->p.lr;
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
	double	 lr = lr_peak(o), wsteps = o->p.warmup * steps;
	double	 start = o->scaling == SCALE_NONE ? lr / 10 : o->p.lr;

	if (step < wsteps)
		return start + (lr - start) * step / wsteps;
	if (epoch >= (o->p.epochs + 1) / 2)
		lr *= 0.5;
	if (epoch >= (3 * o->p.epochs + 3) / 4)
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

/* Log the settings of the run. */
static void
log_settings(const struct opts *o)
{
	char	 buf[40];

	MLLOG_EVENT("submission_benchmark", "\"minicosmo\"");
	MLLOG_UINT("global_batch_size", o->p.batch);
	MLLOG_UINT("seed", o->p.seed);
	MLLOG_EVENT("opt_name", "\"SGD\"");
	MLLOG_REAL("opt_base_learning_rate", lr_peak(o));
	MLLOG_REAL("opt_learning_rate_warmup_epochs", o->p.warmup);
	MLLOG_REAL("opt_learning_rate_warmup_factor", lr_peak(o) / o->p.lr);
	snprintf(buf, sizeof(buf), "[%d, %d]", (o->p.epochs + 1) / 2,
	    (3 * o->p.epochs + 3) / 4);
	MLLOG_EVENT("opt_learning_rate_decay_boundary_epochs", buf);
	MLLOG_EVENT("opt_learning_rate_decay_factor", "0.5");
	MLLOG_REAL("opt_momentum", o->momentum);
	MLLOG_REAL("opt_weight_decay", o->p.wdecay);
	MLLOG_UINT("train_samples", o->p.ntrain);
	MLLOG_UINT("eval_samples", o->p.neval);
}

/* A training run: the settings, the data and the network. */
struct run {
	const struct opts *o;
	struct dataset	 train, eval;
	struct net	 net;
};

/* Add the MSE of training sample i to *loss, its gradient to the net. */
static void
run_sample(void *ctx, int i, double *loss)
{
	struct run	*r = ctx;
	const float	*x = r->train.x + (size_t)i * r->train.nvox;
	const float	*y = r->train.y + (size_t)i * NOUT;
	float		 dout[NOUT];
	int		 k;

	net_forward(&r->net, x);
	for (k = 0; k < NOUT; k++) {
		float	 e = r->net.out[k] - y[k];

		*loss += (double)e * e / NOUT;
		dout[k] = 2 * e / NOUT;
	}
	net_backward(&r->net, x, dout);
}

/* One SGD step on the gradient of n samples. */
static void
run_step(void *ctx, int n, long step, int steps, int epoch)
{
	struct run	*r = ctx;

	net_step(&r->net, n, lr_at(r->o, step, steps, epoch), r->o->momentum,
	    r->o->p.wdecay);
}

/*
 * Log the epoch's training loss, close the epoch and evaluate; a huge
 * error diverged, PROXY_REACHED at the target.
 */
static int
run_evaluate(void *ctx, int epoch, long step, double loss)
{
	struct run	*r = ctx;
	double		 err;
	char		 meta[32];

	mllog_value("train_loss", loss, epoch, -1, __LINE__);
	snprintf(meta, sizeof(meta), "\"epoch_num\": %d", epoch);
	MLLOG_END("epoch_stop", meta);
	err = net_eval(&r->net, &r->eval);
	if (!isfinite(err) || err * err > LOSS_DIVERGED)
		return diverged(epoch, "eval_error", err, __LINE__);
	mllog_value("eval_error", err, epoch, -1, __LINE__);
	if (r->o->p.target >= 0 && err <= r->o->p.target)
		return PROXY_REACHED;
	return PROXY_GO_ON;
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct run	 r = { .o = &o };
	struct proxy_model m = { &r, LOSS_DIVERGED, 0, run_sample, run_step,
	    run_evaluate };
	double		 mu, sd;
	int		 status;

	proxy_init("minicosmo", "minicosmo.c");
	opts_parse(&o, argc, argv);
	log_settings(&o);
	MLLOG_START("init_start", "");
	if (dataset_make(&r.train, 0, o.p.ntrain, o.p.grid) == -1 ||
	    dataset_make(&r.eval, 1, o.p.neval, o.p.grid) == -1 ||
	    net_init(&r.net, o.p.grid, o.p.seed) == -1)
		return proxy_out_of_memory();
	norm_sets(r.train.x, (size_t)r.train.n * r.train.nvox, r.eval.x,
	    (size_t)r.eval.n * r.eval.nvox, 1, &mu, &sd);
	status = proxy_run(&o.p, &m);
	net_free(&r.net);
	dataset_free(&r.train);
	dataset_free(&r.eval);
	return status;
}
