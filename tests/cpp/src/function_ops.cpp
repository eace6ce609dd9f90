// Function<T> / AutogradContext test ops (MindSpore 2.6 style names, compiled by CustomOpBuilder).
#include <string>
#include <vector>

#include "ms_extension.h"

namespace mindspore::pynative {
namespace autograd {
namespace {
BaseTensorPtr Empty(const BaseTensorPtr &like, const ShapeVector &shape) {
  return std::make_shared<BaseTensor>(like->data_type(), shape);
}
BaseTensorPtr Binary(const char *op, const BaseTensorPtr &a, const BaseTensorPtr &b) {
  auto out = Empty(a, mskernel::cpu::BroadcastShape(a->shape(), b->shape()));
  custom::CustomLaunchAclnn(op, {a, b}, {out});
  return out;
}
BaseTensorPtr Scaled(const BaseTensorPtr &a, double s) {
  auto out = Empty(a, a->shape());
  custom::CustomLaunchAclnn("aclnnMuls", {a, MakeValue<double>(s)}, {out});
  return out;
}
std::vector<bool> g_probe;  // what NeedGrad / NeedsInputGrad / nullptr grads said, for the tests
}  // namespace

// out = x * y (the seed's op, written with the helpers).
class CustomMul : public Function<CustomMul> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    ctx->SaveForBackward({ctx->NeedGrad(x) ? y : nullptr, ctx->NeedGrad(y) ? x : nullptr});
    return Binary("aclnnMul", x, y);
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grads) {
    auto saved = ctx->GetSavedTensors();
    return {ctx->NeedsInputGrad(0) ? Binary("aclnnMul", grads[0], saved[0]) : nullptr,
            ctx->NeedsInputGrad(1) ? Binary("aclnnMul", grads[0], saved[1]) : nullptr};
  }
};

// (x * y, x + y): two outputs.
class MulAdd : public Function<MulAdd> {
 public:
  static BaseTensorPtrList Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    ctx->SaveForBackward({x, y});
    return {Binary("aclnnMul", x, y), Binary("aclnnAdd", x, y)};
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto s = ctx->GetSavedTensors();
    return {Binary("aclnnAdd", Binary("aclnnMul", g[0], s[1]), g[1]),
            Binary("aclnnAdd", Binary("aclnnMul", g[0], s[0]), g[1])};
  }
};

// The same two outputs with SetMaterializeGrads(false): records whether grads were nullptr.
class MulAddNoMaterialize : public Function<MulAddNoMaterialize> {
 public:
  static BaseTensorPtrList Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    ctx->SetMaterializeGrads(false);
    ctx->SaveForBackward({x, y});
    return {Binary("aclnnMul", x, y), Binary("aclnnAdd", x, y)};
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    g_probe = {g[0] == nullptr, g[1] == nullptr};
    auto s = ctx->GetSavedTensors();
    BaseTensorPtr dx = g[0] ? Binary("aclnnMul", g[0], s[1]) : nullptr;
    BaseTensorPtr dy = g[0] ? Binary("aclnnMul", g[0], s[0]) : nullptr;
    if (g[1]) {
      dx = dx ? Binary("aclnnAdd", dx, g[1]) : g[1];
      dy = dy ? Binary("aclnnAdd", dy, g[1]) : g[1];
    }
    return {dx, dy};
  }
};

// out = reshape(x * alpha * k (negated if `negate`), shape); `mode` "sum" adds 1 first.
// Non-tensor arguments of every kind; Backward reads them back from saved_data.
class ScaleReshape : public Function<ScaleReshape> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const std::string &mode,
                               const std::vector<int64_t> &shape, double alpha, int64_t k, bool negate) {
    if (mode != "scale" && mode != "sum") throw std::invalid_argument("ScaleReshape: unknown mode '" + mode + "'");
    double factor = alpha * static_cast<double>(k) * (negate ? -1.0 : 1.0);
    auto scaled = Scaled(x, factor);
    if (mode == "sum") custom::CustomLaunchAclnn("aclnnInplaceAdds", {scaled, MakeValue<double>(1.0)}, {});
    ctx->saved_data["factor"] = MakeValue(factor);
    ctx->saved_data["in_shape"] = MakeValue(x->shape());
    ctx->saved_data["mode"] = MakeValue(mode);
    return ms::Tensor(scaled).reshape(shape).tensor();
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto in_shape = GetValue<std::vector<int64_t>>(ctx->saved_data["in_shape"]);
    auto dx = Scaled(ms::Tensor(g[0]).contiguous().reshape(in_shape).tensor(), GetValue<double>(ctx->saved_data["factor"]));
    return {dx, nullptr, nullptr, nullptr, nullptr, nullptr};
  }
};

// x + sum(ys): a tensor-list argument is not a differentiable input.
class AddList : public Function<AddList> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtrList &ys) {
    auto out = Empty(x, x->shape());
    custom::CustomLaunchAclnn("aclnnInplaceCopy", {out, x}, {});
    for (const auto &y : ys) custom::CustomLaunchAclnn("aclnnInplaceAdd", {out, y}, {});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) { return {g[0], nullptr}; }
};

// out = x * y, marked non-differentiable.
class MulNoDiffOut : public Function<MulNoDiffOut> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    auto out = Binary("aclnnMul", x, y);
    ctx->MarkNonDifferentiable({out});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) { return {g[0], g[0]}; }
};

// (x marked non-differentiable, x * x): returning an input.
class NoDiffInput : public Function<NoDiffInput> {
 public:
  static BaseTensorPtrList Forward(AutogradContext *ctx, const BaseTensorPtr &x) {
    ctx->MarkNonDifferentiable({x});
    ctx->SaveForBackward({x});
    return {x, Binary("aclnnMul", x, x)};
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    return {Scaled(Binary("aclnnMul", g[1], ctx->GetSavedTensors()[0]), 2.0)};
  }
};

// x *= y in place (MarkDirty); returns x. Saves the old x for y's gradient.
class InplaceMul : public Function<InplaceMul> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    auto old = Empty(x, x->shape());
    custom::CustomLaunchAclnn("aclnnInplaceCopy", {old, x}, {});
    custom::CustomLaunchAclnn("aclnnMul", {x, y}, {x});
    ctx->MarkDirty({x});
    ctx->SaveForBackward({y, old, x});  // x (saved after the write) is the output
    return x;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto s = ctx->GetSavedTensors();
    g_probe = {s[2] != nullptr};
    return {Binary("aclnnMul", g[0], s[0]), Binary("aclnnMul", g[0], s[1])};
  }
};

// out = x * y (or a scale by n); Backward returns a wrong number / wrong kind of gradients.
class BadGradCount : public Function<BadGradCount> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    return Binary("aclnnMul", x, y);
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) { return {g[0]}; }
};

class BadGradPosition : public Function<BadGradPosition> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, int64_t n) {
    return Scaled(x, static_cast<double>(n));
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) { return {g[0], g[0]}; }
};

// out = x + w * y with a scalar in the middle: NeedGrad in Forward, NeedsInputGrad in Backward.
class NeedProbe : public Function<NeedProbe> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, double w, const BaseTensorPtr &y) {
    if (mskernel::detail::GradEnabled()) throw std::runtime_error("Forward must run with grad mode off");
    g_probe = {ctx->NeedGrad(x), ctx->NeedGrad(y)};
    ctx->saved_data["w"] = MakeValue(w);
    return Binary("aclnnAdd", x, Scaled(y, w));
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    g_probe.push_back(ctx->NeedsInputGrad(0));
    g_probe.push_back(ctx->NeedsInputGrad(1));
    return {ctx->NeedsInputGrad(0) ? g[0] : nullptr, nullptr,
            ctx->NeedsInputGrad(1) ? Scaled(g[0], GetValue<double>(ctx->saved_data["w"])) : nullptr};
  }
};

class NeedProbeOutOfRange : public Function<NeedProbeOutOfRange> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x) { return Scaled(x, 1.0); }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    ctx->NeedsInputGrad(1);
    return {g[0]};
  }
};

// x * x whose Backward is built from a recorded op (CustomMul::Apply): differentiable twice.
class SquareTwice : public Function<SquareTwice> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x) {
    ctx->SaveForBackward({x});
    return Binary("aclnnMul", x, x);
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto x = ctx->GetSavedTensors()[0];
    auto two_x = CustomMul::Apply(x, ms::tensor(2.0, x->data_type()).tensor());
    return {CustomMul::Apply(g[0], two_x)};
  }
};

BaseTensorPtr mul(const tensor::BaseTensorPtr &x, const tensor::BaseTensorPtr &y) { return CustomMul::Apply(x, y); }
BaseTensorPtrList mul_add(const BaseTensorPtr &x, const BaseTensorPtr &y) { return MulAdd::Apply(x, y); }
BaseTensorPtrList mul_add_no_materialize(const BaseTensorPtr &x, const BaseTensorPtr &y) {
  return MulAddNoMaterialize::Apply(x, y);
}
BaseTensorPtr scale_reshape(const BaseTensorPtr &x, const std::string &mode, const std::vector<int64_t> &shape,
                            double alpha, int64_t k, bool negate) {
  return ScaleReshape::Apply(x, mode, shape, alpha, k, negate);
}
BaseTensorPtr add_list(const BaseTensorPtr &x, const BaseTensorPtrList &ys) { return AddList::Apply(x, ys); }
BaseTensorPtr mul_no_diff_out(const BaseTensorPtr &x, const BaseTensorPtr &y) { return MulNoDiffOut::Apply(x, y); }
BaseTensorPtrList no_diff_input(const BaseTensorPtr &x) { return NoDiffInput::Apply(x); }
BaseTensorPtr inplace_mul(const BaseTensorPtr &x, const BaseTensorPtr &y) { return InplaceMul::Apply(x, y); }
BaseTensorPtr bad_grad_count(const BaseTensorPtr &x, const BaseTensorPtr &y) { return BadGradCount::Apply(x, y); }
BaseTensorPtr bad_grad_position(const BaseTensorPtr &x, int64_t n) { return BadGradPosition::Apply(x, n); }
BaseTensorPtr need_probe(const BaseTensorPtr &x, double w, const BaseTensorPtr &y) { return NeedProbe::Apply(x, w, y); }
BaseTensorPtr need_probe_out_of_range(const BaseTensorPtr &x) { return NeedProbeOutOfRange::Apply(x); }
BaseTensorPtr square_twice(const BaseTensorPtr &x) { return SquareTwice::Apply(x); }
}  // namespace autograd
}  // namespace mindspore::pynative

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  using namespace mindspore::pynative::autograd;
  m.def("mul", &mul);
  m.def("mul_add", &mul_add);
  m.def("mul_add_no_materialize", &mul_add_no_materialize);
  m.def("scale_reshape", &scale_reshape);
  m.def("add_list", &add_list);
  m.def("mul_no_diff_out", &mul_no_diff_out);
  m.def("no_diff_input", &no_diff_input);
  m.def("inplace_mul", &inplace_mul);
  m.def("bad_grad_count", &bad_grad_count);
  m.def("bad_grad_position", &bad_grad_position);
  m.def("need_probe", &need_probe);
  m.def("need_probe_out_of_range", &need_probe_out_of_range);
  m.def("square_twice", &square_twice);
  m.def("probe", [] { return g_probe; });
}
