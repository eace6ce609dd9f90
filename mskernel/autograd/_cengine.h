/* mskernel.autograd._cengine -- what its C files share (see _cengine.c for the whole picture).
 *
 *   _cengine.c            module, bindings to the Python classes, Tensor._wrap, recording
 *   _cengine_state.c      grad mode, per thread (GradState)
 *   _cengine_rules.c      declared backward rules (Python) bound to one call: a node's backward
 *   _cengine_backward.c   the backward pass
 *   _cengine_operators.c  the C path of the Tensor operators and of the hand-tuned elementwise ops
 *   _cengine_calls.c      grad()'s call and ops.Custom calls
 *   _cengine_capi.c       the C API of mskernel's C++ headers (mskernel/include/mskernel/engine_api.h)
 */
#ifndef MSKERNEL_CENGINE_H
#define MSKERNEL_CENGINE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL mskernel_cengine_ARRAY_API
#ifndef CENGINE_MAIN
#define NO_IMPORT_ARRAY  /* numpy's API table is imported once, by _cengine.c */
#endif
#include <numpy/arrayobject.h>  /* shapes, dtypes and strides read in place (the checks on every op and gradient) */

typedef struct {
    PyTypeObject *tensor_type, *node_type, *ndarray_type;
    PyObject *asarray, *ids;                      /* np.asarray, itertools.count shared with node.py */
    PyObject *meta, *meta_fn;                     /* node.py's _META cache and _meta_array */
    PyObject *ones, *scalar_ones, *reduce_to, *materialize, *saved_outs, *capture, *grad_error, *state;
    Py_ssize_t t_data, t_rg, t_node, t_idx, t_version, t_alias;
    Py_ssize_t n_id, n_op, n_kind, n_inputs, n_backward, n_out_meta, n_saved_out, n_info, n_stats, n_materialize;
    PyObject *s_builtin, *s_grad, *s_shape, *s_dtype, *s_kind, *s_fc;
    PyObject *zero;
    PyObject *saved_hooks;                        /* saved-tensor hooks: pack(t) -> Packed (NULL when none) */
    PyTypeObject *packed_type;                    /* the Packed class: .unpack() gives the tensor back */
} State;

extern State S;

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

/* _cengine_state.c: grad mode, per thread (mskernel.autograd.node.GradState) */
typedef struct { int enabled, capture; Py_ssize_t depth; } Flags;
extern PyTypeObject GradStateType;
Flags *flags_of(PyObject *state);  /* this thread's switches (NULL with an error) */
int ready_state_types(void);

/* _cengine.c */
PyObject *wrap_array(PyObject *arr);  /* Tensor._wrap: new reference; arr borrowed */
int shape_dtype(PyObject *arr, PyObject **shape, PyObject **dtype);  /* new references */
int record_node(PyObject *op, PyObject *inputs_in, PyObject *out, PyObject *backward, int needs_outputs);
int record_with_rule(PyObject *rule, PyObject *inputs, PyObject *out, PyObject *attrs);
PyObject *saved_operand(PyObject *t);  /* new reference */
int grad_enabled(void);

/* _cengine_rules.c */
extern PyTypeObject RuleType, BoundType;
int is_rule(PyObject *o);
PyObject *rule_prim(PyObject *rule);  /* borrowed */
int rule_needs_out(PyObject *rule);
PyObject *bind_rule(PyObject *rule, PyObject *inputs, PyObject *attrs);

/* _cengine_backward.c */
PyObject *gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* _cengine_operators.c */
int same_dtype(PyObject *a, PyObject *b);
int float_kind_array(PyObject *arr);
int low_precision_float(PyArray_Descr *d);  /* ml_dtypes' bfloat16/float8 (kind 'V') */
extern PyTypeObject BinopType;

/* _cengine_calls.c */
PyObject *grad_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *bind_grad(PyObject *self, PyObject *helpers);
PyObject *finalize_grad(PyObject *g, PyObject *seen);
extern PyTypeObject CustomCallType;
/* _cengine_capi.c */
PyObject *engine_api_capsule(void);  /* the capsule _C_API (new reference) */

#define GRAD_CALL_DOC "grad_call(fn, args, kwargs, positions, weights, has_aux, sens, ints) -> " \
                      "(output, aux, input grads, weight grads) (see mskernel.autograd.api)."

#endif
