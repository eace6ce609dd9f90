/* mskernel.autograd._cengine -- the autograd engine: recording, the backward pass, the gradient calls.
 *
 * This is the one engine (there is no second copy in Python). What it runs is declared in Python: the backward
 * rules are the op table's (bound to each call by _cengine_rules.c), and the rare branches call Python helpers
 * that exist once (gradient shape/dtype fix-up, zero materialisation, saved outputs, gradient statistics,
 * hooks, MindSpore's error texts). The Python modules say what each piece does: node.py (recording),
 * engine.py (the backward pass), api.py (grad/value_and_grad), rule.py (declared rules).
 *
 * The code is in several files, one idea each (_cengine.h lists them): this one holds the module, the bindings,
 * Tensor._wrap and recording.
 *
 * Tensor and Node stay ordinary Python classes with __slots__; bind_tensor()/bind_node() read each slot's offset
 * from its member descriptor so this module can read and write the fields directly.
 */
#define CENGINE_MAIN
#include "_cengine.h"

State S;

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
    static const char *const names[] = {"_data", "_rg", "_node", "_idx", "_version", "_alias"};
    Py_ssize_t *const dsts[] = {&S.t_data, &S.t_rg, &S.t_node, &S.t_idx, &S.t_version, &S.t_alias};
    if (bind_offsets((PyTypeObject *)tensor, names, dsts, 6) < 0) return NULL;
    Py_INCREF(tensor); Py_INCREF(ndarray); Py_INCREF(asarray);
    S.tensor_type = (PyTypeObject *)tensor;
    S.ndarray_type = (PyTypeObject *)ndarray;
    S.asarray = asarray;
    if (!S.s_shape) {
        S.s_builtin = PyUnicode_InternFromString("builtin");
        S.s_grad = PyUnicode_InternFromString("grad");
        S.s_shape = PyUnicode_InternFromString("shape");
        S.s_dtype = PyUnicode_InternFromString("dtype");
        S.s_kind = PyUnicode_InternFromString("kind");
        S.s_fc = PyUnicode_InternFromString("fc");
        S.zero = PyLong_FromLong(0);
    }
    Py_RETURN_NONE;
}

/* bind_node(Node, ids, meta, meta_fn, STATE): enables recording. Called by mskernel/autograd/node.py. */
static PyObject *bind_node(PyObject *self, PyObject *args) {
    PyObject *node, *ids, *meta, *meta_fn, *state;
    if (!PyArg_ParseTuple(args, "O!OO!OO!", &PyType_Type, &node, &ids, &PyDict_Type, &meta, &meta_fn, &GradStateType,
                          &state))
        return NULL;
    if (S.tensor_type == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_tensor must come first");
    static const char *const names[] = {"id", "op", "kind", "inputs", "backward", "out_meta", "saved_out", "info",
                                        "stats", "materialize"};
    Py_ssize_t *const dsts[] = {&S.n_id, &S.n_op, &S.n_kind, &S.n_inputs, &S.n_backward, &S.n_out_meta,
                                &S.n_saved_out, &S.n_info, &S.n_stats, &S.n_materialize};
    if (bind_offsets((PyTypeObject *)node, names, dsts, 10) < 0) return NULL;
    Py_INCREF(node); Py_INCREF(ids); Py_INCREF(meta); Py_INCREF(meta_fn); Py_INCREF(state);
    S.node_type = (PyTypeObject *)node;
    S.ids = ids;
    S.meta = meta;
    S.meta_fn = meta_fn;
    S.state = state;
    Py_RETURN_NONE;
}

/* bind_engine(helpers): enables gradients(). Called by mskernel/autograd/engine.py. */
PyObject *bind_engine(PyObject *self, PyObject *helpers) {
    if (!PyDict_Check(helpers)) return PyErr_Format(PyExc_TypeError, "bind_engine expects a dict");
    if (S.node_type == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_node must come first");
    struct { const char *name; PyObject **dst; } hs[] = {
        {"ones", &S.ones}, {"scalar_ones", &S.scalar_ones}, {"reduce_to", &S.reduce_to}, {"materialize", &S.materialize},
        {"saved_outs", &S.saved_outs}, {"capture", &S.capture}, {"GradientError", &S.grad_error}};
    for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
        PyObject *v = PyDict_GetItemString(helpers, hs[i].name);
        if (v == NULL) return PyErr_Format(PyExc_KeyError, "_cengine.bind_engine: missing helper %s", hs[i].name);
        Py_INCREF(v);
        Py_XSETREF(*hs[i].dst, v);
    }
    Py_RETURN_NONE;
}

/* ---- Tensor._wrap ------------------------------------------------------------------------------- */
PyObject *wrap_array(PyObject *arr) {  /* new reference; arr borrowed */
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
    FIELD(t, S.t_alias) = Py_NewRef(Py_None);
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

/* ---- recording ------------------------------------------------------------------------------------ */
/* saved(t) (node.py): what a backward rule keeps of an operand -- the tracked leaf itself (its gradient is keyed by
 * it, and it is never written in place while recorded), else a Tensor of the engine's own sharing t's array and
 * graph position. An in-place write inside a grad call gives its target a fresh buffer (mskernel/ops/alias.py), so
 * what a rule kept still holds the values the op read. New reference. */
PyObject *saved_operand(PyObject *t) {
    if (!PyObject_TypeCheck(t, S.tensor_type)) return Py_NewRef(t);
    if (get_field(t, S.t_rg) == Py_True && get_field(t, S.t_node) == Py_None) return Py_NewRef(t);
    PyObject *w = wrap_array(get_field(t, S.t_data));
    if (w == NULL) return NULL;
    set_field(w, S.t_rg, Py_NewRef(get_field(t, S.t_rg)));
    set_field(w, S.t_node, Py_NewRef(get_field(t, S.t_node)));
    set_field(w, S.t_idx, Py_NewRef(get_field(t, S.t_idx)));
    return w;
}

int shape_dtype(PyObject *arr, PyObject **shape, PyObject **dtype) {  /* new references */
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

/* edge(t) (node.py): a tracked leaf itself, else a data-less stand-in with t's graph position. */
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

/* Node(op, kind, inputs, backward, out_meta, saved_out, info) with its id, as Node.__init__ sets it (new
 * reference; NULL with an error). Steals inputs, meta and saved, also on failure. */
static PyObject *new_node(PyObject *op, PyObject *kind, PyObject *inputs, PyObject *backward, PyObject *meta,
                          PyObject *saved, PyObject *info, int materialize) {
    PyObject *id = PyIter_Next(S.ids);
    PyObject *node = id ? S.node_type->tp_alloc(S.node_type, 0) : NULL;
    if (node == NULL) {
        if (id != NULL && !PyErr_Occurred()) PyErr_NoMemory();
        Py_XDECREF(id); Py_DECREF(inputs); Py_DECREF(meta); Py_DECREF(saved);
        return NULL;
    }
    FIELD(node, S.n_id) = id;
    FIELD(node, S.n_op) = Py_NewRef(op);
    FIELD(node, S.n_kind) = Py_NewRef(kind);
    FIELD(node, S.n_inputs) = inputs;
    FIELD(node, S.n_backward) = Py_NewRef(backward);
    FIELD(node, S.n_out_meta) = meta;
    FIELD(node, S.n_saved_out) = saved;
    FIELD(node, S.n_info) = Py_NewRef(info);
    FIELD(node, S.n_stats) = Py_NewRef(Py_None);
    FIELD(node, S.n_materialize) = Py_NewRef(materialize ? Py_True : Py_False);
    return node;
}

/* ml_dtypes' bfloat16 and float8 dtypes: floats numpy files under kind 'V'. */
int low_precision_float(PyArray_Descr *d) {
    const char *name = d->typeobj->tp_name;
    return d->kind == 'V'
           && (strcmp(name, "ml_dtypes.bfloat16") == 0 || strncmp(name, "ml_dtypes.float8", 16) == 0);
}

/* dtype.kind in "fc", or one of ml_dtypes' low-precision floats (1/0; -1 with an error). */
static int float_or_complex(PyObject *dtype) {
    if (PyArray_DescrCheck(dtype)) {
        char k = ((PyArray_Descr *)dtype)->kind;
        return k == 'f' || k == 'c' || low_precision_float((PyArray_Descr *)dtype);
    }
    PyObject *kind = PyObject_GetAttr(dtype, S.s_kind);
    if (kind == NULL) return -1;
    int fl = PySequence_Contains(S.s_fc, kind);
    Py_DECREF(kind);
    return fl;
}

/* _record1's steps: a node for `out` (a Tensor) made by `op` from `inputs` (a tuple). 0, or -1 with an error. */
int record_node(PyObject *op, PyObject *inputs_in, PyObject *out, PyObject *backward, int needs_outputs) {
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
    PyObject *saved = needs_outputs ? PyTuple_Pack(1, data) : Py_NewRef(Py_None);
    PyObject *node = saved ? new_node(op, S.s_builtin, inputs, backward, meta, saved, Py_None, 1) : NULL;
    if (saved == NULL) { Py_DECREF(inputs); Py_DECREF(meta); }
    if (node == NULL) { Py_DECREF(dtype); return -1; }
    int fl = float_or_complex(dtype);
    Py_DECREF(dtype);
    if (fl < 0) { Py_DECREF(node); return -1; }
    if (fl) {
        set_field(out, S.t_rg, Py_NewRef(Py_True));
        set_field(out, S.t_node, node);  /* steals */
    } else {
        Py_DECREF(node);
    }
    return 0;
}

/* The node of a call that must record (grad mode on): `ins` (a sequence) made `outs` (a sequence of Tensors). None
 * when no input is tracked. New reference, NULL with an error. */
static PyObject *record_general(PyObject *op, PyObject *kind, PyObject *inputs_in, PyObject *outputs_in,
                                PyObject *backward, PyObject *info, int needs_outputs, int materialize, int any_dtype) {
    PyObject *ins = PySequence_Fast(inputs_in, "record: inputs must be a sequence");
    if (ins == NULL) return NULL;
    Py_ssize_t nin = PySequence_Fast_GET_SIZE(ins);
    int tracked = 0;
    for (Py_ssize_t i = 0; i < nin && !tracked; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(ins, i);
        tracked = PyObject_TypeCheck(t, S.tensor_type) && get_field(t, S.t_rg) == Py_True;
    }
    if (!tracked) { Py_DECREF(ins); Py_RETURN_NONE; }
    PyObject *outs = PySequence_Fast(outputs_in, "record: outputs must be a sequence");
    PyObject *edges = outs ? PyTuple_New(nin) : NULL;
    for (Py_ssize_t i = 0; edges && i < nin; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(ins, i);
        PyObject *e = PyObject_TypeCheck(t, S.tensor_type) ? make_edge(t) : Py_NewRef(Py_None);
        if (e == NULL) Py_CLEAR(edges); else PyTuple_SET_ITEM(edges, i, e);
    }
    Py_DECREF(ins);
    if (edges == NULL) { Py_XDECREF(outs); return NULL; }
    Py_ssize_t nout = PySequence_Fast_GET_SIZE(outs);
    PyObject *meta = PyTuple_New(nout), *saved = needs_outputs ? PyTuple_New(nout) : Py_NewRef(Py_None);
    for (Py_ssize_t i = 0; meta && saved && i < nout; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(outs, i), *data, *shape, *dtype;
        if (!PyObject_TypeCheck(o, S.tensor_type)) {
            PyErr_Format(PyExc_TypeError, "record: output %zd of '%U' must be a Tensor, but got %s", i, op,
                         Py_TYPE(o)->tp_name);
            Py_CLEAR(meta);
            break;
        }
        data = Py_NewRef(get_field(o, S.t_data));
        PyObject *pair = NULL;
        if (shape_dtype(data, &shape, &dtype) == 0) {
            pair = PyTuple_Pack(2, shape, dtype);
            Py_DECREF(shape); Py_DECREF(dtype);
        }
        if (pair == NULL) { Py_DECREF(data); Py_CLEAR(meta); break; }
        PyTuple_SET_ITEM(meta, i, pair);
        if (needs_outputs) PyTuple_SET_ITEM(saved, i, data); else Py_DECREF(data);
    }
    if (meta == NULL || saved == NULL) { Py_XDECREF(meta); Py_XDECREF(saved); Py_DECREF(edges); Py_DECREF(outs); return NULL; }
    PyObject *node = new_node(op, kind, edges, backward, meta, saved, info, materialize);
    if (node == NULL) { Py_DECREF(outs); return NULL; }
    for (Py_ssize_t i = 0; i < nout; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(outs, i);
        int fl = 1;
        if (!any_dtype) {
            PyObject *dt = PyTuple_GET_ITEM(PyTuple_GET_ITEM(FIELD(node, S.n_out_meta), i), 1);
            fl = float_or_complex(dt);
            if (fl < 0) { Py_DECREF(node); Py_DECREF(outs); return NULL; }
        }
        if (!fl) continue;
        PyObject *idx = PyLong_FromSsize_t(i);
        if (idx == NULL) { Py_DECREF(node); Py_DECREF(outs); return NULL; }
        set_field(o, S.t_rg, Py_NewRef(Py_True));
        set_field(o, S.t_node, Py_NewRef(node));
        set_field(o, S.t_idx, idx);
    }
    Py_DECREF(outs);
    return node;
}

/* 1 when grad mode is on in this thread, 0 when off, -1 with an error. */
int grad_enabled(void) {
    Flags *f = flags_of(S.state);
    return f ? f->enabled : -1;
}

/* record(op, inputs, outputs, backward, *, kind, info, needs_outputs, materialize_grads, any_dtype) (node.py):
 * the node, or None when grad mode is off or no Tensor input is tracked. */
static PyObject *record(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"op", "inputs", "outputs", "backward", "kind", "info", "needs_outputs",
                             "materialize_grads", "any_dtype", NULL};
    PyObject *op, *inputs_in, *outputs_in, *backward, *kind = S.s_builtin, *info = Py_None;
    int needs_outputs = 0, materialize = 1, any_dtype = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$OOppp:record", kwlist, &op, &inputs_in, &outputs_in,
                                     &backward, &kind, &info, &needs_outputs, &materialize, &any_dtype))
        return NULL;
    int on = grad_enabled();
    if (on <= 0) return on < 0 ? NULL : Py_NewRef(Py_None);
    return record_general(op, kind, inputs_in, outputs_in, backward, info, needs_outputs, materialize, any_dtype);
}

static PyObject *record1(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 && nargs != 5) return PyErr_Format(PyExc_TypeError, "_record1 takes 4 or 5 arguments");
    int needs_outputs = nargs == 5 ? PyObject_IsTrue(args[4]) : 0;
    if (needs_outputs < 0) return NULL;
    if (!PyTuple_Check(args[1])) return PyErr_Format(PyExc_TypeError, "_record1: inputs must be a tuple");
    if (!PyObject_TypeCheck(args[2], S.tensor_type))
        return PyErr_Format(PyExc_TypeError, "_record1: the output must be a Tensor, not %s", Py_TYPE(args[2])->tp_name);
    if (record_node(args[0], args[1], args[2], args[3], needs_outputs) < 0) return NULL;
    Py_RETURN_NONE;
}

/* A node for `out` (one Tensor, or a tuple of them for a multi-output rule) made from `inputs` (a tuple), whose
 * backward is `rule` bound to this call's operands and `attrs`. The caller knows grad mode is on and an input is
 * tracked. 0, or -1 with an error. */
int record_with_rule(PyObject *rule, PyObject *inputs, PyObject *out, PyObject *attrs) {
    PyObject *bound = bind_rule(rule, inputs, attrs);
    if (bound == NULL) return -1;
    int rc;
    if (PyObject_TypeCheck(out, S.tensor_type)) {
        rc = record_node(rule_prim(rule), inputs, out, bound, rule_needs_out(rule));
    } else {
        PyObject *node = record_general(rule_prim(rule), S.s_builtin, inputs, out, bound, Py_None,
                                        rule_needs_out(rule), 1, 0);
        rc = node == NULL ? -1 : 0;
        Py_XDECREF(node);
    }
    Py_DECREF(bound);
    return rc;
}

/* record_rule(rule, inputs, out, attrs=None): see node.py. */
static PyObject *record_rule(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 && nargs != 4) return PyErr_Format(PyExc_TypeError, "record_rule takes 3 or 4 arguments");
    PyObject *rule = args[0], *inputs = args[1], *attrs = nargs == 4 && args[3] != Py_None ? args[3] : NULL;
    if (!is_rule(rule)) return PyErr_Format(PyExc_TypeError, "record_rule: a Rule is required, not %s",
                                            Py_TYPE(rule)->tp_name);
    if (!PyTuple_Check(inputs) || (attrs != NULL && !PyTuple_Check(attrs)))
        return PyErr_Format(PyExc_TypeError, "record_rule: inputs and attrs must be tuples");
    int on = grad_enabled();
    if (on <= 0) return on < 0 ? NULL : Py_NewRef(Py_None);
    int tracked = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inputs) && !tracked; i++) {
        PyObject *t = PyTuple_GET_ITEM(inputs, i);
        tracked = PyObject_TypeCheck(t, S.tensor_type) && get_field(t, S.t_rg) == Py_True;
    }
    if (tracked && record_with_rule(rule, inputs, args[2], attrs) < 0) return NULL;
    Py_RETURN_NONE;
}

/* spread(a, shape): a 0-d array's one value seen as an array of `shape` (every stride 0; writeable as a is). */
static PyObject *spread(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyArray_Check(args[0]) || PyArray_NDIM((PyArrayObject *)args[0]) != 0 || !PyTuple_Check(args[1]))
        return PyErr_Format(PyExc_TypeError, "spread takes a 0-d array and a shape tuple");
    PyArrayObject *a = (PyArrayObject *)args[0];
    Py_ssize_t nd = PyTuple_GET_SIZE(args[1]);
    if (nd > NPY_MAXDIMS) return PyErr_Format(PyExc_ValueError, "spread: %zd dimensions", nd);
    npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    for (Py_ssize_t i = 0; i < nd; i++) {
        dims[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(args[1], i));
        if (dims[i] < 0) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "spread: a negative size");
        strides[i] = 0;
    }
    PyArray_Descr *descr = PyArray_DESCR(a);
    Py_INCREF(descr);
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, (int)nd, dims, strides, PyArray_DATA(a),
                                          PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE, NULL);
    if (view != NULL && PyArray_SetBaseObject((PyArrayObject *)view, Py_NewRef(args[0])) < 0) Py_CLEAR(view);
    return view;
}

static PyObject *finalize_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "finalize takes 2 arguments");
    return finalize_grad(args[0], args[1]);
}

static PyObject *saved(PyObject *self, PyObject *t) { return saved_operand(t); }

static PyObject *edge(PyObject *self, PyObject *t) {
    if (!PyObject_TypeCheck(t, S.tensor_type))
        return PyErr_Format(PyExc_TypeError, "edge: a Tensor is required, not %s", Py_TYPE(t)->tp_name);
    return make_edge(t);
}

/* set_saved_hooks(packed_type, pack or None): the saved-tensor hooks bound rules pack their tensor operands with;
 * returns the previous pack (None when there was none). */
static PyObject *set_saved_hooks(PyObject *self, PyObject *args) {
    PyObject *tp, *pack;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &tp, &pack)) return NULL;
    PyObject *prev = S.saved_hooks ? S.saved_hooks : Py_NewRef(Py_None);
    Py_XSETREF(S.packed_type, (PyTypeObject *)Py_NewRef(tp));
    S.saved_hooks = pack == Py_None ? NULL : Py_NewRef(pack);
    return prev;
}

static PyMethodDef methods[] = {
    {"set_saved_hooks", set_saved_hooks, METH_VARARGS,
     "set_saved_hooks(Packed, pack or None) -> previous pack: saved-tensor hooks (mskernel/autograd/saved_hooks.py)."},
    {"bind_tensor", bind_tensor, METH_VARARGS, "bind_tensor(Tensor, ndarray, asarray): enables wrap()."},
    {"bind_node", bind_node, METH_VARARGS, "bind_node(Node, ids, meta, meta_fn, STATE): enables recording."},
    {"bind_engine", bind_engine, METH_O, "bind_engine(helpers): enables gradients()."},
    {"bind_grad", bind_grad, METH_O, "bind_grad(helpers): enables grad_call()."},
    {"grad_call", (PyCFunction)(void (*)(void))grad_call, METH_FASTCALL, GRAD_CALL_DOC},
    {"wrap", wrap, METH_O, WRAP_DOC},
    {"spread", (PyCFunction)(void (*)(void))spread, METH_FASTCALL,
     "spread(a, shape): a 0-d array's one value as a stride-0 view of that shape (a full sum's gradient)."},
    {"finalize", (PyCFunction)(void (*)(void))finalize_call, METH_FASTCALL,
     "finalize(g, seen): g as a buffer the user may keep and write (see mskernel.autograd.api._finalize)."},
    {"edge", edge, METH_O, "edge(t): what a node keeps of an input Tensor (see mskernel.autograd.node.edge)."},
    {"saved", saved, METH_O, "saved(t): what a backward rule keeps of an operand (see mskernel.autograd.node.saved)."},
    {"record", (PyCFunction)(void (*)(void))record, METH_VARARGS | METH_KEYWORDS,
     "record(op, inputs, outputs, backward, *, kind, info, needs_outputs, materialize_grads, any_dtype)."},
    {"record1", (PyCFunction)(void (*)(void))record1, METH_FASTCALL, "record1(op, inputs, out, backward, needs_outputs=False)."},
    {"record_rule", (PyCFunction)(void (*)(void))record_rule, METH_FASTCALL, "record_rule(rule, inputs, out, attrs=None)."},
    {"gradients", (PyCFunction)(void (*)(void))gradients, METH_FASTCALL,
     "gradients(roots, targets, sens, create_graph, retain_graph) -> list."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_cengine",
                                    "The autograd engine (see mskernel/autograd/node.py, engine.py and api.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cengine(void) {
    import_array();
    if (PyType_Ready(&BinopType) < 0 || PyType_Ready(&CustomCallType) < 0 || PyType_Ready(&RuleType) < 0 ||
        PyType_Ready(&BoundType) < 0 || ready_state_types() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Binop", (PyObject *)&BinopType) < 0 ||
        PyModule_AddObjectRef(m, "CustomCall", (PyObject *)&CustomCallType) < 0 ||
        PyModule_AddObjectRef(m, "Rule", (PyObject *)&RuleType) < 0 ||
        PyModule_AddObjectRef(m, "Bound", (PyObject *)&BoundType) < 0 ||
        PyModule_AddObjectRef(m, "GradState", (PyObject *)&GradStateType) < 0) { Py_DECREF(m); return NULL; }
    PyObject *api = engine_api_capsule();  /* mskernel/include/mskernel/engine_api.h */
    int rc = api == NULL ? -1 : PyModule_AddObjectRef(m, "_C_API", api);
    Py_XDECREF(api);
    if (rc < 0) { Py_DECREF(m); return NULL; }
    return m;
}
