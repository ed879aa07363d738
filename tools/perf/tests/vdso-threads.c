// SPDX-License-Identifier: GPL-2.0
/*
 * machine__findnew_vdso() on two threads at once, as the threads of a
 * multithreaded synthesis (perf top's, perf record --num-thread-synthesize)
 * call it when two processes' [vdso] mappings come at the same time, while a
 * third thread adds other DSOs: one vdso DSO, the same for both, and every
 * other DSO still found.  Before the vdso was looked up and added under a
 * lock, both threads could make their own (two [vdso] DSOs), and one added
 * it to the machine's DSOs without their lock while the other reallocated
 * them: perf top aborted in glibc's realloc().  As in perf top's synthesis,
 * perf is made multithreaded for the race: else the DSOs' lock is not taken.
 */
#include <pthread.h>
#include <stdio.h>
#include <linux/kernel.h>

#include "debug.h"
#include "dso.h"
#include "dsos.h"
#include "machine.h"
#include "tests.h"
#include "thread.h"
#include "util.h"
#include "vdso.h"

#define VDSO_ROUNDS	20
#define VDSO_OTHER_DSOS	64

/* Where the threads of a round wait until all of them are there */
struct vdso_start {
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	bool			go;
};

struct vdso_racer {
	struct machine		*machine;
	struct thread		*thread;
	struct vdso_start	*start;
	struct dso		*dso;
};

static void vdso_start__wait(struct vdso_start *s)
{
	pthread_mutex_lock(&s->lock);
	while (!s->go)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static void vdso_start__go(struct vdso_start *s)
{
	pthread_mutex_lock(&s->lock);
	s->go = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void *vdso_racer__findnew(void *arg)
{
	struct vdso_racer *r = arg;

	vdso_start__wait(r->start);
	r->dso = machine__findnew_vdso(r->machine, r->thread);
	return NULL;
}

static void *vdso_racer__other_dsos(void *arg)
{
	struct vdso_racer *r = arg;
	char name[64];
	int i;

	vdso_start__wait(r->start);
	for (i = 0; i < VDSO_OTHER_DSOS; i++) {
		snprintf(name, sizeof(name), "/vdso-test/lib%d.so", i);
		dso__put(machine__findnew_dso(r->machine, name));
	}
	return NULL;
}

static int vdso_count(struct dso *dso, void *data)
{
	int *nr = data;

	if (dso__is_vdso(dso))
		(*nr)++;
	return 0;
}

/* What one round left in @machine: 0 if as it should be */
static int vdso_round_check(struct machine *machine, struct vdso_racer *r)
{
	char name[64];
	int i, nr = 0;
	struct dso *dso;

	dsos__for_each_dso(&machine->dsos, vdso_count, &nr);
	TEST_ASSERT_VAL("a vdso DSO for each thread", r[0].dso && r[1].dso);
	TEST_ASSERT_VAL("not the same vdso DSO for both", r[0].dso == r[1].dso);
	TEST_ASSERT_VAL("not one vdso DSO", nr == 1);
	for (i = 0; i < VDSO_OTHER_DSOS; i++) {
		snprintf(name, sizeof(name), "/vdso-test/lib%d.so", i);
		dso = dsos__find(&machine->dsos, name, false);
		TEST_ASSERT_VAL("a DSO added meanwhile is lost", dso);
		dso__put(dso);
	}
	return 0;
}

/* Two threads find the vdso and a third adds other DSOs, all at once */
static int vdso_round(void)
{
	struct vdso_start start = {
		.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	};
	struct vdso_racer r[3] = {};
	struct machine machine;
	int i, nr, err = 0;
	pthread_t tid[3];

	if (machine__init(&machine, "", HOST_KERNEL_ID))
		return TEST_FAIL;
	/* As perf top does around its synthesis: else perf's locks are no-ops */
	perf_set_multithreaded();
	for (nr = 0; nr < (int)ARRAY_SIZE(r); nr++) {
		r[nr].machine = &machine;
		r[nr].start = &start;
		r[nr].thread = machine__findnew_thread(&machine, 100 + nr, 100 + nr);
		if (!r[nr].thread ||
		    pthread_create(&tid[nr], NULL, nr < 2 ? vdso_racer__findnew :
				   vdso_racer__other_dsos, &r[nr])) {
			pr_debug("could not start thread %d\n", nr);
			thread__put(r[nr].thread);
			err = TEST_FAIL;
			break;
		}
	}
	vdso_start__go(&start);
	for (i = 0; i < nr; i++)
		pthread_join(tid[i], NULL);
	perf_set_singlethreaded();

	if (!err)
		err = vdso_round_check(&machine, r);
	for (i = 0; i < nr; i++) {
		dso__put(r[i].dso);
		thread__put(r[i].thread);
	}
	machine__exit(&machine);
	return err;
}

static int test__vdso_threads(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
	int i, err;

	for (i = 0; i < VDSO_ROUNDS; i++) {
		err = vdso_round();
		if (err) {
			pr_debug("round %d of %d\n", i + 1, VDSO_ROUNDS);
			return err;
		}
	}
	return TEST_OK;
}

DEFINE_SUITE("vdso: one DSO when threads map it at once", vdso_threads);
