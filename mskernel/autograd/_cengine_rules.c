/* mskernel.autograd._cengine: declared backward rules, and a rule bound to one call (a node's backward).
 *
 * The rules themselves are Python: the op table's ``backward`` of each entry, and the per-input formulas of the
 * hand-tuned ops in mskernel/ops/math.py and reduce.py. mskernel/autograd/rule.py reads which arguments a rule
 * names and makes a Rule; recording an op binds the Rule to the call's operands (keeping only those the rule
 * names) and the engine calls the bound rule with the output gradients. Nothing here knows any op.
 *
 * Rule(prim, fns, codes, whole, multi):
 *   fns    a 1-tuple (whole: one callable returning a gradient per input) or one formula per input (None:
 *          that input has no gradient); a formula returns that input's gradient.
 *   codes  one tuple per fn: where each of its arguments comes from (ARG_* below).
 *   whole  1: fns[0] is a whole rule; 0: per-input formulas, only those of inputs that need a gradient run.
 *   multi  1: ``g`` and ``out`` are tuples (several outputs); 0: the one output's gradient and value.
 */
#include "_cengine.h"

enum { ARG_G = -1, ARG_OUT = -2, ARG_SHAPE = 1000, ARG_ATTR = 2000 };  /* 0 <= i < 1000: input i itself */

typedef struct {
    PyObject_HEAD
    PyObject *prim, *fns;
    int whole, multi, needs_out;
    Py_ssize_t nfns;
    Py_ssize_t *start;  /* codes of fn k: code[start[k]] .. code[start[k + 1] - 1] */
    int *code;
} Rule;

static PyObject *rule_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"prim", "fns", "codes", "whole", "multi", NULL};
    PyObject *prim, *fns, *codes;
    int whole, multi;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "UO!O!pp:Rule", kwlist, &prim, &PyTuple_Type, &fns, &PyTuple_Type,
                                     &codes, &whole, &multi))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(fns);
    if (PyTuple_GET_SIZE(codes) != n || n == 0 || (whole && n != 1))
        return PyErr_Format(PyExc_ValueError, "Rule(%U): one code tuple per function (and one function for a whole "
                            "rule) is required", prim);
    Rule *r = (Rule *)tp->tp_alloc(tp, 0);
    if (r == NULL) return NULL;
    r->prim = Py_NewRef(prim);
    r->fns = Py_NewRef(fns);
    r->whole = whole; r->multi = multi; r->nfns = n;
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *c = PyTuple_GET_ITEM(codes, k), *f = PyTuple_GET_ITEM(fns, k);
        if (!PyTuple_Check(c) || (f != Py_None && !PyCallable_Check(f)) || (f == Py_None && whole)) {
            PyErr_Format(PyExc_TypeError, "Rule(%U): function %zd must be callable (or None, for a formula) with a "
                         "tuple of codes", prim, k);
            Py_DECREF(r);
            return NULL;
        }
        total += PyTuple_GET_SIZE(c);
    }
    r->start = PyMem_Malloc(sizeof(Py_ssize_t) * (n + 1));
    r->code = PyMem_Malloc(sizeof(int) * (total ? total : 1));
    if (r->start == NULL || r->code == NULL) { Py_DECREF(r); return PyErr_NoMemory(); }
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *c = PyTuple_GET_ITEM(codes, k);
        r->start[k] = at;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(c); j++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(c, j));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(r); return NULL; }
            if (v < ARG_OUT || v >= ARG_ATTR + 1000) {
                PyErr_Format(PyExc_ValueError, "Rule(%U): argument code %ld out of range", prim, v);
                Py_DECREF(r);
                return NULL;
            }
            if (v == ARG_OUT) r->needs_out = 1;
            r->code[at++] = (int)v;
        }
    }
    r->start[n] = at;
    return (PyObject *)r;
}

static void rule_dealloc(Rule *r) {
    Py_XDECREF(r->prim); Py_XDECREF(r->fns);
    PyMem_Free(r->start);
    PyMem_Free(r->code);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

static PyObject *rule_repr(Rule *r) {
    return PyUnicode_FromFormat("<rule of %U: %s>", r->prim, r->whole ? "one function" : "a formula per input");
}

static PyMemberDef rule_members[] = {
    {"prim", T_OBJECT, offsetof(Rule, prim), READONLY, "the name its nodes carry"},
    {"fns", T_OBJECT, offsetof(Rule, fns), READONLY, "the rule (a 1-tuple) or one formula per input"},
    {"needs_out", T_INT, offsetof(Rule, needs_out), READONLY, "whether it reads the op's output"},
    {NULL}};

PyTypeObject RuleType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel.autograd._cengine.Rule",
    .tp_basicsize = sizeof(Rule),
    .tp_dealloc = (destructor)rule_dealloc,
    .tp_repr = (reprfunc)rule_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rule(prim, fns, codes, whole, multi): a declared backward rule (made by mskernel.autograd.rule).",
    .tp_members = rule_members,
    .tp_new = rule_new,
};

int is_rule(PyObject *o) { return Py_TYPE(o) == &RuleType; }
PyObject *rule_prim(PyObject *rule) { return ((Rule *)rule)->prim; }
int rule_needs_out(PyObject *rule) { return ((Rule *)rule)->needs_out; }

/* ---- a rule bound to one call: what a node keeps as its backward -------------------------------------- */
typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    Rule *rule;
    unsigned long long run;  /* bit k: fn k runs (its input needs a gradient; always for a whole rule) */
    PyObject *arg[1];        /* one per code of the rule: the saved argument, NULL where g and out go */
} Bound;

#define MAX_FNS 64

static PyObject *bound_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames);
static int pack_saved(Bound *b, Py_ssize_t ninputs);

/* The value for argument code c of a call with these operands and attributes (new reference; NULL without an error
 * for g and out, which are given when the rule runs). */
static PyObject *saved_arg(Rule *r, int c, PyObject *inputs, PyObject *attrs) {
    if (c == ARG_G || c == ARG_OUT) return NULL;
    if (c >= ARG_ATTR) {
        Py_ssize_t k = c - ARG_ATTR;
        if (attrs == NULL || k >= PyTuple_GET_SIZE(attrs))
            return PyErr_Format(PyExc_TypeError, "the rule of %U reads attribute %zd, which the call did not give",
                                r->prim, k);
        return Py_NewRef(PyTuple_GET_ITEM(attrs, k));
    }
    Py_ssize_t i = c >= ARG_SHAPE ? c - ARG_SHAPE : c;
    if (i >= PyTuple_GET_SIZE(inputs))
        return PyErr_Format(PyExc_TypeError, "the rule of %U reads input %zd of a call with %zd", r->prim, i,
                            PyTuple_GET_SIZE(inputs));
    PyObject *t = PyTuple_GET_ITEM(inputs, i);
    if (c < ARG_SHAPE) return saved_operand(t);
    if (!PyObject_TypeCheck(t, S.tensor_type))
        return PyErr_Format(PyExc_TypeError, "the rule of %U reads the shape of input %zd, which is not a Tensor",
                            r->prim, i);
    return PyObject_GetAttr(get_field(t, S.t_data), S.s_shape);
}

/* Bind `rule` to a call: its operands `inputs` (a tuple) and attributes `attrs` (a tuple or NULL). A formula runs
 * only for an input that is a tracked Tensor, and only the arguments of formulas that run are kept; a whole rule
 * always runs. New reference, or NULL with an error. */
PyObject *bind_rule(PyObject *rule_obj, PyObject *inputs, PyObject *attrs) {
    Rule *r = (Rule *)rule_obj;
    if (!r->whole && r->nfns != PyTuple_GET_SIZE(inputs))
        return PyErr_Format(PyExc_TypeError, "the rule of %U has %zd formulas for a call with %zd inputs", r->prim,
                            r->nfns, PyTuple_GET_SIZE(inputs));
    if (r->nfns > MAX_FNS) return PyErr_Format(PyExc_ValueError, "the rule of %U has too many formulas", r->prim);
    Py_ssize_t ncodes = r->start[r->nfns];
    Bound *b = PyObject_GC_NewVar(Bound, &BoundType, ncodes ? ncodes : 1);
    if (b == NULL) return NULL;
    b->rule = (Rule *)Py_NewRef(rule_obj);
    b->run = 0;
    b->vectorcall = (vectorcallfunc)bound_vectorcall;
    for (Py_ssize_t j = 0; j < (ncodes ? ncodes : 1); j++) b->arg[j] = NULL;
    for (Py_ssize_t k = 0; k < r->nfns; k++) {
        if (!r->whole) {
            PyObject *t = PyTuple_GET_ITEM(inputs, k);
            if (PyTuple_GET_ITEM(r->fns, k) == Py_None || !PyObject_TypeCheck(t, S.tensor_type) ||
                get_field(t, S.t_rg) != Py_True)
                continue;
        }
        b->run |= 1ULL << k;
        for (Py_ssize_t j = r->start[k]; j < r->start[k + 1]; j++) {
            b->arg[j] = saved_arg(r, r->code[j], inputs, attrs);
            if (b->arg[j] == NULL && PyErr_Occurred()) { Py_DECREF(b); return NULL; }
        }
    }
    PyObject_GC_Track(b);
    if (S.saved_hooks != NULL && pack_saved(b, PyTuple_GET_SIZE(inputs)) < 0) { Py_DECREF(b); return NULL; }
    return (PyObject *)b;
}

/* With saved-tensor hooks set: each Tensor operand the bound rule keeps is packed once, in input order, and every
 * argument slot holding it holds the Packed object instead (call_fn unpacks it when the rule runs). 0, or -1. */
static int pack_saved(Bound *b, Py_ssize_t ninputs) {
    Rule *r = b->rule;
    Py_ssize_t ncodes = r->start[r->nfns];
    for (Py_ssize_t i = 0; i < ninputs; i++) {
        PyObject *packed = NULL;
        for (Py_ssize_t k = 0; k < r->nfns; k++) {
            if (!((b->run >> k) & 1)) continue;
            for (Py_ssize_t j = r->start[k]; j < r->start[k + 1] && j < ncodes; j++) {
                if (r->code[j] != i || b->arg[j] == NULL || !PyObject_TypeCheck(b->arg[j], S.tensor_type)) continue;
                if (packed == NULL && (packed = PyObject_CallOneArg(S.saved_hooks, b->arg[j])) == NULL) return -1;
                Py_SETREF(b->arg[j], Py_NewRef(packed));
            }
        }
        Py_XDECREF(packed);
    }
    return 0;
}

/* g or out for a rule: the one element (single output) or the whole sequence as a tuple (new reference). */
static PyObject *one_or_all(Rule *r, PyObject *seq) {
    if (r->multi) return PySequence_Tuple(seq);
    if (PyList_CheckExact(seq) && PyList_GET_SIZE(seq) > 0) return Py_NewRef(PyList_GET_ITEM(seq, 0));
    return PySequence_GetItem(seq, 0);
}

static PyObject *call_fn(Bound *b, Py_ssize_t k, PyObject *g, PyObject *out) {
    Rule *r = b->rule;
    Py_ssize_t s = r->start[k], na = r->start[k + 1] - s;
    PyObject *stack[8] = {NULL}, **argv = na <= 8 ? stack : PyMem_Malloc(sizeof(PyObject *) * na);
    if (argv == NULL) return PyErr_NoMemory();
    unsigned long long unpacked = 0;  /* bit j: argv[j] is a new reference (an unpacked saved tensor) */
    PyObject *res = NULL;
    for (Py_ssize_t j = 0; j < na; j++) {
        int c = r->code[s + j];
        argv[j] = c == ARG_G ? g : c == ARG_OUT ? out : b->arg[s + j];
        if (S.packed_type != NULL && argv[j] != NULL && Py_TYPE(argv[j]) == S.packed_type && j < 64) {
            argv[j] = PyObject_CallMethod(argv[j], "unpack", NULL);
            if (argv[j] == NULL) goto done;
            unpacked |= 1ULL << j;
        }
    }
    res = PyObject_Vectorcall(PyTuple_GET_ITEM(r->fns, k), argv, na, NULL);
done:
    for (Py_ssize_t j = 0; j < na && j < 64; j++)
        if ((unpacked >> j) & 1) Py_DECREF(argv[j]);
    if (argv != stack) PyMem_Free(argv);
    return res;
}

static PyObject *bound_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Bound *b = (Bound *)self;
    Rule *r = b->rule;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL || n < 1 || n > 2)
        return PyErr_Format(PyExc_TypeError, "the backward of %U takes the output gradients (and the outputs)",
                            r->prim);
    if (r->needs_out && n != 2)
        return PyErr_Format(PyExc_TypeError, "the backward of %U reads the outputs: call it with them", r->prim);
    PyObject *g = one_or_all(r, args[0]), *out = NULL, *res = NULL;
    if (g == NULL) return NULL;
    if (r->needs_out && (out = one_or_all(r, args[1])) == NULL) { Py_DECREF(g); return NULL; }
    if (r->whole) {
        res = call_fn(b, 0, g, out);
        if (res != NULL && !PyTuple_Check(res) && !PyList_Check(res)) Py_SETREF(res, PyTuple_Pack(1, res));
    } else {
        res = PyTuple_New(r->nfns);
        for (Py_ssize_t k = 0; res != NULL && k < r->nfns; k++) {
            PyObject *gk = (b->run >> k) & 1 ? call_fn(b, k, g, out) : Py_NewRef(Py_None);
            if (gk == NULL) Py_CLEAR(res); else PyTuple_SET_ITEM(res, k, gk);
        }
    }
    Py_DECREF(g); Py_XDECREF(out);
    return res;
}

static int bound_traverse(Bound *b, visitproc visit, void *arg) {
    for (Py_ssize_t j = 0; j < Py_SIZE(b); j++) Py_VISIT(b->arg[j]);
    return 0;
}

static int bound_clear(Bound *b) {
    for (Py_ssize_t j = 0; j < Py_SIZE(b); j++) Py_CLEAR(b->arg[j]);
    return 0;
}

static void bound_dealloc(Bound *b) {
    PyObject_GC_UnTrack(b);
    bound_clear(b);
    Py_CLEAR(b->rule);
    PyObject_GC_Del(b);
}

static PyObject *bound_repr(Bound *b) { return PyUnicode_FromFormat("<backward of %U>", b->rule->prim); }

static PyObject *bound_get_rule(Bound *b, void *c) { return Py_NewRef((PyObject *)b->rule); }

/* per function: a tuple of the arguments kept for it (None where g and out go), or None when it does not run */
static PyObject *bound_get_saved(Bound *b, void *c) {
    Rule *r = b->rule;
    PyObject *saved = PyTuple_New(r->nfns);
    for (Py_ssize_t k = 0; saved && k < r->nfns; k++) {
        PyObject *a = (b->run >> k) & 1 ? PyTuple_New(r->start[k + 1] - r->start[k]) : Py_NewRef(Py_None);
        if (a == NULL) { Py_CLEAR(saved); break; }
        for (Py_ssize_t j = r->start[k]; a != Py_None && j < r->start[k + 1]; j++)
            PyTuple_SET_ITEM(a, j - r->start[k], Py_NewRef(b->arg[j] ? b->arg[j] : Py_None));
        PyTuple_SET_ITEM(saved, k, a);
    }
    return saved;
}

static PyGetSetDef bound_getset[] = {
    {"rule", (getter)bound_get_rule, NULL, "the declared rule", NULL},
    {"saved", (getter)bound_get_saved, NULL, "per function: the arguments kept for it (None: it does not run)", NULL},
    {NULL}};

PyTypeObject BoundType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel.autograd._cengine.Bound",
    .tp_basicsize = offsetof(Bound, arg),
    .tp_itemsize = sizeof(PyObject *),
    .tp_dealloc = (destructor)bound_dealloc,
    .tp_vectorcall_offset = offsetof(Bound, vectorcall),
    .tp_repr = (reprfunc)bound_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A rule bound to one call's operands: backward(douts[, outs]) -> one gradient per input.",
    .tp_traverse = (traverseproc)bound_traverse,
    .tp_clear = (inquiry)bound_clear,
    .tp_getset = bound_getset,
};
