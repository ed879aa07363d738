// SPDX-License-Identifier: GPL-2.0
/*
 * The two passes procps' ps makes over a name or command line before it
 * prints it: its library's, which replaces control characters (and, once
 * the bytes stop being UTF-8, every byte above 0x7f), then ps' own, which
 * counts screen cells and cuts the string to its column.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "cmd.h"
#include "ps.h"

/* A byte outside UTF-8: '.' for a control character, '?' above 0x7f */
static char ps_byte(unsigned char c)
{
	if (c < 0x20 || c == 0x7f)
		return '.';
	return c >= 0x80 ? '?' : c;
}

/**
 * ps_escape_lib() - the library's pass, in place
 * @s: a NUL-terminated string
 * @utf8: the locale is UTF-8
 *
 * In UTF-8, control characters become '?' and sequences are walked by
 * their lead byte only; from the first bad lead byte (or a sequence cut
 * by the end) on, the rest is escaped as outside UTF-8.
 */
void ps_escape_lib(char *s, bool utf8)
{
	unsigned char *p = (unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		k = utf8 ? utf8_lead_len(p[i]) : 0;
		if (!k || i + k > n) {
			for (; i < n; i++)
				p[i] = ps_byte(p[i]);
			return;
		}
		if (p[i] < 0x20 || p[i] == 0x7f)
			p[i] = '?';
		i += k;
	}
}

/* ps' pass outside UTF-8: one cell a byte */
static int ps_cells_bytes(char *dst, const char *src, int bufsize,
			  int maxcells)
{
	int n = 0;

	if (bufsize > maxcells + 1)
		bufsize = maxcells + 1;
	while (src[n] && n + 1 < bufsize) {
		dst[n] = ps_byte(src[n]);
		n++;
	}
	dst[n] = '\0';
	return n;
}

/**
 * ps_escape_cells() - ps' pass: copy what fits in @maxcells cells
 * @dst: where to write it, NUL-terminated
 * @src: the string, through ps_escape_lib() already
 * @bufsize: the size of @dst
 * @maxcells: the cells it may take
 * @utf8: the locale is UTF-8 (and setlocale() was called)
 *
 * Return: the cells taken.
 */
int ps_escape_cells(char *dst, const char *src, int bufsize, int maxcells,
		    bool utf8)
{
	int cells = 0, bytes = 0, w;
	mbstate_t st;
	wchar_t wc;
	size_t len;

	if (bufsize <= 0 || maxcells <= 0) {
		if (bufsize > 0)
			*dst = '\0';
		return 0;
	}
	if (!utf8)
		return ps_cells_bytes(dst, src, bufsize, maxcells);

	memset(&st, 0, sizeof(st));
	while (cells < maxcells && bytes + 1 < bufsize) {
		len = mbrtowc(&wc, src, MB_CUR_MAX, &st);
		if (!len)
			break;
		if (len == (size_t)-1 || len == (size_t)-2) {
			memset(&st, 0, sizeof(st));
			dst[bytes++] = '?';
			src++;
			cells++;
		} else if (len == 1) {
			dst[bytes++] = *src >= 0x20 && *src < 0x7f ? *src : '?';
			src++;
			cells++;
		} else if (!iswprint(wc)) {
			dst[bytes++] = '?';
			src += len;
			cells++;
		} else {
			w = wcwidth(wc);
			if (w > maxcells - cells ||
			    (int)len >= bufsize - (bytes + 1))
				break;
			memcpy(dst + bytes, src, len);
			bytes += len;
			src += len;
			cells += w > 0 ? w : 0;
		}
	}
	dst[bytes] = '\0';
	return cells;
}
