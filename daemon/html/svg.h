/*
 * svg.h: the few SVG primitives of the HTML report's plots: a plot area
 * with linear axes and ticks, lines, points, range bars, bars and text,
 * written to a stdio stream.  Text is escaped for XML and HTML alike.
 */
#ifndef HPOD_SVG_H
#define HPOD_SVG_H

#include <stddef.h>
#include <stdio.h>

/* A plot: data ranges mapped onto a w x h pixel box inside margins. */
struct svg_plot {
	FILE	*f;
	double	 x0, x1, y0, y1;	/* data ranges */
	int	 w, h;			/* the whole image, pixels */
	int	 left, right, top, bottom; /* margins, pixels */
};

/* Write s with &, <, >, " and ' escaped. */
void	 svg_escape(FILE *, const char *s);
/* The i-th colour of the palette (any i). */
const char *svg_color(size_t i);

/*
 * Start an image of w x h pixels on f, with ranges and margins for the
 * axes; title (escaped) becomes its accessible name.  Ranges of zero
 * width are widened.
 */
void	 svg_begin(struct svg_plot *, FILE *f, int w, int h, double x0,
	    double x1, double y0, double y1, const char *title);
void	 svg_end(struct svg_plot *);
/* Pixel coordinates of a data point. */
double	 svg_x(const struct svg_plot *, double x);
double	 svg_y(const struct svg_plot *, double y);

/*
 * Draw the axes with labels (escaped); xticks 0 leaves the x axis without
 * numbers (for categories, drawn with svg_xlabel()).
 */
void	 svg_axes(struct svg_plot *, const char *xlabel, const char *ylabel,
	    int xticks);
/* A category label under the x axis at data x. */
void	 svg_xlabel(struct svg_plot *, double x, const char *label);

/* A line through n points (a step line: horizontal, then vertical). */
void	 svg_line(struct svg_plot *, const double *x, const double *y,
	    size_t n, int steps, const char *color);
/* A point; key (may be NULL) becomes its data-key, value its data-value. */
void	 svg_point(struct svg_plot *, double x, double y, const char *color,
	    const char *key);
/*
 * The density of n points (x, y): cells of SVG_CELL pixels shaded by the
 * logarithm of how many fall in each; for the points too many to draw.
 * -1 if memory ran out.
 */
#define SVG_CELL	8
int	 svg_density(struct svg_plot *, const double *x, const double *y,
	    size_t n, const char *color);
/* A vertical bar from lo to hi at x, with caps. */
void	 svg_range(struct svg_plot *, double x, double lo, double hi,
	    const char *color);
/*
 * A bar from the x axis to y, centred on x, width pixels wide, and its
 * value written above it; key (may be NULL) marks that value.
 */
void	 svg_bar(struct svg_plot *, double x, double width, double y,
	    const char *color, const char *key);
/* Legend entry i (escaped) in the top margin, above the data. */
void	 svg_legend(struct svg_plot *, size_t i, const char *color,
	    const char *label);

/* A number as the page shows it: integers whole, others to 4 digits. */
void	 svg_number(char *buf, size_t len, double v);

#endif
