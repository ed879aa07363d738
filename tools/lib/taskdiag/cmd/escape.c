// SPDX-License-Identifier: GPL-2.0
/*
 * Strings as ps shows them: a task may name itself with any bytes (a
 * newline in a comm would print a fake record line).
 */
#include <stddef.h>

#include "cmd.h"

/**
 * utf8_lead_len() - the length of the UTF-8 sequence a lead byte starts
 * @c: the byte
 *
 * Return: 1 to 4, or 0 if @c may not start one.
 */
size_t utf8_lead_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/**
 * utf8_len() - the length of the valid UTF-8 character at @s
 * @s: a NUL-terminated string
 *
 * Valid as RFC 3629 says: no overlong form, no surrogate (U+D800-U+DFFF),
 * nothing above U+10FFFF.
 *
 * Return: 1 to 4, or 0 if the bytes at @s are no valid UTF-8.
 */
size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n = utf8_lead_len(s[0]), i;

	if (n <= 1)
		return n;
	/* the second byte's range */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A control character: C0, DEL, or C1 (U+0080-U+009F, 0xc2 0x80-0x9f) */
static bool is_control(const unsigned char *s, size_t len)
{
	if (len == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/**
 * escape_ps() - a string as procps' ps prints it in a UTF-8 locale
 * @s: the string
 * @buf: where to write it
 * @size: the size of @buf, at least 1
 *
 * Each byte of a control character or of bytes that are no valid UTF-8
 * becomes '?'; the output is cut to @size - 1 bytes, between characters.
 *
 * Return: @buf.
 */
const char *escape_ps(const char *s, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i, out = 0;
	bool bad;

	while (*p) {
		len = utf8_len(p);
		bad = !len || is_control(p, len);
		if (!len)
			len = 1;
		if (out + len >= size)
			break;
		for (i = 0; i < len; i++)
			buf[out++] = bad ? '?' : p[i];
		p += len;
	}
	buf[out] = '\0';
	return buf;
}
