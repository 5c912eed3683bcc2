/*
 * ksw2_driver.c - run minimap2 2.24's own ksw_extd2_sse (SSE4.1 build) on a
 * golden DP task file, one thread, and report its throughput.
 *
 * Part of agatha's benchmarks (bench/dp.sh builds and runs it). This file is
 * ours; minimap2's ksw2 sources are NOT in the repository: dp.sh fetches the
 * mappy 2.24 sdist from PyPI at run time and compiles
 *   ksw2_extd2_sse.c          -O2 -msse4.1                      (timed kernel)
 *   ksw2_extd2_sse.c, patched -O2 -msse4.1 -Dksw_extd2_sse=ksw_extd2_sse_cnt
 *                             (adds one counter: in-band cells per anti-diagonal)
 *   kalloc.c                  -O2
 * and links them with this driver (-lz).
 *
 * Usage: ksw2_driver [-R repeats] [-m] [-c cells] [-v] TASKS.tsv.gz
 *   -R N   timed repeats of the whole task set (default 3); the median is reported
 *   -m     call the kernel with km = NULL (plain malloc/free for every buffer)
 *          instead of a kalloc pool; minimap2 itself runs with a per-thread
 *          kalloc pool, so the pool is the default
 *   -c C   cells total to use for cells/s (e.g. agatha's count); default: the
 *          count measured by the instrumented kernel copy
 *   -v     print every mismatching task to stderr (default: the first 10)
 *
 * What runs:
 *   1. load + decode all tasks (A0 C1 G2 T3 other 4; 5x5 matrix like minimap2's
 *      ksw_gen_simple_mat: +a / -b on A/C/G/T, -ambi for any pair with N)
 *   2. one untimed pass with the instrumented copy: counts cells (in-band
 *      cells of every anti-diagonal processed until the end or Z-drop) and
 *      checks the outputs against golden columns 15-20 and 23-26; this pass
 *      also warms the caches / the kalloc pool
 *   3. R timed passes with the pristine kernel (only the ksw_extd2_sse calls
 *      and minimap2's per-thread pool upkeep are inside the timer); the first
 *      timed pass's outputs (cols 15-20, 23-25) are checked against the golden
 *      file afterwards too
 * Output: one line on stdout
 *   ksw2: file=... tasks=N cells=C kernel_cells=K repeats=R median_s=S min_s=S
 *         tasks_per_s=X cells_per_s=Y mismatches=M alloc=kalloc|malloc
 * (cells = the -c value if given, else K; K = the instrumented kernel's count)
 * exit status 0, or 2 if any task mismatched the golden answer, 1 on errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "ksw2.h"
#include "kalloc.h"

/* the instrumented copy of minimap2's kernel (same code + a cell counter) */
void ksw_extd2_sse_cnt(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m, const int8_t *mat,
                       int8_t q, int8_t e, int8_t q2, int8_t e2, int w, int zdrop, int end_bonus, int flag, ksw_extz_t *ez);
unsigned long long ksw_bench_cells = 0; /* incremented by ksw_extd2_sse_cnt */

#define NCOL 26

typedef struct {
	const char *id;
	int flag, q, e, q2, e2, w, zdrop, end_bonus;
	int8_t mat[25];
	int qlen, tlen;
	uint8_t *qs, *ts;
	/* golden outputs */
	int g_score, g_max, g_max_q, g_max_t, g_mqe, g_mqe_t, g_zdropped, g_reach_end, g_n_cigar;
	const char *g_cigar;
} task_t;

typedef struct { /* outputs recorded during the first timed pass */
	int score, max, max_q, max_t, mqe, mqe_t, zdropped, reach_end, n_cigar;
} res_t;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "ksw2_driver: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char *read_gz(const char *fn, size_t *len)
{
	gzFile fp = gzopen(fn, "rb");
	size_t cap = 1 << 24, n = 0;
	char *buf;
	int k;
	if (!fp) die("cannot open", fn);
	gzbuffer(fp, 1 << 20);
	buf = (char *)malloc(cap + 1);
	if (!buf) die("out of memory", 0);
	while ((k = gzread(fp, buf + n, (unsigned)(cap - n))) > 0) {
		n += (size_t)k;
		if (n == cap) {
			cap <<= 1;
			buf = (char *)realloc(buf, cap + 1);
			if (!buf) die("out of memory", 0);
		}
	}
	if (k < 0) die("gzip read error", fn);
	gzclose(fp);
	buf[n] = 0;
	*len = n;
	return buf;
}

static uint8_t *encode(const char *s, int *len)
{
	static const uint8_t *tab = 0;
	static uint8_t t[256];
	size_t i, n;
	uint8_t *r;
	if (!tab) {
		memset(t, 4, 256);
		t['A'] = t['a'] = 0, t['C'] = t['c'] = 1, t['G'] = t['g'] = 2, t['T'] = t['t'] = 3;
		tab = t;
	}
	if (strcmp(s, "*") == 0) s = "";
	n = strlen(s);
	r = (uint8_t *)malloc(n + 1);
	if (!r) die("out of memory", 0);
	for (i = 0; i < n; ++i) r[i] = tab[(uint8_t)s[i]];
	*len = (int)n;
	return r;
}

/* minimap2 2.24 ksw_gen_simple_mat(5, mat, a, b, sc_ambi) */
static void gen_simple_mat(int8_t *mat, int a, int b, int ambi)
{
	int i, j, m = 5;
	a = a < 0 ? -a : a, b = b > 0 ? -b : b, ambi = ambi > 0 ? -ambi : ambi;
	for (i = 0; i < m - 1; ++i) {
		for (j = 0; j < m - 1; ++j) mat[i * m + j] = (int8_t)(i == j ? a : b);
		mat[i * m + m - 1] = (int8_t)ambi;
	}
	for (j = 0; j < m; ++j) mat[(m - 1) * m + j] = (int8_t)ambi;
}

static task_t *load_tasks(const char *fn, int *n_tasks)
{
	size_t len, i;
	char *buf = read_gz(fn, &len), *p = buf, *line;
	int n = 0, m = 0, lineno = 0;
	task_t *a = 0;
	for (line = p; line < buf + len; line = p) {
		char *f[NCOL];
		int k;
		task_t *t;
		++lineno;
		for (p = line; p < buf + len && *p != '\n'; ++p) {}
		if (p < buf + len) *p++ = 0;
		if (line[0] == 0 || line[0] == '#') continue;
		f[0] = line;
		for (k = 1, i = 0; line[i]; ++i)
			if (line[i] == '\t') {
				line[i] = 0;
				if (k < NCOL) f[k] = line + i + 1;
				++k;
			}
		if (k < NCOL) {
			fprintf(stderr, "ksw2_driver: %s line %d: %d columns, expected %d\n", fn, lineno, k, NCOL);
			exit(1);
		}
		if (n == m) {
			m = m ? m << 1 : 1024;
			a = (task_t *)realloc(a, (size_t)m * sizeof(task_t));
			if (!a) die("out of memory", 0);
		}
		t = &a[n++];
		t->id = f[0];
		t->flag = atoi(f[1]);
		gen_simple_mat(t->mat, atoi(f[2]), atoi(f[3]), atoi(f[4]));
		t->q = atoi(f[5]), t->e = atoi(f[6]), t->q2 = atoi(f[7]), t->e2 = atoi(f[8]);
		t->w = atoi(f[9]), t->zdrop = atoi(f[10]), t->end_bonus = atoi(f[11]);
		t->qs = encode(f[12], &t->qlen);
		t->ts = encode(f[13], &t->tlen);
		t->g_score = atoi(f[14]), t->g_max = atoi(f[15]), t->g_max_q = atoi(f[16]), t->g_max_t = atoi(f[17]);
		t->g_mqe = atoi(f[18]), t->g_mqe_t = atoi(f[19]);
		t->g_zdropped = atoi(f[22]), t->g_reach_end = atoi(f[23]), t->g_n_cigar = atoi(f[24]);
		t->g_cigar = f[25];
	}
	*n_tasks = n;
	return a; /* buf is kept alive: ids and golden CIGARs point into it */
}

static void format_cigar(const ksw_extz_t *ez, char **s, size_t *cap)
{
	size_t need = (size_t)ez->n_cigar * 12 + 2, l = 0;
	int i;
	if (need > *cap) {
		*cap = need;
		*s = (char *)realloc(*s, *cap);
		if (!*s) die("out of memory", 0);
	}
	if (ez->n_cigar == 0) {
		strcpy(*s, "*");
		return;
	}
	for (i = 0; i < ez->n_cigar; ++i)
		l += (size_t)sprintf(*s + l, "%u%c", ez->cigar[i] >> 4, "MIDN"[ez->cigar[i] & 0xf]);
}

static int verbose = 0, n_reported = 0;

static void report(const task_t *t, const char *what, long got, long want)
{
	if (verbose || n_reported < 10)
		fprintf(stderr, "ksw2_driver: MISMATCH %s %s: got %ld, golden %ld\n", t->id, what, got, want);
	++n_reported;
}

/* returns 1 if the task's output differs from the golden answer */
static int check(const task_t *t, const res_t *r, const char *cigar)
{
	int bad = 0;
#define CHK(field, gfield) if (r->field != t->gfield) report(t, #field, r->field, t->gfield), bad = 1
	CHK(score, g_score); CHK(max, g_max); CHK(max_q, g_max_q); CHK(max_t, g_max_t);
	CHK(mqe, g_mqe); CHK(mqe_t, g_mqe_t); CHK(zdropped, g_zdropped); CHK(reach_end, g_reach_end);
	CHK(n_cigar, g_n_cigar);
#undef CHK
	if (cigar && strcmp(cigar, t->g_cigar) != 0) {
		if (verbose || n_reported < 10)
			fprintf(stderr, "ksw2_driver: MISMATCH %s cigar differs\n", t->id);
		++n_reported;
		bad = 1;
	}
	return bad;
}

static void fill_res(res_t *r, const ksw_extz_t *ez)
{
	r->score = ez->score, r->max = (int)ez->max, r->max_q = ez->max_q, r->max_t = ez->max_t;
	r->mqe = ez->mqe, r->mqe_t = ez->mqe_t, r->zdropped = ez->zdropped, r->reach_end = ez->reach_end;
	r->n_cigar = ez->n_cigar;
}

/* minimap2 (map.c) resets its per-thread pool when it grows too big */
static void *pool_upkeep(void *km, ksw_extz_t *ez)
{
	km_stat_t st;
	if (!km) return km;
	km_stat(km, &st);
	if (st.largest > 1U << 28 || st.capacity > 1000000000) {
		kfree(km, ez->cigar);
		ez->cigar = 0, ez->m_cigar = 0;
		km_destroy(km);
		km = km_init();
	}
	return km;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char *argv[])
{
	int c, R = 3, use_malloc = 0, n, i, rep, mismatches = 0, mismatches_timed = 0;
	unsigned long long cells_given = 0;
	const char *fn, *base;
	task_t *tasks;
	res_t *res;
	double *times, med;
	void *km;
	ksw_extz_t ez;
	char *cig = 0;
	size_t cig_cap = 0;

	while ((c = getopt(argc, argv, "R:mc:v")) >= 0) {
		if (c == 'R') R = atoi(optarg);
		else if (c == 'm') use_malloc = 1;
		else if (c == 'c') cells_given = strtoull(optarg, 0, 10);
		else if (c == 'v') verbose = 1;
		else return 1;
	}
	if (optind + 1 != argc || R < 1) {
		fprintf(stderr, "Usage: ksw2_driver [-R repeats] [-m] [-c cells] [-v] TASKS.tsv.gz\n");
		return 1;
	}
	fn = argv[optind];
	base = strrchr(fn, '/') ? strrchr(fn, '/') + 1 : fn;
	tasks = load_tasks(fn, &n);
	res = (res_t *)calloc((size_t)n + 1, sizeof(res_t));
	times = (double *)calloc((size_t)R, sizeof(double));
	if (!res || !times) die("out of memory", 0);

	memset(&ez, 0, sizeof(ez));
	km = use_malloc ? 0 : km_init();

	/* untimed pass: instrumented kernel, cell count, full golden check */
	ksw_bench_cells = 0;
	for (i = 0; i < n; ++i) {
		const task_t *t = &tasks[i];
		res_t r;
		ksw_extd2_sse_cnt(km, t->qlen, t->qs, t->tlen, t->ts, 5, t->mat, (int8_t)t->q, (int8_t)t->e, (int8_t)t->q2, (int8_t)t->e2,
		                  t->w, t->zdrop, t->end_bonus, t->flag, &ez);
		fill_res(&r, &ez);
		format_cigar(&ez, &cig, &cig_cap);
		mismatches += check(t, &r, cig);
		km = pool_upkeep(km, &ez);
	}

	/* timed passes: pristine kernel */
	for (rep = 0; rep < R; ++rep) {
		double t0 = now_s();
		for (i = 0; i < n; ++i) {
			const task_t *t = &tasks[i];
			ksw_extd2_sse(km, t->qlen, t->qs, t->tlen, t->ts, 5, t->mat, (int8_t)t->q, (int8_t)t->e, (int8_t)t->q2, (int8_t)t->e2,
			              t->w, t->zdrop, t->end_bonus, t->flag, &ez);
			if (rep == 0) fill_res(&res[i], &ez);
			km = pool_upkeep(km, &ez);
		}
		times[rep] = now_s() - t0;
		fprintf(stderr, "ksw2_driver: %s repeat %d/%d: %.3f s\n", base, rep + 1, R, times[rep]);
	}
	for (i = 0; i < n; ++i) mismatches_timed += check(&tasks[i], &res[i], 0);
	if (mismatches_timed > mismatches) mismatches = mismatches_timed;

	qsort(times, (size_t)R, sizeof(double), cmp_double);
	med = R & 1 ? times[R / 2] : 0.5 * (times[R / 2 - 1] + times[R / 2]);
	if (cells_given == 0) cells_given = ksw_bench_cells;
	printf("ksw2: file=%s tasks=%d cells=%llu kernel_cells=%llu repeats=%d median_s=%.6f min_s=%.6f tasks_per_s=%.1f cells_per_s=%.4e mismatches=%d alloc=%s\n",
	       base, n, cells_given, ksw_bench_cells, R, med, times[0], n / med, (double)cells_given / med, mismatches,
	       use_malloc ? "malloc" : "kalloc");
	if (cells_given != ksw_bench_cells)
		fprintf(stderr, "ksw2_driver: note: cells given (%llu) differ from the kernel's own count (%llu)\n",
		        cells_given, ksw_bench_cells);

	if (km) {
		kfree(km, ez.cigar);
		km_destroy(km);
	} else free(ez.cigar);
	free(cig);
	return mismatches ? 2 : 0;
}
