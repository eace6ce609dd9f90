/* The per-call paths of Custom kernel kinds: one small CPython extension, built once (kernels/percall.py).
 *
 * aot_call(plan, arrays) runs an AOT kernel for one call signature that was prepared in Python (its Init
 * run, its ndims/shapes/dtypes arrays built): it allocates the outputs and the zeroed workspaces,
 * gathers the data pointers and calls the kernel through the runtime's guarded entry mk_aot_call
 * (mskernel/kernels/aot_runtime.cpp), which turns a C++ exception into a message. The GIL is released
 * around the kernel, as ctypes did.
 *
 * plan (tuple): (mk_aot_call, kernel, extra, ndims, shapes, dtypes) as addresses, then a tuple of
 * (shape tuple, numpy dtype) per output, then a tuple of workspace sizes in bytes.
 *
 * Returns the outputs (a tuple); None when an input is not C-contiguous and aligned (the caller copies
 * and takes its slow path); [1, message] when the kernel threw; [2, code] when it returned non-zero.
 *
 * pyfunc_args(arrays, scalars) is what a pyfunc's function receives: a read-only view of each array (no
 * copy; the function cannot write the op's inputs), or for a 0-d array whose scalars byte is 1 its
 * value as a Python scalar (``a.item()``).
 *
 * pyfunc_call(plan, arrays), plan = (func, scalars, extra, want, convert), is a planned pyfunc call (and
 * PyfuncRunner(plan) the same with the plan bound, the runner a planned op calls):
 * func(*pyfunc_args(arrays, scalars), *extra); a result that is exactly the one array `want` describes ((shape,
 * dtype), or None) is returned as (result,), anything else as convert(result) (the op's conversion and checks).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define MKA_MAX_BUFFERS 256
#define MKA_ERR_LEN 2048

typedef int (*mk_call_fn)(void*, int, void**, int*, int64_t**, const char**, void*, int*, char*, int);

static void* address(PyObject* v) { return PyLong_AsVoidPtr(v); }

static PyObject* aot_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 8 || !PyTuple_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "aot_call(plan: tuple of 8, arrays: tuple)");
    return NULL;
  }
  PyObject *plan = args[0], *arrays = args[1];
  mk_call_fn guarded = (mk_call_fn)address(PyTuple_GET_ITEM(plan, 0));
  void* kernel = address(PyTuple_GET_ITEM(plan, 1));
  void* extra = address(PyTuple_GET_ITEM(plan, 2));
  int* ndims = (int*)address(PyTuple_GET_ITEM(plan, 3));
  int64_t** shapes = (int64_t**)address(PyTuple_GET_ITEM(plan, 4));
  const char** dtypes = (const char**)address(PyTuple_GET_ITEM(plan, 5));
  PyObject *out_specs = PyTuple_GET_ITEM(plan, 6), *ws = PyTuple_GET_ITEM(plan, 7);
  if (PyErr_Occurred()) return NULL;
  if (!PyTuple_Check(out_specs) || !PyTuple_Check(ws)) {
    PyErr_SetString(PyExc_TypeError, "aot_call: malformed plan");
    return NULL;
  }
  Py_ssize_t n_in = PyTuple_GET_SIZE(arrays), n_out = PyTuple_GET_SIZE(out_specs), n_ws = PyTuple_GET_SIZE(ws);
  if (n_in + n_out + n_ws > MKA_MAX_BUFFERS) {
    PyErr_SetString(PyExc_ValueError, "aot_call: too many buffers");
    return NULL;
  }
  void* params[MKA_MAX_BUFFERS];
  npy_intp work = 0;
  for (Py_ssize_t k = 0; k < n_in; ++k) {
    PyObject* obj = PyTuple_GET_ITEM(arrays, k);
    if (!PyArray_Check(obj)) Py_RETURN_NONE;
    PyArrayObject* a = (PyArrayObject*)obj;
    if (!PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a) || PyArray_ISBYTESWAPPED(a)) Py_RETURN_NONE;
    params[k] = PyArray_DATA(a);
    work += PyArray_SIZE(a);
  }
  PyObject* outs = PyTuple_New(n_out);
  if (outs == NULL) return NULL;
  for (Py_ssize_t k = 0; k < n_out; ++k) {
    PyObject* spec = PyTuple_GET_ITEM(out_specs, k);
    PyArray_Descr* descr = NULL;
    PyObject* dims_obj = PyTuple_Check(spec) && PyTuple_GET_SIZE(spec) == 2 ? PyTuple_GET_ITEM(spec, 0) : NULL;
    if (dims_obj == NULL || !PyTuple_Check(dims_obj) || PyTuple_GET_SIZE(dims_obj) > NPY_MAXDIMS ||
        !PyArray_DescrCheck(PyTuple_GET_ITEM(spec, 1))) {
      Py_DECREF(outs);
      PyErr_SetString(PyExc_TypeError, "aot_call: malformed output spec");
      return NULL;
    }
    descr = (PyArray_Descr*)PyTuple_GET_ITEM(spec, 1);
    npy_intp dims[NPY_MAXDIMS];
    int nd = (int)PyTuple_GET_SIZE(dims_obj);
    for (int d = 0; d < nd; ++d) dims[d] = (npy_intp)PyLong_AsSsize_t(PyTuple_GET_ITEM(dims_obj, d));
    if (PyErr_Occurred()) { Py_DECREF(outs); return NULL; }
    Py_INCREF(descr);  /* PyArray_Empty steals it */
    PyObject* o = PyArray_Empty(nd, dims, descr, 0);
    if (o == NULL) { Py_DECREF(outs); return NULL; }
    PyTuple_SET_ITEM(outs, k, o);
    params[n_in + k] = PyArray_DATA((PyArrayObject*)o);
    work += PyArray_SIZE((PyArrayObject*)o);
  }
  int ok = 1;
  for (Py_ssize_t k = 0; k < n_ws; ++k) {
    Py_ssize_t size = PyLong_AsSsize_t(PyTuple_GET_ITEM(ws, k));
    void* buf = size >= 0 ? calloc((size_t)size, 1) : NULL;  /* zeroed: a kernel reading first is deterministic */
    params[n_in + n_out + k] = buf;
    if (buf == NULL) ok = 0;
  }
  int ret = 0, failed = 0;
  char err[MKA_ERR_LEN];
  err[0] = '\0';
  if (ok) {
    int total = (int)(n_in + n_out + n_ws);
    if (work >= 16384) {
      Py_BEGIN_ALLOW_THREADS
      failed = guarded(kernel, total, params, ndims, shapes, dtypes, extra, &ret, err, MKA_ERR_LEN);
      Py_END_ALLOW_THREADS
    } else {
      failed = guarded(kernel, total, params, ndims, shapes, dtypes, extra, &ret, err, MKA_ERR_LEN);
    }
  }
  for (Py_ssize_t k = 0; k < n_ws; ++k) free(params[n_in + n_out + k]);
  if (!ok) {
    Py_DECREF(outs);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
  }
  if (failed || ret != 0) {
    Py_DECREF(outs);
    err[MKA_ERR_LEN - 1] = '\0';
    return failed ? Py_BuildValue("[is]", 1, err) : Py_BuildValue("[ii]", 2, ret);
  }
  return outs;
}

/* The value func receives for array a: a read-only view, or for a 0-d array marked as a scalar its value. */
static PyObject* pyfunc_value(PyArrayObject* a, int scalar) {
  if (scalar && PyArray_NDIM(a) == 0) return PyArray_GETITEM(a, PyArray_DATA(a));
  PyObject* v = PyArray_View(a, NULL, NULL);
  if (v != NULL) PyArray_CLEARFLAGS((PyArrayObject*)v, NPY_ARRAY_WRITEABLE);
  return v;
}

static PyObject* pyfunc_args(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyTuple_Check(args[0]) || !PyBytes_Check(args[1]) ||
      PyBytes_GET_SIZE(args[1]) != PyTuple_GET_SIZE(args[0])) {
    PyErr_SetString(PyExc_TypeError, "pyfunc_args(arrays: tuple, scalars: bytes of the same length)");
    return NULL;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(args[0]);
  const char* scalars = PyBytes_AS_STRING(args[1]);
  PyObject* out = PyList_New(n);
  if (out == NULL) return NULL;
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* obj = PyTuple_GET_ITEM(args[0], k);
    if (!PyArray_Check(obj)) {
      Py_DECREF(out);
      PyErr_Format(PyExc_TypeError, "pyfunc_args: item %zd is not a numpy array", k);
      return NULL;
    }
    PyArrayObject* a = (PyArrayObject*)obj;
    PyObject* v;
    if (scalars[k] && PyArray_NDIM(a) == 0) {
      v = PyArray_GETITEM(a, PyArray_DATA(a));
    } else {
      v = pyfunc_value(a, 0);
    }
    if (v == NULL) { Py_DECREF(out); return NULL; }
    PyList_SET_ITEM(out, k, v);
  }
  return out;
}

/* 1 when res is an array of want's shape and dtype (want: (shape tuple, dtype) or None), else 0. */
static int pyfunc_exact(PyObject* res, PyObject* want) {
  if (want == Py_None || !PyArray_CheckExact(res) || !PyTuple_Check(want) || PyTuple_GET_SIZE(want) != 2) return 0;
  PyArrayObject* r = (PyArrayObject*)res;
  PyObject *shape = PyTuple_GET_ITEM(want, 0), *dtype = PyTuple_GET_ITEM(want, 1);
  if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != PyArray_NDIM(r) || !PyArray_DescrCheck(dtype)) return 0;
  for (int d = 0; d < PyArray_NDIM(r); ++d) {
    Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, d));
    if (s != PyArray_DIMS(r)[d]) { PyErr_Clear(); return 0; }
  }
  return PyArray_EquivTypes(PyArray_DESCR(r), (PyArray_Descr*)dtype) ? 1 : 0;
}

static PyObject* pyfunc_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  PyObject* plan = nargs == 2 ? args[0] : NULL;
  if (plan == NULL || !PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 5 || !PyTuple_Check(args[1]) ||
      !PyBytes_Check(PyTuple_GET_ITEM(plan, 1)) || !PyTuple_Check(PyTuple_GET_ITEM(plan, 2)) ||
      PyBytes_GET_SIZE(PyTuple_GET_ITEM(plan, 1)) != PyTuple_GET_SIZE(args[1])) {
    PyErr_SetString(PyExc_TypeError, "pyfunc_call((func, scalars: bytes, extra: tuple, want, convert), arrays: tuple)");
    return NULL;
  }
  PyObject *func = PyTuple_GET_ITEM(plan, 0), *extra = PyTuple_GET_ITEM(plan, 2), *want = PyTuple_GET_ITEM(plan, 3);
  PyObject *convert = PyTuple_GET_ITEM(plan, 4), *arrays = args[1];
  const char* scalars = PyBytes_AS_STRING(PyTuple_GET_ITEM(plan, 1));
  Py_ssize_t n = PyTuple_GET_SIZE(arrays), ne = PyTuple_GET_SIZE(extra);
  if (n + ne > MKA_MAX_BUFFERS) {
    PyErr_SetString(PyExc_ValueError, "pyfunc_call: too many arguments");
    return NULL;
  }
  PyObject* argv[MKA_MAX_BUFFERS];
  Py_ssize_t made = 0;
  PyObject* res = NULL;
  for (; made < n; ++made) {
    PyObject* obj = PyTuple_GET_ITEM(arrays, made);
    if (!PyArray_Check(obj)) {
      PyErr_Format(PyExc_TypeError, "pyfunc_call: item %zd is not a numpy array", made);
      goto done;
    }
    if ((argv[made] = pyfunc_value((PyArrayObject*)obj, scalars[made])) == NULL) goto done;
  }
  for (Py_ssize_t k = 0; k < ne; ++k) argv[n + k] = PyTuple_GET_ITEM(extra, k);
  res = PyObject_Vectorcall(func, argv, n + ne, NULL);
  if (res != NULL) {
    if (pyfunc_exact(res, want)) Py_SETREF(res, PyTuple_Pack(1, res));
    else Py_SETREF(res, PyObject_CallOneArg(convert, res));
  }
done:
  for (Py_ssize_t k = 0; k < made; ++k) Py_DECREF(argv[k]);
  return res;
}

/* PyfuncRunner(plan): pyfunc_call with its plan bound -- a planned pyfunc op's runner, runner(arrays). */
typedef struct {
  PyObject_HEAD
  PyObject* plan;
  vectorcallfunc vectorcall;
} PyfuncRunner;

static PyObject* runner_call(PyfuncRunner* r, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  if (kwnames != NULL || PyVectorcall_NARGS(nargsf) != 1) {
    PyErr_SetString(PyExc_TypeError, "a pyfunc runner takes the input arrays (a tuple)");
    return NULL;
  }
  PyObject* argv[2] = {r->plan, args[0]};
  return pyfunc_call(NULL, argv, 2);
}

static PyObject* runner_new(PyTypeObject* tp, PyObject* args, PyObject* kw) {
  PyObject* plan;
  if (!PyArg_ParseTuple(args, "O!:PyfuncRunner", &PyTuple_Type, &plan)) return NULL;
  PyfuncRunner* r = (PyfuncRunner*)tp->tp_alloc(tp, 0);
  if (r == NULL) return NULL;
  r->plan = Py_NewRef(plan);
  r->vectorcall = (vectorcallfunc)runner_call;
  return (PyObject*)r;
}

static void runner_dealloc(PyfuncRunner* r) {
  Py_XDECREF(r->plan);
  Py_TYPE(r)->tp_free((PyObject*)r);
}

static PyTypeObject PyfuncRunnerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_mskernel_percall.PyfuncRunner",
    .tp_basicsize = sizeof(PyfuncRunner),
    .tp_dealloc = (destructor)runner_dealloc,
    .tp_vectorcall_offset = offsetof(PyfuncRunner, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "PyfuncRunner(plan): runner(arrays) is pyfunc_call(plan, arrays).",
    .tp_new = runner_new,
};

static PyMethodDef methods[] = {
    {"aot_call", (PyCFunction)(void (*)(void))aot_call, METH_FASTCALL,
     "aot_call(plan, arrays) -> outputs | None | [1, message] | [2, code]: run an AOT kernel"},
    {"pyfunc_args", (PyCFunction)(void (*)(void))pyfunc_args, METH_FASTCALL,
     "pyfunc_args(arrays, scalars) -> list: read-only views (or scalars) for a pyfunc's function"},
    {"pyfunc_call", (PyCFunction)(void (*)(void))pyfunc_call, METH_FASTCALL,
     "pyfunc_call((func, scalars, extra, want, convert), arrays) -> outputs: a planned pyfunc call"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mskernel_percall",
                                    "Per-call paths of Custom kernel kinds (AOT calls, pyfunc arguments).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__mskernel_percall(void) {
  import_array();
  if (PyType_Ready(&PyfuncRunnerType) < 0) return NULL;
  PyObject* m = PyModule_Create(&module);
  if (m != NULL && PyModule_AddObjectRef(m, "PyfuncRunner", (PyObject*)&PyfuncRunnerType) < 0) Py_CLEAR(m);
  return m;
}
