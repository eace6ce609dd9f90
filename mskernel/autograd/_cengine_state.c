/* mskernel.autograd._cengine: grad mode, one set of switches per thread (mskernel.autograd.node.GradState).
 *
 * Each GradState keeps its switches per thread, in the thread's state dict (keyed by the GradState), so threads
 * that build and differentiate separate graphs never see each other's no_grad or grad calls; a new thread starts
 * with the defaults. The core reads them through flags_of(), which remembers the last thread's switches (by the
 * thread state's unique id, under the GIL), so the hot paths read a C int instead of looking up an attribute.
 */
#include "_cengine.h"

typedef struct {
    PyObject_HEAD
    Flags f;
} FlagsObject;

static PyTypeObject FlagsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel.autograd._cengine._Flags",
    .tp_basicsize = sizeof(FlagsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One thread's grad-mode switches (kept in the thread's state dict).",
};

typedef struct {
    PyObject_HEAD
    uint64_t cached_thread;  /* the thread state id whose switches `cached` holds (0: none) */
    FlagsObject *cached;
} GradStateObject;

/* This thread's switches of `state` (borrowed; NULL with an error). */
Flags *flags_of(PyObject *state) {
    GradStateObject *gs = (GradStateObject *)state;
    PyThreadState *ts = PyThreadState_Get();
    uint64_t id = PyThreadState_GetID(ts);
    if (gs->cached != NULL && gs->cached_thread == id) return &gs->cached->f;
    PyObject *d = PyThreadState_GetDict();
    if (d == NULL) { PyErr_SetString(PyExc_RuntimeError, "GradState: no thread state dict"); return NULL; }
    PyObject *fo = PyDict_GetItemWithError(d, state);  /* borrowed */
    if (fo == NULL) {
        if (PyErr_Occurred()) return NULL;
        FlagsObject *nf = PyObject_New(FlagsObject, &FlagsType);
        if (nf == NULL) return NULL;
        nf->f.enabled = 1; nf->f.depth = 0; nf->f.capture = 0;
        int rc = PyDict_SetItem(d, state, (PyObject *)nf);
        Py_DECREF(nf);
        if (rc < 0) return NULL;
        fo = (PyObject *)nf;
    }
    Py_INCREF(fo);
    Py_XSETREF(gs->cached, (FlagsObject *)fo);
    gs->cached_thread = id;
    return &gs->cached->f;
}

static PyObject *gs_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw)))
        return PyErr_Format(PyExc_TypeError, "GradState() takes no arguments");
    GradStateObject *gs = (GradStateObject *)tp->tp_alloc(tp, 0);
    if (gs != NULL) { gs->cached = NULL; gs->cached_thread = 0; }
    return (PyObject *)gs;
}

static void gs_dealloc(GradStateObject *gs) {
    Py_CLEAR(gs->cached);
    Py_TYPE(gs)->tp_free((PyObject *)gs);
}

static PyObject *get_enabled(PyObject *self, void *c) {
    Flags *f = flags_of(self);
    return f ? PyBool_FromLong(f->enabled) : NULL;
}

static PyObject *get_capture(PyObject *self, void *c) {
    Flags *f = flags_of(self);
    return f ? PyBool_FromLong(f->capture) : NULL;
}

static PyObject *get_depth(PyObject *self, void *c) {
    Flags *f = flags_of(self);
    return f ? PyLong_FromSsize_t(f->depth) : NULL;
}

static int set_flag(PyObject *self, PyObject *v, void *which) {
    if (v == NULL) return PyErr_Format(PyExc_AttributeError, "GradState's switches cannot be deleted"), -1;
    int on = PyObject_IsTrue(v);
    Flags *f = on < 0 ? NULL : flags_of(self);
    if (f == NULL) return -1;
    if (which == NULL) f->enabled = on; else f->capture = on;
    return 0;
}

static int set_depth(PyObject *self, PyObject *v, void *c) {
    if (v == NULL) return PyErr_Format(PyExc_AttributeError, "GradState's switches cannot be deleted"), -1;
    Py_ssize_t d = PyLong_AsSsize_t(v);
    if (d == -1 && PyErr_Occurred()) return -1;
    if (d < 0) return PyErr_Format(PyExc_ValueError, "GradState.depth must be >= 0, but got %zd", d), -1;
    Flags *f = flags_of(self);
    if (f == NULL) return -1;
    f->depth = d;
    return 0;
}

static PyGetSetDef gs_getset[] = {
    {"enabled", get_enabled, set_flag, "whether ops record graph nodes (in this thread)", NULL},
    {"depth", get_depth, set_depth, "how many grad calls are running (in this thread): > 1 records the backward", NULL},
    {"capture_stats", get_capture, set_flag, "whether backward stores gradient statistics on nodes", (void *)1},
    {NULL}};

#define GRAD_STATE_DOC \
    "Autograd switches, one set per thread (as torch keeps grad mode per thread): threads that\n" \
    "build and differentiate separate graphs never see each other's ``no_grad`` or ``grad`` calls.\n\n" \
    "``enabled``: whether ops record nodes; ``depth``: how many ``grad`` calls are running (for\n" \
    "higher-order gradients); ``capture_stats``: whether backward stores gradient statistics on\n" \
    "nodes (for graph snapshots and widgets). A new thread starts with the defaults. The engine core\n" \
    "reads them directly (``_cengine_state.c``).\n\n" \
    "Example:\n" \
    "    >>> import threading\n" \
    "    >>> from mskernel.autograd.node import STATE, no_grad\n" \
    "    >>> with no_grad():\n" \
    "    ...     seen = []\n" \
    "    ...     t = threading.Thread(target=lambda: seen.append(STATE.enabled)); t.start(); t.join()\n" \
    "    ...     (STATE.enabled, seen)\n" \
    "    (False, [True])\n"

PyTypeObject GradStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mskernel.autograd.node.GradState",
    .tp_basicsize = sizeof(GradStateObject),
    .tp_dealloc = (destructor)gs_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = GRAD_STATE_DOC,
    .tp_getset = gs_getset,
    .tp_new = gs_new,
};

int ready_state_types(void) { return PyType_Ready(&FlagsType) < 0 || PyType_Ready(&GradStateType) < 0 ? -1 : 0; }
