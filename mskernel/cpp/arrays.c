/* mskernel's C++ headers' access to numpy arrays: one small CPython extension, built once (cpp/arrays.py).
 *
 * The headers (mskernel/include) do not include numpy's (a C++ op compiles only its own code): without
 * this module they allocate a tensor's array by calling numpy.empty and read an array's layout through the
 * buffer protocol -- both of which build Python objects or numpy buffer descriptions on every call. This
 * module does the same two things with numpy's C API and hands the headers the functions as a capsule
 * (``mskernel.cpp.array_api()``), whose layout -- struct MkArrayApi below -- is declared again,
 * identically, in mskernel/include/mskernel/tensor.h (versioned: a header that finds another version
 * keeps the Python path).
 *
 * empty(descr, nd, dims, &data): numpy.empty(dims, descr) (a new C-contiguous ndarray, uninitialized), and
 * its data pointer. Returns a new reference, or NULL with a Python error set -- or NULL without one for
 * more dimensions than numpy takes (the caller then calls numpy.empty, for numpy's own error).
 *
 * view(obj, &v): the layout of the ndarray `obj` as the buffer protocol (PyBUF_RECORDS_RO) reports it --
 * first element, ndim, shape, strides in bytes, itemsize, read-only flag, and the buffer format with its
 * byte-order prefix left out ("f", "q", "Zd", ...); for a C-contiguous array numpy's buffer reports
 * row-major strides rather than the array's own (they may differ along dimensions of size 0 or 1), so
 * c_contiguous is set and the caller computes those. Returns 1 when filled; 0 (no error set) when `obj` is
 * not an ndarray of a plain numeric dtype in native byte order with only the usual flags -- the caller
 * then asks the buffer protocol, which produces the usual formats, errors and warnings. shape/strides point into the array (valid while
 * the caller holds a reference to it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>

#define MK_ARRAY_API_VERSION 1

typedef struct {
  void *data;
  int ndim;
  int readonly;
  const Py_ssize_t *shape;
  const Py_ssize_t *strides;
  Py_ssize_t itemsize;
  const char *format;
  int c_contiguous; /* the buffer protocol then reports row-major strides (whatever those of size-1 or
                       size-0 dimensions are): the caller computes them */
} MkArrayView;

typedef struct {
  int version;
  PyObject *(*empty)(PyObject *descr, int nd, const int64_t *dims, void **data);
  int (*view)(PyObject *obj, MkArrayView *out);
} MkArrayApi;

static PyObject *mk_empty(PyObject *descr, int nd, const int64_t *dims, void **data) {
  if (!PyArray_DescrCheck(descr)) {
    PyErr_SetString(PyExc_TypeError, "array_api.empty: expected a numpy dtype");
    return NULL;
  }
  if (nd < 0 || nd > NPY_MAXDIMS) return NULL; /* no error set: numpy.empty says what is wrong */
  npy_intp d[NPY_MAXDIMS];
  for (int i = 0; i < nd; ++i) d[i] = (npy_intp)dims[i];
  Py_INCREF(descr); /* stolen by PyArray_NewFromDescr */
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, (PyArray_Descr *)descr, nd, d, NULL, NULL, 0, NULL);
  if (arr != NULL) *data = PyArray_DATA((PyArrayObject *)arr);
  return arr;
}

/* The buffer format numpy gives a native-byte-order array of this type number (prefix left out), or NULL. */
static const char *plain_format(int type_num) {
  switch (type_num) {
    case NPY_BOOL: return "?";
    case NPY_BYTE: return "b";
    case NPY_UBYTE: return "B";
    case NPY_SHORT: return "h";
    case NPY_USHORT: return "H";
    case NPY_INT: return "i";
    case NPY_UINT: return "I";
    case NPY_LONG: return "l";
    case NPY_ULONG: return "L";
    case NPY_LONGLONG: return "q";
    case NPY_ULONGLONG: return "Q";
    case NPY_HALF: return "e";
    case NPY_FLOAT: return "f";
    case NPY_DOUBLE: return "d";
    case NPY_CFLOAT: return "Zf";
    case NPY_CDOUBLE: return "Zd";
    default: return NULL;
  }
}

static int mk_view(PyObject *obj, MkArrayView *out) {
  if (!PyArray_Check(obj)) return 0;
  PyArrayObject *a = (PyArrayObject *)obj;
  PyArray_Descr *descr = PyArray_DESCR(a);
  /* only the usual flags: numpy's internal ones (e.g. "warn on write", which the buffer protocol reports as
   * read-only, with a FutureWarning) are left to the buffer protocol */
  const int plain_flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_F_CONTIGUOUS | NPY_ARRAY_OWNDATA | NPY_ARRAY_ALIGNED |
                          NPY_ARRAY_WRITEABLE;
  if (PyArray_FLAGS(a) & ~plain_flags) return 0;
  if (!PyArray_ISNBO(descr->byteorder) || PyDataType_HASFIELDS(descr) || PyDataType_HASSUBARRAY(descr)) return 0;
  const char *fmt = plain_format(descr->type_num);
  if (fmt == NULL) return 0;
  out->data = PyArray_DATA(a);
  out->ndim = PyArray_NDIM(a);
  out->readonly = !PyArray_ISWRITEABLE(a);
  out->shape = (const Py_ssize_t *)PyArray_DIMS(a);
  out->strides = (const Py_ssize_t *)PyArray_STRIDES(a);
  out->itemsize = (Py_ssize_t)PyArray_ITEMSIZE(a);
  out->format = fmt;
  out->c_contiguous = PyArray_IS_C_CONTIGUOUS(a) ? 1 : 0;
  return 1;
}

static const MkArrayApi api = {MK_ARRAY_API_VERSION, mk_empty, mk_view};

static PyObject *capsule(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyCapsule_New((void *)&api, "mskernel.cpp.array_api", NULL);
}

static PyMethodDef methods[] = {
    {"capsule", capsule, METH_NOARGS, "capsule() -> the MkArrayApi functions for mskernel's C++ headers"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mskernel_cpp_arrays",
                                    "numpy array access for mskernel's C++ headers (see arrays.c).", -1, methods};

PyMODINIT_FUNC PyInit__mskernel_cpp_arrays(void) {
  import_array();
  return PyModule_Create(&module);
}
