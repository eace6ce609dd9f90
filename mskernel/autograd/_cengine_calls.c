/* mskernel.autograd._cengine: grad()'s common call and ops.Custom calls. */
#include "_cengine.h"

/* ---- grad()'s common call ---------------------------------------------------------------------------
 * grad_call(fn, args, kwargs, positions) runs api._run's steps for the call grad/value_and_grad make most
 * often: the inputs at `positions` are untracked float Tensors, no weights, no sens, no aux, no Cell bprop
 * (api.py picks those calls), no leaf hooks and not inside another grad (checked here). It returns
 * (detached output, [gradient per position]), or None before running anything when the call is not of
 * that kind (then api._run, the reference, runs it). bind_grad(helpers) gives it api's _outputs, _detach,
 * zeros for a target without a gradient, the leaf-hook table and apply_leaf_hooks (for hooks fn registers). */
static PyObject *s_depth;
static PyObject *grad_outputs, *grad_detach, *grad_zeros, *grad_leaf_table, *grad_apply_hooks;

PyObject *bind_grad(PyObject *self, PyObject *helpers) {
    if (!PyDict_Check(helpers)) return PyErr_Format(PyExc_TypeError, "bind_grad expects a dict");
    struct { const char *name; PyObject **dst; } hs[] = {
        {"outputs", &grad_outputs}, {"detach", &grad_detach}, {"zeros", &grad_zeros}, {"leaf_table", &grad_leaf_table},
        {"apply_leaf_hooks", &grad_apply_hooks}};
    for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
        PyObject *v = PyDict_GetItemString(helpers, hs[i].name);
        if (v == NULL) return PyErr_Format(PyExc_KeyError, "_cengine.bind_grad: missing helper %s", hs[i].name);
        Py_INCREF(v);
        Py_XSETREF(*hs[i].dst, v);
    }
    if (!s_depth && !(s_depth = PyUnicode_InternFromString("depth"))) return NULL;
    Py_RETURN_NONE;
}

/* api._finalize: a gradient the user may keep and write (own buffer, not aliasing another returned one): a view
 * with a zero stride or read-only, or an array already returned, is copied. */
static PyObject *finalize(PyObject *g, PyObject **seen, Py_ssize_t *nseen) {
    PyObject *arr = get_field(g, S.t_data);
    if (!PyArray_Check(arr)) return PyErr_Format(PyExc_TypeError, "grad_call: a gradient without array data");
    PyArrayObject *a = (PyArrayObject *)arr;
    int copy = 0;
    if (PyArray_BASE(a) != NULL) {
        for (int i = 0; i < PyArray_NDIM(a) && !copy; i++) copy = PyArray_STRIDES(a)[i] == 0;
        copy = copy || !PyArray_ISWRITEABLE(a);
    }
    for (Py_ssize_t j = 0; !copy && j < *nseen; j++) copy = seen[j] == arr;
    PyObject *res = copy ? PyArray_NewCopy(a, NPY_CORDER) : Py_NewRef(arr);
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

PyObject *grad_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "grad_call takes 4 arguments");
    PyObject *fn = args[0], *fargs = args[1], *kwargs = args[2], *positions = args[3];
    if (S.state == NULL || grad_outputs == NULL || !PyTuple_Check(fargs) || !PyTuple_Check(positions) ||
        (kwargs != Py_None && !PyDict_Check(kwargs)) || (PyDict_Check(grad_leaf_table) && PyDict_GET_SIZE(grad_leaf_table)))
        Py_RETURN_NONE;
    PyObject *depth = PyObject_GetAttr(S.state, s_depth);
    if (depth == NULL) return NULL;
    int nested = !(PyLong_CheckExact(depth) && PyLong_AsLong(depth) == 0);
    Py_DECREF(depth);
    PyErr_Clear();  /* a depth too large for a C long is simply not 0 */
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
            PyObject *g = PyList_GET_ITEM(grads, i), *t = PyList_GET_ITEM(targets, i), *r;
            if (g != Py_None && PyDict_Check(grad_leaf_table) && PyDict_GET_SIZE(grad_leaf_table)) {
                /* hooks fn registered on its inputs */
                PyObject *h = PyObject_CallFunctionObjArgs(grad_apply_hooks, t, g, NULL);
                r = h == NULL ? NULL : h == Py_None ? PyObject_CallOneArg(grad_zeros, t) : finalize(h, seen, &nseen);
                Py_XDECREF(h);
            } else {
                r = g == Py_None ? PyObject_CallOneArg(grad_zeros, t) : finalize(g, seen, &nseen);
            }
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

PyTypeObject CustomCallType = {
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
