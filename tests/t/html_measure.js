// html_measure.js: appended to a copy of a report page by html_demo.sh,
// run by headless Chromium (--dump-dom): it measures every element against
// the width of the window less its scroll bar, and writes what it found
// into the DOM, in a pre element of id measure.  An element wider than
// that, or reaching past it, overflows unless it lies in a box that
// scrolls sideways (overflow-x auto or scroll) and fits the window itself.
(function () {
	var W = document.documentElement.clientWidth, bad = [], boxes = [];
	var all = document.body.getElementsByTagName('*'), i, e, r, b;

	function scroller(e) {
		for (var a = e; a && a !== document.body; a = a.parentElement) {
			var o = getComputedStyle(a).overflowX;
			if (o === 'auto' || o === 'scroll')
				return a;
		}
		return null;
	}
	function name(e) {
		var c = typeof e.className === 'string' ? e.className : '';
		return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
		    (c ? '.' + c.split(' ')[0] : '');
	}
	for (i = 0; i < all.length; i++) {
		e = all[i];
		r = e.getBoundingClientRect();
		if (e.scrollWidth <= W && r.right <= W + 0.5)
			continue;
		b = scroller(e);
		if (b && b.getBoundingClientRect().right <= W + 0.5 &&
		    b.clientWidth <= W) {
			if (boxes.indexOf(b) < 0)
				boxes.push(b);
			continue;
		}
		bad.push(name(e) + ' right ' + Math.round(r.right) +
		    ' scrollWidth ' + e.scrollWidth);
	}
	var p = document.createElement('pre');
	p.id = 'measure';
	p.textContent = 'window ' + window.innerWidth + '\nwidth ' + W +
	    '\nroot ' +
	    document.documentElement.scrollWidth + '\nelements ' + all.length +
	    '\noverflow ' + bad.length + '\n' + bad.join('\n') +
	    (bad.length ? '\n' : '') + 'scrolling ' + boxes.length + ' ' +
	    boxes.map(function (b) {
		return name(b.firstElementChild || b);
	    }).join(' ') + '\nend\n';
	document.body.appendChild(p);
})();
