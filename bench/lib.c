// SPDX-License-Identifier: GPL-2.0
/*
 * One of the shared objects every process of the bench's realistic
 * workload maps (forker -l): built once per LIB_ID, each with text,
 * read-only and writable data and a build ID of its own.
 */
#define STR2(x)		#x
#define STR(x)		STR2(x)
#define FN2(a, b)	a ## b
#define FN(a, b)	FN2(a, b)

const char bench_lib_name[] = "bench-lib-" STR(LIB_ID);
int bench_lib_calls = LIB_ID;

int FN(bench_lib_fn_, LIB_ID)(int x)
{
	return x * LIB_ID + bench_lib_calls++;
}
