// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Memory of a session: every allocation goes through the session's
 * allocator, so that tests can make any of them fail.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void *(*td_realloc_hook)(void *ptr, size_t size);

void taskdiag__test_set_realloc(void *(*fn)(void *ptr, size_t size))
{
	td_realloc_hook = fn;
}

void *td_realloc(struct taskdiag *td, void *ptr, size_t size)
{
	if (td && td->realloc_fn)
		return td->realloc_fn(ptr, size);
	return realloc(ptr, size);
}

/**
 * td_grow() - make an array hold at least @need elements
 * @td: the session
 * @ptr: the array
 * @cap: its capacity in elements
 * @need: the capacity needed
 * @elem: the size of an element
 *
 * The capacity at least doubles, so that filling an array costs O(log n)
 * allocations once, and none when it is reused.
 *
 * Return: 0 or -ENOMEM; the array is unchanged on failure.
 */
int td_grow(struct taskdiag *td, void **ptr, size_t *cap, size_t need,
	    size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need && n <= SIZE_MAX / 2)
		n *= 2;
	if (n < need || n > SIZE_MAX / elem)
		return td_err(td, -ENOMEM, "array of %zu elements too large",
			      need);

	p = td_realloc(td, *ptr, n * elem);
	if (!p)
		return td_err(td, -ENOMEM, "out of memory for %zu bytes",
			      n * elem);
	*ptr = p;
	*cap = n;
	return 0;
}

/* Whether the @len bytes at @p are all zero */
bool td_is_zero(const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--)
		if (*c++)
			return false;
	return true;
}

/**
 * td_opts_copy() - copy a caller's options struct that starts with its size
 * @dst: the library's struct
 * @size: its size
 * @src: the caller's, or NULL for all zero
 * @src_sz: the caller's size (its first field)
 *
 * An older, smaller struct is fine; a newer, larger one only if what the
 * library does not know of it is zero.
 *
 * Return: 0 or -EINVAL.
 */
int td_opts_copy(void *dst, size_t size, const void *src, size_t src_sz)
{
	memset(dst, 0, size);
	if (!src)
		return 0;
	if (src_sz < sizeof(size_t))
		return -EINVAL;
	if (src_sz > size && !td_is_zero((const char *)src + size, src_sz - size))
		return -EINVAL;
	memcpy(dst, src, src_sz < size ? src_sz : size);
	return 0;
}

char *td_strdup(struct taskdiag *td, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = td_realloc(td, NULL, len);

	if (p)
		memcpy(p, s, len);
	return p;
}
