/* mskernel.autograd._cengine: grad()'s call and ops.Custom calls. */
#include "_cengine.h"

/* ---- grad()'s call ----------------------------------------------------------------------------------------
 * grad_call(fn, args, kwargs, positions, weights, has_aux, sens, ints) -> (output, aux, input grads, weight
 * grads): one gradient call of grad/value_and_grad/GradOperation (mskernel/autograd/api.py says what each argument
 * means and structures the result). The steps: recording on (one grad deeper); the inputs at `positions` replaced
 * by tracked tensors sharing their data; the weights tracked for the call; fn run; its outputs (and aux) taken; one
 * backward pass (recorded too when this call is inside another grad); tracking and recording restored whatever
 * happened; leaf hooks applied, zeros for targets the outputs do not reach, each gradient the user's own buffer;
 * the output detached. bind_grad(helpers) gives it api.py's helpers for the steps' general cases: track_inputs,
 * _outputs, _sens_list, _detach, _zeros_for, and hooks.py's leaf-hook table and apply_leaf_hooks. */
static PyObject *grad_track, *grad_outputs, *grad_sens_list, *grad_detach, *grad_zeros, *grad_leaf_table,
    *grad_apply_hooks;

PyObject *bind_grad(PyObject *self, PyObject *helpers) {
    if (!PyDict_Check(helpers)) return PyErr_Format(PyExc_TypeError, "bind_grad expects a dict");
    struct { const char *name; PyObject **dst; } hs[] = {
        {"track_inputs", &grad_track}, {"outputs", &grad_outputs}, {"sens_list", &grad_sens_list},
        {"detach", &grad_detach}, {"zeros", &grad_zeros}, {"leaf_table", &grad_leaf_table},
        {"apply_leaf_hooks", &grad_apply_hooks}};
    for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
        PyObject *v = PyDict_GetItemString(helpers, hs[i].name);
        if (v == NULL) return PyErr_Format(PyExc_KeyError, "_cengine.bind_grad: missing helper %s", hs[i].name);
        Py_INCREF(v);
        Py_XSETREF(*hs[i].dst, v);
    }
    if (!PyDict_Check(grad_leaf_table)) return PyErr_Format(PyExc_TypeError, "bind_grad: leaf_table must be a dict");
    Py_RETURN_NONE;
}

/* A gradient the user may keep and write: its own buffer, not aliasing another returned gradient nor anything the
 * engine shares (a read-only array -- a cached seed, a stride-0 spread -- or a view with a zero stride is copied).
 * `seen` is a set of the ids of the arrays returned so far (new reference; NULL with an error). */
PyObject *finalize_grad(PyObject *g, PyObject *seen) {
    if (!PyObject_TypeCheck(g, S.tensor_type) || !PyAnySet_Check(seen))
        return PyErr_Format(PyExc_TypeError, "finalize: a Tensor and a set are required");
    PyObject *arr = get_field(g, S.t_data);
    if (!PyArray_Check(arr)) return PyErr_Format(PyExc_TypeError, "grad: a gradient without array data");
    PyArrayObject *a = (PyArrayObject *)arr;
    int copy = !PyArray_ISWRITEABLE(a);
    if (PyArray_BASE(a) != NULL)
        for (int i = 0; i < PyArray_NDIM(a) && !copy; i++) copy = PyArray_STRIDES(a)[i] == 0;
    PyObject *key = PyLong_FromVoidPtr(arr);
    if (key == NULL) return NULL;
    if (!copy) copy = PySet_Contains(seen, key);
    Py_DECREF(key);
    if (copy < 0) return NULL;
    PyObject *res = copy ? PyArray_NewCopy(a, NPY_CORDER) : Py_NewRef(arr);
    if (res == NULL) return NULL;
    key = PyLong_FromVoidPtr(res);  /* the copy stays alive in the result, so its id stays its own */
    if (key == NULL || PySet_Add(seen, key) < 0) { Py_XDECREF(key); Py_DECREF(res); return NULL; }
    Py_DECREF(key);
    if (res == arr && get_field(g, S.t_node) == Py_None) {
        Py_DECREF(res);
        set_field(g, S.t_rg, Py_NewRef(Py_False));
        return Py_NewRef(g);
    }
    PyObject *t = wrap_array(res);
    Py_DECREF(res);
    return t;
}

/* The tracked call arguments and the input targets: (list, list), new references; NULL with an error. The common
 * case (untracked Tensors, no leaf hooks) here; everything else by api.track_inputs. */
static int track(PyObject *fargs, PyObject *positions, int ints, PyObject **call, PyObject **targets) {
    Py_ssize_t n = PyTuple_GET_SIZE(fargs), npos = positions == Py_None ? 0 : PyTuple_GET_SIZE(positions);
    int simple = PyDict_GET_SIZE(grad_leaf_table) == 0;
    for (Py_ssize_t i = 0; simple && i < npos; i++) {
        PyObject *po = PyTuple_GET_ITEM(positions, i);
        Py_ssize_t p = PyLong_CheckExact(po) ? PyLong_AsSsize_t(po) : -1;
        if (p < 0) PyErr_Clear();
        simple = p >= 0 && p < n && PyObject_TypeCheck(PyTuple_GET_ITEM(fargs, p), S.tensor_type) &&
                 get_field(PyTuple_GET_ITEM(fargs, p), S.t_rg) != Py_True;
    }
    if (!simple) {
        PyObject *none = PyTuple_New(0), *r = NULL;
        if (none != NULL)
            r = PyObject_CallFunctionObjArgs(grad_track, fargs, positions == Py_None ? none : positions, S.s_grad,
                                             ints ? Py_True : Py_False, NULL);
        Py_XDECREF(none);
        if (r == NULL) return -1;
        if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_TypeError, "grad_call: track_inputs returned an unexpected value");
            return -1;
        }
        *call = Py_NewRef(PyTuple_GET_ITEM(r, 0));
        *targets = Py_NewRef(PyTuple_GET_ITEM(r, 1));
        Py_DECREF(r);
        return 0;
    }
    *call = PySequence_List(fargs);
    *targets = PyList_New(npos);
    if (*call == NULL || *targets == NULL) { Py_CLEAR(*call); Py_CLEAR(*targets); return -1; }
    for (Py_ssize_t i = 0; i < npos; i++) {
        Py_ssize_t p = PyLong_AsSsize_t(PyTuple_GET_ITEM(positions, i));
        PyObject *d = get_field(PyTuple_GET_ITEM(fargs, p), S.t_data);
        PyObject *t = wrap_array(d);
        if (t == NULL) { Py_CLEAR(*call); Py_CLEAR(*targets); return -1; }
        char k = PyArray_Check(d) ? PyArray_DESCR((PyArrayObject *)d)->kind : 'O';
        int rg = k == 'f' || k == 'c' || (ints && (k == 'i' || k == 'u' || k == 'b'))
                 || (k == 'V' && low_precision_float(PyArray_DESCR((PyArrayObject *)d)));
        set_field(t, S.t_rg, Py_NewRef(rg ? Py_True : Py_False));
        PyList_SET_ITEM(*targets, i, t);
        if (PyList_SetItem(*call, p, Py_NewRef(t)) < 0) { Py_CLEAR(*call); Py_CLEAR(*targets); return -1; }
    }
    return 0;
}

PyObject *grad_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) return PyErr_Format(PyExc_TypeError, "grad_call takes 8 arguments");
    PyObject *fn = args[0], *fargs = args[1], *kwargs = args[2], *positions = args[3], *weights = args[4];
    PyObject *sens = args[6];
    int has_aux = PyObject_IsTrue(args[5]), ints = PyObject_IsTrue(args[7]);
    if (has_aux < 0 || ints < 0) return NULL;
    if (S.state == NULL || grad_track == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_grad first");
    if (!PyTuple_Check(fargs) || (positions != Py_None && !PyTuple_Check(positions)) ||
        (weights != Py_None && !PyTuple_Check(weights)) || (kwargs != Py_None && !PyDict_Check(kwargs)))
        return PyErr_Format(PyExc_TypeError, "grad_call: args, positions and weights must be tuples, kwargs a dict");
    Py_ssize_t nw = weights == Py_None ? 0 : PyTuple_GET_SIZE(weights);
    PyObject *call = NULL, *in_targets = NULL, *callt = NULL, *out = NULL, *roots = NULL, *aux = Py_NewRef(Py_None);
    PyObject *sens_list = Py_NewRef(Py_None), *targets = NULL, *grads = NULL, *result = NULL;
    PyObject *restore = PyList_New(0), *seen = NULL, *full = NULL;
    int state_set = 0, create_graph = 0, prev_enabled = 1;
    Py_ssize_t prev_depth = 0;
    if (restore == NULL) goto done;

    /* ---- recording on, one grad deeper (api.recording; both restored to what they were at the end) ---- */
    Flags *flags = flags_of(S.state);
    if (flags == NULL) goto done;
    prev_enabled = flags->enabled;
    prev_depth = flags->depth;
    create_graph = prev_depth > 0;  /* inside an outer grad: this backward is recorded too */
    flags->depth = prev_depth + 1;
    flags->enabled = 1;
    state_set = 1;
    /* ---- the tracked inputs and weights ---- */
    if (track(fargs, positions, ints, &call, &in_targets) < 0) goto done;
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = PyTuple_GET_ITEM(weights, i);
        if (!PyObject_TypeCheck(w, S.tensor_type)) {
            PyErr_Format(PyExc_TypeError, "grad: weights[%zd] must be a Parameter, not %s", i, Py_TYPE(w)->tp_name);
            goto done;
        }
        if (get_field(w, S.t_rg) != Py_True && float_kind_array(get_field(w, S.t_data))) {
            set_field(w, S.t_rg, Py_NewRef(Py_True));
            if (PyList_Append(restore, w) < 0) goto done;
        }
    }
    /* ---- fn, its outputs ---- */
    if (!(callt = PySequence_Tuple(call))) goto done;
    if (!(out = PyObject_Call(fn, callt, kwargs == Py_None ? NULL : kwargs))) goto done;
    if (Py_TYPE(out) == S.tensor_type && !has_aux) {
        roots = PyList_New(1);
        if (roots == NULL) goto done;
        PyList_SET_ITEM(roots, 0, Py_NewRef(out));
    } else {
        PyObject *ra = PyObject_CallFunctionObjArgs(grad_outputs, out, has_aux ? Py_True : Py_False, NULL);
        if (ra == NULL) goto done;
        if (!PyTuple_Check(ra) || PyTuple_GET_SIZE(ra) != 2) {
            Py_DECREF(ra);
            PyErr_SetString(PyExc_TypeError, "grad_call: _outputs returned an unexpected value");
            goto done;
        }
        roots = Py_NewRef(PyTuple_GET_ITEM(ra, 0));
        Py_SETREF(aux, Py_NewRef(PyTuple_GET_ITEM(ra, 1)));
        Py_DECREF(ra);
    }
    if (sens != Py_None) {
        Py_SETREF(sens_list, PyObject_CallFunctionObjArgs(grad_sens_list, sens, out, roots, NULL));
        if (sens_list == NULL) goto done;
    }
    /* ---- the backward pass ---- */
    if (!(targets = PySequence_List(in_targets))) goto done;
    for (Py_ssize_t i = 0; i < nw; i++)
        if (PyList_Append(targets, PyTuple_GET_ITEM(weights, i)) < 0) goto done;
    PyObject *gargs[5] = {roots, targets, sens_list, create_graph ? Py_True : Py_False, Py_False};
    grads = gradients(NULL, gargs, 5);
done:
    {   /* ---- tracking and recording restored, whatever happened ---- */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        int failed = 0;
        for (Py_ssize_t i = 0; restore && i < PyList_GET_SIZE(restore); i++)
            set_field(PyList_GET_ITEM(restore, i), S.t_rg, Py_NewRef(Py_False));
        if (state_set) {
            Flags *f = flags_of(S.state);  /* read again: fn ran Python in between */
            if (f != NULL) { f->depth = prev_depth; f->enabled = prev_enabled; } else failed = 1;
        }
        if (failed && et) PyErr_Clear();
        if (failed && !et) Py_CLEAR(grads);
        if (et) PyErr_Restore(et, ev, tb);
    }
    if (grads != NULL) {  /* ---- the results: hooks, zeros, the user's own buffers, the detached output ---- */
        Py_ssize_t nt = PyList_GET_SIZE(grads);
        seen = PySet_New(NULL);
        full = seen ? PyList_New(nt) : NULL;
        for (Py_ssize_t i = 0; full && i < nt; i++) {
            PyObject *g = Py_NewRef(PyList_GET_ITEM(grads, i)), *t = PyList_GET_ITEM(targets, i), *r;
            if (g != Py_None && PyDict_GET_SIZE(grad_leaf_table))
                Py_SETREF(g, PyObject_CallFunctionObjArgs(grad_apply_hooks, t, g, NULL));
            if (g == NULL) r = NULL;
            else if (g == Py_None) r = PyObject_CallOneArg(grad_zeros, t);
            else if (create_graph) r = Py_NewRef(g);
            else if (!PyObject_TypeCheck(g, S.tensor_type))
                r = PyErr_Format(PyExc_TypeError, "grad: a gradient must be a Tensor, not %s", Py_TYPE(g)->tp_name);
            else r = finalize_grad(g, seen);
            Py_XDECREF(g);
            if (r == NULL) { Py_CLEAR(full); break; }
            PyList_SET_ITEM(full, i, r);
        }
        if (full != NULL && !create_graph) {
            PyObject *dout = Py_TYPE(out) == S.tensor_type ? wrap_array(get_field(out, S.t_data))
                                                           : PyObject_CallOneArg(grad_detach, out);
            PyObject *daux = dout && aux != Py_None ? PyObject_CallOneArg(grad_detach, aux) : Py_XNewRef(aux);
            if (dout == NULL || daux == NULL) { Py_XDECREF(dout); Py_XDECREF(daux); Py_CLEAR(full); }
            else { Py_SETREF(out, dout); Py_SETREF(aux, daux); }
        }
        if (full != NULL) {
            Py_ssize_t n = PyList_GET_SIZE(in_targets);
            PyObject *gi = PyList_GetSlice(full, 0, n), *gw = PyList_GetSlice(full, n, nt);
            if (gi && gw) result = PyTuple_Pack(4, out, aux, gi, gw);
            Py_XDECREF(gi); Py_XDECREF(gw);
        }
    }
    Py_XDECREF(call); Py_XDECREF(in_targets); Py_XDECREF(callt); Py_XDECREF(out); Py_XDECREF(roots); Py_XDECREF(aux);
    Py_XDECREF(sens_list); Py_XDECREF(targets); Py_XDECREF(grads); Py_XDECREF(restore);
    Py_XDECREF(seen); Py_XDECREF(full);
    return result;
}

/* ---- ops.Custom calls: CustomCall(slow) is installed as Custom.__call__ -----------------------------
 * op._fast maps a call signature -- the (shape, dtype) of each argument, every argument a Tensor, the
 * same key as Custom._plans -- to a plan (run, multi, record): run(arrays) returns a tuple of ndarrays
 * (or None: take the slow path for this call), the outputs are wrapped, and record(args, outs) is
 * called when an input is tracked and grad mode is on. Everything else (an argument that is not a
 * Tensor, a signature not planned yet) calls `slow` (Custom._call, which plans the signature and runs that
 * first call). op._last remembers the previous planned call's (key, plan), so a repeated signature is read off the
 * arrays without building the key. */
typedef struct {
    PyObject_HEAD
    PyObject *slow, *s_fast, *s_last;
    vectorcallfunc vectorcall;
} CustomCall;

#define CUSTOM_MAX_ARGS 64

/* The plan for this call's signature (a new reference), or NULL: none (no error set) or an error. */
/* Whether the arrays of `args` have the shapes and dtypes of `key` (shape, dtype, shape, dtype, ...), read in place. */
static int same_signature(PyObject *key, PyObject *const *args, Py_ssize_t n) {
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2 * n) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyArrayObject *a = (PyArrayObject *)get_field(args[i], S.t_data);
        PyObject *shape = PyTuple_GET_ITEM(key, 2 * i);
        if ((PyObject *)PyArray_DESCR(a) != PyTuple_GET_ITEM(key, 2 * i + 1)) return 0;
        int nd = PyArray_NDIM(a);
        if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != nd) return 0;
        for (int d = 0; d < nd; d++) {
            PyObject *s = PyTuple_GET_ITEM(shape, d);
            if (!PyLong_CheckExact(s) || PyLong_AsSsize_t(s) != PyArray_DIMS(a)[d]) { PyErr_Clear(); return 0; }
        }
    }
    return 1;
}

static PyObject *custom_plan(CustomCall *cc, PyObject *op, PyObject *const *args, Py_ssize_t n, int *tracked) {
    if (S.state == NULL || n == 0 || n > CUSTOM_MAX_ARGS) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyObject_TypeCheck(args[i], S.tensor_type) || Py_TYPE(get_field(args[i], S.t_data)) != S.ndarray_type)
            return NULL;
        if (get_field(args[i], S.t_rg) == Py_True) *tracked = 1;
    }
    /* op._last: (key, plan) of the op's previous planned call; the same signature again (the usual case) is read
     * off the arrays without building the key */
    PyObject *last = PyObject_GetAttr(op, cc->s_last);
    if (last == NULL) PyErr_Clear();
    else if (PyTuple_Check(last) && PyTuple_GET_SIZE(last) == 2 && same_signature(PyTuple_GET_ITEM(last, 0), args, n)) {
        PyObject *plan = Py_NewRef(PyTuple_GET_ITEM(last, 1));
        Py_DECREF(last);
        return plan;
    }
    Py_XDECREF(last);
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
    if (plan == NULL || !PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 3) plan = NULL;
    Py_XINCREF(plan);
    Py_DECREF(fast);
    if (plan == NULL) {
        PyErr_Clear();
    } else {  /* remembered for the next call (plans never change: _fast is only added to) */
        PyObject *pair = PyTuple_Pack(2, key, plan);
        if (pair == NULL || PyObject_SetAttr(op, cc->s_last, pair) < 0) PyErr_Clear();
        Py_XDECREF(pair);
    }
    Py_DECREF(key);
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
    int multi = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 1)), on = tracked ? grad_enabled() : 0;
    if (multi < 0 || on < 0) { Py_DECREF(res); return NULL; }
    if (!multi && !on && nout == 1) {  /* the usual call: one output, nothing to record */
        PyObject *t = wrap_array(PyTuple_GET_ITEM(res, 0));
        Py_DECREF(res);
        return t;
    }
    PyObject *outs = PyTuple_New(nout);
    if (outs == NULL) { Py_DECREF(res); return NULL; }
    for (Py_ssize_t j = 0; j < nout; j++) {
        PyObject *t = wrap_array(PyTuple_GET_ITEM(res, j));
        if (t == NULL) { Py_DECREF(res); Py_DECREF(outs); return NULL; }
        PyTuple_SET_ITEM(outs, j, t);
    }
    Py_DECREF(res);
    if (on) {
        PyObject *argt = PyTuple_New(n);
        if (argt == NULL) { Py_DECREF(outs); return NULL; }
        for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(argt, i, Py_NewRef(args[i]));
        PyObject *r = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(plan, 2), argt, outs, NULL);
        Py_DECREF(argt);
        if (r == NULL) { Py_DECREF(outs); return NULL; }
        Py_DECREF(r);
    }
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
    Py_XDECREF(cc->slow); Py_XDECREF(cc->s_fast); Py_XDECREF(cc->s_last);
    Py_TYPE(cc)->tp_free((PyObject *)cc);
}

static PyObject *customcall_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    PyObject *slow;
    if (!PyArg_ParseTuple(args, "O", &slow)) return NULL;
    CustomCall *cc = (CustomCall *)tp->tp_alloc(tp, 0);
    if (cc == NULL) return NULL;
    cc->slow = Py_NewRef(slow);
    cc->s_fast = PyUnicode_InternFromString("_fast");
    cc->s_last = PyUnicode_InternFromString("_last");
    if (cc->s_fast == NULL || cc->s_last == NULL) { Py_DECREF(cc); return NULL; }
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
