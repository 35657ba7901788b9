/*
 * minicam.c: a DeepCAM-like proxy trainer for hpod.
 *
 * Each sample is a small 2D "climate" field of NCH channels (integrated
 * water vapour, two wind components, sea-level pressure): smooth Gaussian
 * background weather in every channel, with planted tropical cyclones
 * (compact blobs of low pressure, moisture and rotating wind, either sense
 * of rotation) and atmospheric rivers (long, thin, slightly bent bands of
 * moisture carried by wind along the band).  Every pixel is labelled as
 * DeepCAM's are: 0 background, 1 cyclone, 2 atmospheric river.  A small
 * fully convolutional network,
 *
 *	conv2d(NCH->F1, 3x3) + ReLU -> conv2d(F1->F2, 3x3, dilation 2) + ReLU
 *	-> conv2d(F2->3, 1x1) -> softmax
 *
 * (zero padding, 7x7 receptive field) is trained with hand-written backprop
 * on DeepCAM's per-pixel cross-entropy, weighted by class frequency to the
 * power -1/8, with Adam, AdamW or LAMB (per-layer trust ratio), a linear
 * warm-up and cosine or multistep decay.  The metric, eval_accuracy, is
 * DeepCAM's: the mean over classes of the intersection over union of the
 * predicted and true pixels, per sample (a class absent from both counts
 * 1), averaged over the validation samples.  Progress is written to stdout
 * as MLCommons mlperf_logging lines with the keys of the DeepCAM reference.
 *
 * The data set comes from a data seed (fixed unless --data-seed is given),
 * so every trial sees the same data; --seed only sets the initial weights
 * and the shuffling.  The same arguments give byte-identical output except
 * time_ms.  No setlocale() is called, so numbers are printed in the C
 * locale.
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
#include "minicam/data.h"

#define DATA_SEED	0x6465657063616d31ULL	/* default data seed */
#define NTAPS		9		/* 3x3 kernel */
#define F1		8		/* channels of the first conv */
#define F2		8		/* channels of the second conv */
#define WEIGHT_POW	(-0.125)	/* DeepCAM's class weight exponent */
#define BETA1		0.9
#define BETA2		0.999
#define ADAM_EPS	1e-6		/* as DeepCAM */
#define LOSS_DIVERGED	20.0		/* a batch loss this large diverged */

enum optimizer { OPT_ADAM, OPT_ADAMW, OPT_LAMB };
enum decay { DECAY_COSINE, DECAY_MULTISTEP, DECAY_NONE };

static const char *const opt_names[] = { "adam", "adamw", "lamb" };
static const char *const opt_logged[] = { "Adam", "AdamW", "LAMB" };
static const char *const decay_names[] = { "cosine", "multistep", "none" };

/* Command-line settings; see usage. */
struct opts {
	struct proxy_opts p;
	enum optimizer	 opt;
	enum decay	 decay;
	uint64_t	 data_seed;
};

/*
 * The network: every parameter lives in one array so that the optimizer is
 * a single loop over segments; the offsets name the layers inside it.
 */
enum { W1, B1, W2, B2, W3, B3, NSEG };

struct net {
	int		 grid, npix;
	int		*nbr1;		/* npix * NTAPS neighbours, -1 outside */
	int		*nbr2;		/* the same with dilation 2 */
	struct weights	 wt;		/* m, v: Adam's moments */
	long		 t;		/* optimizer steps taken */
	float		 cw[NCLASS];	/* class weights of the loss */
	/* activations of one sample and their gradients */
	float		*a1, *d1;	/* npix * F1 */
	float		*a2;		/* npix * F2 */
	float		*z;		/* npix * NCLASS logits, then dlogits */
};

/* Sizes of the parameter segments, in the order of the enum. */
static const size_t seg_size[NSEG] = {
	NTAPS * NCH * F1, F1, NTAPS * F1 * F2, F2, F2 * NCLASS, NCLASS
};

/* Fan-in of each segment; 0 marks biases: zero init, no weight decay. */
static const int seg_fanin[NSEG] = {
	NTAPS * NCH, 0, NTAPS * F1, 0, F2, 0
};

static const struct option longopts[] = {
	PROXY_OPT_LR,
	PROXY_OPT_BATCH,
	PROXY_OPT_EPOCHS,
	PROXY_OPT_WARMUP,
	{ "optimizer",		required_argument, NULL, 'o' },
	{ "decay",		required_argument, NULL, 'c' },
	PROXY_OPT_WDECAY,
	PROXY_OPT_SEED,
	{ "data-seed",		required_argument, NULL, 'S' },
	PROXY_OPT_TARGET,
	PROXY_OPT_NTRAIN,
	PROXY_OPT_NEVAL,
	PROXY_OPT_GRID,
	PROXY_OPT_HELP,
	PROXY_OPT_END
};

static const char usage[] =
	"usage: minicam [--lr X] [--batch-size N] [--epochs N] "
	"[--warmup-epochs X]\n"
	"               [--optimizer adam|adamw|lamb] "
	"[--decay cosine|multistep|none]\n"
	"               [--weight-decay W] [--seed N] [--data-seed N] "
	"[--target X]\n"
	"               [--train-samples N] [--eval-samples N] "
	"[--grid N]\n"
	"defaults: --lr 0.03 --batch-size 16 --epochs 8 "
	"--warmup-epochs 1 --optimizer adam\n"
	"          --decay cosine --weight-decay 0 --seed 0, "
	"fixed data seed, no target,\n"
	"          --train-samples 768 --eval-samples 128 --grid 24\n";

/* Take one of minicam's own options into own, a struct opts. */
static void
opts_take(void *own, int ch, const char *arg)
{
	struct opts	*o = own;

	switch (ch) {
	case 'o':
		o->opt = parse_word("optimizer", arg, opt_names, 3);
		break;
	case 'c':
		o->decay = parse_word("decay", arg, decay_names, 3);
		break;
	case 'S':
		o->data_seed = parse_seed("data-seed", arg);
		break;
	}
}

/* Fill o from argv; exit 64 on bad usage. */
static void
opts_parse(struct opts *o, int argc, char **argv)
{
	const struct proxy_cli cli = { usage, longopts, 1, 16, GRID_MAX, 0,
	    opts_take, o };

	*o = (struct opts){ .p = { .lr = 0.03, .batch = 16, .epochs = 8,
	    .warmup = 1, .wdecay = 0, .seed = 0, .target = -1,
	    .ntrain = 768, .neval = 128, .grid = 24 }, .opt = OPT_ADAM,
	    .decay = DECAY_COSINE, .data_seed = DATA_SEED };
	proxy_opts_parse(&o->p, &cli, argc, argv);
	proxy_opts_cap(&o->p, (double)(o->p.ntrain + o->p.neval) *
	    o->p.grid * o->p.grid, 26, "pixels");
}

/* Return a table of the 3x3 neighbours at distance dil of every pixel. */
static int *
neighbours_make(int n, int dil)
{
	int	*t, p, tap, yy, xx, k = 0;

	if ((t = malloc(sizeof(*t) * n * n * NTAPS)) == NULL)
		return NULL;
	for (p = 0; p < n * n; p++)
		for (tap = 0; tap < NTAPS; tap++) {
			yy = p / n + (tap / 3 - 1) * dil;
			xx = p % n + (tap % 3 - 1) * dil;
			t[k++] = yy < 0 || yy >= n || xx < 0 || xx >= n ? -1 :
			    yy * n + xx;
		}
	return t;
}

/* Allocate net for grid and He-initialise it from seed; 0 or -1. */
static int
net_init(struct net *net, int grid, uint64_t seed)
{
	uint64_t	 s = rng_stream(seed, 1);
	size_t		 i;

	memset(net, 0, sizeof(*net));
	net->grid = grid;
	net->npix = grid * grid;
	if (weights_alloc(&net->wt, seg_size, seg_fanin, NSEG, W3, &s) == -1)
		return -1;
	net->nbr1 = neighbours_make(grid, 1);
	net->nbr2 = neighbours_make(grid, 2);
	net->a1 = malloc(sizeof(float) * net->npix * F1);
	net->d1 = malloc(sizeof(float) * net->npix * F1);
	net->a2 = malloc(sizeof(float) * net->npix * F2);
	net->z = malloc(sizeof(float) * net->npix * NCLASS);
	if (net->nbr1 == NULL || net->nbr2 == NULL || net->a1 == NULL ||
	    net->d1 == NULL || net->a2 == NULL || net->z == NULL)
		return -1;
	for (i = 0; i < NCLASS; i++)
		net->cw[i] = 1;
	return 0;
}

/* Free what net_init allocated. */
static void
net_free(struct net *net)
{
	free(net->nbr1);
	free(net->nbr2);
	weights_free(&net->wt);
	free(net->a1);
	free(net->d1);
	free(net->a2);
	free(net->z);
}

/*
 * Set the class weights of the loss from the label frequencies of d as
 * DeepCAM does, frequency^WEIGHT_POW, scaled so that an average pixel
 * weighs 1.
 */
static void
net_weigh(struct net *net, const struct dataset *d)
{
	double	 cnt[NCLASS] = { 0 }, mean = 0, total;
	size_t	 i, n = (size_t)d->n * d->npix;
	int	 c;

	for (i = 0; i < n; i++)
		cnt[d->y[i]]++;
	total = (double)n;
	for (c = 0; c < NCLASS; c++) {
		double	 freq = (cnt[c] + 1) / (total + NCLASS);

		net->cw[c] = (float)pow(freq, WEIGHT_POW);
		mean += cnt[c] / total * net->cw[c];
	}
	for (c = 0; c < NCLASS; c++)
		net->cw[c] = (float)(net->cw[c] / mean);
}

/* Run the network on one field x; the logits land in net->z. */
static void
net_forward(struct net *net, const float *x)
{
	const size_t	*off = net->wt.off;
	const float	*w = net->wt.w;
	const float	*w1 = w + off[W1], *b1 = w + off[B1];
	const float	*w2 = w + off[W2], *b2 = w + off[B2];
	const float	*w3 = w + off[W3], *b3 = w + off[B3];
	int		 p, k, ci, co, q;

	for (p = 0; p < net->npix; p++) {
		const int *nb = net->nbr1 + p * NTAPS;
		float	 acc[F1];

		for (co = 0; co < F1; co++)
			acc[co] = b1[co];
		for (k = 0; k < NTAPS; k++) {
			if ((q = nb[k]) < 0)
				continue;
			for (ci = 0; ci < NCH; ci++) {
				const float *wk = w1 + (k * NCH + ci) * F1;
				float	 xv = x[q * NCH + ci];

				for (co = 0; co < F1; co++)
					acc[co] += wk[co] * xv;
			}
		}
		for (co = 0; co < F1; co++)
			net->a1[p * F1 + co] = acc[co] > 0 ? acc[co] : 0;
	}
	for (p = 0; p < net->npix; p++) {
		const int *nb = net->nbr2 + p * NTAPS;
		float	 acc[F2];

		for (co = 0; co < F2; co++)
			acc[co] = b2[co];
		for (k = 0; k < NTAPS; k++) {
			const float *a, *wk;

			if ((q = nb[k]) < 0)
				continue;
			a = net->a1 + q * F1;
			wk = w2 + k * F1 * F2;
			for (ci = 0; ci < F1; ci++)
				for (co = 0; co < F2; co++)
					acc[co] += wk[ci * F2 + co] * a[ci];
		}
		for (co = 0; co < F2; co++)
			net->a2[p * F2 + co] = acc[co] > 0 ? acc[co] : 0;
	}
	for (p = 0; p < net->npix; p++) {
		const float *a = net->a2 + p * F2;

		for (co = 0; co < NCLASS; co++) {
			float	 s = b3[co];

			for (ci = 0; ci < F2; ci++)
				s += w3[ci * NCLASS + co] * a[ci];
			net->z[p * NCLASS + co] = s;
		}
	}
}

/*
 * The weighted cross-entropy of the logits in net->z against labels y,
 * averaged over the pixels; when grad is set, replace the logits by the
 * gradient of the loss.
 */
static double
net_loss(struct net *net, const unsigned char *y, int grad)
{
	double	 loss = 0;
	float	 scale = 1.0f / (float)net->npix;
	int	 p, c;

	for (p = 0; p < net->npix; p++) {
		float	*z = net->z + p * NCLASS;
		float	 max = z[0], sum = 0, e[NCLASS];
		float	 cw = net->cw[y[p]];

		for (c = 1; c < NCLASS; c++)
			if (z[c] > max)
				max = z[c];
		for (c = 0; c < NCLASS; c++)
			sum += e[c] = expf(z[c] - max);
		loss += cw * (logf(sum) + max - z[y[p]]);
		if (!grad)
			continue;
		for (c = 0; c < NCLASS; c++)
			z[c] = cw * scale * (e[c] / sum - (c == y[p]));
	}
	return loss / net->npix;
}

/*
 * Backpropagate the logit gradient in net->z through the last
 * net_forward() on x, adding the parameter gradient to net->wt.g.
 */
static void
net_backward(struct net *net, const float *x)
{
	const size_t	*off = net->wt.off;
	const float	*w2 = net->wt.w + off[W2];
	const float	*w3 = net->wt.w + off[W3];
	float		*g = net->wt.g;
	float		*gw1 = g + off[W1], *gb1 = g + off[B1];
	float		*gw2 = g + off[W2], *gb2 = g + off[B2];
	float		*gw3 = g + off[W3], *gb3 = g + off[B3];
	int		 p, k, ci, co, q;

	memset(net->d1, 0, sizeof(float) * net->npix * F1);
	for (p = 0; p < net->npix; p++) {
		const float *dz = net->z + p * NCLASS;
		const float *a = net->a2 + p * F2;
		const int *nb = net->nbr2 + p * NTAPS;
		float	 d2[F2];

		for (co = 0; co < NCLASS; co++)
			gb3[co] += dz[co];
		for (ci = 0; ci < F2; ci++) {
			float	 s = 0;

			for (co = 0; co < NCLASS; co++) {
				gw3[ci * NCLASS + co] += a[ci] * dz[co];
				s += w3[ci * NCLASS + co] * dz[co];
			}
			d2[ci] = a[ci] > 0 ? s : 0;
			gb2[ci] += d2[ci];
		}
		for (k = 0; k < NTAPS; k++) {
			if ((q = nb[k]) < 0)
				continue;
			conv_tap_backward(gw2 + k * F1 * F2,
			    net->d1 + q * F1, net->a1 + q * F1,
			    w2 + k * F1 * F2, d2, F1, F2);
		}
	}
	for (p = 0; p < net->npix; p++) {
		const float *a = net->a1 + p * F1;
		const float *dd = net->d1 + p * F1;
		const int *nb = net->nbr1 + p * NTAPS;
		float	 d[F1];

		for (co = 0; co < F1; co++) {
			d[co] = a[co] > 0 ? dd[co] : 0;
			gb1[co] += d[co];
		}
		for (k = 0; k < NTAPS; k++) {
			if ((q = nb[k]) < 0)
				continue;
			for (ci = 0; ci < NCH; ci++) {
				float	 xv = x[q * NCH + ci];
				float	*restrict gk = gw1 + (k * NCH + ci) * F1;

				for (co = 0; co < F1; co++)
					gk[co] += xv * d[co];
			}
		}
	}
}

/*
 * One optimizer step at rate lr on the gradient summed over n samples:
 * Adam (weight decay as an L2 term of the gradient), AdamW (decoupled
 * weight decay) or LAMB (AdamW's update scaled per layer by the trust
 * ratio |w| / |update|).  Weight decay spares the biases.
 */
static void
net_step(struct net *net, enum optimizer opt, int n, double lr,
    double wdecay)
{
	double	 bc1, bc2;
	float	 scale = 1.0f / (float)n;
	const size_t	*off = net->wt.off;
	size_t	 i;
	int	 seg;

	net->t++;
	bc1 = 1 - pow(BETA1, (double)net->t);
	bc2 = 1 - pow(BETA2, (double)net->t);
	for (seg = 0; seg < NSEG; seg++) {
		float	 wd = seg_fanin[seg] ? (float)wdecay : 0;
		double	 wn = 0, un = 0, rate = lr;

		for (i = off[seg]; i < off[seg + 1]; i++) {
			float	 g = net->wt.g[i] * scale, u;

			if (opt == OPT_ADAM)
				g += wd * net->wt.w[i];
			net->wt.m[i] = (float)BETA1 * net->wt.m[i] +
			    (float)(1 - BETA1) * g;
			net->wt.v[i] = (float)BETA2 * net->wt.v[i] +
			    (float)(1 - BETA2) * g * g;
			u = (float)(net->wt.m[i] / bc1 /
			    (sqrt(net->wt.v[i] / bc2) + ADAM_EPS));
			if (opt != OPT_ADAM)
				u += wd * net->wt.w[i];
			net->wt.g[i] = u;
			wn += (double)net->wt.w[i] * net->wt.w[i];
			un += (double)u * u;
		}
		if (opt == OPT_LAMB && wn > 0 && un > 0)
			rate *= sqrt(wn / un);
		for (i = off[seg]; i < off[seg + 1]; i++) {
			net->wt.w[i] -= (float)rate * net->wt.g[i];
			net->wt.g[i] = 0;
		}
	}
}

/*
 * The learning rate at step (counted from 0) of steps per epoch: linear
 * warm-up from lr / warm-up steps to lr, then cosine annealing to 0 at the
 * end of the last epoch, or x0.1 once half and once three quarters of the
 * epochs are done, or constant.
 */
static double
lr_at(const struct opts *o, long step, int steps)
{
	double	 wsteps = floor(o->p.warmup * steps);
	double	 total = (double)o->p.epochs * steps;

	if (step < wsteps)
		return o->p.lr * (step + 1) / wsteps;
	switch (o->decay) {
	case DECAY_COSINE:
		if (total <= wsteps)
			return o->p.lr;
		return o->p.lr * 0.5 * (1 + cos(3.141592653589793 *
		    (step - wsteps) / (total - wsteps)));
	case DECAY_MULTISTEP:
		if (step >= (double)(3 * o->p.epochs + 3) / 4 * steps)
			return o->p.lr * 0.01;
		if (step >= (double)(o->p.epochs + 1) / 2 * steps)
			return o->p.lr * 0.1;
		return o->p.lr;
	case DECAY_NONE:
		break;
	}
	return o->p.lr;
}

/*
 * Evaluate the network on d: return DeepCAM's mean IoU and store the
 * mean loss in *loss.
 */
static double
net_eval(struct net *net, const struct dataset *d, double *loss)
{
	double	 iou = 0;
	int	 i, p, c;

	*loss = 0;
	for (i = 0; i < d->n; i++) {
		const unsigned char *y = d->y + (size_t)i * d->npix;
		long	 tp[NCLASS] = { 0 }, fp[NCLASS] = { 0 };
		long	 fn[NCLASS] = { 0 };

		net_forward(net, d->x + (size_t)i * d->npix * NCH);
		for (p = 0; p < d->npix; p++) {
			const float *z = net->z + p * NCLASS;
			int	 best = 0;

			for (c = 1; c < NCLASS; c++)
				if (z[c] > z[best])
					best = c;
			if (best == y[p])
				tp[best]++;
			else {
				fp[best]++;
				fn[y[p]]++;
			}
		}
		*loss += net_loss(net, y, 0);
		for (c = 0; c < NCLASS; c++) {
			long	 u = tp[c] + fp[c] + fn[c];

			iou += (u == 0 ? 1 : (double)tp[c] / u) / NCLASS;
		}
	}
	*loss /= d->n;
	return iou / d->n;
}

/* Log the settings of the run, with the keys of the DeepCAM reference. */
static void
log_settings(const struct opts *o)
{
	int	 steps = (o->p.ntrain + o->p.batch - 1) / o->p.batch;

	MLLOG_EVENT("submission_benchmark", "\"minicam\"");
	MLLOG_EVENT("cache_clear", "true");
	MLLOG_UINT("seed", o->p.seed);
	MLLOG_EVENT("number_of_ranks", "1");
	MLLOG_UINT("global_batch_size", o->p.batch);
	MLLOG_STRING("opt_name", opt_logged[o->opt]);
	MLLOG_REAL("opt_lr", o->p.lr);
	MLLOG_EVENT("opt_betas", "[0.9, 0.999]");
	MLLOG_EVENT("opt_eps", "1e-06");
	MLLOG_REAL("opt_weight_decay", o->p.wdecay);
	MLLOG_STRING("scheduler_type", o->decay == DECAY_COSINE ?
	    "cosine_annealing" : o->decay == DECAY_MULTISTEP ? "multistep" :
	    "none");
	MLLOG_UINT("scheduler_lr_warmup_steps",
	    (unsigned long long)floor(o->p.warmup * steps));
	MLLOG_EVENT("scheduler_lr_warmup_factor", "1");
	MLLOG_UINT("train_samples", o->p.ntrain);
	MLLOG_UINT("eval_samples", o->p.neval);
}

/* A training run: the settings, the data and the network. */
struct run {
	const struct opts *o;
	struct dataset	 train, eval;
	struct net	 net;
};

/* Add the loss of training sample i to *loss, its gradient to the net. */
static void
run_sample(void *ctx, int i, double *loss)
{
	struct run	*r = ctx;
	const float	*x = r->train.x + (size_t)i * r->train.npix * NCH;

	net_forward(&r->net, x);
	*loss += net_loss(&r->net, r->train.y + (size_t)i * r->train.npix, 1);
	net_backward(&r->net, x);
}

/* One optimizer step on the gradient of n samples. */
static void
run_step(void *ctx, int n, long step, int steps, int epoch)
{
	struct run	*r = ctx;

	net_step(&r->net, r->o->opt, n, lr_at(r->o, step, steps),
	    r->o->p.wdecay);
}

/*
 * Log the epoch's training loss, evaluate as DeepCAM does and close the
 * epoch; PROXY_REACHED at the target.
 */
static int
run_evaluate(void *ctx, int epoch, long step, double loss)
{
	struct run	*r = ctx;
	double		 iou, eloss;
	char		 meta[64];
	int		 reached = 0;

	mllog_value("train_loss", loss, epoch, step, __LINE__);
	snprintf(meta, sizeof(meta), "\"epoch_num\": %d", epoch);
	MLLOG_START("eval_start", meta);
	iou = net_eval(&r->net, &r->eval, &eloss);
	mllog_value("eval_accuracy", iou, epoch, step, __LINE__);
	mllog_value("eval_loss", eloss, epoch, step, __LINE__);
	if (r->o->p.target >= 0 && iou >= r->o->p.target) {
		mllog_value("target_accuracy_reached", r->o->p.target, epoch,
		    step, __LINE__);
		reached = 1;
	}
	MLLOG_END("eval_stop", meta);
	snprintf(meta, sizeof(meta), "\"epoch_num\": %d, \"step_num\": %ld",
	    epoch, step);
	MLLOG_END("epoch_stop", meta);
	return reached ? PROXY_REACHED : PROXY_GO_ON;
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct run	 r = { .o = &o };
	struct proxy_model m = { &r, LOSS_DIVERGED, 1, run_sample, run_step,
	    run_evaluate };
	double		 mu[NCH], sd[NCH];
	int		 status;

	proxy_init("minicam", "minicam.c");
	opts_parse(&o, argc, argv);
	log_settings(&o);
	MLLOG_START("init_start", "");
	if (dataset_make(&r.train, o.data_seed, 0, o.p.ntrain,
	    o.p.grid) == -1 ||
	    dataset_make(&r.eval, o.data_seed, 1, o.p.neval, o.p.grid) == -1 ||
	    net_init(&r.net, o.p.grid, o.p.seed) == -1)
		return proxy_out_of_memory();
	norm_sets(r.train.x, (size_t)r.train.n * r.train.npix, r.eval.x,
	    (size_t)r.eval.n * r.eval.npix, NCH, mu, sd);
	net_weigh(&r.net, &r.train);
	status = proxy_run(&o.p, &m);
	net_free(&r.net);
	dataset_free(&r.train);
	dataset_free(&r.eval);
	return status;
}
