/*
 * ksw2_recorder.c - records calls of minimap2 2.24's guided DP, ksw_extd2_sse (dual
 * affine gaps) and ksw_extz2_sse (single affine gaps, what mm_align_pair calls when
 * q == q2 and e == e2), as golden task lines for `agatha dp`.
 *
 * This file is ours; minimap2's sources are NOT in the repository:
 * scripts/record-dp-golden.sh fetches the mappy 2.24 sdist at run time, builds minimap2
 * from it unmodified, and links this file in with the linker options
 * --wrap=ksw_extd2_sse --wrap=ksw_extz2_sse, so that every call minimap2 makes goes
 * through the wrappers below, which run the real kernel (minimap2's run-time dispatch:
 * SSE4.1 on any recent x86-64) and append one line (the layout of ../shared/golden):
 *
 *   id flag a b ambi q e q2 e2 w zdrop end_bonus query target
 *   score max max_q max_t mqe mqe_t mte mte_q zdropped reach_end n_cigar cigar
 *
 * A ksw_extz2 call has flag | 0x20000 (agatha's mark of a single-affine task) and
 * q2 = q, e2 = e. KSW2_LOG names the output file (appended to), KSW2_TAG the id prefix
 * (ids are TAG:N, N counting calls from 1).
 *
 * The scoring matrix must be one ksw_gen_simple_mat(5, ...) makes, as minimap2's is:
 * the wrapper aborts on any other. a, b, ambi are logged as the matrix holds them
 * (a = match entry, b = -mismatch entry, ambi = -N entry), which is what the same
 * options give again when minimap2's int8 conversion is applied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>
#include "ksw2.h"

#define EXTZ_MARK 0x20000

void __real_ksw_extd2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int8_t q2, int8_t e2, int w, int zdrop, int end_bonus,
                          int flag, ksw_extz_t *ez);
void __real_ksw_extz2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int w, int zdrop, int end_bonus, int flag,
                          ksw_extz_t *ez);

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_fp = 0;
static unsigned long n_calls = 0;

static void fail(const char *msg)
{
	fprintf(stderr, "[E::ksw2_recorder] %s\n", msg);
	abort();
}

static FILE *log_file(void)
{
	if (!log_fp) {
		const char *fn = getenv("KSW2_LOG");
		if (!fn || !*fn) fail("KSW2_LOG is not set");
		log_fp = fopen(fn, "a");
		if (!log_fp) fail("cannot open KSW2_LOG for appending");
	}
	return log_fp;
}

static void put_seq(FILE *fp, int len, const uint8_t *s)
{
	int i;
	if (len <= 0) {
		fputc('*', fp);
		return;
	}
	for (i = 0; i < len; ++i) fputc(s[i] < 4 ? "ACGT"[s[i]] : 'N', fp);
}

/* a, b, ambi of a ksw_gen_simple_mat matrix; aborts if mat is not one */
static void simple_scores(int m, const int8_t *mat, int *a, int *b, int *ambi)
{
	int i, j;
	if (m != 5) fail("the alphabet size m is not 5");
	*a = mat[0], *b = -mat[1], *ambi = -mat[24];
	for (i = 0; i < 5; ++i)
		for (j = 0; j < 5; ++j) {
			int want = i == 4 || j == 4 ? -*ambi : i == j ? *a : -*b;
			if (mat[i * 5 + j] != want) fail("the scoring matrix is not ksw_gen_simple_mat's");
		}
}

static void log_call(int flag, const int8_t *mat, int q, int e, int q2, int e2, int w, int zdrop, int end_bonus,
                     int qlen, const uint8_t *query, int tlen, const uint8_t *target, const ksw_extz_t *ez)
{
	int a, b, ambi, i;
	FILE *fp;
	simple_scores(5, mat, &a, &b, &ambi);
	pthread_mutex_lock(&log_lock);
	fp = log_file();
	++n_calls;
	fprintf(fp, "%s:%lu", getenv("KSW2_TAG") ? getenv("KSW2_TAG") : "ksw2", n_calls);
	fprintf(fp, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", flag, a, b, ambi, q, e, q2, e2, w, zdrop, end_bonus);
	put_seq(fp, qlen, query);
	fputc('\t', fp);
	put_seq(fp, tlen, target);
	fprintf(fp, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", ez->score, (int)ez->max, ez->max_q, ez->max_t, ez->mqe,
	        ez->mqe_t, ez->mte, ez->mte_q, (int)ez->zdropped, ez->reach_end, ez->n_cigar);
	if (ez->n_cigar == 0) fputc('*', fp);
	for (i = 0; i < ez->n_cigar; ++i) fprintf(fp, "%u%c", ez->cigar[i] >> 4, "MIDNSHP=X"[ez->cigar[i] & 0xf]);
	fputc('\n', fp);
	if (ferror(fp)) fail("write error on KSW2_LOG");
	pthread_mutex_unlock(&log_lock);
}

void __wrap_ksw_extd2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int8_t q2, int8_t e2, int w, int zdrop, int end_bonus,
                          int flag, ksw_extz_t *ez)
{
	__real_ksw_extd2_sse(km, qlen, query, tlen, target, m, mat, q, e, q2, e2, w, zdrop, end_bonus, flag, ez);
	log_call(flag, mat, q, e, q2, e2, w, zdrop, end_bonus, qlen, query, tlen, target, ez);
}

void __wrap_ksw_extz2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int w, int zdrop, int end_bonus, int flag,
                          ksw_extz_t *ez)
{
	__real_ksw_extz2_sse(km, qlen, query, tlen, target, m, mat, q, e, w, zdrop, end_bonus, flag, ez);
	log_call(flag | EXTZ_MARK, mat, q, e, q, e, w, zdrop, end_bonus, qlen, query, tlen, target, ez);
}
