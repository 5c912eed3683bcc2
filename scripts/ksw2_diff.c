/*
 * ksw2_diff.c - minimap2 2.24's two guided-DP kernels side by side: ksw_extz2_sse
 * (single affine gaps, what mm_align_pair calls when q == q2 and e == e2) and
 * ksw_extd2_sse (dual affine gaps) given the same piece twice.
 *
 * This file is ours; minimap2's sources are NOT in the repository:
 * scripts/ksw2-diff.sh fetches the mappy 2.24 sdist at run time (sha256-pinned) and
 * compiles ksw2_extz2_sse.c, ksw2_extd2_sse.c (-msse4.1) and kalloc.c with this file.
 *
 * Usage:
 *   ksw2_diff cmp N SEED [OUT.tsv]
 *       N random tasks (splitmix64 from SEED): both kernels answer each; prints one
 *       line per class (scoring range x flag) with the number of tasks and of tasks
 *       where any of score, max, max_q, max_t, mqe, mqe_t, zdropped, reach_end or the
 *       CIGAR differ (mte/mte_q counted apart). OUT.tsv, when given, receives every
 *       differing task as a task line (columns 1-14 of the golden layout, flag with
 *       agatha's single-affine mark 0x20000).
 *   ksw2_diff gen N SEED KIND
 *       writes N random task lines (columns 1-14) on stdout, the same generator: KIND z,
 *       single-affine tasks (mark 0x20000), half of them with scorings past the
 *       everyday range; KIND d, dual-affine tasks with any scoring minimap2 accepts
 *       (mm_check_opt's gap rules; -A, -B past the int8 range; pieces in either order).
 *   ksw2_diff answer TASKS.tsv
 *       answers task lines (columns 1-14; '#' lines skipped; further columns ignored)
 *       with minimap2's kernels, writing complete golden lines (26 columns) on stdout:
 *       ksw_extz2_sse for a flag with the mark 0x20000 (which must have q == q2,
 *       e == e2), else ksw_extd2_sse. Scores are passed as minimap2 passes them: the
 *       matrix from ksw_gen_simple_mat(5, mat, a, b, ambi) with int8_t arguments, and
 *       q, e, q2, e2 as int8_t.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "ksw2.h"

#define EXTZ_MARK 0x20000

static void fail(const char *msg)
{
	fprintf(stderr, "[E::ksw2_diff] %s\n", msg);
	exit(1);
}

/* ---- splitmix64 ---- */
static uint64_t rng_s;
static uint64_t rnd(void)
{
	uint64_t z = (rng_s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); } /* [lo, hi] */

typedef struct {
	int flag, a, b, ambi, q, e, q2, e2, w, zdrop, end_bonus;
	int qlen, tlen;
	uint8_t *qs, *ts;
} task_t;

/* minimap2 2.24's ksw_gen_simple_mat(5, mat, a, b, sc_ambi): int8_t parameters */
static void gen_simple_mat(int8_t *mat, int8_t a, int8_t b, int8_t ambi)
{
	int i, j;
	a = a < 0 ? -a : a, b = b > 0 ? -b : b, ambi = ambi > 0 ? -ambi : ambi;
	for (i = 0; i < 4; ++i) {
		for (j = 0; j < 4; ++j) mat[i * 5 + j] = i == j ? a : b;
		mat[i * 5 + 4] = ambi;
	}
	for (j = 0; j < 5; ++j) mat[20 + j] = ambi;
}

static void run_extz2(const task_t *t, ksw_extz_t *ez)
{
	int8_t mat[25];
	gen_simple_mat(mat, (int8_t)t->a, (int8_t)t->b, (int8_t)t->ambi);
	ksw_extz2_sse(0, t->qlen, t->qs, t->tlen, t->ts, 5, mat, (int8_t)t->q, (int8_t)t->e, t->w, t->zdrop, t->end_bonus,
	              t->flag & 0xffff, ez);
}
static void run_extd2(const task_t *t, ksw_extz_t *ez)
{
	int8_t mat[25];
	gen_simple_mat(mat, (int8_t)t->a, (int8_t)t->b, (int8_t)t->ambi);
	ksw_extd2_sse(0, t->qlen, t->qs, t->tlen, t->ts, 5, mat, (int8_t)t->q, (int8_t)t->e, (int8_t)t->q2, (int8_t)t->e2, t->w,
	              t->zdrop, t->end_bonus, t->flag & 0xffff, ez);
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
static void put_task(FILE *fp, const char *id, const task_t *t)
{
	fprintf(fp, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", id, t->flag, t->a, t->b, t->ambi, t->q, t->e, t->q2, t->e2,
	        t->w, t->zdrop, t->end_bonus);
	put_seq(fp, t->qlen, t->qs);
	fputc('\t', fp);
	put_seq(fp, t->tlen, t->ts);
}
static void put_answer(FILE *fp, const ksw_extz_t *ez)
{
	int i;
	fprintf(fp, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", ez->score, (int)ez->max, ez->max_q, ez->max_t, ez->mqe,
	        ez->mqe_t, ez->mte, ez->mte_q, (int)ez->zdropped, ez->reach_end, ez->n_cigar);
	if (ez->n_cigar == 0) fputc('*', fp);
	for (i = 0; i < ez->n_cigar; ++i) fprintf(fp, "%u%c", ez->cigar[i] >> 4, "MIDNSHP=X"[ez->cigar[i] & 0xf]);
}

/* ---- random tasks ---- */
static uint8_t *rand_seq(int n, int alpha, int n_rate)
{
	uint8_t *s = (uint8_t *)malloc((size_t)n + 1);
	int i;
	for (i = 0; i < n; ++i) s[i] = (uint8_t)(rint_(0, 999) < n_rate ? 4 : rint_(0, alpha - 1));
	return s;
}
/* a copy of s with substitutions, indels and (sometimes) a long gap */
static uint8_t *mutate(const uint8_t *s, int n, int *out_n, int alpha, int rate)
{
	uint8_t *r = (uint8_t *)malloc((size_t)n * 2 + 64);
	int i, k = 0;
	for (i = 0; i < n; ++i) {
		int x = rint_(0, 999);
		if (k >= n * 2 + 40) break;
		if (x < rate) r[k++] = (uint8_t)rint_(0, alpha - 1);
		else if (x < rate * 2) continue;
		else if (x < rate * 3) r[k++] = s[i], r[k++] = (uint8_t)rint_(0, alpha - 1);
		else if (x == 999 && rint_(0, 3) == 0) i += rint_(5, 40);
		else r[k++] = s[i];
	}
	*out_n = k;
	return r;
}
/* a period-p repeat: tie-heavy */
static uint8_t *repeat_seq(int n, int p)
{
	uint8_t *s = (uint8_t *)malloc((size_t)n + 1), unit[8];
	int i;
	for (i = 0; i < p; ++i) unit[i] = (uint8_t)rint_(0, 3);
	for (i = 0; i < n; ++i) s[i] = unit[i % p];
	return s;
}

/* range 0: everyday scorings (a + 2(q+e) <= 127); 1: anything minimap2 accepts with
 * q == q2, e == e2 (2(q+e) <= 127), a and b over their int8 range */
static void rand_scoring(task_t *t, int range)
{
	int qe;
	if (range == 0) {
		do {
			t->a = rint_(1, 10), t->b = rint_(1, 2 * t->a + 10), t->ambi = rint_(0, 3);
			t->q = rint_(1, 30), t->e = rint_(1, 8);
			qe = t->q + t->e;
		} while (t->a + 2 * qe > 127);
	} else {
		t->q = rint_(1, 62), t->e = rint_(1, 63 - t->q);
		qe = t->q + t->e;
		t->a = rint_(0, 3) == 0 ? rint_(-300, 300) : rint_(1, 127);
		t->b = rint_(0, 3) == 0 ? rint_(-300, 300) : rint_(1, 127);
		t->ambi = rint_(0, 4) == 0 ? rint_(0, 127) : rint_(0, 3);
		(void)qe;
	}
	t->q2 = t->q, t->e2 = t->e;
}

/* a dual-affine scoring minimap2's mm_check_opt accepts: q, e > 0, e > e2,
 * q + e < q2 + e2, (q + e) + (q2 + e2) <= 127; a and b over and past their int8 range */
static void rand_dual_scoring(task_t *t)
{
	do {
		t->q = rint_(1, 40), t->e = rint_(1, 12);
		t->e2 = rint_(0, 5) == 0 ? rint_(-3, 0) : rint_(1, t->e);
		t->q2 = rint_(t->q + t->e - t->e2 + 1, 126);
	} while (!(t->e > t->e2 && t->q + t->e < t->q2 + t->e2 && t->q + t->e + t->q2 + t->e2 <= 127));
	if (rint_(0, 1)) { /* swap the pieces: minimap2 swaps them back */
		int x = t->q;
		t->q = t->q2, t->q2 = x, x = t->e, t->e = t->e2, t->e2 = x;
	}
	t->a = rint_(0, 2) == 0 ? rint_(-300, 300) : rint_(1, 127);
	t->b = rint_(0, 2) == 0 ? rint_(-300, 300) : rint_(1, 127);
	t->ambi = rint_(0, 4) == 0 ? rint_(-130, 130) : rint_(0, 3);
}

static const int flags[] = {0x08, 0x00, 0x40, 0xC2, 0x01, 0x02, 0x80, 0x41, 0x42, 0xC0, 0x0A, 0x18, 0x48, 0xC3, 0x82, 0x03};
#define N_FLAGS ((int)(sizeof(flags) / sizeof(flags[0])))

static void rand_task(task_t *t, int range)
{
	int kind = rint_(0, 5), alpha = rint_(0, 2) == 0 ? rint_(1, 2) : 4, n = rint_(0, 9) == 0 ? rint_(0, 3) : rint_(1, 300);
	memset(t, 0, sizeof(*t));
	rand_scoring(t, range);
	t->flag = flags[rint_(0, N_FLAGS - 1)];
	t->w = rint_(0, 4) == 0 ? -1 : rint_(0, 3) == 0 ? rint_(0, 20) : rint_(0, 400);
	t->zdrop = rint_(0, 4) == 0 ? -1 : rint_(0, 400);
	t->end_bonus = rint_(0, 2) == 0 ? 0 : rint_(0, 200);
	if (kind == 0) { /* unrelated */
		t->qs = rand_seq(n, alpha, 5), t->qlen = n;
		t->tlen = rint_(0, 300), t->ts = rand_seq(t->tlen, alpha, 5);
	} else if (kind == 1) { /* tandem repeats */
		int p = rint_(1, 6);
		t->ts = repeat_seq(n, p), t->tlen = n;
		t->qs = mutate(t->ts, n, &t->qlen, 4, rint_(0, 40));
	} else { /* similar, low-complexity alphabet or N runs sometimes */
		t->ts = rand_seq(n, alpha, kind == 2 ? 40 : 2), t->tlen = n;
		t->qs = mutate(t->ts, n, &t->qlen, alpha, rint_(0, 120));
	}
}

static int same(const ksw_extz_t *x, const ksw_extz_t *y)
{
	if (x->score != y->score || x->max != y->max || x->max_q != y->max_q || x->max_t != y->max_t || x->mqe != y->mqe ||
	    x->mqe_t != y->mqe_t || x->zdropped != y->zdropped || x->reach_end != y->reach_end || x->n_cigar != y->n_cigar)
		return 0;
	return x->n_cigar == 0 || memcmp(x->cigar, y->cigar, (size_t)x->n_cigar * 4) == 0;
}

static int cmd_cmp(long n, uint64_t seed, const char *out_fn)
{
	/* classes: range (0 everyday, 1 wide) x flag index */
	long n_task[2][N_FLAGS], n_diff[2][N_FLAGS], n_mte[2][N_FLAGS], tot = 0, tot_diff = 0;
	FILE *out = out_fn ? fopen(out_fn, "w") : 0;
	ksw_extz_t ez1, ez2;
	long i;
	int r, f;
	if (out_fn && !out) fail("cannot open the output file");
	memset(n_task, 0, sizeof(n_task)), memset(n_diff, 0, sizeof(n_diff)), memset(n_mte, 0, sizeof(n_mte));
	memset(&ez1, 0, sizeof(ez1)), memset(&ez2, 0, sizeof(ez2));
	rng_s = seed;
	for (i = 0; i < n; ++i) {
		task_t t;
		int range = (int)(i & 1), fi;
		rand_task(&t, range);
		for (fi = 0; flags[fi] != t.flag; ++fi) {}
		run_extz2(&t, &ez1);
		run_extd2(&t, &ez2);
		++n_task[range][fi], ++tot;
		if (!same(&ez1, &ez2)) {
			++n_diff[range][fi], ++tot_diff;
			if (out) {
				char id[64];
				snprintf(id, sizeof id, "diff:%ld", i);
				t.flag |= EXTZ_MARK;
				put_task(out, id, &t);
				fputc('\n', out);
			}
		} else if (ez1.mte != ez2.mte || ez1.mte_q != ez2.mte_q) {
			++n_mte[range][fi];
		}
		free(t.qs), free(t.ts);
	}
	printf("range\tflag\ttasks\tdiffering\tdiffering_mte_only\n");
	for (r = 0; r < 2; ++r)
		for (f = 0; f < N_FLAGS; ++f)
			printf("%s\t0x%02x\t%ld\t%ld\t%ld\n", r ? "wide" : "everyday", flags[f], n_task[r][f], n_diff[r][f], n_mte[r][f]);
	printf("total\t*\t%ld\t%ld\t*\n", tot, tot_diff);
	free(ez1.cigar), free(ez2.cigar);
	if (out) fclose(out);
	return 0;
}

static int cmd_gen(long n, uint64_t seed, const char *kind)
{
	long i;
	rng_s = seed;
	if (strcmp(kind, "z") && strcmp(kind, "d")) fail("the kind of task is z or d");
	for (i = 0; i < n; ++i) {
		task_t t;
		char id[64];
		rand_task(&t, (int)(i & 1));
		if (*kind == 'z') t.flag |= EXTZ_MARK;
		else rand_dual_scoring(&t);
		snprintf(id, sizeof id, "%s:%ld", *kind == 'z' ? "extz2" : "extd2", i);
		put_task(stdout, id, &t);
		fputc('\n', stdout);
		free(t.qs), free(t.ts);
	}
	return 0;
}

static uint8_t *encode(const char *s, int *len)
{
	uint8_t *r;
	int i, n;
	if (strcmp(s, "*") == 0) s = "";
	n = (int)strlen(s);
	r = (uint8_t *)malloc((size_t)n + 1);
	for (i = 0; i < n; ++i) {
		int c = s[i] & ~0x20;
		r[i] = c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4;
	}
	*len = n;
	return r;
}

static int cmd_answer(const char *fn)
{
	FILE *in = strcmp(fn, "-") ? fopen(fn, "r") : stdin;
	char *line = 0;
	size_t cap = 0;
	ksw_extz_t ez;
	long n = 0;
	if (!in) fail("cannot open the task file");
	memset(&ez, 0, sizeof(ez));
	while (getline(&line, &cap, in) >= 0) {
		char *f[14], *p;
		int k = 0;
		task_t t;
		size_t l = strlen(line);
		if (l && line[l - 1] == '\n') line[--l] = 0;
		if (line[0] == 0 || line[0] == '#') continue;
		for (p = line, f[k++] = p; *p && k < 14; ++p)
			if (*p == '\t') *p = 0, f[k++] = p + 1;
		if (k < 14) fail("a task line has fewer than 14 columns");
		if ((p = strchr(f[13], '\t')) != 0) *p = 0;
		t.flag = atoi(f[1]), t.a = atoi(f[2]), t.b = atoi(f[3]), t.ambi = atoi(f[4]);
		t.q = atoi(f[5]), t.e = atoi(f[6]), t.q2 = atoi(f[7]), t.e2 = atoi(f[8]);
		t.w = atoi(f[9]), t.zdrop = atoi(f[10]), t.end_bonus = atoi(f[11]);
		t.qs = encode(f[12], &t.qlen), t.ts = encode(f[13], &t.tlen);
		if (t.flag & EXTZ_MARK) {
			if (t.q != t.q2 || t.e != t.e2) fail("a single-affine task with q != q2 or e != e2");
			run_extz2(&t, &ez);
		} else {
			run_extd2(&t, &ez);
		}
		put_task(stdout, f[0], &t);
		put_answer(stdout, &ez);
		fputc('\n', stdout);
		free(t.qs), free(t.ts);
		++n;
	}
	free(ez.cigar), free(line);
	fprintf(stderr, "[M::ksw2_diff] %ld tasks answered\n", n);
	return 0;
}

int main(int argc, char *argv[])
{
	if (argc >= 4 && strcmp(argv[1], "cmp") == 0) return cmd_cmp(atol(argv[2]), strtoull(argv[3], 0, 10), argc > 4 ? argv[4] : 0);
	if (argc == 5 && strcmp(argv[1], "gen") == 0) return cmd_gen(atol(argv[2]), strtoull(argv[3], 0, 10), argv[4]);
	if (argc == 3 && strcmp(argv[1], "answer") == 0) return cmd_answer(argv[2]);
	fprintf(stderr, "Usage: ksw2_diff cmp N SEED [OUT.tsv] | gen N SEED z|d | answer TASKS.tsv\n");
	return 1;
}
