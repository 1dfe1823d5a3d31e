/* text-safe.h — foreign text made safe for a terminal or a data format.
 *
 * Thread names, command lines and anything else that came from another
 * process are stored as raw bytes and pass through here on their way out,
 * and only here.  Nothing in the output can move the cursor, change colours,
 * switch character sets or confuse a parser. */
#ifndef THREADLAB_TEXT_SAFE_H
#define THREADLAB_TEXT_SAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* Writes in as a JSON string with its quotes.  Valid UTF-8 passes except
 * that '"', '\\', C0, DEL and C1 are escaped (\n, \u0000-style); each byte
 * of invalid UTF-8 is written as \udcXX (the "surrogateescape" convention:
 * Python's json.loads(s).encode('utf-8', 'surrogateescape') gives back the
 * raw bytes).  Nothing is dropped. */
void json_put_string(FILE *f, const char *bytes, size_t len);

/* Writes in as one CSV field: made safe as text_safe() does, a leading
 * = + - @ prefixed with ' (no spreadsheet formula), quoted with '"' (inner
 * quotes doubled) when it holds a comma, quote or space. */
void csv_put_field(FILE *f, const char *bytes, size_t len);

#endif
