/* mskernel.autograd._cengine -- the autograd engine's hot loops in C (optional; built at install time).
 *
 * The Python implementation in mskernel/autograd/engine.py (``_gradients_py``) and node.py is the
 * reference: this module does exactly the same, step for step, and falls back to the Python helpers
 * for every rare branch (gradient shape/dtype fix-up, zero materialisation, saved outputs, gradient
 * statistics, error texts). ``MSKERNEL_PURE_PYTHON=1`` disables it; tests run both.
 *
 * The mirrored code is cut into the same named phases as the Python (``phase: record`` in node.py,
 * ``phase: backward`` and its steps targets/collect/seed/run/route/results in engine.py), so the two
 * can be read side by side; tests/autograd/test_cengine.py checks the phase lists match.
 *
 * Tensor and Node stay ordinary Python classes with __slots__; bind_tensor()/bind_node() read each
 * slot's offset from its member descriptor so this module can read and write the fields directly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>  /* shapes, dtypes and strides read in place (the checks on every op and gradient) */

typedef struct {
    PyTypeObject *tensor_type, *node_type, *ndarray_type;
    PyObject *asarray, *ids;                      /* np.asarray, itertools.count shared with node.py */
    PyObject *meta, *meta_fn;                     /* node.py's _META cache and _meta_array */
    PyObject *ones, *scalar_ones, *reduce_to, *materialize, *saved_outs, *capture, *grad_error, *state;
    Py_ssize_t t_data, t_rg, t_node, t_idx, t_version;
    Py_ssize_t n_id, n_op, n_kind, n_inputs, n_backward, n_out_meta, n_saved_out, n_info, n_stats, n_materialize;
    PyObject *s_builtin, *s_shape, *s_dtype, *s_kind, *s_fc, *s_enabled, *s_capture;
    PyObject *zero;
} State;

static State S;

#define FIELD(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* Set a slot, stealing a reference to `value`. */
static inline void set_field(PyObject *obj, Py_ssize_t off, PyObject *value) {
    PyObject *old = FIELD(obj, off);
    FIELD(obj, off) = value;
    Py_XDECREF(old);
}

static inline PyObject *get_field(PyObject *obj, Py_ssize_t off) {  /* borrowed; None when unset */
    PyObject *v = FIELD(obj, off);
    return v ? v : Py_None;
}

static int slot_offset(PyTypeObject *tp, const char *name, Py_ssize_t *out) {
    PyObject *d = PyDict_GetItemString(tp->tp_dict, name);
    if (d == NULL || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "_cengine.setup: %s.%s is not a __slots__ member", tp->tp_name, name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "_cengine.setup: %s.%s has an unexpected member type", tp->tp_name, name);
        return -1;
    }
    *out = m->offset;
    return 0;
}

static int bind_offsets(PyTypeObject *tp, const char *const *names, Py_ssize_t *const *dsts, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (slot_offset(tp, names[i], dsts[i]) < 0) return -1;
    return 0;
}

/* bind_tensor(Tensor, ndarray, asarray): enables wrap(). Called by mskernel/tensor.py. */
static PyObject *bind_tensor(PyObject *self, PyObject *args) {
    PyObject *tensor, *ndarray, *asarray;
    if (!PyArg_ParseTuple(args, "O!O!O", &PyType_Type, &tensor, &PyType_Type, &ndarray, &asarray)) return NULL;
    static const char *const names[] = {"_data", "_rg", "_node", "_idx", "_version"};
    Py_ssize_t *const dsts[] = {&S.t_data, &S.t_rg, &S.t_node, &S.t_idx, &S.t_version};
    if (bind_offsets((PyTypeObject *)tensor, names, dsts, 5) < 0) return NULL;
    Py_INCREF(tensor); Py_INCREF(ndarray); Py_INCREF(asarray);
    S.tensor_type = (PyTypeObject *)tensor;
    S.ndarray_type = (PyTypeObject *)ndarray;
    S.asarray = asarray;
    if (!S.s_shape) {
        S.s_builtin = PyUnicode_InternFromString("builtin");
        S.s_shape = PyUnicode_InternFromString("shape");
        S.s_dtype = PyUnicode_InternFromString("dtype");
        S.s_kind = PyUnicode_InternFromString("kind");
        S.s_fc = PyUnicode_InternFromString("fc");
        S.s_enabled = PyUnicode_InternFromString("enabled");
        S.s_capture = PyUnicode_InternFromString("capture_stats");
        S.zero = PyLong_FromLong(0);
    }
    Py_RETURN_NONE;
}

/* bind_node(Node, ids, meta, meta_fn): enables record1(). Called by mskernel/autograd/node.py. */
static PyObject *bind_node(PyObject *self, PyObject *args) {
    PyObject *node, *ids, *meta, *meta_fn;
    if (!PyArg_ParseTuple(args, "O!OO!O", &PyType_Type, &node, &ids, &PyDict_Type, &meta, &meta_fn)) return NULL;
    if (S.tensor_type == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_tensor must come first");
    static const char *const names[] = {"id", "op", "kind", "inputs", "backward", "out_meta", "saved_out", "info",
                                        "stats", "materialize"};
    Py_ssize_t *const dsts[] = {&S.n_id, &S.n_op, &S.n_kind, &S.n_inputs, &S.n_backward, &S.n_out_meta,
                                &S.n_saved_out, &S.n_info, &S.n_stats, &S.n_materialize};
    if (bind_offsets((PyTypeObject *)node, names, dsts, 10) < 0) return NULL;
    Py_INCREF(node); Py_INCREF(ids); Py_INCREF(meta); Py_INCREF(meta_fn);
    S.node_type = (PyTypeObject *)node;
    S.ids = ids;
    S.meta = meta;
    S.meta_fn = meta_fn;
    Py_RETURN_NONE;
}

/* bind_engine(helpers): enables gradients(). Called by mskernel/autograd/engine.py. */
static PyObject *bind_engine(PyObject *self, PyObject *helpers) {
    if (!PyDict_Check(helpers)) return PyErr_Format(PyExc_TypeError, "bind_engine expects a dict");
    if (S.node_type == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_node must come first");
    struct { const char *name; PyObject **dst; } hs[] = {
        {"ones", &S.ones}, {"scalar_ones", &S.scalar_ones}, {"reduce_to", &S.reduce_to}, {"materialize", &S.materialize},
        {"saved_outs", &S.saved_outs}, {"capture", &S.capture}, {"GradientError", &S.grad_error},
        {"STATE", &S.state}};
    for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
        PyObject *v = PyDict_GetItemString(helpers, hs[i].name);
        if (v == NULL) return PyErr_Format(PyExc_KeyError, "_cengine.bind_engine: missing helper %s", hs[i].name);
        Py_INCREF(v);
        Py_XSETREF(*hs[i].dst, v);
    }
    Py_RETURN_NONE;
}

/* ---- Tensor._wrap ------------------------------------------------------------------------------- */
static PyObject *wrap_array(PyObject *arr) {  /* new reference; arr borrowed */
    PyObject *data;
    if (Py_TYPE(arr) == S.ndarray_type) {
        data = Py_NewRef(arr);
    } else {
        data = PyObject_CallOneArg(S.asarray, arr);
        if (data == NULL) return NULL;
    }
    PyObject *t = S.tensor_type->tp_alloc(S.tensor_type, 0);
    if (t == NULL) { Py_DECREF(data); return NULL; }
    FIELD(t, S.t_data) = data;
    FIELD(t, S.t_rg) = Py_NewRef(Py_False);
    FIELD(t, S.t_node) = Py_NewRef(Py_None);
    FIELD(t, S.t_idx) = Py_NewRef(S.zero);
    FIELD(t, S.t_version) = Py_NewRef(S.zero);
    return t;
}

static PyObject *wrap(PyObject *self, PyObject *arr) { return wrap_array(arr); }

/* The docstring of mskernel.cpp.wrap (and Tensor._wrap): a text signature, then the example that
   tests/cpp/test_cpp_bridge.py runs (mskernel/cpp/buffers.py lists it in __test__). */
#define WRAP_DOC \
    "wrap($module, array, /)\n--\n\n" \
    "A Tensor sharing ``array``: no copy, no autograd history, no validation (``Tensor._wrap``).\n\n" \
    "Example:\n" \
    "    >>> import numpy as np\n" \
    "    >>> from mskernel.cpp import wrap\n" \
    "    >>> a = np.array([1.0, 2.0], np.float32)\n" \
    "    >>> t = wrap(a)\n" \
    "    >>> a[0] = 5.0\n" \
    "    >>> print(t, t.dtype, t.requires_grad)\n" \
    "    [5. 2.] Float32 False\n"

/* ---- phase: record ---- node creation: _record1(op, inputs, out, backward) (node.py) ------------- */
static int shape_dtype(PyObject *arr, PyObject **shape, PyObject **dtype) {  /* new references */
    *shape = PyObject_GetAttr(arr, S.s_shape);
    if (*shape == NULL) return -1;
    if (PyArray_Check(arr)) {  /* arr.dtype is its descriptor */
        *dtype = Py_NewRef((PyObject *)PyArray_DESCR((PyArrayObject *)arr));
        return 0;
    }
    *dtype = PyObject_GetAttr(arr, S.s_dtype);
    if (*dtype == NULL) { Py_CLEAR(*shape); return -1; }
    return 0;
}

/* node.py's edge(t): a tracked leaf itself, else a data-less stand-in with t's graph position. */
static PyObject *make_edge(PyObject *t) {
    if (!PyObject_TypeCheck(t, S.tensor_type)) return Py_NewRef(t);
    if (get_field(t, S.t_rg) == Py_True && get_field(t, S.t_node) == Py_None) return Py_NewRef(t);
    PyObject *shape, *dtype;
    if (shape_dtype(get_field(t, S.t_data), &shape, &dtype) < 0) return NULL;
    PyObject *key = PyTuple_Pack(2, shape, dtype);
    PyObject *m = key ? Py_XNewRef(PyDict_GetItemWithError(S.meta, key)) : NULL;
    Py_XDECREF(key);
    if (m == NULL && !PyErr_Occurred()) m = PyObject_CallFunctionObjArgs(S.meta_fn, shape, dtype, NULL);
    Py_DECREF(shape); Py_DECREF(dtype);
    if (m == NULL) return NULL;
    PyObject *e = wrap_array(m);
    Py_DECREF(m);
    if (e == NULL) return NULL;
    set_field(e, S.t_rg, Py_NewRef(get_field(t, S.t_rg)));
    set_field(e, S.t_node, Py_NewRef(get_field(t, S.t_node)));
    set_field(e, S.t_idx, Py_NewRef(get_field(t, S.t_idx)));
    return e;
}

/* _record1's steps: a node for `out` (a Tensor) made by `op` from `inputs` (a tuple). 0, or -1 with an error. */
static int record_node(PyObject *op, PyObject *inputs_in, PyObject *out, PyObject *backward, int needs_outputs) {
    PyObject *data = get_field(out, S.t_data), *shape, *dtype;
    if (shape_dtype(data, &shape, &dtype) < 0) return -1;
    PyObject *pair = PyTuple_Pack(2, shape, dtype);
    Py_DECREF(shape);
    if (pair == NULL) { Py_DECREF(dtype); return -1; }
    PyObject *meta = PyTuple_Pack(1, pair);
    Py_DECREF(pair);
    if (meta == NULL) { Py_DECREF(dtype); return -1; }
    Py_ssize_t nin = PyTuple_GET_SIZE(inputs_in);
    PyObject *inputs = PyTuple_New(nin);
    if (inputs == NULL) { Py_DECREF(dtype); Py_DECREF(meta); return -1; }
    for (Py_ssize_t i = 0; i < nin; i++) {
        PyObject *e = make_edge(PyTuple_GET_ITEM(inputs_in, i));
        if (e == NULL) { Py_DECREF(inputs); Py_DECREF(dtype); Py_DECREF(meta); return -1; }
        PyTuple_SET_ITEM(inputs, i, e);
    }
    PyObject *id = PyIter_Next(S.ids);
    if (id == NULL) { Py_DECREF(inputs); Py_DECREF(dtype); Py_DECREF(meta); return -1; }
    PyObject *node = S.node_type->tp_alloc(S.node_type, 0);
    if (node == NULL) { Py_DECREF(inputs); Py_DECREF(dtype); Py_DECREF(meta); Py_DECREF(id); return -1; }
    FIELD(node, S.n_id) = id;
    FIELD(node, S.n_op) = Py_NewRef(op);
    FIELD(node, S.n_kind) = Py_NewRef(S.s_builtin);
    FIELD(node, S.n_inputs) = inputs;
    FIELD(node, S.n_backward) = Py_NewRef(backward);
    FIELD(node, S.n_out_meta) = meta;
    FIELD(node, S.n_saved_out) = needs_outputs ? PyTuple_Pack(1, data) : Py_NewRef(Py_None);
    FIELD(node, S.n_info) = Py_NewRef(Py_None);
    FIELD(node, S.n_stats) = Py_NewRef(Py_None);
    FIELD(node, S.n_materialize) = Py_NewRef(Py_True);
    if (FIELD(node, S.n_saved_out) == NULL) { Py_DECREF(dtype); Py_DECREF(node); return -1; }
    int fl;
    if (PyArray_DescrCheck(dtype)) {
        char k = ((PyArray_Descr *)dtype)->kind;
        fl = k == 'f' || k == 'c';
        Py_DECREF(dtype);
    } else {
        PyObject *kind = PyObject_GetAttr(dtype, S.s_kind);
        Py_DECREF(dtype);
        if (kind == NULL) { Py_DECREF(node); return -1; }
        fl = PySequence_Contains(S.s_fc, kind);
        Py_DECREF(kind);
        if (fl < 0) { Py_DECREF(node); return -1; }
    }
    if (fl) {
        set_field(out, S.t_rg, Py_NewRef(Py_True));
        set_field(out, S.t_node, node);  /* steals */
    } else {
        Py_DECREF(node);
    }
    return 0;
}

static PyObject *record1(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 && nargs != 5) return PyErr_Format(PyExc_TypeError, "_record1 takes 4 or 5 arguments");
    int needs_outputs = nargs == 5 ? PyObject_IsTrue(args[4]) : 0;
    if (needs_outputs < 0) return NULL;
    if (!PyTuple_Check(args[1])) return PyErr_Format(PyExc_TypeError, "_record1: inputs must be a tuple");
    if (record_node(args[0], args[1], args[2], args[3], needs_outputs) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- phase: backward ---- the backward pass (engine.py), its phases as in _gradients_py ---------- */
static PyObject *grad_error(const char *fmt, ...) {
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (msg == NULL) return NULL;
    PyErr_SetObject(S.grad_error, msg);
    Py_DECREF(msg);
    return NULL;
}

/* a.shape == b.shape and a.dtype == b.dtype, read in place for arrays (0/1; -1 with an error). */
static int same_attr(PyObject *a, PyObject *b, PyObject *name);
static int same_meta(PyObject *a, PyObject *b) {
    if (PyArray_Check(a) && PyArray_Check(b)) {
        PyArrayObject *x = (PyArrayObject *)a, *y = (PyArrayObject *)b;
        int nd = PyArray_NDIM(x);
        if (nd != PyArray_NDIM(y) || memcmp(PyArray_DIMS(x), PyArray_DIMS(y), sizeof(npy_intp) * nd) != 0) return 0;
        return PyArray_DESCR(x) == PyArray_DESCR(y) || PyArray_EquivTypes(PyArray_DESCR(x), PyArray_DESCR(y));
    }
    int same = same_attr(a, b, S.s_shape);
    if (same > 0) same = same_attr(a, b, S.s_dtype);
    return same;
}

static int same_attr(PyObject *a, PyObject *b, PyObject *name) {
    PyObject *x = PyObject_GetAttr(a, name);
    if (x == NULL) return -1;
    PyObject *y = PyObject_GetAttr(b, name);
    if (y == NULL) { Py_DECREF(x); return -1; }
    int r = (x == y) ? 1 : PyObject_RichCompareBool(x, y, Py_EQ);
    Py_DECREF(x); Py_DECREF(y);
    return r;
}

typedef struct {
    int create_graph;
    PyObject *owned;  /* set of Tensors the engine allocated itself: safe to accumulate into in place */
} Acc;

/* prev + g (new reference); accumulates in place into engine-owned buffers. */
static PyObject *accumulate(Acc *acc, PyObject *prev, PyObject *g) {
    if (acc->create_graph) return PyNumber_Add(prev, g);
    PyObject *pd = get_field(prev, S.t_data), *gd = get_field(g, S.t_data);
    int own = PySet_Contains(acc->owned, prev);
    if (own < 0) return NULL;
    if (own) {
        int same = same_meta(pd, gd);
        if (same < 0) return NULL;
        if (same) {
            PyObject *r = PyNumber_InPlaceAdd(pd, gd);  /* np.add(pd, gd, out=pd) */
            if (r == NULL) return NULL;
            Py_DECREF(r);
            return Py_NewRef(prev);
        }
    }
    PyObject *sum = PyNumber_Add(pd, gd);
    if (sum == NULL) return NULL;
    PyObject *t = wrap_array(sum);
    Py_DECREF(sum);
    if (t == NULL) return NULL;
    if (PySet_Add(acc->owned, t) < 0) { Py_DECREF(t); return NULL; }
    return t;
}

/* dict.pop(key, default): a new reference (PyDict_Pop from Python 3.13; before it, the same private call). */
static PyObject *dict_pop(PyObject *d, PyObject *key, PyObject *deflt) {
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *v;
    int rc = PyDict_Pop(d, key, &v);
    if (rc < 0) return NULL;
    return rc ? v : Py_NewRef(deflt);
#else
    return _PyDict_Pop(d, key, deflt);
#endif
}

/* Nodes reachable from the roots, sorted by creation id (ids are unique ints from node.py's counter). */
typedef struct { long long id; PyObject *node; } Keyed;

static int keyed_cmp(const void *a, const void *b) {
    long long x = ((const Keyed *)a)->id, y = ((const Keyed *)b)->id;
    return (x > y) - (x < y);
}

static PyObject *collect(PyObject *roots) {
    PyObject *seen = PySet_New(NULL), *stack = PyList_New(0), *found = PyList_New(0), *nodes = NULL;
    Keyed *keyed = NULL;
    if (!seen || !stack || !found) goto fail;
    Py_ssize_t nr = PySequence_Fast_GET_SIZE(roots);
    for (Py_ssize_t i = 0; i < nr; i++) {
        PyObject *r = PySequence_Fast_GET_ITEM(roots, i);
        if (!PyObject_TypeCheck(r, S.tensor_type)) continue;
        PyObject *n = get_field(r, S.t_node);
        if (n != Py_None && PyList_Append(stack, n) < 0) goto fail;
    }
    while (PyList_GET_SIZE(stack)) {
        Py_ssize_t last = PyList_GET_SIZE(stack) - 1;
        PyObject *n = Py_NewRef(PyList_GET_ITEM(stack, last));
        if (PyList_SetSlice(stack, last, last + 1, NULL) < 0) { Py_DECREF(n); goto fail; }
        int c = PySet_Contains(seen, n);
        if (c) { Py_DECREF(n); if (c < 0) goto fail; continue; }
        if (PySet_Add(seen, n) < 0 || PyList_Append(found, n) < 0) { Py_DECREF(n); goto fail; }
        PyObject *ins = get_field(n, S.n_inputs);
        Py_ssize_t k = PyTuple_Check(ins) ? PyTuple_GET_SIZE(ins) : 0;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *t = PyTuple_GET_ITEM(ins, j);
            if (t == Py_None) continue;
            PyObject *p = get_field(t, S.t_node);
            if (p == Py_None) continue;
            c = PySet_Contains(seen, p);
            if (c < 0) { Py_DECREF(n); goto fail; }
            if (!c && PyList_Append(stack, p) < 0) { Py_DECREF(n); goto fail; }
        }
        Py_DECREF(n);
    }
    Py_ssize_t m = PyList_GET_SIZE(found);
    keyed = PyMem_Malloc(sizeof(Keyed) * (m ? m : 1));
    if (keyed == NULL) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t i = 0; i < m; i++) {
        keyed[i].node = PyList_GET_ITEM(found, i);
        keyed[i].id = PyLong_AsLongLong(get_field(keyed[i].node, S.n_id));
        if (keyed[i].id == -1 && PyErr_Occurred()) goto fail;
    }
    qsort(keyed, (size_t)m, sizeof(Keyed), keyed_cmp);
    nodes = PyList_New(m);
    if (nodes == NULL) goto fail;
    for (Py_ssize_t i = 0; i < m; i++) PyList_SET_ITEM(nodes, i, Py_NewRef(keyed[i].node));
fail:
    PyMem_Free(keyed);
    Py_XDECREF(seen); Py_XDECREF(stack); Py_XDECREF(found);
    return nodes;
}

/* pending[p][idx] (+)= g.  Steals nothing. */
static int add_pending(Acc *acc, PyObject *pending, PyObject *p, PyObject *idx, PyObject *g) {
    PyObject *lst = PyDict_GetItemWithError(pending, p);
    if (lst == NULL) {
        if (PyErr_Occurred()) return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(get_field(p, S.n_out_meta));
        lst = PyList_New(n);
        if (lst == NULL) return -1;
        for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(lst, i, Py_NewRef(Py_None));
        int rc = PyDict_SetItem(pending, p, lst);
        Py_DECREF(lst);
        if (rc < 0) return -1;
    }
    Py_ssize_t i = PyLong_AsSsize_t(idx);
    if (i == -1 && PyErr_Occurred()) return -1;
    PyObject *prev = PyList_GET_ITEM(lst, i);
    PyObject *nv = (prev == Py_None) ? Py_NewRef(g) : accumulate(acc, prev, g);
    if (nv == NULL) return -1;
    return PyList_SetItem(lst, i, nv);  /* steals nv */
}

static int add_leaf(Acc *acc, PyObject *leaf_grads, PyObject *t, PyObject *g) {
    PyObject *prev = PyDict_GetItemWithError(leaf_grads, t);
    if (prev == NULL) return PyErr_Occurred() ? -1 : 0;
    PyObject *nv = (prev == Py_None) ? Py_NewRef(g) : accumulate(acc, prev, g);
    if (nv == NULL) return -1;
    int rc = PyDict_SetItem(leaf_grads, t, nv);
    Py_DECREF(nv);
    return rc;
}

static PyObject *gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) return PyErr_Format(PyExc_TypeError, "gradients takes 5 arguments");
    PyObject *roots_in = args[0], *targets_in = args[1], *sens_in = args[2];
    int create_graph = PyObject_IsTrue(args[3]), retain_graph = PyObject_IsTrue(args[4]);
    if (create_graph < 0 || retain_graph < 0) return NULL;
    PyObject *roots = NULL, *targets = NULL, *sens = NULL, *leaf_grads = NULL, *node_keys = NULL, *relevant = NULL;
    PyObject *nodes = NULL, *runnable = NULL, *pending = NULL, *result = NULL, *prev_mode = NULL;
    Acc acc = {create_graph, NULL};
    int mode_set = 0, ok = 0;

    roots = PySequence_Fast(roots_in, "roots must be a sequence");
    targets = PySequence_Fast(targets_in, "targets must be a sequence");
    if (!roots || !targets) goto done;
    if (sens_in != Py_None && !(sens = PySequence_Fast(sens_in, "sens must be a sequence"))) goto done;
    leaf_grads = PyDict_New(); node_keys = PyDict_New(); relevant = PySet_New(NULL);
    runnable = PySet_New(NULL); pending = PyDict_New(); acc.owned = PySet_New(NULL);
    if (!leaf_grads || !node_keys || !relevant || !runnable || !pending || !acc.owned) goto done;

    /* ---- phase: targets ---- */
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(targets);
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(targets, i);
        if (!PyObject_TypeCheck(t, S.tensor_type)) {
            PyErr_Format(PyExc_TypeError, "gradients: target %zd must be a Tensor, but got %s", i, Py_TYPE(t)->tp_name);
            goto done;
        }
        PyObject *n = get_field(t, S.t_node);
        if (n == Py_None) {
            if (PyDict_SetItem(leaf_grads, t, Py_None) < 0) goto done;
        } else {
            PyObject *key = PyTuple_Pack(2, n, get_field(t, S.t_idx));
            PyObject *iv = PyLong_FromSsize_t(i);
            int rc = (key && iv) ? PyDict_SetItem(node_keys, key, iv) : -1;
            Py_XDECREF(key); Py_XDECREF(iv);
            if (rc < 0 || PySet_Add(relevant, n) < 0) goto done;
        }
    }
    /* ---- phase: collect ---- */
    if (!(nodes = collect(roots))) goto done;
    Py_ssize_t nn = PyList_GET_SIZE(nodes);
    for (Py_ssize_t k = 0; k < nn; k++) {
        PyObject *n = PyList_GET_ITEM(nodes, k);
        PyObject *ins = get_field(n, S.n_inputs);
        Py_ssize_t m = PyTuple_GET_SIZE(ins);
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *t = PyTuple_GET_ITEM(ins, j);
            if (t == Py_None || get_field(t, S.t_rg) != Py_True) continue;
            PyObject *p = get_field(t, S.t_node);
            int hit = (p == Py_None) ? PyDict_Contains(leaf_grads, t) : PySet_Contains(relevant, p);
            if (hit < 0) goto done;
            if (hit) {
                if (PySet_Add(relevant, n) < 0 || PySet_Add(runnable, n) < 0) goto done;
                break;
            }
        }
    }

    /* ---- phase: seed ---- */
    Py_ssize_t nroots = PySequence_Fast_GET_SIZE(roots);
    for (Py_ssize_t i = 0; i < nroots; i++) {
        PyObject *r = PySequence_Fast_GET_ITEM(roots, i);
        if (sens && i >= PySequence_Fast_GET_SIZE(sens)) break;  /* zip() semantics */
        if (!PyObject_TypeCheck(r, S.tensor_type) || get_field(r, S.t_rg) != Py_True) continue;
        PyObject *s = sens ? Py_NewRef(PySequence_Fast_GET_ITEM(sens, i)) : Py_NewRef(Py_None);
        if (s == Py_None) {
            Py_DECREF(s);
            PyObject *shape, *dtype;
            if (shape_dtype(get_field(r, S.t_data), &shape, &dtype) < 0) goto done;
            PyObject *one = (PyTuple_Check(shape) && PyTuple_GET_SIZE(shape) == 0 && PyDict_Check(S.scalar_ones))
                            ? PyDict_GetItemWithError(S.scalar_ones, dtype) : NULL;  /* _ones' cached 0-d ones */
            s = one ? wrap_array(one) : PyErr_Occurred() ? NULL : PyObject_CallFunctionObjArgs(S.ones, shape, dtype, NULL);
            Py_DECREF(shape); Py_DECREF(dtype);
            if (s == NULL) goto done;
        }
        PyObject *p = get_field(r, S.t_node);
        int rc = 0;
        if (p == Py_None) {
            rc = add_leaf(&acc, leaf_grads, r, s);
        } else {
            int rel = PySet_Contains(relevant, p);
            rc = rel < 0 ? -1 : (rel ? add_pending(&acc, pending, p, get_field(r, S.t_idx), s) : 0);
        }
        Py_DECREF(s);
        if (rc < 0) goto done;
    }

    /* ---- phase: run ---- */
    if (!(result = PyList_New(nt))) goto done;
    for (Py_ssize_t i = 0; i < nt; i++) PyList_SET_ITEM(result, i, Py_NewRef(Py_None));
    if (!(prev_mode = PyObject_GetAttr(S.state, S.s_enabled))) goto done;
    if (PyObject_SetAttr(S.state, S.s_enabled, create_graph ? Py_True : Py_False) < 0) goto done;
    mode_set = 1;
    int release = !(retain_graph || create_graph);
    PyObject *cap = PyObject_GetAttr(S.state, S.s_capture);
    if (cap == NULL) goto done;
    int capture = PyObject_IsTrue(cap);
    Py_DECREF(cap);
    if (capture < 0) goto done;
    int have_keys = PyDict_GET_SIZE(node_keys) > 0;

    for (Py_ssize_t k = nn - 1; k >= 0; k--) {
        PyObject *node = PyList_GET_ITEM(nodes, k);
        PyObject *douts = dict_pop(pending, node, Py_None);  /* new reference */
        if (douts == NULL) goto done;
        if (douts == Py_None) { Py_DECREF(douts); continue; }
        Py_ssize_t nd = PyList_GET_SIZE(douts);
        if (have_keys) {
            for (Py_ssize_t j = 0; j < nd; j++) {
                PyObject *d = PyList_GET_ITEM(douts, j);
                if (d == Py_None) continue;
                PyObject *jj = PyLong_FromSsize_t(j);
                PyObject *key = jj ? PyTuple_Pack(2, node, jj) : NULL;
                Py_XDECREF(jj);
                if (key == NULL) { Py_DECREF(douts); goto done; }
                PyObject *kv = PyDict_GetItemWithError(node_keys, key);
                Py_DECREF(key);
                if (kv == NULL) { if (PyErr_Occurred()) { Py_DECREF(douts); goto done; } continue; }
                if (PyList_SetItem(result, PyLong_AsSsize_t(kv), Py_NewRef(d)) < 0) { Py_DECREF(douts); goto done; }
            }
        }
        int run = PySet_Contains(runnable, node);
        if (run <= 0) { Py_DECREF(douts); if (run < 0) goto done; continue; }
        PyObject *backward = Py_NewRef(get_field(node, S.n_backward));
        if (backward == Py_None) {
            Py_DECREF(backward); Py_DECREF(douts);
            grad_error("For '%U', its graph was already released by an earlier backward pass; run the forward "
                       "again (or pass retain_graph=True).", get_field(node, S.n_op));
            goto done;
        }
        if ((nd != 1 || PyList_GET_ITEM(douts, 0) == Py_None) && get_field(node, S.n_materialize) == Py_True) {
            PyObject *md = PyObject_CallFunctionObjArgs(S.materialize, node, douts, NULL);
            Py_DECREF(douts);
            if (md == NULL) { Py_DECREF(backward); goto done; }
            douts = md;
        }
        PyObject *grads, *saved = get_field(node, S.n_saved_out);
        if (saved == Py_None) {
            grads = PyObject_CallOneArg(backward, douts);
        } else {
            PyObject *outs = NULL;
            if (!create_graph && PyTuple_Check(saved)) {  /* _saved_outs without recording: plain wraps */
                Py_ssize_t ns = PyTuple_GET_SIZE(saved);
                outs = PyList_New(ns);
                for (Py_ssize_t j = 0; outs && j < ns; j++) {
                    PyObject *o = wrap_array(PyTuple_GET_ITEM(saved, j));
                    if (o == NULL) { Py_CLEAR(outs); break; }
                    PyList_SET_ITEM(outs, j, o);
                }
            } else {
                outs = PyObject_CallFunctionObjArgs(S.saved_outs, node, create_graph ? Py_True : Py_False, NULL);
            }
            grads = outs ? PyObject_CallFunctionObjArgs(backward, douts, outs, NULL) : NULL;
            Py_XDECREF(outs);
        }
        Py_DECREF(backward);
        if (grads == NULL) { Py_DECREF(douts); goto done; }
        if (release) {
            set_field(node, S.n_backward, Py_NewRef(Py_None));
            set_field(node, S.n_saved_out, Py_NewRef(Py_None));
        }
        PyObject *inputs = get_field(node, S.n_inputs);
        Py_ssize_t ni = PyTuple_GET_SIZE(inputs);
        PyObject *gs = NULL;
        if (grads != Py_None) {
            gs = PySequence_Fast(grads, "");
            if (gs == NULL) PyErr_Clear();
        }
        if (gs == NULL || PySequence_Fast_GET_SIZE(gs) != ni) {
            PyObject *got = gs ? PyUnicode_FromFormat("%zd", PySequence_Fast_GET_SIZE(gs))
                               : PyUnicode_FromString(grads == Py_None ? "None" : "?");
            if (gs == NULL && grads != Py_None) {  /* len(grads) raised in the reference: same error */
                Py_XDECREF(got);
                Py_DECREF(grads); Py_DECREF(douts);
                PyErr_Format(PyExc_TypeError, "object of type '%s' has no len()", Py_TYPE(grads)->tp_name);
                goto done;
            }
            grad_error("For '%U', the backward rule returned %U gradients for %zd inputs.",
                       get_field(node, S.n_op), got, ni);
            Py_XDECREF(got); Py_XDECREF(gs); Py_DECREF(grads); Py_DECREF(douts);
            goto done;
        }
        if (capture) {
            PyObject *r = PyObject_CallFunctionObjArgs(S.capture, node, douts, grads, NULL);
            if (r == NULL) { Py_DECREF(gs); Py_DECREF(grads); Py_DECREF(douts); goto done; }
            Py_DECREF(r);
        }
        Py_DECREF(douts);
        /* ---- phase: route ---- */
        for (Py_ssize_t pos = 0; pos < ni; pos++) {
            PyObject *g = PySequence_Fast_GET_ITEM(gs, pos);
            if (g == Py_None) continue;
            PyObject *t = PyTuple_GET_ITEM(inputs, pos);
            if (t == Py_None || get_field(t, S.t_rg) != Py_True) continue;
            PyObject *p = get_field(t, S.t_node);
            int want = (p == Py_None) ? PyDict_Contains(leaf_grads, t) : PySet_Contains(relevant, p);
            if (want <= 0) { if (want < 0) goto loop_fail; continue; }
            if (!PyObject_TypeCheck(g, S.tensor_type)) {
                grad_error("For '%U', the backward rule returned a %s as the gradient of input %zd; expected a "
                           "Tensor or None.", get_field(node, S.n_op), Py_TYPE(g)->tp_name, pos);
                goto loop_fail;
            }
            Py_INCREF(g);
            int same = same_meta(get_field(g, S.t_data), get_field(t, S.t_data));
            if (same < 0) { Py_DECREF(g); goto loop_fail; }
            if (!same) {
                PyObject *ppos = PyLong_FromSsize_t(pos);
                PyObject *g2 = ppos ? PyObject_CallFunctionObjArgs(S.reduce_to, g, t, node, ppos, NULL) : NULL;
                Py_XDECREF(ppos);
                Py_DECREF(g);
                if (g2 == NULL) goto loop_fail;
                g = g2;
            }
            int rc = (p == Py_None) ? add_leaf(&acc, leaf_grads, t, g)
                                    : add_pending(&acc, pending, p, get_field(t, S.t_idx), g);
            Py_DECREF(g);
            if (rc < 0) goto loop_fail;
        }
        Py_DECREF(gs); Py_DECREF(grads);
        continue;
    loop_fail:
        Py_DECREF(gs); Py_DECREF(grads);
        goto done;
    }
    /* ---- phase: results ---- */
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(targets, i);
        if (get_field(t, S.t_node) != Py_None) continue;
        PyObject *g = PyDict_GetItemWithError(leaf_grads, t);
        if (g == NULL) { if (PyErr_Occurred()) goto done; continue; }
        if (PyList_SetItem(result, i, Py_NewRef(g)) < 0) goto done;
    }
    ok = 1;
done:
    if (mode_set) {
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        if (PyObject_SetAttr(S.state, S.s_enabled, prev_mode) < 0 && ok) ok = 0; else if (!ok) PyErr_Clear();
        if (et) PyErr_Restore(et, ev, tb);
    }
    Py_XDECREF(prev_mode);
    Py_XDECREF(roots); Py_XDECREF(targets); Py_XDECREF(sens); Py_XDECREF(leaf_grads); Py_XDECREF(node_keys);
    Py_XDECREF(relevant); Py_XDECREF(nodes); Py_XDECREF(runnable); Py_XDECREF(pending); Py_XDECREF(acc.owned);
    if (!ok) { Py_XDECREF(result); return NULL; }
    return result;
}

/* a.dtype is b.dtype (the identity test of ops/math.py's _binary; builtin dtypes are singletons). No error set. */
static int same_dtype(PyObject *a, PyObject *b) {
    if (PyArray_Check(a) && PyArray_Check(b)) return PyArray_DESCR((PyArrayObject *)a) == PyArray_DESCR((PyArrayObject *)b);
    PyObject *dta = PyObject_GetAttr(a, S.s_dtype), *dtb = dta ? PyObject_GetAttr(b, S.s_dtype) : NULL;
    Py_XDECREF(dta); Py_XDECREF(dtb);
    if (dtb == NULL) PyErr_Clear();
    return dta != NULL && dta == dtb;
}

static int float_kind_array(PyObject *arr) {  /* 1 when arr.dtype.kind == 'f' */
    if (PyArray_Check(arr)) return PyArray_DESCR((PyArrayObject *)arr)->kind == 'f';
    PyObject *dt = PyObject_GetAttr(arr, S.s_dtype);
    if (dt == NULL) { PyErr_Clear(); return 0; }
    PyObject *kind = PyObject_GetAttr(dt, S.s_kind);
    Py_DECREF(dt);
    if (kind == NULL) { PyErr_Clear(); return 0; }
    int r = PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) == 1 && PyUnicode_READ_CHAR(kind, 0) == 'f';
    Py_DECREF(kind);
    return r;
}

/* ---- grad()'s common call ---------------------------------------------------------------------------
 * grad_call(fn, args, kwargs, positions) runs api._run's steps for the call grad/value_and_grad make most
 * often: the inputs at `positions` are untracked float Tensors, no weights, no sens, no aux, no Cell bprop
 * (api.py picks those calls), no leaf hooks and not inside another grad (checked here). It returns
 * (detached output, [gradient per position]), or None before running anything when the call is not of
 * that kind (then api._run, the reference, runs it). bind_grad(helpers) gives it api's _outputs, _detach,
 * zeros for a target without a gradient, and the leaf-hook table. */
static PyObject *s_depth, *s_base, *s_strides, *s_flags, *s_writeable, *s_copy;
static PyObject *grad_outputs, *grad_detach, *grad_zeros, *grad_leaf_table;

static PyObject *bind_grad(PyObject *self, PyObject *helpers) {
    if (!PyDict_Check(helpers)) return PyErr_Format(PyExc_TypeError, "bind_grad expects a dict");
    struct { const char *name; PyObject **dst; } hs[] = {
        {"outputs", &grad_outputs}, {"detach", &grad_detach}, {"zeros", &grad_zeros}, {"leaf_table", &grad_leaf_table}};
    for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
        PyObject *v = PyDict_GetItemString(helpers, hs[i].name);
        if (v == NULL) return PyErr_Format(PyExc_KeyError, "_cengine.bind_grad: missing helper %s", hs[i].name);
        Py_INCREF(v);
        Py_XSETREF(*hs[i].dst, v);
    }
    if (!s_depth) {
        s_depth = PyUnicode_InternFromString("depth"); s_base = PyUnicode_InternFromString("base");
        s_strides = PyUnicode_InternFromString("strides"); s_flags = PyUnicode_InternFromString("flags");
        s_writeable = PyUnicode_InternFromString("writeable"); s_copy = PyUnicode_InternFromString("copy");
    }
    Py_RETURN_NONE;
}

/* api._finalize: a gradient the user may keep and write (own buffer, not aliasing another returned one). */
static PyObject *finalize(PyObject *g, PyObject **seen, Py_ssize_t *nseen) {
    PyObject *arr = get_field(g, S.t_data);
    int copy = 0;
    PyObject *base = PyObject_GetAttr(arr, s_base);
    if (base == NULL) return NULL;
    Py_DECREF(base);
    if (base != Py_None) {
        PyObject *strides = PyObject_GetAttr(arr, s_strides);
        if (strides == NULL) return NULL;
        copy = PySequence_Contains(strides, S.zero);
        Py_DECREF(strides);
        if (copy < 0) return NULL;
        if (!copy) {
            PyObject *flags = PyObject_GetAttr(arr, s_flags);
            PyObject *w = flags ? PyObject_GetAttr(flags, s_writeable) : NULL;
            Py_XDECREF(flags);
            if (w == NULL) return NULL;
            copy = !PyObject_IsTrue(w);
            Py_DECREF(w);
        }
    }
    for (Py_ssize_t j = 0; !copy && j < *nseen; j++) copy = seen[j] == arr;
    PyObject *res = copy ? PyObject_CallMethodNoArgs(arr, s_copy) : Py_NewRef(arr);
    if (res == NULL) return NULL;
    seen[(*nseen)++] = res;  /* kept alive by the result below */
    if (res == arr && get_field(g, S.t_node) == Py_None) {
        Py_DECREF(res);
        set_field(g, S.t_rg, Py_NewRef(Py_False));
        return Py_NewRef(g);
    }
    PyObject *t = wrap_array(res);
    Py_DECREF(res);
    return t;
}

static PyObject *gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

static PyObject *grad_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "grad_call takes 4 arguments");
    PyObject *fn = args[0], *fargs = args[1], *kwargs = args[2], *positions = args[3];
    if (S.state == NULL || grad_outputs == NULL || !PyTuple_Check(fargs) || !PyTuple_Check(positions) ||
        (kwargs != Py_None && !PyDict_Check(kwargs)) || (PyDict_Check(grad_leaf_table) && PyDict_GET_SIZE(grad_leaf_table)))
        Py_RETURN_NONE;
    PyObject *depth = PyObject_GetAttr(S.state, s_depth);
    if (depth == NULL) return NULL;
    int nested = !(PyLong_CheckExact(depth) && PyLong_AsLong(depth) == 0);
    Py_DECREF(depth);
    if (nested) Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(fargs), npos = PyTuple_GET_SIZE(positions);
    for (Py_ssize_t i = 0; i < npos; i++) {  /* every check before anything runs */
        PyObject *po = PyTuple_GET_ITEM(positions, i);
        Py_ssize_t p = PyLong_CheckExact(po) ? PyLong_AsSsize_t(po) : -1;
        if (p < 0 || p >= n) { PyErr_Clear(); Py_RETURN_NONE; }
        PyObject *a = PyTuple_GET_ITEM(fargs, p);
        if (Py_TYPE(a) != S.tensor_type || get_field(a, S.t_rg) != Py_False) Py_RETURN_NONE;
        if (!float_kind_array(get_field(a, S.t_data))) Py_RETURN_NONE;
    }
    PyObject *call = PyTuple_New(n), *targets = PyList_New(npos);  /* a new tuple: the caller's stays as it is */
    for (Py_ssize_t i = 0; call && i < n; i++) PyTuple_SET_ITEM(call, i, Py_NewRef(PyTuple_GET_ITEM(fargs, i)));
    PyObject *out = NULL, *roots = NULL, *grads = NULL, *result = NULL, *prev = NULL;
    PyObject **seen = PyMem_Malloc(sizeof(PyObject *) * (npos + 1));
    Py_ssize_t nseen = 0;
    int state_set = 0;
    if (call == NULL || targets == NULL || seen == NULL) goto done;
    for (Py_ssize_t i = 0; i < npos; i++) {
        Py_ssize_t p = PyLong_AsSsize_t(PyTuple_GET_ITEM(positions, i));
        PyObject *t = wrap_array(get_field(PyTuple_GET_ITEM(fargs, p), S.t_data));
        if (t == NULL) goto done;
        set_field(t, S.t_rg, Py_NewRef(Py_True));
        PyList_SET_ITEM(targets, i, t);
        Py_SETREF(((PyTupleObject *)call)->ob_item[p], Py_NewRef(t));
    }
    /* ---- api._run: recording on (depth 1), fn, the backward, recording restored ---- */
    if (!(prev = PyObject_GetAttr(S.state, S.s_enabled))) goto done;
    PyObject *one = PyLong_FromLong(1);
    if (one == NULL || PyObject_SetAttr(S.state, s_depth, one) < 0) { Py_XDECREF(one); goto done; }
    Py_DECREF(one);
    state_set = 1;
    if (PyObject_SetAttr(S.state, S.s_enabled, Py_True) < 0) goto done;
    out = PyObject_Call(fn, call, kwargs == Py_None ? NULL : kwargs);
    if (out == NULL) goto done;
    if (Py_TYPE(out) == S.tensor_type) {
        roots = PyTuple_Pack(1, out);
    } else {
        PyObject *ra = PyObject_CallFunctionObjArgs(grad_outputs, out, Py_False, NULL);
        if (ra != NULL && PyTuple_Check(ra) && PyTuple_GET_SIZE(ra) == 2) roots = Py_NewRef(PyTuple_GET_ITEM(ra, 0));
        else if (ra != NULL) PyErr_SetString(PyExc_TypeError, "grad_call: _outputs returned an unexpected value");
        Py_XDECREF(ra);
    }
    if (roots == NULL) goto done;
    PyObject *gargs[5] = {roots, targets, Py_None, Py_False, Py_False};
    grads = gradients(NULL, gargs, 5);
done:
    if (state_set) {  /* as _run's finally: restored whatever happened */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        if (PyObject_SetAttr(S.state, s_depth, S.zero) < 0 || PyObject_SetAttr(S.state, S.s_enabled, prev) < 0) {
            if (et) PyErr_Clear(); else { Py_CLEAR(grads); PyErr_Fetch(&et, &ev, &tb); }
        }
        if (et) PyErr_Restore(et, ev, tb);
    }
    if (grads != NULL) {  /* ---- api._run's results: zeros for no gradient, finalized gradients, detached output ---- */
        PyObject *full = PyList_New(npos);
        for (Py_ssize_t i = 0; full && i < npos; i++) {
            PyObject *g = PyList_GET_ITEM(grads, i), *t = PyList_GET_ITEM(targets, i);
            PyObject *r = g == Py_None ? PyObject_CallOneArg(grad_zeros, t) : finalize(g, seen, &nseen);
            if (r == NULL) { Py_CLEAR(full); break; }
            PyList_SET_ITEM(full, i, r);
        }
        PyObject *dout = full == NULL ? NULL : Py_TYPE(out) == S.tensor_type ? wrap_array(get_field(out, S.t_data))
                                                                             : PyObject_CallOneArg(grad_detach, out);
        if (dout != NULL) result = PyTuple_Pack(2, dout, full);
        Py_XDECREF(dout); Py_XDECREF(full);
    }
    Py_XDECREF(call); Py_XDECREF(targets); Py_XDECREF(out); Py_XDECREF(roots); Py_XDECREF(grads); Py_XDECREF(prev);
    PyMem_Free(seen);
    return result;
}

/* ---- built-in backward rules in C ------------------------------------------------------------------
 * What the Tensor operators' C path (Binop, below) records as a node's backward: the same rule, step for
 * step, as the lambda the op records in mskernel/ops/math.py (add/sub/mul/div) or the op table (neg),
 * keeping only the operands that rule keeps. It computes with the Tensor operators, so a backward that is
 * itself recorded (create_graph) records its ops exactly as the lambda would. One line per rule: */
enum { R_NONE = -1, R_ADD, R_SUB, R_MUL, R_DIV, R_NEG, R_SUM };
static const struct { const char *name, *prim; int rule; } OPERATOR_RULES[] = {
    /* operator  node    rule       gradients                                   keeps */
    {"add",      "Add",  R_ADD},    /* (d, d)                                      nothing */
    {"sub",      "Sub",  R_SUB},    /* (d, -d if y tracked)                        nothing */
    {"mul",      "Mul",  R_MUL},    /* (d*y if x tracked, d*x if y tracked)        y if x tracked, x if y tracked */
    {"div",      "Div",  R_DIV},    /* (d/y if x tracked, -d*x/(y*y) if y tracked) y, and x if y tracked */
    {"neg",      "Neg",  R_NEG},    /* (-d,)                                       nothing */
    {"sum", "ReduceSum", R_SUM},    /* (d spread over x's shape,): x.sum() of all axes  x's shape */
};

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int kind, xr, yr;
    PyObject *prim, *x, *y;   /* x, y: the operands the rule reads, else NULL (R_SUM: x is x's shape) */
} Rule;

static PyTypeObject RuleType;
static PyObject *rule_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames);

static PyObject *rule_new_c(int kind, PyObject *prim, PyObject *x, PyObject *y, int xr, int yr) {
    Rule *r = PyObject_GC_New(Rule, &RuleType);
    if (r == NULL) return NULL;
    r->kind = kind; r->xr = xr; r->yr = yr;
    r->prim = Py_NewRef(prim);
    int need_x = (kind == R_MUL || kind == R_DIV) && yr;             /* d*x, -d*x/(y*y) */
    int need_y = (kind == R_MUL && xr) || kind == R_DIV;             /* d*y; d/y, y*y */
    if (kind == R_SUM) {
        r->x = PyObject_GetAttr(get_field(x, S.t_data), S.s_shape);
        if (r->x == NULL) { r->y = NULL; Py_DECREF(r); return NULL; }
    } else {
        r->x = need_x ? Py_NewRef(x) : NULL;
    }
    r->y = need_y ? Py_NewRef(y) : NULL;
    r->vectorcall = (vectorcallfunc)rule_vectorcall;
    PyObject_GC_Track(r);
    return (PyObject *)r;
}

static PyObject *pair_or_fail(PyObject *g0, PyObject *g1) {  /* steals both; NULL if either is NULL */
    PyObject *t = (g0 && g1) ? PyTuple_Pack(2, g0, g1) : NULL;
    Py_XDECREF(g0); Py_XDECREF(g1);
    return t;
}

/* The ufunc of each rule's operator (set when its Binop is made), for arith() below. */
static PyObject *RULE_UFUNC[R_SUM + 1];

/* a <op> b for the rules (b NULL: the unary minus). While grad mode is off (a backward pass that is not
 * recorded) and both are float Tensors of one dtype -- every case the engine itself produces -- the ufunc
 * runs on the arrays directly, as the Tensor operator's fast path would; otherwise the Tensor operator. */
static PyObject *arith(int rule, PyObject *a, PyObject *b, int direct) {
    PyObject *uf = RULE_UFUNC[rule];
    if (direct && uf != NULL && Py_TYPE(a) == S.tensor_type && (b == NULL || Py_TYPE(b) == S.tensor_type)) {
        PyObject *ad = get_field(a, S.t_data), *bd = b ? get_field(b, S.t_data) : NULL;
        int ok = same_dtype(ad, bd ? bd : ad) && float_kind_array(ad);
        if (ok) {
            PyObject *res = bd ? PyObject_CallFunctionObjArgs(uf, ad, bd, NULL) : PyObject_CallOneArg(uf, ad);
            if (res != NULL) {
                PyObject *t = wrap_array(res);
                Py_DECREF(res);
                return t;
            }
        }
        PyErr_Clear();  /* the Tensor operator gives the op's own result or error */
    }
    switch (rule) {
    case R_ADD: return PyNumber_Add(a, b);
    case R_SUB: return PyNumber_Subtract(a, b);
    case R_MUL: return PyNumber_Multiply(a, b);
    case R_DIV: return PyNumber_TrueDivide(a, b);
    default: return PyNumber_Negative(a);
    }
}

/* reduce.py's _expand(d, shape, all axes, keepdims=False): a 0-d d not being recorded becomes a read-only-as-d
 * stride-0 view np.ndarray(shape, d.dtype, d, 0, (0,)*len(shape)); everything else goes to _expand (bound). */
static PyObject *sum_expand_py;
static PyObject *sum_spread(PyObject *d, PyObject *shape, int direct) {
    if (direct && Py_TYPE(d) == S.tensor_type && PyTuple_Check(shape)) {
        PyObject *a = get_field(d, S.t_data);
        Py_ssize_t nd = PyTuple_GET_SIZE(shape);
        PyObject *view = NULL;
        if (PyArray_CheckExact(a) && PyArray_NDIM((PyArrayObject *)a) == 0 && nd <= NPY_MAXDIMS) {
            npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
            int ok = 1;
            for (Py_ssize_t i = 0; i < nd; i++) {
                dims[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
                strides[i] = 0;
                if (dims[i] < 0) ok = 0;
            }
            PyArrayObject *arr = (PyArrayObject *)a;
            if (ok) {  /* np.ndarray(shape, a.dtype, a, 0, (0,)*nd): a view of a's one value, writeable as a is */
                PyArray_Descr *descr = PyArray_DESCR(arr);
                Py_INCREF(descr);
                int flags = PyArray_FLAGS(arr) & NPY_ARRAY_WRITEABLE;
                view = PyArray_NewFromDescr(&PyArray_Type, descr, (int)nd, dims, strides, PyArray_DATA(arr), flags,
                                            NULL);
                if (view != NULL && PyArray_SetBaseObject((PyArrayObject *)view, Py_NewRef(a)) < 0) Py_CLEAR(view);
            }
        }
        if (view != NULL) {
            PyObject *t = wrap_array(view);
            Py_DECREF(view);
            return t;
        }
        PyErr_Clear();  /* the Python helper does it, or raises */
    }
    if (sum_expand_py == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_sum was not called");
    return PyObject_CallFunctionObjArgs(sum_expand_py, d, shape, NULL);
}

static PyObject *bind_sum(PyObject *self, PyObject *fn) {
    Py_INCREF(fn);
    Py_XSETREF(sum_expand_py, fn);
    Py_RETURN_NONE;
}

/* The gradients of the operands for the output gradient d (a new tuple). */
static PyObject *rule_grads(Rule *r, PyObject *d) {
    PyObject *en = PyObject_GetAttr(S.state, S.s_enabled);
    if (en == NULL) return NULL;
    Py_DECREF(en);
    int direct = en != Py_True;
    switch (r->kind) {
    case R_ADD:
        return PyTuple_Pack(2, d, d);
    case R_SUB:
        return pair_or_fail(Py_NewRef(d), r->yr ? arith(R_NEG, d, NULL, direct) : Py_NewRef(Py_None));
    case R_MUL: {
        PyObject *g0 = r->xr ? arith(R_MUL, d, r->y, direct) : Py_NewRef(Py_None);
        if (g0 == NULL) return NULL;
        return pair_or_fail(g0, r->yr ? arith(R_MUL, d, r->x, direct) : Py_NewRef(Py_None));
    }
    case R_DIV: {
        PyObject *g0 = r->xr ? arith(R_DIV, d, r->y, direct) : Py_NewRef(Py_None);
        if (g0 == NULL || !r->yr) return pair_or_fail(g0, Py_NewRef(Py_None));
        PyObject *nd = arith(R_NEG, d, NULL, direct), *ndx = nd ? arith(R_MUL, nd, r->x, direct) : NULL;
        Py_XDECREF(nd);
        PyObject *yy = ndx ? arith(R_MUL, r->y, r->y, direct) : NULL;
        PyObject *g1 = yy ? arith(R_DIV, ndx, yy, direct) : NULL;
        Py_XDECREF(ndx); Py_XDECREF(yy);
        return pair_or_fail(g0, g1);
    }
    case R_SUM: {  /* reduce.py's _expand for all axes: a stride-0 view of the one value, or the recorded ops */
        PyObject *g0 = sum_spread(d, r->x, direct);
        if (g0 == NULL) return NULL;
        PyObject *t = PyTuple_Pack(1, g0);
        Py_DECREF(g0);
        return t;
    }
    case R_NEG: {
        PyObject *g0 = arith(R_NEG, d, NULL, direct);
        if (g0 == NULL) return NULL;
        PyObject *t = PyTuple_Pack(1, g0);
        Py_DECREF(g0);
        return t;
    }
    }
    return PyErr_Format(PyExc_SystemError, "_cengine: unknown rule %d", r->kind);
}

static PyObject *rule_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    if (kwnames != NULL || PyVectorcall_NARGS(nargsf) != 1)
        return PyErr_Format(PyExc_TypeError, "the backward of %U takes one argument (the output gradients)",
                            ((Rule *)self)->prim);
    PyObject *d = PySequence_GetItem(args[0], 0);
    if (d == NULL) return NULL;
    PyObject *grads = rule_grads((Rule *)self, d);
    Py_DECREF(d);
    return grads;
}

static int rule_traverse(Rule *r, visitproc visit, void *arg) {
    Py_VISIT(r->x); Py_VISIT(r->y);
    return 0;
}

static int rule_clear(Rule *r) {
    Py_CLEAR(r->x); Py_CLEAR(r->y);
    return 0;
}

static void rule_dealloc(Rule *r) {
    PyObject_GC_UnTrack(r);
    rule_clear(r);
    Py_CLEAR(r->prim);
    PyObject_GC_Del(r);
}

static PyObject *rule_repr(Rule *r) { return PyUnicode_FromFormat("<backward of %U (C rule)>", r->prim); }

static PyTypeObject RuleType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel._cengine.Rule",
    .tp_basicsize = sizeof(Rule),
    .tp_dealloc = (destructor)rule_dealloc,
    .tp_vectorcall_offset = offsetof(Rule, vectorcall),
    .tp_repr = (reprfunc)rule_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A built-in op's backward rule in C (recorded by the Tensor operators' C path).",
    .tp_traverse = (traverseproc)rule_traverse,
    .tp_clear = (inquiry)rule_clear,
};

/* ---- Tensor operators: a C path for float tensors ----------------------------------------------
 * Binop(name, ufunc, fallback, reflected) is installed as Tensor.__mul__ etc. When both operands are float
 * Tensors of one dtype (or a float Tensor and a Python int/float, which becomes a 0-d array of the tensor's
 * dtype exactly as MindSpore's promotion does), it calls the ufunc and wraps the result; when grad mode is
 * on and an operand is tracked it also records the node the op in mskernel/ops/math.py would record, with
 * its backward rule in C (OPERATOR_RULES). Everything else -- promotion, errors -- goes to `fallback`. */
typedef struct {
    PyObject_HEAD
    PyObject *name, *ufunc, *fallback, *prim;
    int reflected, rule;
    vectorcallfunc vectorcall;
} Binop;


/* 1: grad mode is on and one of the operands is tracked (the op must record); 0: not; -1: error. */
static int must_record(PyObject *a, PyObject *b) {
    if (get_field(a, S.t_rg) != Py_True && (b == NULL || Py_TYPE(b) != S.tensor_type || get_field(b, S.t_rg) != Py_True))
        return 0;
    PyObject *en = PyObject_GetAttr(S.state, S.s_enabled);
    if (en == NULL) return -1;
    Py_DECREF(en);
    return en == Py_True;
}

/* Record out = op(left, right) (or op(left) when right is NULL) with the op's C rule. Steals nothing. */
static int record_operator(Binop *op, PyObject *left, PyObject *right, PyObject *out) {
    int xr = get_field(left, S.t_rg) == Py_True, yr = right && get_field(right, S.t_rg) == Py_True;
    PyObject *rule = rule_new_c(op->rule, op->prim, left, right, xr, yr);
    if (rule == NULL) return -1;
    PyObject *inputs = right ? PyTuple_Pack(2, left, right) : PyTuple_Pack(1, left);
    int rc = inputs ? record_node(op->prim, inputs, out, rule, 0) : -1;
    Py_XDECREF(inputs);
    Py_DECREF(rule);
    return rc;
}

static PyObject *binop_fast(Binop *op, PyObject *a, PyObject *b) {  /* NULL without error: not applicable */
    if (S.state == NULL || Py_TYPE(a) != S.tensor_type) return NULL;
    PyObject *ad = get_field(a, S.t_data), *bd, *bt = NULL;
    int b_tensor = Py_TYPE(b) == S.tensor_type;
    int rec = must_record(a, b);
    if (rec < 0) { PyErr_Clear(); return NULL; }
    if (rec && (op->rule == R_NONE || S.node_type == NULL)) return NULL;  /* the Python op records */
    if (b_tensor) {
        bd = get_field(b, S.t_data);
        if (!same_dtype(ad, bd)) return NULL;
        if (!float_kind_array(ad)) return NULL;
    } else if (PyFloat_CheckExact(b) || PyLong_CheckExact(b)) {
        if (!float_kind_array(ad)) return NULL;
        bd = b;
        if (rec) {  /* the recorded node's operand: a 0-d Tensor of a's dtype, as the op makes it */
            PyObject *dta = PyObject_GetAttr(ad, S.s_dtype);
            PyObject *arr = dta ? PyObject_CallFunctionObjArgs(S.asarray, b, dta, NULL) : NULL;
            Py_XDECREF(dta);
            if (arr == NULL) { PyErr_Clear(); return NULL; }
            bt = wrap_array(arr);
            Py_DECREF(arr);
            if (bt == NULL) return NULL;
            bd = get_field(bt, S.t_data);
            b = bt;
        }
    } else {
        return NULL;
    }
    PyObject *r = op->reflected ? PyObject_CallFunctionObjArgs(op->ufunc, bd, ad, NULL)
                                : PyObject_CallFunctionObjArgs(op->ufunc, ad, bd, NULL);
    if (r == NULL) { PyErr_Clear(); Py_XDECREF(bt); return NULL; }  /* e.g. shapes that do not broadcast */
    PyObject *t = wrap_array(r);
    Py_DECREF(r);
    if (t != NULL && rec && record_operator(op, op->reflected ? b : a, op->reflected ? a : b, t) < 0) Py_CLEAR(t);
    Py_XDECREF(bt);
    return t;
}

static PyObject *unop_fast(Binop *op, PyObject *a) {  /* the same for a unary operator (-x) */
    if (S.state == NULL || Py_TYPE(a) != S.tensor_type) return NULL;
    PyObject *ad = get_field(a, S.t_data);
    if (!float_kind_array(ad)) return NULL;
    int rec = must_record(a, NULL);
    if (rec < 0) { PyErr_Clear(); return NULL; }
    if (rec && (op->rule == R_NONE || S.node_type == NULL)) return NULL;
    PyObject *r;
    if (op->rule == R_SUM) {  /* np.add.reduce(data, (0, 1, ..., ndim-1)) as ops.sum computes it */
        PyObject *shape = PyObject_GetAttr(ad, S.s_shape);
        if (shape == NULL || !PyTuple_Check(shape)) { Py_XDECREF(shape); PyErr_Clear(); return NULL; }
        Py_ssize_t nd = PyTuple_GET_SIZE(shape);
        Py_DECREF(shape);
        PyObject *axes = PyTuple_New(nd);
        for (Py_ssize_t i = 0; axes && i < nd; i++) {
            PyObject *k = PyLong_FromSsize_t(i);
            if (k == NULL) { Py_CLEAR(axes); break; }
            PyTuple_SET_ITEM(axes, i, k);
        }
        r = axes ? PyObject_CallFunctionObjArgs(op->ufunc, ad, axes, NULL) : NULL;
        Py_XDECREF(axes);
    } else {
        r = PyObject_CallOneArg(op->ufunc, ad);
    }
    if (r == NULL) { PyErr_Clear(); return NULL; }
    PyObject *t = wrap_array(r);
    Py_DECREF(r);
    if (t != NULL && rec && record_operator(op, a, NULL, t) < 0) Py_CLEAR(t);
    return t;
}

static PyObject *binop_call(Binop *op, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && n == 1 && !op->reflected) {
        PyObject *r = unop_fast(op, args[0]);
        if (r != NULL || PyErr_Occurred()) return r;
    } else if (kwnames == NULL && n == 2 && op->rule != R_SUM) {
        PyObject *r = binop_fast(op, args[0], args[1]);
        if (r != NULL || PyErr_Occurred()) return r;
        if (op->reflected) {
            PyObject *sw[2] = {args[1], args[0]};
            return PyObject_Vectorcall(op->fallback, sw, 2, NULL);
        }
    } else if (op->reflected) {
        return PyErr_Format(PyExc_TypeError, "%U expects 2 positional arguments", op->name);
    }
    return PyObject_Vectorcall(op->fallback, args, nargsf, kwnames);
}

static PyObject *binop_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static void binop_dealloc(Binop *op) {
    Py_XDECREF(op->name); Py_XDECREF(op->ufunc); Py_XDECREF(op->fallback); Py_XDECREF(op->prim);
    Py_TYPE(op)->tp_free((PyObject *)op);
}

static PyObject *binop_repr(Binop *op) { return PyUnicode_FromFormat("<Tensor operator %U>", op->name); }

static PyObject *binop_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    PyObject *name, *ufunc, *fallback;
    int reflected = 0;
    if (!PyArg_ParseTuple(args, "UOO|p", &name, &ufunc, &fallback, &reflected)) return NULL;
    Binop *op = (Binop *)tp->tp_alloc(tp, 0);
    if (op == NULL) return NULL;
    op->name = Py_NewRef(name); op->ufunc = Py_NewRef(ufunc); op->fallback = Py_NewRef(fallback);
    op->reflected = reflected;
    op->rule = R_NONE;
    for (size_t i = 0; i < sizeof(OPERATOR_RULES) / sizeof(OPERATOR_RULES[0]); i++)
        if (PyUnicode_CompareWithASCIIString(name, OPERATOR_RULES[i].name) == 0) {
            op->rule = OPERATOR_RULES[i].rule;
            if (RULE_UFUNC[op->rule] == NULL) RULE_UFUNC[op->rule] = Py_NewRef(ufunc);
            op->prim = PyUnicode_InternFromString(OPERATOR_RULES[i].prim);
            if (op->prim == NULL) { Py_DECREF(op); return NULL; }
        }
    op->vectorcall = (vectorcallfunc)binop_call;
    return (PyObject *)op;
}

static PyTypeObject BinopType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel._cengine.Binop",
    .tp_basicsize = sizeof(Binop),
    .tp_dealloc = (destructor)binop_dealloc,
    .tp_vectorcall_offset = offsetof(Binop, vectorcall),
    .tp_repr = (reprfunc)binop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "Binop(name, ufunc, fallback, reflected=False): a Tensor operator with a C fast path.",
    .tp_descr_get = binop_get,
    .tp_new = binop_new,
};

/* ---- the operands of a binary op: binary(op, ufunc, x, y) -> (x, y, out) ------------------------
 * The fast cases of _binary in mskernel/ops/math.py: two Tensors of one dtype, or a float Tensor and
 * a Python int/float (which becomes a 0-d Tensor of the tensor's dtype). Everything else, and any
 * error, goes to the Python _binary (bound by bind_binary), which promotes and raises the op's error. */
static PyObject *binary_slow;

static PyObject *binary(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "binary takes 4 arguments");
    PyObject *x = args[2], *y = args[3];
    if (binary_slow == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_binary was not called");
    if (Py_TYPE(x) == S.tensor_type) {
        PyObject *xd = get_field(x, S.t_data);
        PyObject *dtx = PyObject_GetAttr(xd, S.s_dtype);
        if (dtx == NULL) return NULL;
        PyObject *yt = NULL, *yd = NULL;
        if (Py_TYPE(y) == S.tensor_type) {
            yd = get_field(y, S.t_data);
            PyObject *dty = PyObject_GetAttr(yd, S.s_dtype);
            if (dty == NULL) { Py_DECREF(dtx); return NULL; }
            Py_DECREF(dty);
            if (dty == dtx) yt = Py_NewRef(y);
        } else if ((PyFloat_CheckExact(y) || PyLong_CheckExact(y)) && float_kind_array(xd)) {
            PyObject *arr = PyObject_CallFunctionObjArgs(S.asarray, y, dtx, NULL);
            if (arr == NULL) { PyErr_Clear(); } else {
                yt = wrap_array(arr);
                Py_DECREF(arr);
                if (yt == NULL) { Py_DECREF(dtx); return NULL; }
                yd = get_field(yt, S.t_data);
            }
        }
        Py_DECREF(dtx);
        if (yt != NULL) {
            PyObject *r = PyObject_CallFunctionObjArgs(args[1], xd, yd, NULL);
            if (r != NULL) {
                PyObject *out = wrap_array(r);
                Py_DECREF(r);
                if (out == NULL) { Py_DECREF(yt); return NULL; }
                PyObject *res = PyTuple_Pack(3, x, yt, out);
                Py_DECREF(yt); Py_DECREF(out);
                return res;
            }
            PyErr_Clear();  /* the Python path raises the op's own error */
            Py_DECREF(yt);
        }
    }
    return PyObject_Vectorcall(binary_slow, args, nargs, NULL);
}

static PyObject *bind_binary(PyObject *self, PyObject *fn) {
    Py_INCREF(fn);
    Py_XSETREF(binary_slow, fn);
    Py_RETURN_NONE;
}

/* ---- ops.Custom calls: CustomCall(slow) is installed as Custom.__call__ -----------------------------
 * op._fast maps a call signature -- the (shape, dtype) of each argument, every argument a Tensor, the
 * same key as Custom._plans -- to a plan (run, multi, record): run(arrays) returns a tuple of ndarrays
 * (or None: take the slow path for this call), the outputs are wrapped, and record(args, outs) is
 * called when an input is tracked and grad mode is on. Everything else (an argument that is not a
 * Tensor, a signature not planned yet) calls `slow` (Custom._call, which plans). The Python reference
 * of these steps is Custom.__call__ in mskernel/ops/custom.py. */
typedef struct {
    PyObject_HEAD
    PyObject *slow, *s_fast;
    vectorcallfunc vectorcall;
} CustomCall;

#define CUSTOM_MAX_ARGS 64

/* The plan for this call's signature (a new reference), or NULL: none (no error set) or an error. */
static PyObject *custom_plan(CustomCall *cc, PyObject *op, PyObject *const *args, Py_ssize_t n, int *tracked) {
    if (S.state == NULL || n == 0 || n > CUSTOM_MAX_ARGS) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyObject_TypeCheck(args[i], S.tensor_type) || Py_TYPE(get_field(args[i], S.t_data)) != S.ndarray_type)
            return NULL;
        if (get_field(args[i], S.t_rg) == Py_True) *tracked = 1;
    }
    PyObject *key = PyTuple_New(2 * n);
    if (key == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *shape, *dtype;
        if (shape_dtype(get_field(args[i], S.t_data), &shape, &dtype) < 0) { Py_DECREF(key); return NULL; }
        PyTuple_SET_ITEM(key, 2 * i, shape);
        PyTuple_SET_ITEM(key, 2 * i + 1, dtype);
    }
    PyObject *fast = PyObject_GetAttr(op, cc->s_fast);
    if (fast == NULL || !PyDict_Check(fast)) { Py_DECREF(key); Py_XDECREF(fast); PyErr_Clear(); return NULL; }
    PyObject *plan = PyDict_GetItemWithError(fast, key);  /* borrowed */
    Py_DECREF(key);
    if (plan == NULL || !PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 3) plan = NULL;
    Py_XINCREF(plan);
    Py_DECREF(fast);
    if (plan == NULL) PyErr_Clear();
    return plan;
}

/* Run a plan: the op's result (new reference); NULL with an error; NULL without one: run() declined. */
static PyObject *custom_run(PyObject *plan, PyObject *const *args, Py_ssize_t n, int tracked) {
    PyObject *arrays = PyTuple_New(n);
    if (arrays == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(arrays, i, Py_NewRef(get_field(args[i], S.t_data)));
    PyObject *res = PyObject_CallOneArg(PyTuple_GET_ITEM(plan, 0), arrays);
    Py_DECREF(arrays);
    if (res == NULL) return NULL;
    if (res == Py_None) { Py_DECREF(res); return NULL; }
    if (!PyTuple_Check(res)) {
        PyErr_Format(PyExc_TypeError, "Custom: a plan's run() returned %.100s, not a tuple", Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return NULL;
    }
    Py_ssize_t nout = PyTuple_GET_SIZE(res);
    PyObject *outs = PyTuple_New(nout);
    if (outs == NULL) { Py_DECREF(res); return NULL; }
    for (Py_ssize_t j = 0; j < nout; j++) {
        PyObject *t = wrap_array(PyTuple_GET_ITEM(res, j));
        if (t == NULL) { Py_DECREF(res); Py_DECREF(outs); return NULL; }
        PyTuple_SET_ITEM(outs, j, t);
    }
    Py_DECREF(res);
    if (tracked) {
        PyObject *en = PyObject_GetAttr(S.state, S.s_enabled);
        if (en == NULL) { Py_DECREF(outs); return NULL; }
        Py_DECREF(en);
        if (en == Py_True) {
            PyObject *argt = PyTuple_New(n);
            if (argt == NULL) { Py_DECREF(outs); return NULL; }
            for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(argt, i, Py_NewRef(args[i]));
            PyObject *r = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(plan, 2), argt, outs, NULL);
            Py_DECREF(argt);
            if (r == NULL) { Py_DECREF(outs); return NULL; }
            Py_DECREF(r);
        }
    }
    int multi = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 1));
    if (multi < 0) { Py_DECREF(outs); return NULL; }
    if (multi) return outs;
    PyObject *one = nout >= 1 ? Py_NewRef(PyTuple_GET_ITEM(outs, 0)) : NULL;
    if (one == NULL) PyErr_SetString(PyExc_TypeError, "Custom: a single-output plan produced no output");
    Py_DECREF(outs);
    return one;
}

static PyObject *customcall_call(CustomCall *cc, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && n >= 1) {  /* args[0] is the op */
        int tracked = 0;
        PyObject *plan = custom_plan(cc, args[0], args + 1, n - 1, &tracked);
        if (plan == NULL && PyErr_Occurred()) return NULL;
        if (plan != NULL) {
            PyObject *r = custom_run(plan, args + 1, n - 1, tracked);
            Py_DECREF(plan);
            if (r != NULL || PyErr_Occurred()) return r;
        }
    }
    return PyObject_Vectorcall(cc->slow, args, nargsf, kwnames);
}

static PyObject *customcall_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static void customcall_dealloc(CustomCall *cc) {
    Py_XDECREF(cc->slow); Py_XDECREF(cc->s_fast);
    Py_TYPE(cc)->tp_free((PyObject *)cc);
}

static PyObject *customcall_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    PyObject *slow;
    if (!PyArg_ParseTuple(args, "O", &slow)) return NULL;
    CustomCall *cc = (CustomCall *)tp->tp_alloc(tp, 0);
    if (cc == NULL) return NULL;
    cc->slow = Py_NewRef(slow);
    cc->s_fast = PyUnicode_InternFromString("_fast");
    if (cc->s_fast == NULL) { Py_DECREF(cc); return NULL; }
    cc->vectorcall = (vectorcallfunc)customcall_call;
    return (PyObject *)cc;
}

static PyTypeObject CustomCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel._cengine.CustomCall",
    .tp_basicsize = sizeof(CustomCall),
    .tp_dealloc = (destructor)customcall_dealloc,
    .tp_vectorcall_offset = offsetof(CustomCall, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "CustomCall(slow): Custom.__call__ with a C fast path through op._fast (see Custom.__call__).",
    .tp_descr_get = customcall_get,
    .tp_new = customcall_new,
};

static PyMethodDef methods[] = {
    {"bind_tensor", bind_tensor, METH_VARARGS, "bind_tensor(Tensor, ndarray, asarray): enables wrap()."},
    {"bind_node", bind_node, METH_VARARGS, "bind_node(Node, ids): enables record1()."},
    {"bind_engine", bind_engine, METH_O, "bind_engine(helpers): enables gradients()."},
    {"binary", (PyCFunction)(void (*)(void))binary, METH_FASTCALL, "binary(op, ufunc, x, y) -> (x, y, out)."},
    {"bind_grad", bind_grad, METH_O, "bind_grad(helpers): enables grad_call()."},
    {"grad_call", (PyCFunction)(void (*)(void))grad_call, METH_FASTCALL,
     "grad_call(fn, args, kwargs, positions) -> (output, grads) or None (see api._run)."},
    {"bind_sum", bind_sum, METH_O, "bind_sum(fn): reduce.py's spread of a full sum's gradient, for the rare cases."},
    {"bind_binary", bind_binary, METH_O, "bind_binary(fn): the Python _binary, for everything but the fast cases."},
    {"wrap", wrap, METH_O, WRAP_DOC},
    {"record1", (PyCFunction)(void (*)(void))record1, METH_FASTCALL, "record1(op, inputs, out, backward, needs_outputs=False)."},
    {"gradients", (PyCFunction)(void (*)(void))gradients, METH_FASTCALL,
     "gradients(roots, targets, sens, create_graph, retain_graph) -> list."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_cengine",
                                    "The autograd engine's hot loops in C (see mskernel/autograd/engine.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cengine(void) {
    import_array();
    if (PyType_Ready(&BinopType) < 0 || PyType_Ready(&CustomCallType) < 0 || PyType_Ready(&RuleType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Binop", (PyObject *)&BinopType) < 0 ||
        PyModule_AddObjectRef(m, "CustomCall", (PyObject *)&CustomCallType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
