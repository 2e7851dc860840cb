/*
 * benchmarks/threads/bench.c - the runner's InMemoryGet and InMemoryIncrement cases with threads as the
 * workers: one process of a thread-safe PHP (the embed SAPI, FrankenPHP's model), Shm\Table beside APCu
 * built for the same PHP, loaded in the same process. benchmarks/threads/run.sh builds and runs it.
 *
 * The data are the runner's (benchmarks/Support/Dataset.php): InMemoryGet reads the 1,000 meteorite
 * records of benchmarks/data/meteorites.json, one nested array per key `bench:meteorite:<id>`;
 * InMemoryIncrement increments the 1,000 integer counters `bench:counter:<i>`. The main thread seeds both
 * subjects through their own API and reads every record back from each, identical, before anything is
 * timed. Each worker thread then runs a request whose loop is the runner's (Support/Run/OperationLoop.php,
 * Support/Subject/TableSubject.php and ApcuSubject.php): it walks the keys from an evenly spread start, one
 * operation per key, and reads hrtime() every 64 operations until SECONDS have passed; a get that finds
 * nothing (Table: null; APCu: $found false) or an increment that fails counts as a miss. The threads start
 * their loops together at a barrier; a measurement's ops/s is the sum of each thread's operations over its
 * own time, as the runner sums its workers' IOPS. Beside it, the same sum over each thread's CPU time (its
 * CLOCK_THREAD_CPUTIME_ID across the loop): on a machine whose cores other jobs share, a thread taken off
 * its core lowers the wall clock's figure but not this one, which gives the steadier ratio there.
 *
 * For each case and thread count: a warm-up measurement of each subject (thrown away), then REPEAT
 * rounds of Table and APCu one after the other (the order alternating between rounds); each round's
 * Factor is Table's ops/s over APCu's. Reported: the medians of each subject's ops/s and of the rounds'
 * Factors (the same-run ratio, the figure to quote on a shared machine), by wall clock and by CPU time,
 * and the spread of the rounds' CPU-time Factors (lowest-highest).
 *
 * Checks (these are the program's results; nothing about speed is checked): the seeding and read-back,
 * no miss in any measurement (a benchmark of misses measures nothing), and after all increments each
 * subject's counters sum to exactly the increments its loops counted.
 *
 *   bench DATA_JSON [THREADS [SECONDS [REPEAT]]]    THREADS a list: "1,2" (default); SECONDS 1; REPEAT 5
 *                                                   (run.sh passes its own: 0.5 s, 11 rounds)
 *   (table.so, apcu.so and apc.enable_cli=1 come from the INI files: run.sh writes them)
 * Output: the result table, then `bench-threads: N passed, N failed`. Exit status 1 on a failure.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../tests/embed/embed_request.h"

#define MAX_THREADS 16
#define MAX_REPEAT 64

typedef enum { CASE_GET, CASE_INCREMENT } bench_case_t;
typedef enum { SUBJECT_TABLE, SUBJECT_APCU } bench_subject_t;

static const char *const case_names[] = { "InMemoryGet", "InMemoryIncrement" };

/* The loop's one operation, per case and subject, as the runner's getBatch()/incrementBatch() do it. */
static const char *const operations[2][2] = {
	[CASE_GET] = {
		[SUBJECT_TABLE] = "if (Shm\\Table::get($keys[$i % $size]) === null) { $misses++; }",
		[SUBJECT_APCU] = "apcu_fetch($keys[$i % $size], $found); if (!$found) { $misses++; }",
	},
	[CASE_INCREMENT] = {
		[SUBJECT_TABLE] = "if (Shm\\Table::increment($keys[$i % $size]) === false) { $misses++; }",
		[SUBJECT_APCU] = "apcu_inc($keys[$i % $size], 1, $success); if (!$success) { $misses++; }",
	},
};

/* The case's keys, into $GLOBALS['keys'] (before the barrier: not timed). */
static const char keys_code[] =
	"(function (int $case, string $file) {\n"
	"  $GLOBALS['keys'] = $case === 0\n"
	"    ? array_map(fn (array $r): string => \"bench:meteorite:{$r['id']}\", json_decode(file_get_contents($file), true, 512, JSON_THROW_ON_ERROR))\n"
	"    : array_map(fn (int $i): string => \"bench:counter:$i\", range(0, 999));\n"
	"  return 'ok';\n"
	"})(%d, '%s')";

/* The timed loop: OperationLoop's, with its 64 operations between two reads of the clock. */
static const char loop_code[] =
	"(function (array $keys, int $cursor, float $seconds) {\n"
	"  $size = count($keys); $ops = 0; $misses = 0;\n"
	"  $start = hrtime(true); $deadline = $start + (int) ($seconds * 1e9);\n"
	"  do {\n"
	"    for ($i = $cursor, $end = $cursor + 64; $i < $end; $i++) { %s }\n"
	"    $cursor = ($cursor + 64) %% $size; $ops += 64;\n"
	"    $now = hrtime(true);\n"
	"  } while ($now < $deadline);\n"
	"  return sprintf('ok %%d %%d %%d', $ops, $misses, $now - $start);\n"
	"})($GLOBALS['keys'], %d, %.3f)";

static const char *data_file;
static int failures, passed;

typedef struct worker {
	pthread_t thread;
	pthread_barrier_t *barrier;
	bench_case_t bcase;
	bench_subject_t subject;
	int index, threads;
	double seconds;
	/* out */
	long long ops, misses, ns, cpu_ns;
	char error[512];
} worker_t;

static void *worker(void *arg)
{
	worker_t *w = arg;
	char code[2048], out[512];
	int started, ready;

	(void)ts_resource(0);
	snprintf(w->error, sizeof(w->error), "(did not run)");
	ready = started = embed_request_start(out, sizeof(out));
	if (ready) {
		snprintf(code, sizeof(code), keys_code, (int)w->bcase, data_file);
		ready = embed_eval_string(code, out, sizeof(out)) && strcmp(out, "ok") == 0;
	}
	/* Every thread reaches the barrier, ready or not, or the others would wait for ever. */
	pthread_barrier_wait(w->barrier);
	if (ready) {
		struct timespec c0, c1;
		int ok;

		snprintf(code, sizeof(code), loop_code, operations[w->bcase][w->subject],
		         1000 * w->index / w->threads, w->seconds);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		ok = embed_eval_string(code, out, sizeof(out));
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		w->cpu_ns = (long long)(c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec);
		if (ok && sscanf(out, "ok %lld %lld %lld", &w->ops, &w->misses, &w->ns) == 3 && w->ns > 0 && w->cpu_ns > 0) {
			w->error[0] = '\0';
		}
	}
	if (w->error[0] != '\0') {
		snprintf(w->error, sizeof(w->error), "%s", out);
	}
	if (started) {
		php_request_shutdown(NULL);
	}
	ts_free_thread();
	return NULL;
}

static void fail(const char *what)
{
	failures++;
	printf("FAIL %s\n", what);
	fflush(stdout);
}

/* One measurement: THREADS threads, each SECONDS of the loop. The summed ops/s by wall clock; by CPU
 * time in *cpu_rate; -1 on a failure. The increments done are added to *incremented. */
static double measure(bench_case_t bcase, bench_subject_t subject, int threads, double seconds,
                      double *cpu_rate, long long *incremented)
{
	worker_t w[MAX_THREADS];
	pthread_barrier_t barrier;
	double rate = 0;
	char what[800];
	int i, ok = 1;

	*cpu_rate = 0;
	pthread_barrier_init(&barrier, NULL, (unsigned)threads);
	for (i = 0; i < threads; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].barrier = &barrier;
		w[i].bcase = bcase;
		w[i].subject = subject;
		w[i].index = i;
		w[i].threads = threads;
		w[i].seconds = seconds;
		if (pthread_create(&w[i].thread, NULL, worker, &w[i]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			exit(1);
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
	}
	pthread_barrier_destroy(&barrier);
	for (i = 0; i < threads; i++) {
		if (w[i].error[0] != '\0') {
			snprintf(what, sizeof(what), "%s, %s, thread %d of %d: %s", case_names[bcase],
			         subject == SUBJECT_TABLE ? "Table" : "APCu", i + 1, threads, w[i].error);
			fail(what);
			ok = 0;
		} else if (w[i].misses != 0) {
			snprintf(what, sizeof(what), "%s, %s, thread %d of %d: %lld misses in %lld operations",
			         case_names[bcase], subject == SUBJECT_TABLE ? "Table" : "APCu", i + 1, threads,
			         w[i].misses, w[i].ops);
			fail(what);
			ok = 0;
		}
		rate += (double)w[i].ops * 1e9 / (double)(w[i].ns > 0 ? w[i].ns : 1);
		*cpu_rate += (double)w[i].ops * 1e9 / (double)(w[i].cpu_ns > 0 ? w[i].cpu_ns : 1);
		if (bcase == CASE_INCREMENT) {
			*incremented += w[i].ops;
		}
	}
	return ok ? rate : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 12345678 as "12,345,678". */
static const char *grouped(double value, char *buf, size_t len)
{
	char digits[32];
	size_t n, i, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", value);
	n = strlen(digits);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0) {
			buf[o++] = ',';
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* Run `code` in the main thread's own request; 1 when it returned "ok...", its result in out. */
static int main_request(const char *code, char *out, size_t outlen)
{
	int ok = embed_request(code, out, outlen);

	if (!ok) {
		char what[1200];
		snprintf(what, sizeof(what), "%.1100s", out);
		fail(what);
	}
	return ok;
}

int main(int argc, char **argv)
{
	int thread_counts[MAX_THREADS], n_counts = 0, repeat = 5, r, t, c;
	long long incremented[2] = { 0, 0 };
	double seconds = 1;
	char code[4096], out[1024], serializer[64], zero_copy[64], php_version[64], a[32], b[32];
	const char *list = "1,2";

	if (argc < 2) {
		fprintf(stderr, "usage: %s DATA_JSON [THREADS [SECONDS [REPEAT]]]\n", argv[0]);
		return 2;
	}
	data_file = argv[1];
	if (argc > 2) list = argv[2];
	if (argc > 3) seconds = atof(argv[3]);
	if (argc > 4) repeat = atoi(argv[4]);
	for (const char *p = list; *p && n_counts < MAX_THREADS; p = strchr(p, ',') ? strchr(p, ',') + 1 : "") {
		thread_counts[n_counts] = atoi(p);
		if (thread_counts[n_counts] < 1 || thread_counts[n_counts] > MAX_THREADS) {
			fprintf(stderr, "THREADS: a list of 1..%d\n", MAX_THREADS);
			return 2;
		}
		n_counts++;
	}
	if (n_counts == 0 || seconds <= 0 || repeat < 1 || repeat > MAX_REPEAT || strchr(data_file, '\'')) {
		fprintf(stderr, "usage: %s DATA_JSON [THREADS [SECONDS>0 [REPEAT 1..%d]]]\n", argv[0], MAX_REPEAT);
		return 2;
	}
	if (php_embed_init(argc, argv) == FAILURE) {
		fprintf(stderr, "php_embed_init() failed\n");
		return 1;
	}
	/* php_embed_init left the main thread in a request: end it; each step below is a request of its own. */
	php_request_shutdown(NULL);

	snprintf(code, sizeof(code),
		"(function (string $file) {\n"
		"  if (!class_exists('Shm\\\\Table')) { return 'no Shm\\\\Table: load table.so'; }\n"
		"  if (!function_exists('apcu_enabled') || !apcu_enabled()) { return 'no APCu: load apcu.so with apc.enable_cli=1'; }\n"
		"  $records = json_decode(file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);\n"
		"  Shm\\Table::clearAll(); apcu_clear_cache();\n"
		"  foreach ($records as $r) {\n"
		"    $k = \"bench:meteorite:{$r['id']}\";\n"
		"    if (!Shm\\Table::set($k, $r) || !apcu_store($k, $r)) { return \"cannot store $k\"; }\n"
		"  }\n"
		"  for ($i = 0; $i < 1000; $i++) {\n"
		"    if (!Shm\\Table::set(\"bench:counter:$i\", 0) || !apcu_store(\"bench:counter:$i\", 0)) { return \"cannot store bench:counter:$i\"; }\n"
		"  }\n"
		"  return sprintf('ok %%d %%s %%s %%s', count($records), ini_get('apc.serializer'),\n"
		"    Shm\\Table::stats()['zero_copy'] ? 'on' : 'off', PHP_VERSION);\n"
		"})('%s')", data_file);
	if (!main_request(code, out, sizeof(out))
	    || sscanf(out, "ok %d %63s %63s %63s", &r, serializer, zero_copy, php_version) != 4 || r != 1000) {
		if (failures == 0) {
			char what[1100];
			snprintf(what, sizeof(what), "seeding: %s", out);
			fail(what);
		}
		goto end;
	}
	/* Read back in a request of its own: what the threads will read is there, whole. */
	snprintf(code, sizeof(code),
		"(function (string $file) {\n"
		"  foreach (json_decode(file_get_contents($file), true, 512, JSON_THROW_ON_ERROR) as $r) {\n"
		"    $k = \"bench:meteorite:{$r['id']}\";\n"
		"    if (Shm\\Table::get($k) !== $r) { return \"Table: $k reads back different\"; }\n"
		"    if (apcu_fetch($k) !== $r) { return \"APCu: $k reads back different\"; }\n"
		"  }\n"
		"  return 'ok';\n"
		"})('%s')", data_file);
	if (!main_request(code, out, sizeof(out))) {
		goto end;
	}
	passed++;

	printf("Threads of one process (embed SAPI), PHP %s ZTS: Shm\\Table (zero-copy %s) and APCu "
	       "(apc.serializer=%s) in the same process; %g s per measurement, medians of %d rounds\n",
	       php_version, zero_copy, serializer, seconds, repeat);
	snprintf(a, sizeof(a), "APCu(%.16s)", serializer);
	printf("| case              | threads | Table ops/s | %15s ops/s | Factor | Table ops/CPU-s | %15s ops/CPU-s | Factor (CPU) | CPU Factors of the rounds |\n", a, a);
	printf("|-------------------|--------:|------------:|----------------------:|-------:|----------------:|--------------------------:|-------------:|--------------------------:|\n");
	fflush(stdout);
	for (c = CASE_GET; c <= CASE_INCREMENT; c++) {
		for (t = 0; t < n_counts; t++) {
			double table[MAX_REPEAT], apcu[MAX_REPEAT], factor[MAX_REPEAT];
			double table_cpu[MAX_REPEAT], apcu_cpu[MAX_REPEAT], factor_cpu[MAX_REPEAT], ignored;
			char tw[32], aw[32], tc[32], ac[32];
			int bad = failures;

			/* The warm-up: counted towards the increments' totals, not timed. */
			measure((bench_case_t)c, SUBJECT_TABLE, thread_counts[t], seconds / 2, &ignored, &incremented[SUBJECT_TABLE]);
			measure((bench_case_t)c, SUBJECT_APCU, thread_counts[t], seconds / 2, &ignored, &incremented[SUBJECT_APCU]);
			for (r = 0; r < repeat; r++) {
				bench_subject_t first = r % 2 ? SUBJECT_APCU : SUBJECT_TABLE, second = (bench_subject_t)!first;
				double x_cpu, y_cpu;
				double x = measure((bench_case_t)c, first, thread_counts[t], seconds, &x_cpu, &incremented[first]);
				double y = measure((bench_case_t)c, second, thread_counts[t], seconds, &y_cpu, &incremented[second]);

				table[r] = first == SUBJECT_TABLE ? x : y;
				apcu[r] = first == SUBJECT_TABLE ? y : x;
				table_cpu[r] = first == SUBJECT_TABLE ? x_cpu : y_cpu;
				apcu_cpu[r] = first == SUBJECT_TABLE ? y_cpu : x_cpu;
				factor[r] = apcu[r] > 0 ? table[r] / apcu[r] : 0;
				factor_cpu[r] = apcu_cpu[r] > 0 ? table_cpu[r] / apcu_cpu[r] : 0;
			}
			if (failures != bad) {
				continue;
			}
			passed++;
			grouped(median(table, repeat), tw, sizeof(tw));
			grouped(median(apcu, repeat), aw, sizeof(aw));
			grouped(median(table_cpu, repeat), tc, sizeof(tc));
			grouped(median(apcu_cpu, repeat), ac, sizeof(ac));
			/* median() sorts: the lowest and highest come after it. */
			snprintf(b, sizeof(b), "%.2fx", median(factor_cpu, repeat));
			snprintf(a, sizeof(a), "%.2f-%.2f", factor_cpu[0], factor_cpu[repeat - 1]);
			printf("| %-17s | %7d | %11s | %21s | %5.2fx | %15s | %25s | %12s | %25s |\n", case_names[c],
			       thread_counts[t], tw, aw, median(factor, repeat), tc, ac, b, a);
			fflush(stdout);
		}
	}

	/* Every increment the loops counted is in the counters, in each subject. */
	snprintf(code, sizeof(code),
		"(function (int $table, int $apcu) {\n"
		"  $t = 0; $a = 0;\n"
		"  for ($i = 0; $i < 1000; $i++) { $t += Shm\\Table::get(\"bench:counter:$i\"); $a += apcu_fetch(\"bench:counter:$i\"); }\n"
		"  $bad = [];\n"
		"  if ($t !== $table) { $bad[] = \"Table's counters sum to $t, its loops counted $table increments\"; }\n"
		"  if ($a !== $apcu) { $bad[] = \"APCu's counters sum to $a, its loops counted $apcu increments\"; }\n"
		"  return $bad ? implode('; ', $bad) : \"ok: the counters sum to the increments counted (Table $t, APCu $a)\";\n"
		"})(%lld, %lld)", incremented[SUBJECT_TABLE], incremented[SUBJECT_APCU]);
	if (main_request(code, out, sizeof(out))) {
		printf("%s\n", out);
		passed++;
	}
end:
	/* php_embed_shutdown() ends a request: give it one. */
	if (embed_request_start(out, sizeof(out))) {
		php_embed_shutdown();
	}
	printf("bench-threads: %d passed, %d failed\n", passed, failures);
	return failures ? 1 : 0;
}
