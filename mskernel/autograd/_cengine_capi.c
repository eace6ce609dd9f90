/* mskernel.autograd._cengine: the C API of mskernel's C++ headers (mskernel/include/mskernel/engine_api.h).
 *
 * A C++ op built by CustomOpBuilder reads its Tensor arguments' fields, wraps its results' arrays into Tensors and
 * reads and sets grad mode on every call. Those steps are the engine's own (the slots bind_tensor located, wrap_array,
 * this thread's GradState switches): the capsule `_C_API` hands them to the headers as C functions, so they are
 * written once, here, and cost a C call instead of Python attribute lookups.
 */
#include "_cengine.h"
#include "../include/mskernel/engine_api.h"

static PyObject *api_tensor_slot(PyObject *obj, int slot) {
    if (S.tensor_type == NULL || Py_TYPE(obj) != S.tensor_type) return NULL;
    Py_ssize_t off;
    switch (slot) {
        case MK_TENSOR_DATA: off = S.t_data; break;
        case MK_TENSOR_RG: off = S.t_rg; break;
        case MK_TENSOR_NODE: off = S.t_node; break;
        case MK_TENSOR_IDX: off = S.t_idx; break;
        case MK_TENSOR_VERSION: off = S.t_version; break;
        case MK_TENSOR_ALIAS: off = S.t_alias; break;
        default: return NULL;
    }
    return FIELD(obj, off);  /* borrowed; NULL when unset (getattr then raises its AttributeError) */
}

static PyObject *api_wrap(PyObject *arr) {
    if (S.tensor_type == NULL) return PyErr_Format(PyExc_RuntimeError, "_cengine: bind_tensor must come first");
    return wrap_array(arr);
}

static int state_bound(void) {
    if (S.state != NULL) return 1;
    PyErr_SetString(PyExc_RuntimeError, "_cengine: bind_node must come first");
    return 0;
}

static int api_grad_enabled(void) { return state_bound() ? grad_enabled() : -1; }

static int api_set_grad_enabled(int on) {  /* what STATE.enabled = on does (_cengine_state.c), for this thread */
    Flags *f = state_bound() ? flags_of(S.state) : NULL;
    if (f == NULL) return -1;
    f->enabled = on != 0;
    return 0;
}

static const MkEngineApi api = {MK_ENGINE_API_VERSION, api_tensor_slot, api_wrap, api_grad_enabled,
                                api_set_grad_enabled};

PyObject *engine_api_capsule(void) { return PyCapsule_New((void *)&api, MK_ENGINE_API_CAPSULE, NULL); }
