/* mskernel.autograd._cengine: the Tensor operators' C path and the built-in backward rules in C. */
#include "_cengine.h"

/* A Tensor or a subclass (Parameter): the same slots, and ops/math.py treats them alike when the dtypes match. */
static inline int is_tensor(PyObject *o) { return S.tensor_type != NULL && PyObject_TypeCheck(o, S.tensor_type); }

/* a.dtype is b.dtype for two arrays (the identity test of ops/math.py's _binary; builtin dtypes are singletons).
 * A Tensor's data always is an array; anything else answers 0, which only means "the Python op decides". */
int same_dtype(PyObject *a, PyObject *b) {
    return PyArray_Check(a) && PyArray_Check(b) && PyArray_DESCR((PyArrayObject *)a) == PyArray_DESCR((PyArrayObject *)b);
}

int float_kind_array(PyObject *arr) {  /* 1 when arr is an array of a floating dtype (kind 'f') */
    return PyArray_Check(arr) && PyArray_DESCR((PyArrayObject *)arr)->kind == 'f';
}

/* A Python int/float operand of a float array's op as the op makes it: a 0-d Tensor of the array's dtype
 * (np.asarray(y, x.dtype), MindSpore's scalar promotion). NULL, with no error set, when it cannot be made. */
static PyObject *scalar_operand(PyObject *xd, PyObject *y) {
    PyObject *arr = PyObject_CallFunctionObjArgs(S.asarray, y, (PyObject *)PyArray_DESCR((PyArrayObject *)xd), NULL);
    PyObject *t = arr ? wrap_array(arr) : NULL;
    Py_XDECREF(arr);
    if (t == NULL) PyErr_Clear();
    return t;
}

/* One gradient as the 1-tuple a one-input rule returns (steals g; NULL if g is NULL). */
static PyObject *single_or_fail(PyObject *g) {
    PyObject *t = g ? PyTuple_Pack(1, g) : NULL;
    Py_XDECREF(g);
    return t;
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
    if (direct && uf != NULL && is_tensor(a) && (b == NULL || is_tensor(b))) {
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

PyObject *bind_sum(PyObject *self, PyObject *fn) {
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
    case R_SUM:  /* reduce.py's _expand for all axes: a stride-0 view of the one value, or the recorded ops */
        return single_or_fail(sum_spread(d, r->x, direct));
    case R_NEG:
        return single_or_fail(arith(R_NEG, d, NULL, direct));
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

PyTypeObject RuleType = {
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
    if (get_field(a, S.t_rg) != Py_True && (b == NULL || !is_tensor(b) || get_field(b, S.t_rg) != Py_True))
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
    if (S.state == NULL || !is_tensor(a)) return NULL;
    PyObject *ad = get_field(a, S.t_data), *bd, *bt = NULL;
    int b_tensor = is_tensor(b);
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
            if ((bt = scalar_operand(ad, b)) == NULL) return NULL;
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

/* (0, 1, ..., nd-1), made once per rank (borrowed; NULL with an error). */
static PyObject *all_axes(int nd) {
    static PyObject *cache[NPY_MAXDIMS + 1];
    if (nd < 0 || nd > NPY_MAXDIMS) return PyErr_Format(PyExc_ValueError, "_cengine: rank %d", nd);
    if (cache[nd] == NULL) {
        PyObject *axes = PyTuple_New(nd);
        for (int i = 0; axes && i < nd; i++) {
            PyObject *k = PyLong_FromLong(i);
            if (k == NULL) { Py_CLEAR(axes); break; }
            PyTuple_SET_ITEM(axes, i, k);
        }
        cache[nd] = axes;
    }
    return cache[nd];
}

static PyObject *unop_fast(Binop *op, PyObject *a) {  /* the same for a unary operator (-x) */
    if (S.state == NULL || !is_tensor(a)) return NULL;
    PyObject *ad = get_field(a, S.t_data);
    if (!float_kind_array(ad)) return NULL;
    int rec = must_record(a, NULL);
    if (rec < 0) { PyErr_Clear(); return NULL; }
    if (rec && (op->rule == R_NONE || S.node_type == NULL)) return NULL;
    PyObject *r;
    if (op->rule == R_SUM) {  /* np.add.reduce(data, (0, 1, ..., ndim-1)) as ops.sum computes it */
        PyObject *axes = all_axes(PyArray_NDIM((PyArrayObject *)ad));
        r = axes ? PyObject_CallFunctionObjArgs(op->ufunc, ad, axes, NULL) : NULL;
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

/* What help(), ``x.sum?`` and inspect.signature show: the Python method's name, docstring and signature. */
static PyObject *binop_wrapped(Binop *op, void *closure) { return Py_NewRef(op->fallback); }
static PyObject *binop_fallback_attr(Binop *op, void *name) { return PyObject_GetAttrString(op->fallback, name); }

static PyGetSetDef binop_getset[] = {
    {"__wrapped__", (getter)binop_wrapped, NULL, "the Python method this operator's C path stands in for", NULL},
    {"__doc__", (getter)binop_fallback_attr, NULL, NULL, "__doc__"},
    {"__name__", (getter)binop_fallback_attr, NULL, NULL, "__name__"},
    {"__qualname__", (getter)binop_fallback_attr, NULL, NULL, "__qualname__"},
    {NULL}};

PyTypeObject BinopType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel._cengine.Binop",
    .tp_basicsize = sizeof(Binop),
    .tp_dealloc = (destructor)binop_dealloc,
    .tp_vectorcall_offset = offsetof(Binop, vectorcall),
    .tp_repr = (reprfunc)binop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "Binop(name, ufunc, fallback, reflected=False): a Tensor operator with a C fast path.",
    .tp_getset = binop_getset,
    .tp_descr_get = binop_get,
    .tp_new = binop_new,
};

/* ---- the operands of a binary op: binary(op, ufunc, x, y) -> (x, y, out) ------------------------
 * The fast cases of _binary in mskernel/ops/math.py: two Tensors of one dtype, or a float Tensor and
 * a Python int/float (which becomes a 0-d Tensor of the tensor's dtype). Everything else, and any
 * error, goes to the Python _binary (bound by bind_binary), which promotes and raises the op's error. */
static PyObject *binary_slow;

PyObject *binary(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "binary takes 4 arguments");
    PyObject *x = args[2], *y = args[3];
    if (binary_slow == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_binary was not called");
    if (Py_TYPE(x) == S.tensor_type) {
        PyObject *xd = get_field(x, S.t_data), *yt = NULL, *yd = NULL;
        if (Py_TYPE(y) == S.tensor_type) {
            yd = get_field(y, S.t_data);
            if (same_dtype(xd, yd)) yt = Py_NewRef(y);
        } else if ((PyFloat_CheckExact(y) || PyLong_CheckExact(y)) && float_kind_array(xd)) {
            if ((yt = scalar_operand(xd, y)) != NULL) yd = get_field(yt, S.t_data);
        }
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

PyObject *bind_binary(PyObject *self, PyObject *fn) {
    Py_INCREF(fn);
    Py_XSETREF(binary_slow, fn);
    Py_RETURN_NONE;
}
