/* test-text-safe.c — the display-safety function against hostile input. */
#include "config.h"

#include "tl-test.h"

#include <math.h>

#include <locale.h>
#include <string.h>

#include "csv-out.h"
#include "json-out.h"
#include "text-safe.h"

#define R "\xef\xbf\xbd" /* U+FFFD, the visible replacement */

struct safe_case {
	const char *name;
	const char *in;
	size_t len;	   /* 0: strlen(in) */
	const char *utf8;  /* expected in a UTF-8 locale */
	const char *ascii; /* expected in a non-UTF-8 locale */
};

static const struct safe_case safe_cases[] = {
    {"plain", "gemm0.w1", 0, "gemm0.w1", "gemm0.w1"},
    {"empty", "", 0, "", ""},
    {"ESC clear screen", "a\x1b[2Jb", 0, "a" R "[2Jb", "a?[2Jb"},
    {"OSC title", "\x1b]0;pwned\x07x", 0, R "]0;pwned" R "x", "?]0;pwned?x"},
    {"newline and tab", "a\nb\tc\r", 0, "a" R "b" R "c" R, "a?b?c?"},
    {"NUL inside", "a\0b", 3, "a" R "b", "a?b"},
    {"DEL", "x\x7fy", 0, "x" R "y", "x?y"},
    {"raw C1 CSI byte",
     "a\x9b"
     "31mb",
     0, "a" R "31mb", "a?31mb"},
    {"UTF-8 encoded C1 CSI",
     "a\xc2\x9b"
     "31m",
     0, "a" R "31m", "a?31m"},
    {"UTF-8 encoded C1 NEL", "\xc2\x85", 0, R, "?"},
    {"printable UTF-8", "caf\xc3\xa9", 0, "caf\xc3\xa9", "caf?"},
    {"CJK wide", "\xe7\xba\xbf", 0, "\xe7\xba\xbf", "?"},
    {"overlong slash", "\xc0\xaf", 0, R R, "??"},
    {"surrogate", "\xed\xa0\x80", 0, R R R, "???"},
    {"above U+10FFFF", "\xf4\x90\x80\x80", 0, R R R R, "????"},
    {"truncated sequence", "ab\xe2\x82", 0, "ab" R R, "ab??"},
    {"lone continuation", "\x80z", 0, R "z", "?z"},
    {"bidi override",
     "abc\xe2\x80\xae"
     "fdp.exe",
     0, "abc" R "fdp.exe", "abc?fdp.exe"},
    {"0xff byte", "\xff", 0, R, "?"},
    {"zero-width joiner", "ge\xe2\x80\x8dmm0", 0, "ge" R "mm0", "ge?mm0"},
    {"BOM", "\xef\xbb\xbfgemm0", 0, R "gemm0", "?gemm0"},
    {"combining accent alone", "e\xcc\x81", 0, "e" R, "e?"},
};

static void test_text_safe_table(void **state)
{
	(void)state;
	char out[256];
	for (size_t i = 0; i < sizeof(safe_cases) / sizeof(safe_cases[0]); i++) {
		const struct safe_case *c = &safe_cases[i];
		size_t len = c->len ? c->len : strlen(c->in);
		text_safe_mode(c->in, len, out, sizeof(out), true);
		if (strcmp(out, c->utf8) != 0)
			fail_msg("utf8 case '%s': got '%s'", c->name, out);
		text_safe_mode(c->in, len, out, sizeof(out), false);
		if (strcmp(out, c->ascii) != 0)
			fail_msg("ascii case '%s': got '%s'", c->name, out);
	}
}

static void test_text_safe_no_control_bytes_ever(void **state)
{
	(void)state;
	/* Every byte pair, in both modes: no control byte may come out. */
	char in[3], out[64];
	for (int a = 0; a < 256; a++) {
		for (int b = 0; b < 256; b++) {
			in[0] = (char)a, in[1] = (char)b, in[2] = 'z';
			for (int m = 0; m < 2; m++) {
				size_t n = text_safe_mode(in, 3, out, sizeof(out), m);
				for (size_t i = 0; i < n; i++) {
					unsigned char c = (unsigned char)out[i];
					assert_false(c < 0x20 || c == 0x7f);
					if (!m)
						assert_true(c < 0x80);
				}
				/* C1 as UTF-8 must never survive */
				assert_null(strstr(out, "\xc2\x9b"));
			}
		}
	}
}

static void test_text_safe_truncates_on_character(void **state)
{
	(void)state;
	char out[6];
	/* "é" is two bytes: with room for 5 bytes "caf" + "é" fits, "és" not */
	size_t n = text_safe_mode("caf\xc3\xa9\xc3\xa9", 7, out, sizeof(out), true);
	assert_int_equal(n, 5);
	assert_string_equal(out, "caf\xc3\xa9");
	n = text_safe_mode("ab\x1b", 3, out, 4, true); /* replacement needs 3 */
	assert_int_equal(n, 2);
	assert_string_equal(out, "ab");
}

/* A table cell is padded by columns, not bytes: a name with a replaced
 * byte (3 bytes, 1 column in UTF-8) once shifted the next column left. */
static void test_text_safe_cell(void **state)
{
	(void)state;
	bool was = text_safe_utf8;
	text_safe_utf8 = true;
	char out[64];
	size_t n = text_safe_cell("h\xffo", 3, 6, false, out, sizeof(out));
	assert_string_equal(out, "h\xef\xbf\xbdo   "); /* U+FFFD, then 3 spaces */
	assert_int_equal(n, 8);
	assert_int_equal(text_safe_width(out, n), 6);
	/* longer than the cell: whole, or cut on a character with cut */
	text_safe_cell("caf\xc3\xa9s", 6, 4, false, out, sizeof(out));
	assert_string_equal(out, "caf\xc3\xa9s");
	text_safe_cell("caf\xc3\xa9s", 6, 4, true, out, sizeof(out));
	assert_string_equal(out, "caf\xc3\xa9");
	text_safe_cell("\x1b[7m", 4, 3, true, out, sizeof(out));
	assert_string_equal(out, "\xef\xbf\xbd[7");
	/* a buffer too small for the padding: cut there, still terminated */
	n = text_safe_cell("ab", 2, 10, false, out, 5);
	assert_string_equal(out, "ab  ");
	assert_int_equal(n, 4);
	text_safe_utf8 = was;
}

static void json_of(const char *in, size_t len, char *out, size_t cap)
{
	FILE *f = fmemopen(out, cap, "w");
	assert_non_null(f);
	json_out_string_to(f, in, len);
	fclose(f);
}

static void test_json_string(void **state)
{
	(void)state;
	char out[256];
	json_of("a\"b\\c", 5, out, sizeof(out));
	assert_string_equal(out, "\"a\\\"b\\\\c\"");
	json_of("x\ny\x1b", 4, out, sizeof(out));
	assert_string_equal(out, "\"x\\ny\\u001b\"");
	json_of("caf\xc3\xa9", 5, out, sizeof(out));
	assert_string_equal(out, "\"caf\xc3\xa9\"");
	/* invalid bytes are kept, escaped one by one */
	json_of("a\xff\xc0", 3, out, sizeof(out));
	assert_string_equal(out, "\"a\\udcff\\udcc0\"");
	json_of("\xc2\x9b", 2, out, sizeof(out));
	assert_string_equal(out, "\"\\u009b\"");
	json_of("a\0b", 3, out, sizeof(out));
	assert_string_equal(out, "\"a\\u0000b\"");
}

static void test_csv_field(void **state)
{
	(void)state;
	char out[256];
	text_safe_utf8 = true;
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct csv_out c;
	/* One field per row start: the writer's own commas stay out. */
#define FIELD(s, n) (csv_out_init(&c, f), csv_out_bytes(&c, s, n))
	FIELD("plain", 5);
	putc('|', f);
	FIELD("a,b", 3);
	putc('|', f);
	FIELD("say \"hi\"\n", 9);
	putc('|', f);
	FIELD("=1+2", 4);
	putc('|', f);
	FIELD("@SUM(A1)", 8);
	putc('|', f);
	FIELD("-x", 2);
#undef FIELD
	fclose(f);
	assert_string_equal(out, "plain|\"a,b\"|\"say \"\"hi\"\"" R "\"|'=1+2|'@SUM(A1)|'-x");
}

/* A CSV row: commas between fields, empty for NaN, quoted text. */
static void test_csv_row(void **state)
{
	(void)state;
	char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct csv_out c;
	csv_out_init(&c, f);
	csv_out_int(&c, 7);
	csv_out_num(&c, 1.5, 2);
	csv_out_num(&c, NAN, 2);
	csv_out_str(&c, NULL);
	csv_out_str(&c, "x y");
	csv_out_end_row(&c);
	csv_out_int(&c, 8);
	csv_out_end_row(&c);
	fclose(f);
	assert_string_equal(out, "7,1.50,,,\"x y\"\n8\n");
}

static char *json_doc(int pretty)
{
	static char out[1024];
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct json_out j;
	json_out_init(&j, f, pretty);
	json_out_object(&j);
	json_out_kint(&j, "a", 1);
	json_out_key(&j, "rows");
	json_out_array(&j);
	json_out_object(&j);
	json_out_knum(&j, "x", 1.25, 2);
	json_out_knum(&j, "nan", NAN, 2);
	json_out_end(&j);
	json_out_object(&j);
	json_out_kbool(&j, "t", true);
	json_out_end(&j);
	json_out_end(&j);
	json_out_key(&j, "empty");
	json_out_array(&j);
	json_out_end(&j);
	json_out_kstr(&j, "s", NULL);
	json_out_end(&j);
	json_out_newline(&j);
	fclose(f);
	return out;
}

/* The writer's layouts: JSON Lines' compact form, and the pretty one whose
 * rows stay on one line each. */
static void test_json_writer(void **state)
{
	(void)state;
	assert_string_equal(json_doc(0), "{\"a\":1,\"rows\":[{\"x\":1.25,\"nan\":null},"
					 "{\"t\":true}],\"empty\":[],\"s\":null}\n");
	assert_string_equal(json_doc(2), "{\n  \"a\": 1,\n  \"rows\": [\n    {\"x\": 1.25, "
					 "\"nan\": null},\n    {\"t\": true}\n  ],\n  "
					 "\"empty\": [],\n  \"s\": null\n}\n");
}

int main(void)
{
	/* iswprint needs a UTF-8 LC_CTYPE for the UTF-8 half of the table. */
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		setlocale(LC_CTYPE, "");
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_safe_table),
	    cmocka_unit_test(test_text_safe_no_control_bytes_ever),
	    cmocka_unit_test(test_text_safe_truncates_on_character),
	    cmocka_unit_test(test_text_safe_cell),
	    cmocka_unit_test(test_json_string),
	    cmocka_unit_test(test_csv_field),
	    cmocka_unit_test(test_csv_row),
	    cmocka_unit_test(test_json_writer),
	};
	return cmocka_run_group_tests_name("text-safe", tests, NULL, NULL);
}
