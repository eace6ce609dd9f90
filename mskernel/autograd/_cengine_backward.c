/* mskernel.autograd._cengine: the backward pass (engine.py's gradients() says what it does). */
#include "_cengine.h"

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
/* a.shape == b.shape and a.dtype == b.dtype for two arrays (a Tensor's data always is one); 0 for anything else,
 * which only sends the gradient through the general steps (reduce_to, a fresh sum). */
static int same_meta(PyObject *a, PyObject *b) {
    if (!PyArray_Check(a) || !PyArray_Check(b)) return 0;
    PyArrayObject *x = (PyArrayObject *)a, *y = (PyArrayObject *)b;
    int nd = PyArray_NDIM(x);
    if (nd != PyArray_NDIM(y) || memcmp(PyArray_DIMS(x), PyArray_DIMS(y), sizeof(npy_intp) * nd) != 0) return 0;
    return PyArray_DESCR(x) == PyArray_DESCR(y) || PyArray_EquivTypes(PyArray_DESCR(x), PyArray_DESCR(y));
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

/* pending[p][idx] (+)= g, where t is the input whose producer is p and whose output index is idx.  Steals nothing. */
static int add_pending(Acc *acc, PyObject *pending, PyObject *p, PyObject *idx, PyObject *g) {
    Py_ssize_t nout = PyTuple_Check(get_field(p, S.n_out_meta)) ? PyTuple_GET_SIZE(get_field(p, S.n_out_meta)) : -1;
    Py_ssize_t i = PyLong_Check(idx) ? PyLong_AsSsize_t(idx) : -1;
    if (i == -1 && PyErr_Occurred()) return -1;
    if (i < 0 || i >= nout) {
        grad_error("For '%U', a tensor claims to be output %R of it, which has %zd outputs (its graph fields were "
                   "changed).", get_field(p, S.n_op), idx, nout);
        return -1;
    }
    PyObject *lst = PyDict_GetItemWithError(pending, p);
    if (lst == NULL) {
        if (PyErr_Occurred()) return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(get_field(p, S.n_out_meta));
        lst = PyList_New(n);
        if (lst == NULL) return -1;
        for (Py_ssize_t j = 0; j < n; j++) PyList_SET_ITEM(lst, j, Py_NewRef(Py_None));
        int rc = PyDict_SetItem(pending, p, lst);
        Py_DECREF(lst);
        if (rc < 0) return -1;
    }
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

PyObject *gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) return PyErr_Format(PyExc_TypeError, "gradients takes 5 arguments");
    PyObject *roots_in = args[0], *targets_in = args[1], *sens_in = args[2];
    int create_graph = PyObject_IsTrue(args[3]), retain_graph = PyObject_IsTrue(args[4]);
    if (create_graph < 0 || retain_graph < 0) return NULL;
    PyObject *roots = NULL, *targets = NULL, *sens = NULL, *leaf_grads = NULL, *node_keys = NULL, *relevant = NULL;
    PyObject *nodes = NULL, *runnable = NULL, *pending = NULL, *result = NULL;
    int prev_mode = 1;
    Acc acc = {create_graph, NULL};
    int mode_set = 0, ok = 0;

    roots = PySequence_Fast(roots_in, "roots must be a sequence");
    targets = PySequence_Fast(targets_in, "targets must be a sequence");
    if (!roots || !targets) goto done;
    if (sens_in != Py_None && !(sens = PySequence_Fast(sens_in, "sens must be a sequence"))) goto done;
    leaf_grads = PyDict_New(); node_keys = PyDict_New(); relevant = PySet_New(NULL);
    runnable = PySet_New(NULL); pending = PyDict_New(); acc.owned = PySet_New(NULL);
    if (!leaf_grads || !node_keys || !relevant || !runnable || !pending || !acc.owned) goto done;

    /* ---- the targets: leaves are keyed by identity, intermediate results by (node, output index) ---- */
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
    /* ---- the nodes reachable from the roots, and those whose backward must run ---- */
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

    /* ---- the roots' gradients: sens, or ones ---- */
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

    /* ---- each node in reverse creation order ---- */
    if (!(result = PyList_New(nt))) goto done;
    for (Py_ssize_t i = 0; i < nt; i++) PyList_SET_ITEM(result, i, Py_NewRef(Py_None));
    Flags *flags = flags_of(S.state);
    if (flags == NULL) goto done;
    prev_mode = flags->enabled;
    flags->enabled = create_graph;  /* the rules record only when the backward itself is recorded */
    mode_set = 1;
    int release = !(retain_graph || create_graph);
    int capture = flags->capture;
    int have_keys = PyDict_GET_SIZE(node_keys) > 0;

    for (Py_ssize_t k = nn - 1; k >= 0; k--) {
        PyObject *node = PyList_GET_ITEM(nodes, k);
        PyObject *douts = dict_pop(pending, node, Py_None);  /* new reference */
        if (douts == NULL) goto done;
        if (douts == Py_None) { Py_DECREF(douts); continue; }
        Py_ssize_t nd = PyList_GET_SIZE(douts);
        /* These buffers now go to a rule (which may hand one to several inputs) or to the caller: no longer the
         * engine's to accumulate into in place. */
        for (Py_ssize_t j = 0; j < nd; j++)
            if (PySet_Discard(acc.owned, PyList_GET_ITEM(douts, j)) < 0) { Py_DECREF(douts); goto done; }
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
        if (!PyTuple_Check(grads) && !PyList_Check(grads)) {  /* a rule returns a tuple or list, one per input */
            grad_error("For '%U', the backward rule returned %s; expected a tuple or list with one gradient (a "
                       "Tensor or None) per input (%zd).", get_field(node, S.n_op),
                       grads == Py_None ? "None" : Py_TYPE(grads)->tp_name, ni);
            Py_DECREF(grads); Py_DECREF(douts);
            goto done;
        }
        PyObject *gs = PySequence_Fast(grads, "");  /* a tuple or list: a new reference to itself */
        if (gs == NULL) { Py_DECREF(grads); Py_DECREF(douts); goto done; }
        if (PySequence_Fast_GET_SIZE(gs) != ni) {
            grad_error("For '%U', the backward rule returned %zd gradients for %zd inputs.", get_field(node, S.n_op),
                       PySequence_Fast_GET_SIZE(gs), ni);
            Py_DECREF(gs); Py_DECREF(grads); Py_DECREF(douts);
            goto done;
        }
        if (capture) {
            PyObject *r = PyObject_CallFunctionObjArgs(S.capture, node, douts, grads, NULL);
            if (r == NULL) { Py_DECREF(gs); Py_DECREF(grads); Py_DECREF(douts); goto done; }
            Py_DECREF(r);
        }
        Py_DECREF(douts);
        /* ---- each input's gradient: summed to its shape, cast to its dtype, added into its slot ---- */
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
    /* ---- the leaves' gradients ---- */
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
        Flags *f = flags_of(S.state);  /* read again: the rules ran Python in between */
        if (f != NULL) f->enabled = prev_mode; else if (ok) ok = 0; else PyErr_Clear();
        if (et) PyErr_Restore(et, ev, tb);
    }
    Py_XDECREF(roots); Py_XDECREF(targets); Py_XDECREF(sens); Py_XDECREF(leaf_grads); Py_XDECREF(node_keys);
    Py_XDECREF(relevant); Py_XDECREF(nodes); Py_XDECREF(runnable); Py_XDECREF(pending); Py_XDECREF(acc.owned);
    if (!ok) { Py_XDECREF(result); return NULL; }
    return result;
}
