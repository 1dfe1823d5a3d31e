/* text-safe.h — foreign text made safe for a terminal.
 *
 * Thread names, command lines and anything else that came from another
 * process are stored as raw bytes and pass through here on their way to a
 * terminal, and only here; json-out.h and csv-out.h escape them for data.
 * Nothing in the output can move the cursor, change colours, switch
 * character sets or confuse a parser. */
#ifndef THREADLAB_TEXT_SAFE_H
#define THREADLAB_TEXT_SAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the terminal takes UTF-8: set once from the locale (after
 * setlocale) by text_safe_init(); tests set it directly. */
extern bool text_safe_utf8;
void text_safe_init(void);

/* Copies len bytes of in to out (cap bytes, always NUL-terminated unless
 * cap is 0) with every C0 control, DEL, C1 control (raw 0x80-0x9F or UTF-8
 * encoded U+0080-U+009F), bidirectional override, zero-width character,
 * invalid UTF-8 byte and non-printable character replaced by one visible replacement: U+FFFD in a
 * UTF-8 locale, '?' otherwise.  Printable UTF-8 passes in a UTF-8 locale
 * and is replaced (one '?' per character) otherwise.  Output is cut at a
 * character boundary when cap is too small.  Returns the bytes written. */
size_t text_safe(const char *in, size_t len, char *out, size_t cap);
size_t text_safe_mode(const char *in, size_t len, char *out, size_t cap, bool utf8);

/* Terminal columns the safe form of in takes (one per character; wide
 * East Asian characters count two when the locale says so). */
int text_safe_width(const char *in, size_t len);

/* A table cell: the safe form of in, padded with spaces to width
 * terminal columns (printf's %-Ns counts bytes, and a replacement
 * character is three bytes and one column); with cut, first cut at a
 * character boundary to fit width.  Returns the bytes written. */
size_t text_safe_cell(const char *in, size_t len, int width, bool cut, char *out, size_t cap);

/* One UTF-8 character at s (n bytes available): its code point in *cp and
 * its length, or 0 when the bytes are not valid UTF-8 (overlong forms,
 * surrogates and values above U+10FFFF included). */
size_t text_safe_decode(const unsigned char *s, size_t n, uint32_t *cp);
/* Characters that reorder or hide text although they print nothing:
 * bidirectional embeddings, overrides, isolates and marks. */
bool text_safe_bidi(uint32_t cp);

#endif
