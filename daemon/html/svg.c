/*
 * svg.c: SVG primitives for the HTML report, written by hand: axes with
 * round ticks, lines, points, range bars, bars, legends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "svg.h"
#include "report_alloc.h"

/* Colours that stay apart for the colour-blind (Okabe and Ito). */
static const char *const svg_palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#f0e442", "#000000"
};

/* Write s with the characters special to XML and HTML escaped. */
void
svg_escape(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* The i-th colour of the palette. */
const char *
svg_color(size_t i)
{
	return svg_palette[i % (sizeof(svg_palette) / sizeof(svg_palette[0]))];
}

/* A number as the page shows it. */
void
svg_number(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* Start an image. */
void
svg_begin(struct svg_plot *p, FILE *f, int w, int h, double x0, double x1,
    double y0, double y1, const char *title)
{
	p->f = f;
	p->w = w;
	p->h = h;
	p->left = 70;
	p->right = 20;
	p->top = 20;
	p->bottom = 50;
	if (!(x1 > x0)) {
		x0 -= x0 != 0 ? fabs(x0) / 2 : 0.5;
		x1 = x0 + (x0 != 0 ? fabs(x0) : 1);
	}
	if (!(y1 > y0)) {
		y0 -= y0 != 0 ? fabs(y0) / 2 : 0.5;
		y1 = y0 + (y0 != 0 ? fabs(y0) : 1);
	}
	p->x0 = x0;
	p->x1 = x1;
	p->y0 = y0;
	p->y1 = y1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", w, h,
	    w, h);
	svg_escape(f, title);
	fprintf(f, "</title>\n");
}

/* End the image. */
void
svg_end(struct svg_plot *p)
{
	fprintf(p->f, "</svg>\n");
}

/* Pixel x of a data x. */
double
svg_x(const struct svg_plot *p, double x)
{
	return p->left + (x - p->x0) / (p->x1 - p->x0) *
	    (p->w - p->left - p->right);
}

/* Pixel y of a data y (up is larger). */
double
svg_y(const struct svg_plot *p, double y)
{
	return p->h - p->bottom - (y - p->y0) / (p->y1 - p->y0) *
	    (p->h - p->top - p->bottom);
}

/* A round step for about five ticks over a range. */
static double
svg_tick_step(double range)
{
	double	 m = pow(10, floor(log10(range / 5))), r = range / 5 / m;

	return m * (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10);
}

/* Draw the axes, their ticks and labels. */
void
svg_axes(struct svg_plot *p, const char *xlabel, const char *ylabel,
    int xticks)
{
	double	 step, v, px, py;
	char	 num[32];
	int	 bx = p->h - p->bottom, rx = p->w - p->right;

	fprintf(p->f, "<g class=\"axes\" stroke=\"#444\" fill=\"none\">"
	    "<path d=\"M%d %d V%d H%d\"/></g>\n", p->left, p->top, bx, rx);
	fprintf(p->f, "<g class=\"ticks\" font-size=\"11\" fill=\"#444\">\n");
	step = svg_tick_step(p->y1 - p->y0);
	for (v = ceil(p->y0 / step) * step; v <= p->y1 + step * 1e-9;
	    v += step) {
		py = svg_y(p, v);
		svg_number(num, sizeof(num), fabs(v) < step * 1e-9 ? 0 : v);
		fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		    "y2=\"%.1f\" stroke=\"#ddd\"/><text class=\"tick\" "
		    "x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    p->left, py, rx, py, p->left - 4, py + 4, num);
	}
	step = svg_tick_step(p->x1 - p->x0);
	for (v = ceil(p->x0 / step) * step; xticks && v <= p->x1 +
	    step * 1e-9; v += step) {
		px = svg_x(p, v);
		svg_number(num, sizeof(num), fabs(v) < step * 1e-9 ? 0 : v);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
		    "y2=\"%d\" stroke=\"#444\"/><text class=\"tick\" "
		    "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		    px, bx, px, bx + 4, px, bx + 16, num);
	}
	fprintf(p->f, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
	    "font-size=\"12\">", (p->left + rx) / 2, p->h - 8);
	svg_escape(p->f, xlabel);
	fprintf(p->f, "</text>\n<text transform=\"translate(14 %d) "
	    "rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">",
	    (p->top + bx) / 2);
	svg_escape(p->f, ylabel);
	fprintf(p->f, "</text>\n");
}

/* A category label under the x axis. */
void
svg_xlabel(struct svg_plot *p, double x, const char *label)
{
	fprintf(p->f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
	    "text-anchor=\"middle\" font-size=\"11\">", svg_x(p, x),
	    p->h - p->bottom + 16);
	svg_escape(p->f, label);
	fprintf(p->f, "</text>\n");
}

/* A line through the points, or a step line. */
void
svg_line(struct svg_plot *p, const double *x, const double *y, size_t n,
    int steps, const char *color)
{
	size_t	 i;

	if (n == 0)
		return;
	fprintf(p->f, "<polyline class=\"series\" fill=\"none\" "
	    "stroke=\"%s\" stroke-width=\"2\" points=\"", color);
	for (i = 0; i < n; i++) {
		if (steps && i > 0)
			fprintf(p->f, "%.1f,%.1f ", svg_x(p, x[i]),
			    svg_y(p, y[i - 1]));
		fprintf(p->f, "%.1f,%.1f%s", svg_x(p, x[i]), svg_y(p, y[i]),
		    i + 1 < n ? " " : "");
	}
	fprintf(p->f, "\"/>\n");
}

/* A point, marked with its key and value when it has a key. */
void
svg_point(struct svg_plot *p, double x, double y, const char *color,
    const char *key)
{
	fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"",
	    svg_x(p, x), svg_y(p, y), color);
	if (key != NULL) {
		fprintf(p->f, " data-key=\"");
		svg_escape(p->f, key);
		fprintf(p->f, "\" data-value=\"%.17g\"", y);
	}
	fprintf(p->f, "/>\n");
}

/*
 * The density of n points: the plot area in cells of SVG_CELL pixels,
 * each holding a point shaded by the logarithm of its count.  -1 if
 * memory ran out.
 */
int
svg_density(struct svg_plot *p, const double *x, const double *y, size_t n,
    const char *color)
{
	int	*count, nx, ny, cx, cy, max = 0, k;
	size_t	 i;

	nx = (p->w - p->left - p->right) / SVG_CELL + 1;
	ny = (p->h - p->top - p->bottom) / SVG_CELL + 1;
	if ((count = report_calloc((size_t)nx * ny, sizeof(*count))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			continue;
		cx = (int)((svg_x(p, x[i]) - p->left) / SVG_CELL);
		cy = (int)((svg_y(p, y[i]) - p->top) / SVG_CELL);
		if (cx < 0 || cy < 0 || cx >= nx || cy >= ny)
			continue;
		k = ++count[cy * nx + cx];
		if (k > max)
			max = k;
	}
	fprintf(p->f, "<g class=\"density\" fill=\"%s\">\n", color);
	for (k = 0; k < nx * ny; k++)
		if (count[k] > 0)
			fprintf(p->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			    "height=\"%d\" fill-opacity=\"%.2f\"/>\n",
			    p->left + k % nx * SVG_CELL,
			    p->top + k / nx * SVG_CELL, SVG_CELL, SVG_CELL,
			    0.15 + 0.6 * log1p(count[k]) / log1p(max));
	fprintf(p->f, "</g>\n");
	free(count);
	return 0;
}

/* A vertical range bar with caps. */
void
svg_range(struct svg_plot *p, double x, double lo, double hi,
    const char *color)
{
	double	 px = svg_x(p, x), yl = svg_y(p, lo), yh = svg_y(p, hi);

	fprintf(p->f, "<path class=\"range\" stroke=\"%s\" stroke-width=\"2\" "
	    "fill=\"none\" d=\"M%.1f %.1f V%.1f M%.1f %.1f H%.1f M%.1f %.1f "
	    "H%.1f\"/>\n", color, px, yl, yh, px - 6, yl, px + 6, px - 6, yh,
	    px + 6);
}

/* A bar from the axis to y, with its value above it. */
void
svg_bar(struct svg_plot *p, double x, double width, double y,
    const char *color, const char *key)
{
	double	 px = svg_x(p, x), py = svg_y(p, y);
	double	 base = svg_y(p, p->y0);
	char	 num[32];

	svg_number(num, sizeof(num), y);
	fprintf(p->f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" "
	    "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", px - width / 2,
	    py, width, base - py, color);
	fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	    "font-size=\"11\"", px, py - 4);
	if (key != NULL) {
		fprintf(p->f, " data-key=\"");
		svg_escape(p->f, key);
		fprintf(p->f, "\" data-value=\"%.17g\"", y);
	}
	fprintf(p->f, ">%s</text>\n", num);
}

/*
 * A legend entry in the top margin, above the data (entries side by side,
 * 130 pixels apart), so that it never covers a line or a point.
 */
void
svg_legend(struct svg_plot *p, size_t i, const char *color,
    const char *label)
{
	double	 x = p->left + 130.0 * i, y = p->top - 14;

	fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
	    "height=\"4\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" "
	    "font-size=\"11\">", x, y, color, x + 16, y + 5);
	svg_escape(p->f, label);
	fprintf(p->f, "</text>\n");
}
