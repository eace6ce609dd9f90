/* mskernel/engine_api.h -- the engine core's C API: what mskernel's C++ headers ask of it on every op call.
 *
 * The engine core (mskernel.autograd._cengine, built from mskernel/autograd/_cengine*.c) exports one capsule,
 * `mskernel.autograd._cengine._C_API`, holding a MkEngineApi: the steps a C++ op's call shares with the engine,
 * written once there (in _cengine_capi.c) and called here through plain C function pointers instead of
 * attribute lookups on Python objects. This header is C and C++: the engine core compiles it too, so the layout
 * is declared once. The functions need the GIL.
 *
 *   tensor_slot(obj, slot)  a field of a Tensor (its `_data`, `_rg`, ...: the __slots__ the engine reads at
 *                           their offsets), borrowed; NULL without an error when `obj` is not exactly a Tensor or
 *                           the field is unset (the caller then asks getattr, for getattr's result or error)
 *   wrap(arr)               Tensor._wrap(arr): a Tensor sharing the numpy array `arr` (no copy, no history);
 *                           a new reference, NULL with an error
 *   grad_enabled()          this thread's grad mode (`STATE.enabled`): 1 or 0, -1 with an error
 *   set_grad_enabled(on)    sets it (`STATE.enabled = on`): 0, -1 with an error
 *
 * Example (C++; mskernel/bridge.h loads it once as detail::Engine()):
 *   auto *api = static_cast<const MkEngineApi *>(PyCapsule_Import(MK_ENGINE_API_CAPSULE, 0));
 *   int on = api->grad_enabled();
 *   PyObject *data = api->tensor_slot(tensor, MK_TENSOR_DATA);  // the Tensor's numpy array (borrowed)
 */
#ifndef MSKERNEL_ENGINE_API_H_
#define MSKERNEL_ENGINE_API_H_

#include <Python.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MK_ENGINE_API_VERSION 1
#define MK_ENGINE_API_CAPSULE "mskernel.autograd._cengine._C_API"

/* The fields of a Tensor, in the order of its __slots__ as the engine binds them (bind_tensor). */
typedef enum {
  MK_TENSOR_DATA = 0, /* _data: the numpy array */
  MK_TENSOR_RG,       /* _rg: requires_grad (a bool) */
  MK_TENSOR_NODE,     /* _node: the graph node that made it, or None */
  MK_TENSOR_IDX,      /* _idx: which output of that node */
  MK_TENSOR_VERSION,  /* _version: in-place write counter */
  MK_TENSOR_ALIAS,    /* _alias: what a view made while recording remembers of its base */
  MK_TENSOR_NSLOTS
} MkTensorSlot;

typedef struct {
  int version; /* MK_ENGINE_API_VERSION */
  PyObject *(*tensor_slot)(PyObject *obj, int slot);
  PyObject *(*wrap)(PyObject *arr);
  int (*grad_enabled)(void);
  int (*set_grad_enabled)(int on);
} MkEngineApi;

#ifdef __cplusplus
}
#endif

#endif /* MSKERNEL_ENGINE_API_H_ */
