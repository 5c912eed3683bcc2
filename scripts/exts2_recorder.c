/*
 * exts2_recorder.c - records calls of minimap2's splice-aware guided DP,
 * ksw_exts2_sse (2.24, or 2.31 when compiled with -DEXTS2_MM231), as golden task
 * lines for `agatha dp`.
 *
 * This file is ours; minimap2's sources are NOT in the repository:
 * scripts/record-splice-golden.sh fetches the mappy 2.24 sdist at run time, builds
 * minimap2 from it unmodified, and links this file in with the linker option
 * --wrap=ksw_exts2_sse, so that every call minimap2 makes goes through
 * __wrap_ksw_exts2_sse below, which runs the real kernel (__real_ksw_exts2_sse,
 * minimap2's run-time dispatch: SSE4.1 on any recent x86-64) and appends one line:
 *
 *   id flag a b ambi q e q2 noncan junc_bonus zdrop junc query target
 *   score max max_q max_t mqe mqe_t mte mte_q zdropped reach_end n_cigar cigar
 *
 * (tab-separated; tests/data/splice/README.md describes the columns). flag is
 * minimap2's flag plus 0x10000, agatha's mark of a ksw_exts2 task. junc is the
 * junction array, one hex digit per target base, or '*' when minimap2 passed none.
 *
 * With -DEXTS2_MM231 (minimap2 2.31's ksw_exts2_sse, which also takes end_bonus and
 * junc_pen): the zdrop column is "zdrop,end_bonus", and flag also has 0x40000, agatha's
 * mark of 2.31's mte_q (r - en0). Calls with KSW_EZ_SPLICE_SCORE (--spsc) abort: the
 * task format has no column for splice scores or junc_pen.
 *
 * Compiled two ways:
 *   - plain: the wrapper only, linked into minimap2 (main.o + libminimap2.a);
 *     EXTS2_LOG names the output file (appended to), EXTS2_TAG the id prefix
 *     (ids are TAG:N, N counting calls from 1);
 *   - with -DEXTS2_DRIVER: also a main() that reads task lines (columns 1-14 of the
 *     layout above; further columns ignored; '#' lines skipped) from the file given
 *     as argument and calls ksw_exts2_sse on each, so hand-made tasks are answered by
 *     the same kernel and logged by the same wrapper, under their own ids.
 *
 * The scoring matrix must be the one ksw_gen_simple_mat(5, ...) makes, as minimap2's
 * is: +a on the diagonal of A/C/G/T, -b off it, one value for every pair with N. The
 * wrapper aborts on any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>
#include "ksw2.h"

#define SPLICE_TASK_MARK 0x10000
#define MTE_Q_CELL_MARK 0x40000

#ifdef EXTS2_MM231
#define EXTS2_PARAMS int zdrop, int end_bonus, int8_t junc_bonus, int8_t junc_pen
#define EXTS2_ARGS zdrop, end_bonus, junc_bonus, junc_pen
#define TASK_MARKS (SPLICE_TASK_MARK | MTE_Q_CELL_MARK)
#else
#define EXTS2_PARAMS int zdrop, int8_t junc_bonus
#define EXTS2_ARGS zdrop, junc_bonus
#define TASK_MARKS SPLICE_TASK_MARK
#endif

void __real_ksw_exts2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int8_t q2, int8_t noncan, EXTS2_PARAMS,
                          int flag, const uint8_t *junc, ksw_extz_t *ez);

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_fp = 0;
static unsigned long n_calls = 0;
static const char *driver_id = 0; /* set by the driver for the call in progress */

static void fail(const char *msg)
{
	fprintf(stderr, "[E::exts2_recorder] %s\n", msg);
	abort();
}

static FILE *log_file(void)
{
	if (!log_fp) {
		const char *fn = getenv("EXTS2_LOG");
		if (!fn || !*fn) fail("EXTS2_LOG is not set");
		log_fp = fopen(fn, "a");
		if (!log_fp) fail("cannot open EXTS2_LOG for appending");
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

static void put_junc(FILE *fp, int tlen, const uint8_t *junc)
{
	int i;
	if (!junc || tlen <= 0) {
		fputc('*', fp);
		return;
	}
	for (i = 0; i < tlen; ++i) fputc("0123456789abcdef"[junc[i] & 0xf], fp);
	for (i = 0; i < tlen; ++i)
		if (junc[i] > 0xf) fail("a junction byte above 0xf");
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

void __wrap_ksw_exts2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                          const int8_t *mat, int8_t q, int8_t e, int8_t q2, int8_t noncan, EXTS2_PARAMS,
                          int flag, const uint8_t *junc, ksw_extz_t *ez)
{
	int a, b, ambi, i;
	FILE *fp;
	simple_scores(m, mat, &a, &b, &ambi);
	if (flag & 0x1000) fail("a call with KSW_EZ_SPLICE_SCORE (--spsc): not recordable");
	__real_ksw_exts2_sse(km, qlen, query, tlen, target, m, mat, q, e, q2, noncan, EXTS2_ARGS, flag, junc, ez);
	pthread_mutex_lock(&log_lock);
	fp = log_file();
	++n_calls;
	if (driver_id) fputs(driver_id, fp);
	else fprintf(fp, "%s:%lu", getenv("EXTS2_TAG") ? getenv("EXTS2_TAG") : "exts2", n_calls);
	fprintf(fp, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d", flag | TASK_MARKS, a, b, ambi, q, e, q2, noncan,
	        junc_bonus, zdrop);
#ifdef EXTS2_MM231
	fprintf(fp, ",%d", end_bonus);
#endif
	fputc('\t', fp);
	put_junc(fp, tlen, junc);
	fputc('\t', fp);
	put_seq(fp, qlen, query);
	fputc('\t', fp);
	put_seq(fp, tlen, target);
	fprintf(fp, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", ez->score, (int)ez->max, ez->max_q, ez->max_t, ez->mqe,
	        ez->mqe_t, ez->mte, ez->mte_q, (int)ez->zdropped, ez->reach_end, ez->n_cigar);
	if (ez->n_cigar == 0) fputc('*', fp);
	for (i = 0; i < ez->n_cigar; ++i) fprintf(fp, "%u%c", ez->cigar[i] >> 4, "MIDNSHP=X"[ez->cigar[i] & 0xf]);
	fputc('\n', fp);
	if (ferror(fp)) fail("write error on EXTS2_LOG");
	pthread_mutex_unlock(&log_lock);
}

#ifdef EXTS2_DRIVER
/* ---- the driver: hand-made tasks through minimap2's kernel ---- */

static uint8_t *encode(char *s, int *len)
{
	uint8_t *r;
	int i, n;
	if (strcmp(s, "*") == 0) s = "";
	n = (int)strlen(s);
	r = (uint8_t *)malloc((size_t)n + 1);
	if (!r) fail("out of memory");
	for (i = 0; i < n; ++i) {
		int c = s[i] & ~0x20; /* upper case */
		r[i] = c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4;
	}
	*len = n;
	return r;
}

static uint8_t *decode_junc(char *s, int tlen)
{
	uint8_t *r;
	int i;
	if (strcmp(s, "*") == 0) return 0;
	if ((int)strlen(s) != tlen) fail("the junction column does not have one digit per target base");
	r = (uint8_t *)malloc((size_t)tlen + 1);
	if (!r) fail("out of memory");
	for (i = 0; i < tlen; ++i) {
		char c = s[i];
		r[i] = (uint8_t)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 255);
		if (r[i] > 15) fail("a junction digit is not hexadecimal");
	}
	return r;
}

/* minimap2 2.24 ksw_gen_simple_mat(5, mat, a, b, sc_ambi): int8_t parameters, so
 * values past the int8 range (-A 200) wrap first, as minimap2's own call does */
static void gen_simple_mat(int8_t *mat, int8_t a, int8_t b, int8_t ambi)
{
	int i, j;
	a = a < 0 ? -a : a, b = b > 0 ? -b : b, ambi = ambi > 0 ? -ambi : ambi;
	for (i = 0; i < 4; ++i) {
		for (j = 0; j < 4; ++j) mat[i * 5 + j] = (int8_t)(i == j ? a : b);
		mat[i * 5 + 4] = (int8_t)ambi;
	}
	for (j = 0; j < 5; ++j) mat[20 + j] = (int8_t)ambi;
}

int main(int argc, char *argv[])
{
	FILE *in;
	char *line = 0;
	size_t cap = 0;
	ksw_extz_t ez;
	long n = 0;
	if (argc != 2) {
		fprintf(stderr, "Usage: EXTS2_LOG=OUT.tsv exts2_driver TASKS.tsv\n");
		return 1;
	}
	in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!in) fail("cannot open the task file");
	memset(&ez, 0, sizeof(ez));
	while (getline(&line, &cap, in) >= 0) {
		char *f[14], *p;
		int k = 0, qlen, tlen;
		int8_t mat[25];
		uint8_t *qs, *ts, *junc;
		size_t l = strlen(line);
		if (l && line[l - 1] == '\n') line[--l] = 0;
		if (line[0] == 0 || line[0] == '#') continue;
		for (p = line, f[k++] = p; *p && k < 14; ++p)
			if (*p == '\t') *p = 0, f[k++] = p + 1;
		if (k < 14) fail("a task line has fewer than 14 columns");
		if ((p = strchr(f[13], '\t')) != 0) *p = 0;
		if (!(atoi(f[1]) & SPLICE_TASK_MARK)) fail("a task without the splice mark 0x10000 in its flag");
		gen_simple_mat(mat, (int8_t)atoi(f[2]), (int8_t)atoi(f[3]), (int8_t)atoi(f[4]));
		qs = encode(f[12], &qlen);
		ts = encode(f[13], &tlen);
		junc = decode_junc(f[11], tlen);
		driver_id = f[0];
		/* column 11: zdrop, or "zdrop,end_bonus" (2.31 only; 2.24 takes no end bonus) */
		p = strchr(f[10], ',');
#ifdef EXTS2_MM231
		ksw_exts2_sse(0, qlen, qs, tlen, ts, 5, mat, (int8_t)atoi(f[5]), (int8_t)atoi(f[6]), (int8_t)atoi(f[7]),
		              (int8_t)atoi(f[8]), atoi(f[10]), p ? atoi(p + 1) : 0, (int8_t)atoi(f[9]), 0,
		              atoi(f[1]) & ~(SPLICE_TASK_MARK | MTE_Q_CELL_MARK), junc, &ez);
#else
		if (p && atoi(p + 1) != 0) fail("an end bonus, which minimap2 2.24's ksw_exts2_sse does not take");
		ksw_exts2_sse(0, qlen, qs, tlen, ts, 5, mat, (int8_t)atoi(f[5]), (int8_t)atoi(f[6]), (int8_t)atoi(f[7]),
		              (int8_t)atoi(f[8]), atoi(f[10]), (int8_t)atoi(f[9]), atoi(f[1]) & ~SPLICE_TASK_MARK, junc, &ez);
#endif
		driver_id = 0;
		free(qs), free(ts), free(junc);
		++n;
	}
	free(ez.cigar);
	free(line);
	if (log_fp && fclose(log_fp) != 0) fail("write error on EXTS2_LOG");
	fprintf(stderr, "[M::exts2_driver] %ld tasks\n", n);
	return 0;
}
#endif
