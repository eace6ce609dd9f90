// mskernel.hybrid checked build (mskernel.kernelcheck): a shadow per element, tasks per parallel iteration.
//
// Included only by a kernel generated in checked mode (mskernel/hybrid/checked_codegen.py). The kernel runs
// serially; every iteration of a `parallel` or `vectorize` loop is a *task*, and every tracked tensor keeps,
// per element, the task (and access site) that last wrote it and up to two tasks that read it since. Two
// accesses race when they come from different iterations of one execution of a parallel loop and one of
// them writes: the same rule a device applies, checked on the order this serial run happens to take.
//
// Tasks are numbered in blocks: entering a parallel loop with T iterations takes the next T numbers, so a
// task is found from its number by one search over the loop executions (`Run`s). Task 0 is the kernel's
// serial code. A shadow entry packs (site + 1) << 40 | (task + 1); 0 means "nothing yet".
#pragma once
#include "hybrid_runtime.h"

namespace mskh {

// Finding kinds in the report (mskernel/kernelcheck/hybrid.py reads them).
enum : int64_t { kRaceWrite = 1, kRaceReadThenWrite = 2, kRaceWriteThenRead = 3, kUninitRead = 4 };
constexpr int kRow = 16;       // report row: kind, site, other site, loop, iter a, iter b, count, rank, idx[8]
constexpr int kMaxIdx = 8;
constexpr uint64_t kTaskBits = (uint64_t(1) << 40) - 1;

// The shadow of one tensor: last writer per element, and (when the tensor is both read and written inside
// parallel loops) the last two readers since that write. init: reading an element no one wrote is a finding.
struct Shadow {
  uint64_t* w = nullptr;
  uint64_t* r1 = nullptr;
  uint64_t* r2 = nullptr;
  int64_t* written = nullptr;  // how many elements have been written (an output: all of them, or some never)
  bool init = false;
};

struct Run {           // one execution of a parallel loop: tasks base .. base + count - 1
  int64_t base, count, parent, depth, loop, start, step;
};

struct Checker {
  void* const* shadows;  // per array slot: w, r1, r2, written (null when untracked)
  const int64_t* flags;  // per array slot: 1 = reading before a write is a finding
  int64_t* report;       // report[0] = rows used, rows of kRow from report[1]
  int64_t cap;
  Run* runs = nullptr;
  int64_t nruns = 0, capruns = 0, next = 1, last = 0;

  Checker(void* const* s, const int64_t* f, int64_t* r, int64_t c) : shadows(s), flags(f), report(r), cap(c) {
    report[0] = 0;
  }
  ~Checker() { __builtin_free(runs); }
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  Shadow tensor(int slot) const {
    Shadow s;
    s.w = static_cast<uint64_t*>(shadows[4 * slot]);
    s.r1 = static_cast<uint64_t*>(shadows[4 * slot + 1]);
    s.r2 = static_cast<uint64_t*>(shadows[4 * slot + 2]);
    s.written = static_cast<int64_t*>(shadows[4 * slot + 3]);
    s.init = flags[slot] != 0;
    return s;
  }

  // A parallel loop starts `trip` iterations as children of task `parent`: the first task number.
  int64_t begin_loop(int64_t loop, int64_t parent, int64_t trip, int64_t start, int64_t step) {
    int64_t base = next;
    if (trip <= 0) return base;
    if (nruns == capruns) {
      capruns = capruns ? 2 * capruns : 16;
      runs = static_cast<Run*>(__builtin_realloc(runs, static_cast<__SIZE_TYPE__>(capruns) * sizeof(Run)));
    }
    runs[nruns++] = Run{base, trip, parent, depth(parent) + 1, loop, start, step};
    next += trip;
    return base;
  }

  const Run* run_of(int64_t t) {
    if (t == 0) return nullptr;
    if (last < nruns && runs[last].base <= t && t < runs[last].base + runs[last].count) return &runs[last];
    int64_t lo = 0, hi = nruns - 1;
    while (lo < hi) {  // the last run whose base <= t (runs are in increasing base order)
      int64_t mid = (lo + hi + 1) / 2;
      if (runs[mid].base <= t) lo = mid; else hi = mid - 1;
    }
    last = lo;
    return &runs[lo];
  }
  int64_t depth(int64_t t) { const Run* r = run_of(t); return r ? r->depth : 0; }
  int64_t parent(int64_t t) { const Run* r = run_of(t); return r ? r->parent : 0; }

  // Do tasks a (earlier) and b (now) belong to different iterations of one execution of a parallel loop?
  // Then that loop's site and the two iterations' loop-variable values are stored in out[0..2].
  bool concurrent(int64_t a, int64_t b, int64_t* out) {
    if (a == b) return false;
    int64_t da = depth(a), db = depth(b);
    while (da > db) { a = parent(a); --da; }
    while (db > da) { b = parent(b); --db; }
    if (a == b) return false;  // one is an ancestor of the other: ordered
    while (parent(a) != parent(b)) { a = parent(a); b = parent(b); }
    const Run* ra = run_of(a);
    const Run* rb = run_of(b);
    if (ra != rb) return false;  // two executions of loops, one after the other
    out[0] = ra->loop;
    out[1] = ra->start + (a - ra->base) * ra->step;
    out[2] = ra->start + (b - ra->base) * ra->step;
    return true;
  }

  void note(int64_t kind, int64_t site, int64_t other, const int64_t* loop, int rank, const int64_t* idx) {
    int64_t n = report[0];
    for (int64_t k = 0; k < n; ++k) {
      int64_t* row = report + 1 + k * kRow;
      if (row[0] == kind && row[1] == site) { ++row[6]; return; }
    }
    if (n >= cap) return;
    int64_t* row = report + 1 + n * kRow;
    row[0] = kind;
    row[1] = site;
    row[2] = other;
    row[3] = loop ? loop[0] : -1;
    row[4] = loop ? loop[1] : 0;
    row[5] = loop ? loop[2] : 0;
    row[6] = 1;
    row[7] = rank;
    for (int m = 0; m < kMaxIdx; ++m) row[8 + m] = m < rank ? idx[m] : 0;
    report[0] = n + 1;
  }

  static uint64_t pack(int64_t site, int64_t task) { return (uint64_t(site + 1) << 40) | uint64_t(task + 1); }
  static int64_t task_of(uint64_t e) { return int64_t(e & kTaskBits) - 1; }
  static int64_t site_of(uint64_t e) { return int64_t(e >> 40) - 1; }

  void read(Shadow& s, int64_t off, int64_t site, int64_t task, int rank, const int64_t* idx) {
    uint64_t w = s.w[off];
    int64_t loop[3];
    if (w == 0) {
      if (s.init) note(kUninitRead, site, -1, nullptr, rank, idx);
    } else if (concurrent(task_of(w), task, loop)) {
      note(kRaceWriteThenRead, site, site_of(w), loop, rank, idx);
    }
    if (!s.r1) return;
    uint64_t r1 = s.r1[off];
    int64_t t1 = r1 ? task_of(r1) : -1;
    if (t1 == task) return;
    if (r1 == 0 || !concurrent(t1, task, loop)) {  // the earlier reader is ordered before this one
      s.r1[off] = pack(site, task);
      s.r2[off] = 0;
    } else {
      s.r2[off] = pack(site, task);
    }
  }

  void write(Shadow& s, int64_t off, int64_t site, int64_t task, int rank, const int64_t* idx) {
    int64_t loop[3];
    uint64_t w = s.w[off];
    if (w == 0) {
      if (s.written) ++*s.written;
    } else if (concurrent(task_of(w), task, loop)) {
      note(kRaceWrite, site, site_of(w), loop, rank, idx);
    }
    if (s.r1) {
      const uint64_t readers[2] = {s.r1[off], s.r2[off]};
      for (uint64_t r : readers) {
        if (r != 0 && concurrent(task_of(r), task, loop)) {
          note(kRaceReadThenWrite, site, site_of(r), loop, rank, idx);
          break;
        }
      }
      s.r1[off] = 0;
      s.r2[off] = 0;
    }
    s.w[off] = pack(site, task);
  }
};

// The element offset of a tracked access, recorded as a read or a write. kBounds: check the indices first (out
// of bounds stops the kernel as in debug mode); false where a bounds proof covers the access.
template <int R, bool kBounds, bool kWrite, class... I>
inline int64_t tracked(Debug& d, Checker& c, Shadow& s, int64_t site, int64_t task, const int64_t* shape,
                       const int64_t* stride, I... index) {
  const int64_t idx[R > 0 ? R : 1] = {static_cast<int64_t>(index)...};
  int64_t off = 0;
  for (int k = 0; k < R; ++k) {
    if (kBounds && __builtin_expect(static_cast<uint64_t>(idx[k]) >= static_cast<uint64_t>(shape[k]), 0))
      return out_of_bounds(d, site, R, idx, shape);
    off += idx[k] * stride[k];
  }
  if (kWrite) c.write(s, off, site, task, R, idx);
  else c.read(s, off, site, task, R, idx);
  return off;
}
template <int R, bool kBounds, class... I>
inline int64_t load(Debug& d, Checker& c, Shadow& s, int64_t site, int64_t task, const int64_t* shape,
                    const int64_t* stride, I... index) {
  return tracked<R, kBounds, false>(d, c, s, site, task, shape, stride, index...);
}
template <int R, bool kBounds, class... I>
inline int64_t store(Debug& d, Checker& c, Shadow& s, int64_t site, int64_t task, const int64_t* shape,
                     const int64_t* stride, I... index) {
  return tracked<R, kBounds, true>(d, c, s, site, task, shape, stride, index...);
}

// A temporary's shadow (allocate(...) in checked mode), and its memory poisoned: NaN for floats, 0xA5 bytes
// for integers, true for bools -- never the zeros MindSpore's emulation gives.
struct TempShadow {
  Shadow sh;
  TempShadow(int64_t n, bool reads) {
    auto size = static_cast<__SIZE_TYPE__>(n > 0 ? n : 1);
    sh.w = static_cast<uint64_t*>(__builtin_calloc(size, sizeof(uint64_t)));
    if (reads) {
      sh.r1 = static_cast<uint64_t*>(__builtin_calloc(size, sizeof(uint64_t)));
      sh.r2 = static_cast<uint64_t*>(__builtin_calloc(size, sizeof(uint64_t)));
    }
    sh.init = true;
  }
  ~TempShadow() {
    __builtin_free(sh.w);
    __builtin_free(sh.r1);
    __builtin_free(sh.r2);
  }
  TempShadow(const TempShadow&) = delete;
  TempShadow& operator=(const TempShadow&) = delete;
};

template <class T>
inline void poison(T* p, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    if constexpr (is_float<T> || sizeof(T) == 2 && T(0.5) != T(0)) p[k] = T(__builtin_nanf(""));
    else if constexpr (sizeof(T) == 1 && T(2) == T(1)) p[k] = true;
    else __builtin_memset(p + k, 0xA5, sizeof(T));
  }
}

}  // namespace mskh
