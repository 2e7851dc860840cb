/*
 * tests/embed/threads.c - FrankenPHP's model on PHP's embed SAPI: one process, THREADS threads, each
 * running PHP requests in a loop against Shm\Table, and exact totals checked at the end.
 *
 * Every request of every thread, ITERATIONS times: increments a counter all threads share and one of its
 * own; add()s keys every thread adds (one winner each, which counts its win); increments a value by a
 * get() + cas() loop; sets an array of its own and reads it back identical, and reads another thread's,
 * which must be whole; now and then overwrites a 100 KB string every thread writes and reads it back
 * whole (threads sharing one reader slot once read such values torn); remember()s keys every thread
 * asks for, whose $compute counts its runs. Then the main thread checks: the shared counter and the cas
 * value are THREADS x REQUESTS x ITERATIONS, each thread's counter REQUESTS x ITERATIONS, the add() wins
 * one per key, the remember() computations one per key; and, once the threads ended (TSRM ran the
 * module's GSHUTDOWN) or vanished (one thread ends its request but not its TSRM state, as a thread
 * killed between requests would: its reader slot is found by its thread id and reaped), only the main
 * thread holds a reader slot.
 *
 *   threads [THREADS [REQUESTS [ITERATIONS]]]     (8 20 50); the table.so comes from the INI files
 *                                                 (tests/embed/run.sh writes them)
 *   EMBED_MODULE=/path/table.so                   instead, this program dlopen()s it and starts PHP
 *                                                 with it as a built-in module (see preload_module)
 *   EMBED_TIER=1                                  the Redis tier's workload instead (tier_worker_code, below),
 *                                                 on the namespace "tier" that the INI files tier
 * Output: one line per failure, then `embed-threads: N passed, N failed`. Exit status 1 on a failure.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "embed_request.h"

static int threads_n = 8, requests_n = 20, iterations_n = 50;
static int failures;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what)
{
	pthread_mutex_lock(&failures_lock);
	failures++;
	fprintf(stdout, "FAIL %s\n", what);
	fflush(stdout);
	pthread_mutex_unlock(&failures_lock);
}

static const char worker_code[] =
	"(function (int $t, int $r, int $n, int $iters) {\n"
	"  try {\n"
	"    for ($i = 0; $i < $iters; $i++) {\n"
	"      Shm\\Table::increment('counter');\n"
	"      Shm\\Table::increment(\"thread:$t\");\n"
	"      if (Shm\\Table::add(\"added:$r:$i\", $t)) { Shm\\Table::increment('adds'); }\n"
	"      do { $v = Shm\\Table::get('cas'); } while (!Shm\\Table::cas('cas', $v, $v + 1));\n"
	"      $mine = ['t' => $t, 'r' => $r, 'i' => $i, 'pad' => str_repeat(chr(97 + $t), 300)];\n"
	"      Shm\\Table::set(\"array:$t\", $mine);\n"
	"      if (Shm\\Table::get(\"array:$t\") !== $mine) { return \"array:$t came back different\"; }\n"
	"      $o = Shm\\Table::get('array:' . (($t + 1) %% $n));\n"
	"      if ($o !== null && $o['pad'] !== str_repeat(chr(97 + $o['t']), 300)) { return 'another thread\\'s array is torn'; }\n"
	"      if ($i %% 10 === 0) {\n"
	"        Shm\\Table::set('big', str_repeat(chr(65 + $t), 100000));\n"
	"        $b = Shm\\Table::get('big');\n"
	"        if (!is_string($b) || strlen($b) !== 100000 || $b !== str_repeat($b[0], 100000)) { return 'a 100 KB value read torn'; }\n"
	"      }\n"
	"      $got = Shm\\Table::remember(\"remember:$r:\" . ($i %% 10), function () { Shm\\Table::increment('computed'); return 1; });\n"
	"      if ($got !== 1) { return 'remember() returned ' . var_export($got, true); }\n"
	"    }\n"
	"    return 'ok';\n"
	"  } catch (\\Throwable $e) { return get_class($e) . ': ' . $e->getMessage(); }\n"
	"})(%d, %d, %d, %d)";

/* EMBED_TIER=1 (tests/embed/run.sh starts a redis-server and names it in table.redis, with the
 * namespace "tier" tiered): the same threads on the Redis tier, each with a connection of its own
 * (ZTS): shared and own counters by increment(), add()s with one winner each, an array of its own set
 * and read back identical (its own write, at once), another thread's read whole. */
static const char tier_worker_code[] =
	"(function (int $t, int $r, int $n, int $iters) {\n"
	"  try {\n"
	"    for ($i = 0; $i < $iters; $i++) {\n"
	"      Shm\\Table::increment('counter', 1, null, 'tier');\n"
	"      Shm\\Table::increment(\"thread:$t\", 1, null, 'tier');\n"
	"      if (Shm\\Table::add(\"added:$r:$i\", $t, null, 'tier')) { Shm\\Table::increment('adds', 1, null, 'tier'); }\n"
	"      $mine = ['t' => $t, 'r' => $r, 'i' => $i, 'pad' => str_repeat(chr(97 + $t), 200)];\n"
	"      if (!Shm\\Table::set(\"array:$t\", $mine, null, 'tier')) { return \"set(array:$t) returned false\"; }\n"
	"      if (Shm\\Table::get(\"array:$t\", 'tier') !== $mine) { return \"array:$t came back different\"; }\n"
	"      $o = Shm\\Table::get('array:' . (($t + 1) %% $n), 'tier');\n"
	"      if ($o !== null && $o['pad'] !== str_repeat(chr(97 + $o['t']), 200)) { return 'another thread\\'s array is torn'; }\n"
	"    }\n"
	"    return 'ok';\n"
	"  } catch (\\Throwable $e) { return get_class($e) . ': ' . $e->getMessage(); }\n"
	"})(%d, %d, %d, %d)";

/* EMBED_TIER=1: the totals, in Redis (read through the tier); no Redis call failed; the helper, which the
 * launcher forked for this threaded process, made the L1 fresh (waited for: a minute at most; with
 * TABLE_TEST_TIER_NO_HELPER=1, none was started); and the
 * connections of the threads that ended were closed (their GSHUTDOWN): Redis counts at most the main
 * thread's, the vanished thread's (it never ran its GSHUTDOWN), the helper's two and this check's. */
static const char tier_totals_code[] =
	"(function (int $n, int $r, int $iters) {\n"
	"  $want = ['counter' => $n * $r * $iters, 'adds' => $r * $iters];\n"
	"  for ($t = 0; $t < $n; $t++) { $want[\"thread:$t\"] = $r * $iters; }\n"
	"  $bad = [];\n"
	"  foreach ($want as $k => $v) { $g = Shm\\Table::get($k, 'tier'); if ($g !== $v) { $bad[] = \"$k: \" . var_export($g, true) . \" (want $v)\"; } }\n"
	"  $s = Shm\\Table::stats()['redis'];\n"
	"  if ($s['errors'] !== 0) { $bad[] = \"redis errors: {$s['errors']} (want 0)\"; }\n"
	"  if (getenv('TABLE_TEST_TIER_NO_HELPER') === '1') {\n"
	"    if ($s['helper_starts'] !== 0 || $s['fresh']) { $bad[] = \"TABLE_TEST_TIER_NO_HELPER=1, yet helper_starts {$s['helper_starts']}\"; }\n"
	"  } else {\n"
	"    for ($deadline = microtime(true) + 60; !$s['fresh'] && microtime(true) < $deadline; usleep(50000)) {\n"
	"      Shm\\Table::get('counter', 'tier'); $s = Shm\\Table::stats()['redis'];\n"
	"    }\n"
	"    if (!$s['fresh'] || $s['helper_pid'] <= 0) { $bad[] = \"the L1 never became fresh (helper_pid {$s['helper_pid']}, helper_starts {$s['helper_starts']}): no helper started\"; }\n"
	"  }\n"
	"  $url = ini_get('table.redis'); $clients = -1;\n"
	"  for ($deadline = microtime(true) + 60; microtime(true) < $deadline; usleep(50000)) {\n"
	"    $c = fsockopen(str_starts_with($url, 'unix://') ? $url : 'tcp://' . substr($url, strlen('tcp://')), -1, $errno, $errstr, 10);\n"
	"    if (!$c) { $bad[] = \"cannot reach $url: $errstr\"; break; }\n"
	"    fwrite($c, \"CLIENT LIST\\r\\n\"); $len = (int)substr(fgets($c), 1); $list = '';\n"
	"    while (strlen($list) < $len && !feof($c)) { $list .= fread($c, $len - strlen($list)); }\n"
	"    fclose($c); $clients = substr_count($list, \"\\n\");\n"
	"    if ($clients <= 5) { break; }\n"
	"  }\n"
	"  if ($clients > 5) { $bad[] = \"Redis has $clients clients (want at most 5): the ended threads' connections stayed open\"; }\n"
	"  return $bad ? implode('; ', $bad) : sprintf('ok: tier: %%d threads x %%d requests x %%d: counter %%d, adds %%d, %%d Redis clients at the end', $n, $r, $iters, $want['counter'], $want['adds'], $clients);\n"
	"})(%d, %d, %d)";

/* The totals, the main thread's last request: every counter exact, and only the main thread holds a
 * reader slot. */
static const char totals_code[] =
	"(function (int $n, int $r, int $iters) {\n"
	"  $want = ['counter' => $n * $r * $iters, 'cas' => $n * $r * $iters, 'adds' => $r * $iters, 'computed' => $r * 10];\n"
	"  for ($t = 0; $t < $n; $t++) { $want[\"thread:$t\"] = $r * $iters; }\n"
	"  $bad = [];\n"
	"  foreach ($want as $k => $v) { $g = Shm\\Table::get($k); if ($g !== $v) { $bad[] = \"$k: \" . var_export($g, true) . \" (want $v)\"; } }\n"
	"  $s = Shm\\Table::stats();\n"
	"  if ($s['slots_used'] !== 1) { $bad[] = \"slots_used: {$s['slots_used']} (want 1, the main thread's)\"; }\n"
	"  if ($s['processes'] !== 1) { $bad[] = \"processes: {$s['processes']} (want 1)\"; }\n"
	"  return $bad ? implode('; ', $bad) : sprintf('ok: %%d threads x %%d requests x %%d: counter %%d, cas %%d, adds %%d, computed %%d', $n, $r, $iters, $want['counter'], $want['cas'], $want['adds'], $want['computed']);\n"
	"})(%d, %d, %d)";

static int tier_mode;

typedef struct worker {
	pthread_t thread;
	int index;
	int vanish;   /* end the last request, but not the thread's TSRM state (no ts_free_thread) */
} worker_t;

static void *worker(void *arg)
{
	worker_t *w = arg;
	char code[sizeof(worker_code) + sizeof(tier_worker_code) + 64], out[512], what[700];
	int r;

	(void)ts_resource(0);
	for (r = 0; r < requests_n; r++) {
		snprintf(code, sizeof(code), tier_mode ? tier_worker_code : worker_code, w->index, r, threads_n, iterations_n);
		if (!embed_request(code, out, sizeof(out))) {
			snprintf(what, sizeof(what), "thread %d, request %d: %s", w->index, r, out);
			fail(what);
			break;
		}
	}
	if (!w->vanish) {
		ts_free_thread();   /* the module's GSHUTDOWN: the thread's reader slot goes back */
	}
	return NULL;
}

/*
 * EMBED_MODULE: a table.so built with ThreadSanitizer (scripts/test.sh's embed-tsan layer) cannot be loaded
 * by `extension=`: PHP dlopen()s extensions with RTLD_DEEPBIND, which the sanitizer runtime refuses (the
 * library's own libc would come before the runtime's interceptors: its mutexes, its malloc and its
 * memcpy would go unseen). So this program dlopen()s it without, and hands its module entry to
 * php_module_startup() as the one additional module an embedding SAPI may start with: the same
 * MINIT/GINIT/RINIT..., the module being only "static" rather than "dl()ed" (no handle to close).
 */
static zend_module_entry *preloaded_module;

static int preload_startup(sapi_module_struct *sapi)
{
	return php_module_startup(sapi, preloaded_module);
}

static int preload_module(const char *path)
{
	zend_module_entry *(*get_module)(void);
	void *handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);

	if (handle == NULL) {
		fprintf(stderr, "EMBED_MODULE: %s\n", dlerror());
		return 0;
	}
	*(void **)&get_module = dlsym(handle, "get_module");
	if (get_module == NULL) {
		fprintf(stderr, "EMBED_MODULE: %s has no get_module()\n", path);
		return 0;
	}
	preloaded_module = get_module();
	php_embed_module.startup = preload_startup;
	return 1;
}

int main(int argc, char **argv)
{
	worker_t *w;
	char code[4096], out[1024], what[1200];
	int i, passed = 0;

	if (argc > 1) threads_n = atoi(argv[1]);
	if (argc > 2) requests_n = atoi(argv[2]);
	if (argc > 3) iterations_n = atoi(argv[3]);
	if (threads_n < 2 || requests_n < 1 || iterations_n < 10) {
		fprintf(stderr, "usage: %s [THREADS>=2 [REQUESTS>=1 [ITERATIONS>=10]]]\n", argv[0]);
		return 2;
	}
	tier_mode = getenv("EMBED_TIER") != NULL && strcmp(getenv("EMBED_TIER"), "1") == 0;
	if (getenv("EMBED_MODULE") != NULL && *getenv("EMBED_MODULE") != '\0' && !preload_module(getenv("EMBED_MODULE"))) {
		return 1;
	}
	if (php_embed_init(argc, argv) == FAILURE) {
		fprintf(stderr, "php_embed_init() failed\n");
		return 1;
	}
	/* php_embed_init left the main thread in a request: set up in it, then end it. */
	if (!embed_eval_string("(function () { if (!class_exists('Shm\\\\Table')) { return 'no Shm\\\\Table: load table.so'; }"
	                 " Shm\\Table::clearAll(); Shm\\Table::set('cas', 0);"
	                 " if (getenv('EMBED_TIER') === '1' && !Shm\\Table::clear('tier')) { return 'clear(tier) failed'; }"
	                 " return 'ok'; })()", out, sizeof(out))
	    || strcmp(out, "ok") != 0) {
		fprintf(stdout, "FAIL setup: %s\n", out);
		php_embed_shutdown();
		return 1;
	}
	php_request_shutdown(NULL);

	w = calloc((size_t)threads_n, sizeof(*w));
	for (i = 0; i < threads_n; i++) {
		w[i].index = i;
		w[i].vanish = i == threads_n - 1;
		if (pthread_create(&w[i].thread, NULL, worker, &w[i]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	}
	for (i = 0; i < threads_n; i++) {
		pthread_join(w[i].thread, NULL);
	}
	passed += failures == 0;

	snprintf(code, sizeof(code), tier_mode ? tier_totals_code : totals_code, threads_n, requests_n, iterations_n);
	if (!embed_request_start(out, sizeof(out))) {
		fail("the main thread's last request did not start");
	} else if (embed_eval_string(code, out, sizeof(out)) && strncmp(out, "ok", 2) == 0) {
		printf("%s\n", out);
		passed++;
	} else {
		snprintf(what, sizeof(what), "totals: %s", out);
		fail(what);
	}
	php_embed_shutdown();   /* ends the request, then the module (MSHUTDOWN, every thread's GSHUTDOWN) */
	free(w);
	printf("embed-threads: %d passed, %d failed\n", passed, failures);
	return failures ? 1 : 0;
}
