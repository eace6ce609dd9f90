// ratio_ops: out = x / y (elementwise, x and y of one shape) as a C++ Function -- the forward and its
// backward in one class, recorded by the autograd engine like any other op.
// CustomOpBuilder("ratio_ops", ["ratio_ops.cpp"]).load() binds ratio_ops.ratio(x, y).
#include "ms_extension.h"

namespace mindspore::pynative {
namespace autograd {

// An uninitialised tensor with the dtype and shape of `like`, for a kernel to write.
BaseTensorPtr EmptyLike(const BaseTensorPtr &like) {
  return std::make_shared<BaseTensor>(like->data_type(), like->shape());
}

class Ratio : public Function<Ratio> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    BaseTensorPtr out = EmptyLike(x);
    custom::CustomLaunchAclnn("aclnnDiv", {x, y}, {out});
    // Both gradients need y, and y's needs the quotient too: keep them only when a gradient is wanted.
    if (ctx->NeedGrad(x) || ctx->NeedGrad(y)) {
      ctx->SaveForBackward({y, out});
    }
    return out;
  }

  // d(x/y)/dx = 1/y and d(x/y)/dy = -(x/y)/y: with g the gradient of out, x gets g/y and y gets -(g/y)*out.
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grads) {
    BaseTensorPtrList saved = ctx->GetSavedTensors();
    const BaseTensorPtr &y = saved[0];
    const BaseTensorPtr &out = saved[1];
    BaseTensorPtr g_over_y = EmptyLike(grads[0]);
    custom::CustomLaunchAclnn("aclnnDiv", {grads[0], y}, {g_over_y});
    BaseTensorPtr dy = nullptr;
    if (ctx->NeedsInputGrad(1)) {
      BaseTensorPtr minus_out = EmptyLike(out);
      custom::CustomLaunchAclnn("aclnnMuls", {out, MakeValue<double>(-1.0)}, {minus_out});
      dy = EmptyLike(out);
      custom::CustomLaunchAclnn("aclnnMul", {g_over_y, minus_out}, {dy});
    }
    return {ctx->NeedsInputGrad(0) ? g_over_y : nullptr, dy};  // nullptr: no gradient for that input
  }
};

// What Python calls: Apply runs Forward and records the op, so that Backward runs in the backward pass.
BaseTensorPtr ratio(const BaseTensorPtr &x, const BaseTensorPtr &y) { return Ratio::Apply(x, y); }

}  // namespace autograd
}  // namespace mindspore::pynative

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("ratio", &mindspore::pynative::autograd::ratio, "x / y, elementwise, with its gradient.");
}
