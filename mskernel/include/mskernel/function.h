// mskernel/function.h -- Function<T> and AutogradContext: differentiable C++ ops in mskernel's graph.
//
// Provides MindSpore's `Function<T>` (a class with static `Forward(AutogradContext *, args...)`
// and `Backward(AutogradContext *, BaseTensorPtrList grad_outputs)`; call it as
// `T::Apply(args...)`) and `AutogradContext` (SaveForBackward, GetSavedTensors, NeedGrad,
// NeedsInputGrad, MarkDirty, MarkNonDifferentiable, SetMaterializeGrads, saved_data).
//
// How Apply bridges to the engine: Apply reads mskernel's grad mode, runs Forward with grad mode
// off, and -- if grad mode was on and some tensor argument is tracked -- records ONE node through
// `mskernel.autograd.record` (kind "cpp_function", op = the unqualified class name, info
// {"cpp_class": qualified name}) via `mskernel.cpp.record_function` (when nothing is recorded, Apply
// makes no node at all: the context lives on the stack for the call). The node's backward is
// a Python callable that owns the context and calls T::Backward, so C++ ops and Python ops mix in
// one graph, in `mskernel.autograd.trace` snapshots, in `grad`/`value_and_grad` and in gradcheck.
//
// Rules (MindSpore's): Forward arguments may be tensors (`BaseTensorPtr`), tensor lists, strings,
// numbers, bools, int vectors...; only `BaseTensorPtr` arguments are differentiable inputs
// (NeedsInputGrad(i) counts those only). Backward returns one entry per Forward argument, nullptr
// for none (and for every non-tensor argument). Forward may return a tensor or a tensor list.
// Saved outputs are stored without a reference cycle (an output put in `saved_data` is not: save
// outputs with SaveForBackward). With SetMaterializeGrads(false), gradients of outputs that
// received none (the engine hands those as zeros) arrive as nullptr -- as does an all-zero
// gradient, which Backward must treat the same way anyway. NeedsInputGrad(i) is true when tensor
// argument i was tracked by autograd at Apply.
//
// MarkDirty: the modified input comes back as the output (the same Python Tensor) and its history
// moves to the new node; the node's input is a stand-in holding the old history. A leaf that
// requires grad cannot be modified ("A leaf tensor that need grad is being used in an inplace
// operator"). An earlier op that saved the tensor for its own backward sees the new values:
// mskernel's engine does not check tensor versions (PyTorch raises an error there).
//
// Higher order: while an outer gradient is being built (create_graph), Backward runs with grad
// mode on, so Function::Apply calls or Python ops inside Backward are recorded and differentiate
// again. Gradients that Backward computes with raw kernels (CustomLaunchAclnn, loops) cannot be
// differentiated: they are marked so that asking for their derivative raises
// `mskernel.cpp.SecondOrderError` instead of returning a wrong (zero) second derivative.
//
// Example:
//   class Square : public Function<Square> {
//    public:
//     static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x) {
//       auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//       custom::CustomLaunchAclnn("aclnnMul", {x, x}, {out});
//       ctx->SaveForBackward({x});
//       return out;
//     }
//     static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grads) {
//       auto x = ctx->GetSavedTensors()[0];
//       auto dx = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//       custom::CustomLaunchAclnn("aclnnMul", {grads[0], x}, {dx});
//       custom::CustomLaunchAclnn("aclnnMuls", {dx, MakeValue<double>(2.0)}, {dx});
//       return {dx};
//     }
//   };
//   BaseTensorPtr square(const BaseTensorPtr &x) { return Square::Apply(x); }
#ifndef MSKERNEL_FUNCTION_H_
#define MSKERNEL_FUNCTION_H_

#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mskernel/tensor.h"

namespace mskernel {

namespace detail {
struct FunctionNode;
}
template <class T>
struct Function;

/// State shared by one Forward call and its Backward.
struct AutogradContext {
  /// Tensors Backward needs (entries may be nullptr). Inputs and outputs may both be saved.
  MSKERNEL_GLUE void SaveForBackward(const BaseTensorPtrList &to_save) {
    to_save_ = to_save;
    saved_output_.assign(to_save.size(), -1);
  }
  /// The tensors given to SaveForBackward (saved outputs as the engine hands them to Backward).
  MSKERNEL_GLUE const BaseTensorPtrList GetSavedTensors() const {
    BaseTensorPtrList res = to_save_;
    for (size_t i = 0; i < res.size() && i < saved_output_.size(); ++i) {
      int j = saved_output_[i];
      if (j >= 0) {
        if (static_cast<size_t>(j) >= outs_.size()) {
          throw std::runtime_error("GetSavedTensors: a saved output is only available inside Backward");
        }
        res[i] = outs_[static_cast<size_t>(j)];
      }
    }
    return res;
  }
  /// Inputs that Forward modified in place (and returns as outputs).
  void MarkDirty(const BaseTensorPtrList &inputs) { dirty_ = inputs; }
  /// Outputs that gradients must not flow through.
  void MarkNonDifferentiable(const BaseTensorPtrList &outputs) { non_diff_ = outputs; }
  /// true (default): gradients of unused outputs arrive as zeros; false: as nullptr.
  void SetMaterializeGrads(bool value) { materialize_grads_ = value; }
  /// Whether the gradient of tensor argument `tensor_index` (counting tensor arguments only) is needed.
  MSKERNEL_GLUE bool NeedsInputGrad(size_t tensor_index) const {
    if (tensor_index >= n_tensor_args_) {
      throw std::out_of_range("NeedsInputGrad: tensor index " + std::to_string(tensor_index) +
                              " is out of range (Forward has " + std::to_string(n_tensor_args_) +
                              " tensor arguments)");
    }
    return tensor_index < needs_input_grad_.size() && needs_input_grad_[tensor_index];
  }
  /// Whether `tensor` is tracked by autograd for this op (usable in Forward and Backward).
  bool NeedGrad(const BaseTensorPtr &tensor) const { return recording_ && tensor && tensor->requires_grad(); }
  bool materialize_grads() const { return materialize_grads_; }

  /// Arbitrary values from Forward to Backward (MakeValue / GetValue; tensors are values too).
  std::unordered_map<std::string, ValuePtr> saved_data;

 private:
  friend struct detail::FunctionNode;
  template <class>
  friend struct Function;
  BaseTensorPtrList to_save_;
  std::vector<int> saved_output_;  // per saved entry: index of the output it is, or -1
  BaseTensorPtrList dirty_, non_diff_;
  size_t n_tensor_args_ = 0;            // tensor arguments of Forward
  std::vector<bool> needs_input_grad_;  // per tensor argument; empty when none needs a gradient
  BaseTensorPtrList outs_;  // forward outputs, set while Backward runs
  bool materialize_grads_ = true;
  bool recording_ = false;
};

namespace detail {

using BackwardFn = BaseTensorPtrList (*)(AutogradContext *, BaseTensorPtrList);

template <typename X>
BaseTensorPtrList BackwardThunk(AutogradContext *ctx, BaseTensorPtrList grads) {
  return X::Backward(ctx, std::move(grads));
}

/// One Apply: the arguments' kinds, the context, and the bridge to the Python graph.
struct FunctionNode {
  // qualname and name are the Function type's own strings (static in Apply): no copy per call
  FunctionNode(const std::string &qualname, const std::string &name, BackwardFn backward)
      : qualname(qualname), name(name), backward(backward) {}

  /// Room for `n` arguments (one allocation per list instead of growing them).
  void Reserve(size_t n) {
    is_tensor.reserve(n);
    args.reserve(n);
  }

  void AddArg(const BaseTensorPtr &t) {
    is_tensor.push_back(true);
    args.push_back(t);
  }
  template <typename U>
  void AddArg(const U &) {
    is_tensor.push_back(false);
    args.push_back(nullptr);
  }

  /// The grad mode Apply read and which of the `n` tensor arguments need gradients.
  void Begin(bool recording, const bool *needs, size_t n) {
    ctx.recording_ = recording;
    ctx.n_tensor_args_ = n;
    ctx.needs_input_grad_.assign(needs, needs + n);
    any_needs_grad = false;
    for (size_t i = 0; i < n; ++i) any_needs_grad = any_needs_grad || needs[i];
  }

  /// The grad mode Begin() read.
  bool recording() const { return ctx.recording_; }

  static bool Same(const BaseTensorPtr &a, const BaseTensorPtr &b) {
    return a && b && (a == b || (a->py_tensor() != nullptr && a->py_tensor() == b->py_tensor()));
  }

  /// Records the node (when something is tracked); may replace outputs by their final tensors.
  MSKERNEL_GLUE void Finish(const std::shared_ptr<FunctionNode> &self, BaseTensorPtrList *outs) {
    if (outs->empty()) throw std::runtime_error(name + ": Forward must return at least one tensor");
    for (size_t j = 0; j < outs->size(); ++j) {
      if (!(*outs)[j]) throw std::runtime_error(name + ": Forward returned a null tensor as output " + std::to_string(j));
    }
    if (!ctx.recording_ || !any_needs_grad) {  // "Run in no grad mode": nothing to record
      ctx.dirty_.clear();
      ctx.non_diff_.clear();
      return;
    }
    PyRef dirty = PyRef::Steal(Check(PyList_New(0)));
    for (const auto &d : ctx.dirty_) {
      size_t k = 0;
      while (k < args.size() && !(is_tensor[k] && Same(args[k], d))) ++k;
      if (k == args.size()) throw std::runtime_error(name + ": MarkDirty was given a tensor that is not a Forward input");
      if (PyList_Append(dirty.get(), Int(static_cast<int64_t>(k)).get()) != 0) ThrowIfError();
    }
    PyRef nondiff = PyRef::Steal(Check(PyList_New(0)));
    for (size_t j = 0; j < outs->size(); ++j) {
      for (const auto &nd : ctx.non_diff_) {
        if (Same((*outs)[j], nd)) {
          if (PyList_Append(nondiff.get(), Int(static_cast<int64_t>(j)).get()) != 0) ThrowIfError();
          break;
        }
      }
    }
    ctx.dirty_.clear();
    ctx.non_diff_.clear();
    bool saves_outputs = false;  // saved outputs are handed back by the engine: no reference cycle
    ctx.saved_output_.assign(ctx.to_save_.size(), -1);
    for (size_t i = 0; i < ctx.to_save_.size(); ++i) {
      for (size_t j = 0; j < outs->size(); ++j) {
        if (Same(ctx.to_save_[i], (*outs)[j])) {
          ctx.saved_output_[i] = static_cast<int>(j);
          ctx.to_save_[i] = nullptr;
          saves_outputs = true;
          break;
        }
      }
    }
    PyRef py_args = PyRef::Steal(Check(PyList_New(static_cast<Py_ssize_t>(args.size()))));
    for (size_t k = 0; k < args.size(); ++k) {
      PyObject *o = args[k] ? args[k]->ToPython().release() : (Py_INCREF(Py_None), Py_None);
      PyList_SET_ITEM(py_args.get(), k, o);
    }
    args.clear();  // the node must not keep its inputs alive (the graph does)
    PyRef py_outs = TensorsToPython(*outs);
    PyRef backward_fn = MakeBackwardCallable(self);
    static std::atomic<PyObject *> record_slot{nullptr};
    PyObject *record = detail::Once(record_slot, [] { return detail::BridgeAttr("record_function"); });
    PyRef final_outs = Call(record, {Str(UnqualifiedName(qualname)).get(), Str(qualname).get(), py_args.get(),
                                     py_outs.get(), dirty.get(), nondiff.get(), backward_fn.get(),
                                     Bool(saves_outputs).get(), Bool(ctx.materialize_grads_).get()});
    for (size_t j = 0; j < outs->size(); ++j) {
      PyObject *fo = PyList_GET_ITEM(final_outs.get(), static_cast<Py_ssize_t>(j));
      if (fo != (*outs)[j]->py_tensor()) (*outs)[j] = BaseTensor::FromPython(fo);
    }
  }

  /// The Python callable the graph node calls: backward(douts, outs) -> one gradient per argument.
  MSKERNEL_GLUE static PyRef MakeBackwardCallable(const std::shared_ptr<FunctionNode> &self) {
    static PyMethodDef def = {"cpp_function_backward", reinterpret_cast<PyCFunction>(&BackwardEntry), METH_VARARGS,
                              "Runs the C++ Backward of a Function<T> node."};
    auto *holder = new std::shared_ptr<FunctionNode>(self);
    PyObject *capsule = PyCapsule_New(holder, "mskernel.FunctionNode", [](PyObject *cap) {
      delete static_cast<std::shared_ptr<FunctionNode> *>(PyCapsule_GetPointer(cap, "mskernel.FunctionNode"));
    });
    if (capsule == nullptr) {
      delete holder;
      detail::ThrowPythonError();
    }
    PyRef cap = PyRef::Steal(capsule);
    return PyRef::Steal(Check(PyCFunction_NewEx(&def, cap.get(), nullptr)));
  }

  MSKERNEL_GLUE static PyObject *BackwardEntry(PyObject *capsule, PyObject *py_args) {
    auto &self = *static_cast<std::shared_ptr<FunctionNode> *>(PyCapsule_GetPointer(capsule, "mskernel.FunctionNode"));
    try {
      PyObject *douts = nullptr, *fwd_outs = nullptr;
      if (!PyArg_ParseTuple(py_args, "OO", &douts, &fwd_outs)) return nullptr;
      return self->RunBackward(douts, fwd_outs).release();
    } catch (...) {
      SetPythonError("The Backward of " + self->name);
      return nullptr;
    }
  }

  MSKERNEL_GLUE PyRef RunBackward(PyObject *douts, PyObject *fwd_outs) {
    BaseTensorPtrList grads_in;
    PyRef d_seq = PyRef::Steal(Check(PySequence_Fast(douts, "douts must be a sequence")));
    PyRef o_seq = PyRef::Steal(Check(PySequence_Fast(fwd_outs, "outs must be a sequence")));
    const Py_ssize_t n_out = PySequence_Fast_GET_SIZE(d_seq.get());
    for (Py_ssize_t j = 0; j < n_out; ++j) {
      // None (an unused output, with SetMaterializeGrads(false)) becomes nullptr
      grads_in.push_back(BaseTensor::FromPython(PySequence_Fast_GET_ITEM(d_seq.get(), j)));
    }
    ctx.outs_.clear();
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(o_seq.get()); ++j) {
      ctx.outs_.push_back(BaseTensor::FromPython(PySequence_Fast_GET_ITEM(o_seq.get(), j)));
    }
    struct ClearOuts {
      AutogradContext &c;
      ~ClearOuts() { c.outs_.clear(); }
    } clear_outs{ctx};
    BaseTensorPtrList grads = backward(&ctx, std::move(grads_in));
    if (grads.size() != is_tensor.size()) {
      throw std::runtime_error(name + " returned an incorrect number of gradients (expected " +
                               std::to_string(is_tensor.size()) + ", got " + std::to_string(grads.size()) + ")");
    }
    for (size_t i = 0; i < grads.size(); ++i) {
      if (!is_tensor[i] && grads[i] != nullptr) {
        // MindSpore's wording, verbatim (including its "std the" typo).
        throw std::runtime_error(name + " returned a gradient different that is defined at position " +
                                 std::to_string(i + 1) + ", std the corresponding forward input was not a Tensor");
      }
    }
    return TensorsToPython(grads);
  }

  const std::string &qualname, &name;
  BackwardFn backward;
  AutogradContext ctx;
  std::vector<bool> is_tensor;
  BaseTensorPtrList args;
  bool any_needs_grad = false;
};

template <typename X, typename... Args>
using forward_t = decltype(X::Forward(nullptr, std::declval<Args>()...));

// Whether a Forward argument of type A is a differentiable tensor input: the overload FunctionNode::AddArg
// picks (a BaseTensorPtr exactly; anything else, even a convertible type, is not).
std::true_type IsTensorArgTest(const BaseTensorPtr &);
template <typename U>
std::false_type IsTensorArgTest(const U &);
template <typename A>
constexpr bool kIsTensorArg = decltype(IsTensorArgTest(std::declval<const std::decay_t<A> &>()))::value;

inline BaseTensorPtrList ToTensorList(const BaseTensorPtr &t) { return BaseTensorPtrList{t}; }
inline BaseTensorPtrList ToTensorList(const BaseTensorPtrList &ts) { return ts; }

template <typename R>
R ToOutputType(const BaseTensorPtrList &ts) {
  if constexpr (std::is_same_v<R, BaseTensorPtrList>) {
    return ts;
  } else {
    return ts[0];
  }
}

/// The checks Finish makes of Forward's result, for a call that records nothing.
MSKERNEL_GLUE inline void CheckOutput(const std::string &name, const BaseTensorPtr &out) {
  if (!out) throw std::runtime_error(name + ": Forward returned a null tensor as output 0");
}
MSKERNEL_GLUE inline void CheckOutput(const std::string &name, const BaseTensorPtrList &outs) {
  if (outs.empty()) throw std::runtime_error(name + ": Forward must return at least one tensor");
  for (size_t j = 0; j < outs.size(); ++j) {
    if (!outs[j]) throw std::runtime_error(name + ": Forward returned a null tensor as output " + std::to_string(j));
  }
}

}  // namespace detail

/// Base of a differentiable C++ op: derive `class Op : public Function<Op>` with static Forward
/// and Backward, then call `Op::Apply(args...)` (the arguments of Forward after the context).
template <class T>
struct Function {
  template <typename X = T, typename... Args>
  static auto Apply(Args &&...args) -> std::enable_if_t<std::is_same_v<X, T>, detail::forward_t<X, Args...>> {
    using R = detail::forward_t<X, Args...>;
    static const std::string qualname = detail::Demangle(typeid(T).name());
    static const std::string name = "Function[" + qualname + "]";
    constexpr size_t kTensors = (size_t{0} + ... + (detail::kIsTensorArg<Args> ? 1 : 0));
    // grad mode, and which tensor arguments need gradients (read before Forward runs)
    const bool recording = detail::GradEnabled();
    bool needs[kTensors ? kTensors : 1] = {};
    bool any_needs_grad = false;
    if (recording) {
      [[maybe_unused]] size_t k = 0;
      [[maybe_unused]] auto read = [&](const auto &a) {
        if constexpr (detail::kIsTensorArg<decltype(a)>) {
          const bool need = a && a->requires_grad();
          needs[k++] = need;
          any_needs_grad = any_needs_grad || need;
        }
      };
      (read(args), ...);
    }
    if (!any_needs_grad) {  // nothing to record: no graph node, the context lives on the stack
      AutogradContext ctx;
      ctx.recording_ = recording;
      ctx.n_tensor_args_ = kTensors;
      R out = RunForward<X, R>(&ctx, name, recording, std::forward<Args>(args)...);
      detail::CheckOutput(name, out);
      return out;
    }
    auto node = std::make_shared<detail::FunctionNode>(qualname, name, &detail::BackwardThunk<X>);
    node->Reserve(sizeof...(Args));
    (node->AddArg(args), ...);
    node->Begin(recording, needs, kTensors);
    R out = RunForward<X, R>(&node->ctx, name, recording, std::forward<Args>(args)...);
    BaseTensorPtrList outs = detail::ToTensorList(out);
    node->Finish(node, &outs);
    return detail::ToOutputType<R>(outs);
  }

 private:
  /// X::Forward with grad mode off (`recording`: the mode Apply has just read).
  template <typename X, typename R, typename... Args>
  static R RunForward(AutogradContext *ctx, const std::string &name, bool recording, Args &&...args) {
    detail::GradModeGuard no_grad(false, recording);
    try {
      return X::Forward(ctx, std::forward<Args>(args)...);
    } catch (const std::exception &) {  // pybind11::error_already_set too: it derives from std::exception
      throw;
    } catch (...) {  // `throw 42`: name the Function instead of pybind11's "unknown exception"
      throw std::runtime_error(detail::NonStdExceptionMessage("The Forward of " + name));
    }
  }
};

}  // namespace mskernel

#endif  // MSKERNEL_FUNCTION_H_
