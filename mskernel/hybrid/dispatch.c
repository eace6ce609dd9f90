/* The per-call path of compiled hybrid kernels: one small CPython extension, built once.
 *
 * call(contig, strided, spec, arrays, attrs) validates the numpy arrays against the compiled
 * signature (dtype, rank, byte order, alignment, writability), gathers their data pointers,
 * extents and element strides into stack buffers, converts the scalar attributes, and calls
 * the kernel through its function pointer -- the contiguous entry when every array is
 * C-contiguous, the strided one otherwise. No array is copied. The GIL is released around
 * large calls.
 *
 * spec (bytes): n_arrays, n_attrs, then per array (type_num, ndim, role) with role 0 = read,
 * 1 = written output, 2 = written input (in place); then one kind per attribute ('i', 'f', 'b').
 *
 * Returns None on success, else a tuple (code, ...):
 *   (-1,) signature mismatch: the caller converts the inputs or picks another compiled kernel
 *   (-2, k) array k must be writable   (-3, k) array k is unaligned or has odd strides
 *   (-4, k) in-place array k overlaps another input
 *   (1, site, rank, idx..., extents...) out-of-bounds access
 *   (3, site, rank, extents..., extents...) a buffer too large to allocate
 *   (4, site, rank, extents..., extents...) a buffer with a negative extent
 *   (2,) zero loop step
 *
 * empty(shape, dtype) allocates an output the kernel writes in full (see coverage.py): like
 * numpy.empty, but 64-byte aligned from MSKH_ALIGN_MIN bytes on (numpy aligns to 16: every other
 * 32-byte vector store would split a cache line), given the inputs placed 2 KB away from them modulo
 * 4096 from MSKH_SPREAD_MIN bytes on (see away_from), and an output of at least MSKH_POOL_MIN bytes
 * comes from a small cache of the blocks that earlier such outputs freed. Fresh memory of that size is a new mapping (glibc maps
 * every block above 32 MB), and the kernel's first write to each page then waits for the OS to
 * fault it in and zero it -- an extra write pass over the output that costs a third of an
 * elementwise kernel's bandwidth. A cached block is already mapped. The cache holds at most
 * MSKH_POOL_SLOTS blocks and MSKH_POOL_CAP bytes (the oldest go first); release() unmaps them.
 *
 * The thread pool of `parallel` loops (thread_pool.h) lives here too, one per process: runtime() is the
 * address of its entry, which the loader stores in every kernel library it opens (mskh_parallel_runtime,
 * hybrid_runtime.h); threads(n) sets its size, pool_stats() reads its counters.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#if NPY_ABI_VERSION < 0x02000000 /* numpy < 2 has no PyDataType_ELSIZE */
#define PyDataType_ELSIZE(d) ((d)->elsize)
#endif
#include <stdint.h>
#include <stdlib.h>
#include "thread_pool.h"
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define MSKH_POOL 1
#else
#define MSKH_POOL 0
#endif

typedef int (*mskh_kernel)(void* const*, const int64_t*, const int64_t*, const void*, int64_t*);

#define MSKH_MAX_ARRAYS 64
#define MSKH_MAX_DIMS 512
#define MSKH_MAX_ATTRS 64
#define MSKH_ERR_LEN (2 + 2 * 64)
#define MSKH_GIL_THRESHOLD 16384

static PyObject* fail(long code, long index) {
  if (index < 0) return Py_BuildValue("(l)", code);
  return Py_BuildValue("(ll)", code, index);
}

static void byte_bounds(PyArrayObject* a, char** lo, char** hi) {
  char* base = PyArray_BYTES(a);
  npy_intp low = 0, high = PyArray_ITEMSIZE(a);
  int nd = PyArray_NDIM(a);
  for (int d = 0; d < nd; ++d) {
    npy_intp n = PyArray_DIM(a, d), s = PyArray_STRIDE(a, d);
    if (n == 0) { *lo = *hi = base; return; }
    if (s > 0) high += (n - 1) * s; else low += (n - 1) * s;
  }
  *lo = base + low;
  *hi = base + high;
}

static PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 5 || !PyBytes_Check(args[2]) || !PyTuple_Check(args[3]) || !PyTuple_Check(args[4])) {
    PyErr_SetString(PyExc_TypeError, "call(contig, strided, spec: bytes, arrays: tuple, attrs: tuple)");
    return NULL;
  }
  mskh_kernel contig = (mskh_kernel)PyLong_AsVoidPtr(args[0]);
  mskh_kernel strided = (mskh_kernel)PyLong_AsVoidPtr(args[1]);
  if (PyErr_Occurred()) return NULL;
  const unsigned char* spec = (const unsigned char*)PyBytes_AS_STRING(args[2]);
  Py_ssize_t spec_len = PyBytes_GET_SIZE(args[2]);
  PyObject* arrays = args[3];
  PyObject* attrs = args[4];
  int n_arrays = spec_len >= 2 ? spec[0] : -1, n_attrs = spec_len >= 2 ? spec[1] : -1;
  if (n_arrays < 0 || spec_len != 2 + 3 * n_arrays + n_attrs || n_arrays > MSKH_MAX_ARRAYS ||
      n_attrs > MSKH_MAX_ATTRS) {
    PyErr_SetString(PyExc_ValueError, "malformed kernel spec");
    return NULL;
  }
  if (PyTuple_GET_SIZE(arrays) != n_arrays || PyTuple_GET_SIZE(attrs) != n_attrs) return fail(-1, -1);

  void* data[MSKH_MAX_ARRAYS];
  int64_t shape[MSKH_MAX_DIMS], stride[MSKH_MAX_DIMS];
  union { int64_t i; double f; } attr[MSKH_MAX_ATTRS + 1];
  int64_t err[MSKH_ERR_LEN];
  int all_contig = 1, n_dims = 0;
  npy_intp work = 0;
  const unsigned char* a_spec = spec + 2;
  for (int k = 0; k < n_arrays; ++k) {
    PyObject* obj = PyTuple_GET_ITEM(arrays, k);
    if (!PyArray_Check(obj)) return fail(-1, -1);
    PyArrayObject* a = (PyArrayObject*)obj;
    int type_num = a_spec[3 * k], nd = a_spec[3 * k + 1], role = a_spec[3 * k + 2];
    if (PyArray_TYPE(a) != type_num || PyArray_NDIM(a) != nd || PyArray_ISBYTESWAPPED(a))
      return fail(-1, -1);
    if (role && !PyArray_ISWRITEABLE(a)) return fail(-2, k);
    if (!PyArray_ISALIGNED(a)) return fail(-3, k);
    if (n_dims + nd > MSKH_MAX_DIMS) return fail(-1, -1);
    npy_intp item = PyArray_ITEMSIZE(a);
    for (int d = 0; d < nd; ++d) {
      npy_intp s = PyArray_STRIDE(a, d);
      if (s % item != 0) return fail(-3, k);
      shape[n_dims + d] = PyArray_DIM(a, d);
      stride[n_dims + d] = s / item;
    }
    n_dims += nd;
    data[k] = PyArray_DATA(a);
    if (!PyArray_IS_C_CONTIGUOUS(a)) all_contig = 0;
    work += PyArray_SIZE(a);
  }
  for (int k = 0; k < n_arrays; ++k) {  /* an in-place input must not overlap another input */
    if (a_spec[3 * k + 2] != 2) continue;
    char *lo, *hi;
    byte_bounds((PyArrayObject*)PyTuple_GET_ITEM(arrays, k), &lo, &hi);
    for (int m = 0; m < n_arrays; ++m) {
      if (m == k || a_spec[3 * m + 2] == 1) continue;
      char *lo2, *hi2;
      byte_bounds((PyArrayObject*)PyTuple_GET_ITEM(arrays, m), &lo2, &hi2);
      if (lo < hi2 && lo2 < hi) return fail(-4, k);
    }
  }
  const unsigned char* kinds = spec + 2 + 3 * n_arrays;
  for (int k = 0; k < n_attrs; ++k) {
    PyObject* v = PyTuple_GET_ITEM(attrs, k);
    switch (kinds[k]) {
      case 'f':
        if (!PyFloat_CheckExact(v)) return fail(-1, -1);
        attr[k].f = PyFloat_AS_DOUBLE(v);
        break;
      case 'b':
        if (!PyBool_Check(v)) return fail(-1, -1);
        attr[k].i = (v == Py_True);
        break;
      default: {
        if (!PyLong_CheckExact(v)) return fail(-1, -1);
        int overflow = 0;
        attr[k].i = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow) return fail(-1, -1);
      }
    }
  }
  mskh_kernel fn = all_contig ? contig : strided;
  int rc;
  if (work >= MSKH_GIL_THRESHOLD) {
    Py_BEGIN_ALLOW_THREADS
    rc = fn(data, shape, stride, attr, err);
    Py_END_ALLOW_THREADS
  } else {
    rc = fn(data, shape, stride, attr, err);
  }
  if (rc == 0) Py_RETURN_NONE;
  if (rc != 1 && rc != 3 && rc != 4) return fail(rc, -1);
  int rank = (int)err[1];
  if (rank < 0 || rank > 64) rank = 0;
  PyObject* out = PyTuple_New(2 + 2 * rank + 1);
  if (!out) return NULL;
  PyTuple_SET_ITEM(out, 0, PyLong_FromLong(rc));
  for (int i = 0; i < 2 + 2 * rank; ++i) PyTuple_SET_ITEM(out, i + 1, PyLong_FromLongLong(err[i]));
  return out;
}

/* ---- the output block cache (see empty() above) */
#define MSKH_POOL_MIN ((size_t)16 << 20)
#define MSKH_POOL_CAP ((size_t)512 << 20)
#define MSKH_POOL_SLOTS 4
#define MSKH_POOL_ROUND ((size_t)2 << 20)

#define MSKH_ALIGN_MIN ((size_t)4096) /* outputs from this size are 64-byte aligned (numpy's are 16) */
#define MSKH_SPREAD_MIN ((size_t)16384) /* ... and from this size placed away from the inputs (away_from) */

typedef struct {
  PyObject_HEAD
  void* ptr;    /* a mapping of the cache, or (size 0) a malloc'ed block */
  size_t size;
} Block;

static PyObject* numpy_empty = NULL;  /* numpy.empty, for everything the cache does not serve */
static void* pool_ptr[MSKH_POOL_SLOTS];
static size_t pool_size[MSKH_POOL_SLOTS];
static int pool_n = 0;
static size_t pool_bytes = 0;

static void pool_unmap(void* p, size_t size) {
#if MSKH_POOL
  munmap(p, size);
#else
  (void)p; (void)size;
#endif
}

static void pool_drop_oldest(void) {
  pool_unmap(pool_ptr[0], pool_size[0]);
  pool_bytes -= pool_size[0];
  for (int k = 1; k < pool_n; ++k) { pool_ptr[k - 1] = pool_ptr[k]; pool_size[k - 1] = pool_size[k]; }
  --pool_n;
}

/* called with the GIL held, like every deallocation of a Python object */
static void block_dealloc(Block* b) {
  if (b->ptr && b->size == 0) {
    free(b->ptr);
  } else if (b->ptr) {
    if (b->size > MSKH_POOL_CAP) {
      pool_unmap(b->ptr, b->size);
    } else {
      while (pool_n == MSKH_POOL_SLOTS || pool_bytes + b->size > MSKH_POOL_CAP) pool_drop_oldest();
      pool_ptr[pool_n] = b->ptr;
      pool_size[pool_n++] = b->size;
      pool_bytes += b->size;
    }
  }
  Py_TYPE(b)->tp_free((PyObject*)b);
}

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_mskh_dispatch.Block",
    .tp_basicsize = sizeof(Block),
    .tp_dealloc = (destructor)block_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Memory of hybrid kernel outputs, returned to the output block cache when freed.",
};

static void* pool_take(size_t size) {
  for (int k = pool_n - 1; k >= 0; --k) {
    if (pool_size[k] != size) continue;
    void* p = pool_ptr[k];
    pool_bytes -= size;
    for (int m = k + 1; m < pool_n; ++m) { pool_ptr[m - 1] = pool_ptr[m]; pool_size[m - 1] = pool_size[m]; }
    --pool_n;
    return p;
  }
#if MSKH_POOL
  void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);  /* as numpy does for large arrays: fewer faults and TLB misses */
#endif
  return p;
#else
  return NULL;
#endif
}

/* The offset (a multiple of 64 below 4096) that puts p as far as possible, modulo 4096, from the data of
 * the arrays in the list or tuple `inputs`. A load that follows a store by a small multiple of 4096 bytes
 * looks to the CPU like it reads that store (4K aliasing) and waits for it: y[i] = x[i] * x[i] with y
 * 48 bytes past x modulo 4096 runs 1.4x slower than with y 2 KB away. */
static size_t away_from(PyObject* inputs, uintptr_t p) {
  uintptr_t in[8];
  int n = 0;
  if (PyList_Check(inputs) || PyTuple_Check(inputs)) {
    Py_ssize_t len = PySequence_Fast_GET_SIZE(inputs);
    for (Py_ssize_t k = 0; k < len && n < 8; ++k) {
      PyObject* a = PySequence_Fast_GET_ITEM(inputs, k);
      if (PyArray_Check(a)) in[n++] = (uintptr_t)PyArray_DATA((PyArrayObject*)a);
    }
  }
  size_t best = 0, best_gap = 0;
  for (size_t off = 0; off < 4096 && n; off += 64) {
    size_t gap = 4096;
    for (int k = 0; k < n; ++k) {
      size_t d = (size_t)((p + off - in[k]) & 4095);
      if (d > 2048) d = 4096 - d;
      if (d < gap) gap = d;
    }
    if (gap > best_gap) { best_gap = gap; best = off; }
  }
  return best;
}

static PyObject* empty(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs < 2 || nargs > 3 || !PyTuple_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "empty(shape: tuple, dtype[, inputs])");
    return NULL;
  }
  PyArray_Descr* descr = NULL;
  if (!PyArray_DescrConverter(args[1], &descr)) return NULL;
  Py_ssize_t nd = PyTuple_GET_SIZE(args[0]);
  npy_intp dims[NPY_MAXDIMS];
  int plain = nd <= NPY_MAXDIMS;  /* a shape of non-negative ints whose size fits */
  size_t nbytes = (size_t)PyDataType_ELSIZE(descr);
  for (Py_ssize_t d = 0; plain && d < nd; ++d) {
    PyObject* v = PyTuple_GET_ITEM(args[0], d);
    long long n = PyLong_CheckExact(v) ? PyLong_AsLongLong(v) : -1;
    if (n == -1 && PyErr_Occurred()) PyErr_Clear();
    dims[d] = (npy_intp)n;
    if (n < 0 || n > NPY_MAX_INTP || __builtin_mul_overflow(nbytes, (size_t)n, &nbytes) ||
        nbytes > (size_t)NPY_MAX_INTP)
      plain = 0;
  }
  if (!plain) {  /* numpy's own errors (negative or too large shapes) */
    Py_DECREF(descr);
    return PyObject_CallFunctionObjArgs(numpy_empty, args[0], args[1], NULL);
  }
  if (PyDataType_REFCHK(descr) || nbytes < MSKH_ALIGN_MIN)
    return PyArray_Empty((int)nd, dims, descr, 0);  /* steals descr */
  int pooled = MSKH_POOL && nbytes >= MSKH_POOL_MIN && nbytes <= MSKH_POOL_CAP;
  size_t size = pooled ? (nbytes + MSKH_POOL_ROUND - 1) / MSKH_POOL_ROUND * MSKH_POOL_ROUND : 0;
  /* not pooled: malloc'ed and 64-byte aligned (a 32-byte vector store then never splits a cache line) */
  int spread = !pooled && nbytes >= MSKH_SPREAD_MIN && nargs == 3;
  void* raw = pooled ? pool_take(size) : malloc(nbytes + 63 + (spread ? 4096 : 0));
  if (!raw) {
    Py_DECREF(descr);
    return PyErr_NoMemory();
  }
  Block* b = PyObject_New(Block, &BlockType);
  if (!b) {
    Py_DECREF(descr);
    if (pooled) pool_unmap(raw, size); else free(raw);
    return NULL;
  }
  b->ptr = raw;
  b->size = size;
  void* p = pooled ? raw : (void*)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
  if (spread) p = (char*)p + away_from(args[2], (uintptr_t)p);
#if MSKH_POOL && defined(MADV_HUGEPAGE)
  if (!pooled && nbytes >= ((size_t)4 << 20)) {  /* as numpy does for its large arrays */
    uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, hi = ((uintptr_t)p + nbytes) & ~(uintptr_t)4095;
    if (hi > lo) madvise((void*)lo, hi - lo, MADV_HUGEPAGE);
  }
#endif
  PyObject* arr = PyArray_NewFromDescr(&PyArray_Type, descr, (int)nd, dims, NULL, p, NPY_ARRAY_CARRAY, NULL);
  if (!arr) {
    Py_DECREF(b);
    return NULL;
  }
  if (PyArray_SetBaseObject((PyArrayObject*)arr, (PyObject*)b) < 0) {
    Py_DECREF(arr);
    return NULL;
  }
  return arr;
}

static PyObject* release(PyObject* self, PyObject* unused) {
  (void)self; (void)unused;
  size_t freed = pool_bytes;
  while (pool_n) pool_drop_oldest();
  return PyLong_FromSize_t(freed);
}

static PyObject* cached(PyObject* self, PyObject* unused) {
  (void)self; (void)unused;
  return Py_BuildValue("(in)", pool_n, (Py_ssize_t)pool_bytes);
}

/* ---- the thread pool of parallel loops (thread_pool.h) */
static PyObject* threads(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs > 1) {
    PyErr_SetString(PyExc_TypeError, "threads([n])");
    return NULL;
  }
  if (nargs == 1) {
    long n = PyLong_AsLong(args[0]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    Py_BEGIN_ALLOW_THREADS  /* waits for a loop in flight on another thread */
    tpool_set_threads(n > TPOOL_MAX_THREADS ? TPOOL_MAX_THREADS : (int)n);
    Py_END_ALLOW_THREADS
  }
  return PyLong_FromLong(__atomic_load_n(&tpool.threads, __ATOMIC_RELAXED));
}

static PyObject* pool_stats(PyObject* self, PyObject* unused) {
  (void)self; (void)unused;
#define R(x) (unsigned long long)__atomic_load_n(&tpool.x, __ATOMIC_RELAXED)
  return Py_BuildValue("(iiKKKKK)", tpool.threads, tpool.workers, R(jobs), R(alone), R(chunks), R(worker_chunks),
                       R(joined));
#undef R
}

static PyObject* runtime(PyObject* self, PyObject* unused) {
  (void)self; (void)unused;
  return PyLong_FromVoidPtr((void*)tpool_run);
}

static PyObject* pool_test(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "pool_test(hold_workers: bool, caller_idle: bool)");
    return NULL;
  }
  int hold = PyObject_IsTrue(args[0]), idle = PyObject_IsTrue(args[1]);
  if (hold < 0 || idle < 0) return NULL;
  __atomic_store_n(&tpool.caller_idle, (uint32_t)idle, __ATOMIC_SEQ_CST);
  pthread_mutex_lock(&tpool.gate_lock);
  __atomic_store_n(&tpool.hold, (uint32_t)hold, __ATOMIC_SEQ_CST);
  pthread_cond_broadcast(&tpool.gate);
  pthread_mutex_unlock(&tpool.gate_lock);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"call", (PyCFunction)(void (*)(void))call, METH_FASTCALL,
     "call(contig, strided, spec, arrays, attrs) -> None | (code, ...): run a compiled hybrid kernel"},
    {"empty", (PyCFunction)(void (*)(void))empty, METH_FASTCALL,
     "empty(shape, dtype[, inputs]) -> ndarray: numpy.empty, aligned, away from the inputs, large blocks cached"},
    {"release", release, METH_NOARGS, "release() -> int: unmap the cached output blocks; the bytes released"},
    {"cached", cached, METH_NOARGS, "cached() -> (blocks, bytes) held by the output block cache"},
    {"threads", (PyCFunction)(void (*)(void))threads, METH_FASTCALL,
     "threads([n]) -> int: the thread pool's size (caller included), after setting it to n"},
    {"pool_stats", pool_stats, METH_NOARGS,
     "pool_stats() -> (threads, workers, loops, loops run alone, chunks, chunks run by workers, loops workers joined)"},
    {"runtime", runtime, METH_NOARGS, "runtime() -> int: the address of the pool's parallel-for entry"},
    {"pool_test", (PyCFunction)(void (*)(void))pool_test, METH_FASTCALL,
     "pool_test(hold_workers, caller_idle): test hooks (workers never reach the work / the caller takes none)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mskh_dispatch",
                                    "Per-call dispatcher of compiled hybrid kernels.", -1, methods};

PyMODINIT_FUNC PyInit__mskh_dispatch(void) {
  import_array();
  tpool_init();
  if (PyType_Ready(&BlockType) < 0) return NULL;
  PyObject* np = PyImport_ImportModule("numpy");
  if (!np) return NULL;
  numpy_empty = PyObject_GetAttrString(np, "empty");
  Py_DECREF(np);
  if (!numpy_empty) return NULL;
  return PyModule_Create(&module);
}
