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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>

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

static PyMethodDef methods[] = {
    {"call", (PyCFunction)(void (*)(void))call, METH_FASTCALL,
     "call(contig, strided, spec, arrays, attrs) -> None | (code, ...): run a compiled hybrid kernel"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mskh_dispatch",
                                    "Per-call dispatcher of compiled hybrid kernels.", -1, methods};

PyMODINIT_FUNC PyInit__mskh_dispatch(void) {
  import_array();
  return PyModule_Create(&module);
}
