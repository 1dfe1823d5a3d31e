/* dash-fit.c — columns of UTF-8 text, and text cut to a width. */
#include "config.h"

#include "dash-fit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "text-safe.h"

/* Decodes one UTF-8 character of s; returns its length (1 for a bad
 * byte) and its columns in *w. */
static size_t dash_fit_char(const char *s, int *w)
{
	mbstate_t ps;
	wchar_t wc;

	if ((unsigned char)*s < 0x80) { /* ASCII: what mbrtowc and wcwidth would say */
		*w = 1;
		return 1;
	}
	memset(&ps, 0, sizeof(ps));
	size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*w = 1;
		return 1;
	}
	int cw = wcwidth(wc);
	*w = cw < 0 ? 1 : cw;
	return n;
}

int dash_fit_width(const char *s)
{
	int total = 0, w;

	while (*s) {
		s += dash_fit_char(s, &w);
		total += w;
	}
	return total;
}

size_t dash_fit(char *out, size_t cap, const char *s, int width, bool pad, bool right)
{
	size_t take = 0;
	int cols = 0, w;

	if (cap == 0)
		return 0;
	while (s[take]) {
		size_t n = dash_fit_char(s + take, &w);
		if (cols + w > width)
			break;
		cols += w;
		take += n;
	}
	int spaces = pad && cols < width ? width - cols : 0;
	size_t o = 0;
	if (right)
		for (; spaces > 0 && o + 1 < cap; spaces--)
			out[o++] = ' ';
	if (take > cap - 1 - o)
		take = cap - 1 - o; /* cap too small: may cut a character */
	memcpy(out + o, s, take);
	o += take;
	for (; spaces > 0 && o + 1 < cap; spaces--)
		out[o++] = ' ';
	out[o] = '\0';
	return o;
}

size_t dash_fit_words(char *out, size_t cap, const char *s, int width)
{
	const char *dots = text_safe_utf8 ? "\u2026" : "...";
	int dots_w = text_safe_utf8 ? 1 : 3;
	size_t take = 0, word_end = 0;
	int cols = 0, w;

	if (cap == 0)
		return 0;
	if (width <= 0) {
		out[0] = '\0';
		return 0;
	}
	if (dash_fit_width(s) <= width)
		return dash_fit(out, cap, s, width, false, false);
	if (width <= dots_w)
		return dash_fit(out, cap, s, width, false, false);
	/* The longest prefix, ending before a space, that leaves room for dots. */
	while (s[take]) {
		size_t n = dash_fit_char(s + take, &w);
		if (cols + w > width - dots_w)
			break;
		cols += w;
		take += n;
		if (s[take] == ' ' || s[take] == '\0')
			word_end = take;
	}
	if (word_end == 0)
		word_end = take; /* one long word: cut it */
	while (word_end > 0 && strchr(" |:,;", s[word_end - 1]))
		word_end--;
	if (word_end + strlen(dots) + 1 > cap)
		return dash_fit(out, cap, s, width, false, false);
	memcpy(out, s, word_end);
	memcpy(out + word_end, dots, strlen(dots) + 1);
	return word_end + strlen(dots);
}
