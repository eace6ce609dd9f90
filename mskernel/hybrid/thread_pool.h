/* The thread pool behind hybrid `parallel` loops (C; compiled once, into the dispatcher, dispatch.c).
 *
 * A generated kernel hands a parallel loop to tpool_run(n, body, ctx): the n iterations are cut into
 * chunks, and the calling thread takes chunks from a shared counter together with whichever workers
 * wake up in time. When the counter is exhausted the caller waits only for chunks already claimed and
 * in progress, never for a worker that has not started: a worker that wakes late sees that the job is
 * over (each job has a generation number, packed with the chunk counter in one 64-bit word, and a chunk
 * is claimed by compare-and-swap on that word) and goes back to sleep. So on a busy machine, where a
 * woken worker may not run for milliseconds, a parallel loop costs what one thread costs plus a wake-up
 * call; on an idle one it uses every core. (An OpenMP region ends at a barrier that waits for every
 * thread of its team, so there one descheduled worker stalls the caller.)
 *
 * Waiting policy: passive. Workers sleep on a futex (a condition variable where there is no futex) as
 * soon as they find no work; they never spin, so they take no CPU from other processes between loops.
 * On Linux they run under SCHED_BATCH: a woken worker does not preempt the thread running on its core,
 * so on an idle core it starts at once, and on a busy machine it neither takes the caller's core nor
 * makes the caller's wake-up call wait (measured: the call then costs 1-2 us, not 10-300 us).
 * The caller, once the chunks are all claimed, polls the count of finished chunks for about two chunk
 * times (at least 50 us: waking a sleeping thread costs 10-50 us on a VM) -- the last chunks of running
 * workers end about when its own do -- then sleeps until the last one ends.
 *
 * Threads: tpool_set_threads(n) sets the team size, the caller included (n - 1 workers, started on the
 * first loop that needs them, stopped and joined when n shrinks). Python sets it from set_context /
 * the environment (mskernel/hybrid/threads.py). One loop runs on the pool at a time: a second thread
 * that calls a kernel meanwhile runs its loop alone. In a child made by fork() the pool starts empty.
 *
 * Statistics (tpool_stats) count loops run on the pool, loops run alone, chunks, the chunks workers ran
 * and the loops where some worker took part: what ms.benchmark reports as the threads that ran.
 */
#ifndef MSKH_THREAD_POOL_H
#define MSKH_THREAD_POOL_H

#include <pthread.h>
#include <sched.h> /* (SCHED_BATCH needs _GNU_SOURCE, which Python.h defines) */
#include <signal.h>
#include <stdint.h>
#include <time.h>
#if defined(__linux__) && !defined(MSKH_TPOOL_NO_FUTEX)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#define MSKH_TPOOL_FUTEX 1
#else
#define MSKH_TPOOL_FUTEX 0
#endif

typedef void (*tpool_body)(void* ctx, int64_t lo, int64_t hi);

#define TPOOL_MAX_THREADS 256
#define TPOOL_CHUNKS_PER_THREAD 16 /* chunks per thread of a loop: the caller's wait at the end is <= 1 chunk */
#define TPOOL_CHUNK_ALIGN 16       /* iterations: chunk boundaries on whole vectors of the common cases */
#define TPOOL_SPIN_CHUNKS 2        /* the caller polls for the workers' last chunks this many chunk times, */
#define TPOOL_SPIN_MIN_NS 50000    /* at least this long (a sleeping thread's wake-up costs 10-50 us on a VM) */
#define TPOOL_SPIN_MAX_NS 200000   /* and at most this long, then sleeps */
#define TPOOL_CLOSED 0xffffffffu   /* the chunk counter while the caller writes a new job: nothing to claim */

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LOADR(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define STORER(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

typedef struct {
  pthread_mutex_t run_lock;    /* held by the thread whose loop is on the pool */
  pthread_mutex_t config_lock; /* starting and stopping workers */
  int threads;                 /* the team size, caller included */
  int workers;                 /* workers running (threads - 1 once started) */
  pthread_t tid[TPOOL_MAX_THREADS];
  uint32_t born[TPOOL_MAX_THREADS]; /* the wake count when each worker was started: its first `seen` */
  /* the current job; written by the caller before it publishes `state`, read by workers (relaxed) */
  tpool_body body;
  void* ctx;
  int64_t n, chunk, nchunks;
  /* (generation << 32) | next chunk; one cache line each for the words every thread writes */
  __attribute__((aligned(64))) uint64_t state;
  __attribute__((aligned(64))) uint32_t finished; /* chunks done in this job (futex: the caller sleeps here) */
  uint32_t caller_asleep;
  __attribute__((aligned(64))) uint32_t wake;     /* bumped per job and to stop workers (futex: workers sleep here) */
  uint32_t sleepers;                              /* workers asleep (or about to be) on `wake` */
  uint32_t stop_from;                             /* workers with an index >= this exit */
  /* test hooks (tests/hybrid/test_thread_pool.py): workers stop at a gate before looking for work (as if
   * never scheduled), or the caller takes no chunk (so the workers run them all) */
  uint32_t hold, caller_idle;
  pthread_mutex_t gate_lock;
  pthread_cond_t gate;
  /* statistics */
  uint64_t jobs, alone, chunks, worker_chunks, joined;
} tpool_t;

static tpool_t tpool = {
    .run_lock = PTHREAD_MUTEX_INITIALIZER, .config_lock = PTHREAD_MUTEX_INITIALIZER,
    .gate_lock = PTHREAD_MUTEX_INITIALIZER, .gate = PTHREAD_COND_INITIALIZER, .threads = 1,
};

/* ---- sleeping and waking on a 32-bit word */
#if MSKH_TPOOL_FUTEX
static void tpool_wait(uint32_t* word, uint32_t value) {
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}
static void tpool_wake(uint32_t* word, int count) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}
#else
static pthread_mutex_t tpool_wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tpool_wait_cond = PTHREAD_COND_INITIALIZER;
static void tpool_wait(uint32_t* word, uint32_t value) {
  pthread_mutex_lock(&tpool_wait_lock);
  while (__atomic_load_n(word, __ATOMIC_SEQ_CST) == value) pthread_cond_wait(&tpool_wait_cond, &tpool_wait_lock);
  pthread_mutex_unlock(&tpool_wait_lock);
}
static void tpool_wake(uint32_t* word, int count) {
  (void)word; (void)count;
  pthread_mutex_lock(&tpool_wait_lock);
  pthread_cond_broadcast(&tpool_wait_cond);
  pthread_mutex_unlock(&tpool_wait_lock);
}
#endif

static int64_t tpool_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void tpool_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* ---- running chunks */
static void tpool_chunk(int64_t i) {
  int64_t lo = i * LOADR(&tpool.chunk), n = LOADR(&tpool.n);
  int64_t hi = lo + LOADR(&tpool.chunk) < n ? lo + LOADR(&tpool.chunk) : n;
  tpool_body body = LOADR(&tpool.body);
  body(LOADR(&tpool.ctx), lo, hi);
}

static void tpool_finish_chunk(void) {
  uint32_t done = __atomic_add_fetch(&tpool.finished, 1, __ATOMIC_SEQ_CST);
  if (done == (uint32_t)LOADR(&tpool.nchunks) && __atomic_load_n(&tpool.caller_asleep, __ATOMIC_SEQ_CST))
    tpool_wake(&tpool.finished, 1);
}

/* A worker's part of a job: claim chunks of the job it sees, by compare-and-swap on the whole state
 * word, so a worker that read the fields of an old job can never claim a chunk of a newer one. */
static void tpool_work(void) {
  uint64_t s = LOAD(&tpool.state);
  for (;;) {
    uint64_t gen = s >> 32, next = s & 0xffffffffu;
    if (next >= (uint64_t)LOADR(&tpool.nchunks)) return;
    if (!__atomic_compare_exchange_n(&tpool.state, &s, s + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      if ((s >> 32) != gen) return; /* a newer job: start again from the wake word */
      continue;
    }
    tpool_chunk((int64_t)next);
    tpool_finish_chunk();
    s = LOAD(&tpool.state);
    if ((s >> 32) != gen) return;
  }
}

static void* tpool_worker(void* arg) {
  uint32_t index = (uint32_t)(uintptr_t)arg;
#ifdef SCHED_BATCH
  struct sched_param none = {0};
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &none); /* no wake-up preemption (see the top) */
#endif
  uint32_t seen = LOAD(&tpool.born[index]); /* so a job posted while this thread starts is not missed */
  for (;;) {
    if (index >= LOAD(&tpool.stop_from)) return NULL;
    __atomic_add_fetch(&tpool.sleepers, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&tpool.wake, __ATOMIC_SEQ_CST) == seen) tpool_wait(&tpool.wake, seen);
    __atomic_sub_fetch(&tpool.sleepers, 1, __ATOMIC_SEQ_CST);
    seen = LOAD(&tpool.wake);
    if (index >= LOAD(&tpool.stop_from)) return NULL;
    if (LOAD(&tpool.hold)) {
      pthread_mutex_lock(&tpool.gate_lock);
      while (LOAD(&tpool.hold) && index < LOAD(&tpool.stop_from)) pthread_cond_wait(&tpool.gate, &tpool.gate_lock);
      pthread_mutex_unlock(&tpool.gate_lock);
      if (index >= LOAD(&tpool.stop_from)) return NULL;
    }
    tpool_work();
  }
}

/* ---- the team: started lazily, resized under run_lock (no job in flight) */
static void tpool_stop_workers(int keep) {
  if (tpool.workers <= keep) return;
  STORE(&tpool.stop_from, (uint32_t)keep);
  __atomic_add_fetch(&tpool.wake, 1, __ATOMIC_SEQ_CST);
  tpool_wake(&tpool.wake, 1 << 30);
  pthread_mutex_lock(&tpool.gate_lock); /* (workers held at the test gate leave too) */
  pthread_cond_broadcast(&tpool.gate);
  pthread_mutex_unlock(&tpool.gate_lock);
  for (int k = keep; k < tpool.workers; ++k) pthread_join(tpool.tid[k], NULL);
  tpool.workers = keep;
  STORE(&tpool.stop_from, (uint32_t)TPOOL_MAX_THREADS);
}

static void tpool_start_workers(int want) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old); /* workers take no signals: they stay with the threads that expect them */
  while (tpool.workers < want) {
    STORE(&tpool.born[tpool.workers], LOAD(&tpool.wake));
    if (pthread_create(&tpool.tid[tpool.workers], NULL, tpool_worker, (void*)(uintptr_t)tpool.workers) != 0)
      break; /* fewer workers: the loops still run (the caller takes the chunks) */
    ++tpool.workers;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void tpool_after_fork_child(void) {
  /* only the forking thread exists in the child: no workers, no loop in flight */
  pthread_mutex_init(&tpool.run_lock, NULL);
  pthread_mutex_init(&tpool.config_lock, NULL);
  pthread_mutex_init(&tpool.gate_lock, NULL);
  pthread_cond_init(&tpool.gate, NULL);
  tpool.workers = 0;
  tpool.sleepers = 0;
  tpool.caller_asleep = 0;
}

static void tpool_init(void) {
  tpool.stop_from = TPOOL_MAX_THREADS;
  pthread_atfork(NULL, NULL, tpool_after_fork_child);
}

/* Set the team size (1 = every loop on the calling thread); returns the size set. */
static int tpool_set_threads(int n) {
  if (n < 1) n = 1;
  if (n > TPOOL_MAX_THREADS) n = TPOOL_MAX_THREADS;
  pthread_mutex_lock(&tpool.run_lock);
  pthread_mutex_lock(&tpool.config_lock);
  __atomic_store_n(&tpool.threads, n, __ATOMIC_RELAXED);
  tpool_stop_workers(n - 1);
  pthread_mutex_unlock(&tpool.config_lock);
  pthread_mutex_unlock(&tpool.run_lock);
  return n;
}

/* Run body(ctx, lo, hi) over [0, n) in chunks on the team; returns when every iteration has run. */
static void tpool_run(int64_t n, tpool_body body, void* ctx) {
  int threads = LOADR(&tpool.threads);
  if (threads <= 1 || n < 2 || pthread_mutex_trylock(&tpool.run_lock) != 0) {
    if (threads > 1 && n >= 2) __atomic_add_fetch(&tpool.alone, 1, __ATOMIC_RELAXED);
    body(ctx, 0, n);
    return;
  }
  if (tpool.workers < tpool.threads - 1) {
    pthread_mutex_lock(&tpool.config_lock);
    tpool_start_workers(tpool.threads - 1);
    pthread_mutex_unlock(&tpool.config_lock);
  }
  int64_t want = (int64_t)(tpool.workers + 1) * TPOOL_CHUNKS_PER_THREAD;
  int64_t chunk = (n + want - 1) / want;
  if (chunk > TPOOL_CHUNK_ALIGN) chunk = (chunk + TPOOL_CHUNK_ALIGN - 1) / TPOOL_CHUNK_ALIGN * TPOOL_CHUNK_ALIGN;
  int64_t nchunks = (n + chunk - 1) / chunk;
  /* close the old job's counter under a new generation first: a worker that read the old state cannot
   * claim anything from here on, whatever job fields it reads next */
  uint64_t gen = (LOADR(&tpool.state) >> 32) + 1;
  __atomic_store_n(&tpool.state, (gen << 32) | TPOOL_CLOSED, __ATOMIC_SEQ_CST);
  STORER(&tpool.body, body);
  STORER(&tpool.ctx, ctx);
  STORER(&tpool.n, n);
  STORER(&tpool.chunk, chunk);
  STORER(&tpool.nchunks, nchunks);
  __atomic_store_n(&tpool.finished, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&tpool.state, gen << 32, __ATOMIC_SEQ_CST); /* publishes the fields above */
  __atomic_add_fetch(&tpool.wake, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&tpool.sleepers, __ATOMIC_SEQ_CST)) tpool_wake(&tpool.wake, tpool.workers);
  uint32_t mine = 0;
  int64_t start = tpool_now();
  if (!(LOAD(&tpool.caller_idle) && tpool.workers && !LOAD(&tpool.hold))) {
    for (;;) { /* the caller alone changes the generation, so a plain increment claims a chunk */
      uint64_t next = __atomic_fetch_add(&tpool.state, 1, __ATOMIC_ACQ_REL) & 0xffffffffu;
      if (next >= (uint64_t)nchunks) break;
      tpool_chunk((int64_t)next);
      ++mine;
    }
  }
  if (mine) __atomic_add_fetch(&tpool.finished, mine, __ATOMIC_SEQ_CST);
  uint32_t done = __atomic_load_n(&tpool.finished, __ATOMIC_SEQ_CST);
  if (done != (uint32_t)nchunks) { /* workers' chunks still running: they end within about a chunk's time */
    int64_t now = tpool_now();
    int64_t spin = mine ? (now - start) / mine * TPOOL_SPIN_CHUNKS : 0;
    spin = spin < TPOOL_SPIN_MIN_NS ? TPOOL_SPIN_MIN_NS : spin > TPOOL_SPIN_MAX_NS ? TPOOL_SPIN_MAX_NS : spin;
    int64_t until = now + spin;
    for (int k = 1; done != (uint32_t)nchunks; ++k) {
      tpool_pause();
      done = __atomic_load_n(&tpool.finished, __ATOMIC_SEQ_CST);
      if ((k & 63) == 0 && tpool_now() > until) break;
    }
  }
  while (done != (uint32_t)nchunks) { /* a worker was descheduled inside its chunk: sleep until it ends */
    __atomic_store_n(&tpool.caller_asleep, 1, __ATOMIC_SEQ_CST);
    done = __atomic_load_n(&tpool.finished, __ATOMIC_SEQ_CST);
    if (done != (uint32_t)nchunks) tpool_wait(&tpool.finished, done);
    done = __atomic_load_n(&tpool.finished, __ATOMIC_SEQ_CST);
  }
  __atomic_store_n(&tpool.caller_asleep, 0, __ATOMIC_RELAXED);
  __atomic_add_fetch(&tpool.jobs, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&tpool.chunks, (uint64_t)nchunks, __ATOMIC_RELAXED);
  __atomic_add_fetch(&tpool.worker_chunks, (uint64_t)nchunks - mine, __ATOMIC_RELAXED);
  if (mine < (uint32_t)nchunks) __atomic_add_fetch(&tpool.joined, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&tpool.run_lock);
}

#undef LOAD
#undef LOADR
#undef STORE
#undef STORER
#endif
