/* text-safe.c — the one place foreign bytes are made safe to show.
 *
 * Decoding is strict UTF-8 (RFC 3629): overlong forms, surrogates, code
 * points above U+10FFFF and truncated sequences are invalid, byte by byte,
 * so one bad byte never swallows the good text after it. */
#include "config.h"

#include "text-safe.h"

#include <langinfo.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

bool text_safe_utf8;

void text_safe_init(void)
{
	const char *cs = nl_langinfo(CODESET);
	text_safe_utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Decodes one character at s (n bytes left).  Returns its length (1-4) and
 * sets *cp, or returns 0 for an invalid byte at s. */
size_t text_safe_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Characters that reorder or hide text even though they print nothing. */
bool text_safe_bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
	       cp == 0x200f || cp == 0x061c;
}

static bool text_safe_printable(uint32_t cp)
{
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		return false;
	if (text_safe_bidi(cp))
		return false;
	if (cp < 0x7f)
		return true;
	/* iswprint knows the locale's idea of printable; outside a UTF-8
	 * locale the caller never gets here with cp >= 0x80.  Zero-width
	 * characters (joiners, BOM, tags, combining marks) print nothing and
	 * could make one name look like another: they are replaced too. */
	return iswprint((wint_t)cp) != 0 && wcwidth((wchar_t)cp) >= 1;
}

size_t text_safe_mode(const char *in, size_t len, char *out, size_t cap, bool utf8)
{
	static const char repl_utf8[] = "\xef\xbf\xbd";
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	if (cap == 0)
		return 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = text_safe_decode(s + i, len - i, &cp);
		const char *put;
		size_t putn;

		if (n == 0) {
			n = 1;
			put = utf8 ? repl_utf8 : "?";
		} else if (n > 1 && !utf8) {
			put = "?";
		} else if (!text_safe_printable(cp)) {
			put = utf8 ? repl_utf8 : "?";
		} else {
			put = in + i;
		}
		putn = put == in + i ? n : strlen(put);
		if (o + putn >= cap)
			break;
		memcpy(out + o, put, putn);
		o += putn;
		i += n;
	}
	out[o] = '\0';
	return o;
}

size_t text_safe(const char *in, size_t len, char *out, size_t cap)
{
	return text_safe_mode(in, len, out, cap, text_safe_utf8);
}

int text_safe_width(const char *in, size_t len)
{
	const unsigned char *s = (const unsigned char *)in;
	int w = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = text_safe_decode(s + i, len - i, &cp);
		int cw = 1;
		if (n == 0)
			n = 1;
		else if (n > 1 && text_safe_utf8 && text_safe_printable(cp))
			cw = wcwidth((wchar_t)cp) == 2 ? 2 : 1;
		w += cw;
		i += n;
	}
	return w;
}

size_t text_safe_cell(const char *in, size_t len, int width, bool cut, char *out, size_t cap)
{
	if (cap == 0)
		return 0;
	size_t n = text_safe(in, len, out, cap);
	while (cut && n > 0 && text_safe_width(out, n) > width) {
		n--;
		while (n > 0 && ((unsigned char)out[n] & 0xc0) == 0x80)
			n--; /* not inside a UTF-8 sequence */
	}
	for (int w = text_safe_width(out, n); w < width && n + 1 < cap; w++)
		out[n++] = ' ';
	out[n] = '\0';
	return n;
}
