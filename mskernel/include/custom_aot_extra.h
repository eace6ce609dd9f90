// custom_aot_extra.h -- AotExtra: what an AOT kernel (ops.Custom(..., func_type="aot")) can ask of its operator.
//
// An AOT kernel is a C-ABI function in a shared library, called once per launch:
//   extern "C" int Func(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
//                       void *stream, void *extra);
// `params` holds the inputs, then the outputs, then any workspaces; `ndims`, `shapes` and `dtypes` describe
// the inputs and outputs; a nonzero return is an error. `extra` points to an AotExtra, through which the kernel
// reads the operator's attributes:  float k = static_cast<AotExtra *>(extra)->Attr<float>("k");
// Three optional companions in the same library are found by name:
//   extern "C" int FuncInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra);
//       once before the first launch: read attributes, SetWorkSpace (sizes in bytes), SetKernelData
//   extern "C" std::vector<int64_t> FuncInferShape(int *ndims, int64_t **shapes, AotExtra *extra);
//   extern "C" TypeId FuncInferType(std::vector<TypeId> type_ids, AotExtra *extra);  // enum TypeId : int {};
//       the output's shape and type, used when ops.Custom gets out_shape/out_dtype None
//
// The binary layout is MindSpore's, so that kernel sources (and libraries) made for MindSpore work here: the
// members are the same and in the same order, the virtual functions occupy the same vtable slots with the
// same signatures (std::string by value included). The readers' names are ours -- a vtable knows slots, not
// names. mskernel's implementation of them is mskernel/kernels/aot_runtime.cpp.
#ifndef MSKERNEL_CUSTOM_AOT_EXTRA_H_
#define MSKERNEL_CUSTOM_AOT_EXTRA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Base of the state a kernel keeps between launches: derive from it, create it in FuncInit and hand it to
// SetKernelData; the AotExtra owns it from then on and deletes it through this virtual destructor.
class AotKernelData {
 public:
  virtual ~AotKernelData() = default;
};

class AotExtra {
 public:
  virtual ~AotExtra() = default;

  // Whether the operator has an attribute called `name`.
  virtual bool HasAttr(std::string name) = 0;

  // The attribute `name`, read as T: bool, int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
  // std::vector<std::vector<int64_t>> or std::vector<std::vector<float>>. Other types give T{}, as in MindSpore.
  // A missing attribute, or one of another kind, is an error naming the operator.
  template <typename T>
  T Attr(std::string name);

  // Workspace sizes in bytes (from FuncInit); the zero-filled buffers follow the outputs in `params`.
  void SetWorkSpace(const std::vector<size_t> &sizes) { workspace_sizes_ = sizes; }
  const std::vector<size_t> &WorkSpace() const { return workspace_sizes_; }

  // The kernel's own state (see AotKernelData); DestructKernelData deletes it.
  void SetKernelData(AotKernelData *data) { owned_state_ = data; }
  AotKernelData *KernelData() const { return owned_state_; }
  void DestructKernelData() {
    AotKernelData *state = owned_state_;
    owned_state_ = nullptr;
    delete state;
  }

 private:
  // One reader per attribute kind, behind Attr<T>. Their order below is the ABI (vtable slots after HasAttr).
  virtual bool ReadBool(std::string name) = 0;
  virtual int64_t ReadInt(std::string name) = 0;
  virtual float ReadFloat(std::string name) = 0;
  virtual std::string ReadString(std::string name) = 0;
  virtual std::vector<int64_t> ReadInts(std::string name) = 0;
  virtual std::vector<float> ReadFloats(std::string name) = 0;
  virtual std::vector<std::vector<int64_t>> ReadIntRows(std::string name) = 0;
  virtual std::vector<std::vector<float>> ReadFloatRows(std::string name) = 0;

  std::vector<size_t> workspace_sizes_;
  AotKernelData *owned_state_ = nullptr;
};

template <typename T>
T AotExtra::Attr(std::string name) {
  using Ints = std::vector<int64_t>;
  using Floats = std::vector<float>;
  if constexpr (std::is_same_v<T, bool>) {
    return ReadBool(std::move(name));
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return ReadInt(std::move(name));
  } else if constexpr (std::is_same_v<T, float>) {
    return ReadFloat(std::move(name));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return ReadString(std::move(name));
  } else if constexpr (std::is_same_v<T, Ints>) {
    return ReadInts(std::move(name));
  } else if constexpr (std::is_same_v<T, Floats>) {
    return ReadFloats(std::move(name));
  } else if constexpr (std::is_same_v<T, std::vector<Ints>>) {
    return ReadIntRows(std::move(name));
  } else if constexpr (std::is_same_v<T, std::vector<Floats>>) {
    return ReadFloatRows(std::move(name));
  } else {
    return T{};
  }
}

#endif  // MSKERNEL_CUSTOM_AOT_EXTRA_H_
