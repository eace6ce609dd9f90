/* mskernel.autograd._cengine: the C path of the Tensor operators and of the hand-tuned elementwise ops. */
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

/* ---- Binop: an operator with a C path for float tensors ---------------------------------------------------
 * Binop(name, ufunc, fallback, rule, *, reflected, unary, reduce_all) stands for Tensor.__mul__ etc. and for the
 * functional ops of mskernel/ops/math.py (ops.mul). When both operands are float Tensors of one dtype (or a float
 * Tensor and a Python int/float, which becomes a 0-d array of the tensor's dtype exactly as MindSpore's promotion
 * does) it calls the ufunc on the arrays and wraps the result; when grad mode is on and an operand is tracked it
 * records the op's node with `rule` (the op's declared backward, mskernel.autograd.rule). Everything else --
 * promotion, other dtypes, errors -- goes to `fallback`, the Python op, which coerces the operands and comes back
 * through apply(). With reduce_all it is x.sum() (no arguments): the ufunc is np.add.reduce over every axis and the
 * rule gets the attributes (axes, False). One call computes and records; the Python op only coerces. */
typedef struct {
    PyObject_HEAD
    PyObject *name, *ufunc, *fallback, *rule;
    int reflected, reduce_all, unary;
    vectorcallfunc vectorcall;
} Binop;

/* 1: grad mode is on and one of the operands is tracked (the op must record); 0: not; -1: error. */
static int must_record(PyObject *a, PyObject *b) {
    if (get_field(a, S.t_rg) != Py_True && (b == NULL || !is_tensor(b) || get_field(b, S.t_rg) != Py_True))
        return 0;
    return grad_enabled();
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

/* out = ufunc(operands' arrays), wrapped, and recorded with the rule when `rec`. a, b: Tensors (b NULL: unary).
 * NULL with the ufunc's error. */
static PyObject *compute(Binop *op, PyObject *a, PyObject *b, int rec) {
    PyObject *ad = get_field(a, S.t_data), *r, *attrs = NULL;
    if (op->reduce_all) {
        PyObject *axes = all_axes(PyArray_Check(ad) ? PyArray_NDIM((PyArrayObject *)ad) : -1);
        if (axes == NULL) return NULL;
        PyObject *argv[2] = {ad, axes};
        r = PyObject_Vectorcall(op->ufunc, argv, 2, NULL);
        if (rec && r != NULL && (attrs = PyTuple_Pack(2, axes, Py_False)) == NULL) Py_CLEAR(r);
    } else if (b == NULL) {
        r = PyObject_CallOneArg(op->ufunc, ad);
    } else {
        PyObject *argv[2] = {ad, get_field(b, S.t_data)};
        r = PyObject_Vectorcall(op->ufunc, argv, 2, NULL);
    }
    if (r == NULL) return NULL;
    PyObject *t = wrap_array(r);
    Py_DECREF(r);
    if (t != NULL && rec) {
        PyObject *ins = b ? PyTuple_Pack(2, a, b) : PyTuple_Pack(1, a);
        if (ins == NULL || record_with_rule(op->rule, ins, t, attrs) < 0) Py_CLEAR(t);
        Py_XDECREF(ins);
    }
    Py_XDECREF(attrs);
    return t;
}

/* The fast path: NULL without an error when it does not apply (the fallback runs). */
static PyObject *binop_fast(Binop *op, PyObject *a, PyObject *b) {
    if (S.state == NULL || !is_tensor(a)) return NULL;
    PyObject *ad = get_field(a, S.t_data), *bt = NULL;
    if (!float_kind_array(ad)) return NULL;
    if (is_tensor(b)) {
        if (!same_dtype(ad, get_field(b, S.t_data))) return NULL;
        bt = Py_NewRef(b);
    } else if (PyFloat_CheckExact(b) || PyLong_CheckExact(b)) {
        if ((bt = scalar_operand(ad, b)) == NULL) return NULL;  /* the operand the op makes of a Python number */
    } else {
        return NULL;
    }
    int rec = must_record(a, bt);
    PyObject *t = rec < 0 ? NULL : op->reflected ? compute(op, bt, a, rec) : compute(op, a, bt, rec);
    Py_DECREF(bt);
    if (t == NULL) PyErr_Clear();  /* e.g. shapes that do not broadcast: the Python op raises the op's error */
    return t;
}

static PyObject *unop_fast(Binop *op, PyObject *a) {  /* the same for -x and x.sum() */
    if (S.state == NULL || !is_tensor(a) || !float_kind_array(get_field(a, S.t_data))) return NULL;
    int rec = must_record(a, NULL);
    PyObject *t = rec < 0 ? NULL : compute(op, a, NULL, rec);
    if (t == NULL) PyErr_Clear();
    return t;
}

static PyObject *binop_call(Binop *op, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && n == 1 && op->unary) {
        PyObject *r = unop_fast(op, args[0]);
        if (r != NULL) return r;
    } else if (kwnames == NULL && n == 2 && !op->unary) {
        PyObject *r = binop_fast(op, args[0], args[1]);
        if (r != NULL) return r;
        if (op->reflected) {  /* other <op> self, by the Python op */
            PyObject *sw[2] = {args[1], args[0]};
            return PyObject_Vectorcall(op->fallback, sw, 2, NULL);
        }
    } else if (op->reflected) {
        return PyErr_Format(PyExc_TypeError, "%U expects 2 positional arguments", op->name);
    }
    return PyObject_Vectorcall(op->fallback, args, nargsf, kwnames);
}

/* apply(x[, y]): the op on Tensors the Python op has already coerced (no checks, no promotion): computes, wraps,
 * records. The ufunc's own errors (a ValueError for shapes that do not broadcast) propagate. */
static PyObject *binop_apply(Binop *op, PyObject *const *args, Py_ssize_t n) {
    if (n != (op->unary ? 1 : 2))
        return PyErr_Format(PyExc_TypeError, "%U.apply takes %d coerced operands", op->name, op->unary ? 1 : 2);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!is_tensor(args[i]))
            return PyErr_Format(PyExc_TypeError, "%U.apply: operand %zd must be a Tensor, not %s", op->name, i,
                                Py_TYPE(args[i])->tp_name);
    int rec = must_record(args[0], n == 2 ? args[1] : NULL);
    if (rec < 0) return NULL;
    return compute(op, args[0], n == 2 ? args[1] : NULL, rec);
}

static PyObject *binop_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static void binop_dealloc(Binop *op) {
    Py_XDECREF(op->name); Py_XDECREF(op->ufunc); Py_XDECREF(op->fallback); Py_XDECREF(op->rule);
    Py_TYPE(op)->tp_free((PyObject *)op);
}

static PyObject *binop_repr(Binop *op) { return PyUnicode_FromFormat("<operator %U>", op->name); }

static PyObject *binop_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"name", "ufunc", "fallback", "rule", "reflected", "unary", "reduce_all", NULL};
    PyObject *name, *ufunc, *fallback, *rule;
    int reflected = 0, unary = 0, reduce_all = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "UOOO|$ppp:Binop", kwlist, &name, &ufunc, &fallback, &rule, &reflected,
                                     &unary, &reduce_all))
        return NULL;
    if (reflected && (unary || reduce_all))
        return PyErr_Format(PyExc_ValueError, "Binop(%U): a reflected operator is binary", name);
    if (!is_rule(rule)) return PyErr_Format(PyExc_TypeError, "Binop(%U): rule must be a Rule", name);
    Binop *op = (Binop *)tp->tp_alloc(tp, 0);
    if (op == NULL) return NULL;
    op->name = Py_NewRef(name); op->ufunc = Py_NewRef(ufunc); op->fallback = Py_NewRef(fallback);
    op->rule = Py_NewRef(rule);
    op->reflected = reflected; op->reduce_all = reduce_all; op->unary = unary || reduce_all;
    op->vectorcall = (vectorcallfunc)binop_call;
    return (PyObject *)op;
}

/* What help(), ``x.sum?`` and inspect.signature show: the Python op's name, docstring and signature. */
static PyObject *binop_wrapped(Binop *op, void *closure) { return Py_NewRef(op->fallback); }
static PyObject *binop_fallback_attr(Binop *op, void *name) { return PyObject_GetAttrString(op->fallback, name); }

static PyGetSetDef binop_getset[] = {
    {"__wrapped__", (getter)binop_wrapped, NULL, "the Python op this operator's C path stands in for", NULL},
    {"__doc__", (getter)binop_fallback_attr, NULL, NULL, "__doc__"},
    {"__name__", (getter)binop_fallback_attr, NULL, NULL, "__name__"},
    {"__qualname__", (getter)binop_fallback_attr, NULL, NULL, "__qualname__"},
    {"__module__", (getter)binop_fallback_attr, NULL, NULL, "__module__"},
    {"__annotations__", (getter)binop_fallback_attr, NULL, NULL, "__annotations__"},
    {NULL}};

static PyMemberDef binop_members[] = {
    {"rule", T_OBJECT, offsetof(Binop, rule), READONLY, "the op's declared backward rule"},
    {NULL}};

static PyMethodDef binop_methods[] = {
    {"apply", (PyCFunction)(void (*)(void))binop_apply, METH_FASTCALL,
     "apply(x[, y]): the op on already coerced Tensor operands (computes, wraps, records)."},
    {NULL}};

PyTypeObject BinopType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel.autograd._cengine.Binop",
    .tp_basicsize = sizeof(Binop),
    .tp_dealloc = (destructor)binop_dealloc,
    .tp_vectorcall_offset = offsetof(Binop, vectorcall),
    .tp_repr = (reprfunc)binop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "Binop(name, ufunc, fallback, rule, *, reflected=False, unary=False, reduce_all=False): an operator "
              "with a C path.",
    .tp_getset = binop_getset,
    .tp_members = binop_members,
    .tp_methods = binop_methods,
    .tp_descr_get = binop_get,
    .tp_new = binop_new,
};
