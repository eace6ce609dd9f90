// custom_aot_extra.h -- the AotExtra interface of MindSpore's AOT custom operators (func_type "aot").
//
// An AOT kernel is a C ABI function in a shared library:
//   extern "C" int Func(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
//                       void *stream, void *extra);
// `params` are the inputs, then the outputs, then the workspaces; `ndims`/`shapes`/`dtypes` describe the
// inputs and outputs. `extra` is an AotExtra*: it gives the op's attributes (`extra->Attr<float>("scale")`),
// takes workspace sizes (`SetWorkSpace`, in bytes) and per-kernel data (`SetKernelData`) in the optional
//   extern "C" int FuncInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra);
// Shape/type inference (used when out_shape/out_dtype are None):
//   extern "C" std::vector<int64_t> FuncInferShape(int *ndims, int64_t **shapes, AotExtra *extra);
//   extern "C" TypeId FuncInferType(std::vector<TypeId> type_ids, AotExtra *extra);   // enum TypeId : int {};
// The class layout (virtual functions in this order) is MindSpore's, so sources written for MindSpore
// compile unchanged; mskernel's runtime (mskernel/aot_runtime.cpp) implements the virtual functions.
//
// Example:
//   extern "C" int Scale(int n, void **p, int *nd, int64_t **sh, const char **dt, void *s, void *e) {
//     float k = static_cast<AotExtra *>(e)->Attr<float>("k");
//     ...
//   }
#ifndef MSKERNEL_CUSTOM_AOT_EXTRA_H_
#define MSKERNEL_CUSTOM_AOT_EXTRA_H_

#include <cstdint>
#include <string>
#include <vector>

class AotKernelData {
 public:
  AotKernelData() = default;
  virtual ~AotKernelData() = default;
};

class AotExtra {
 public:
  AotExtra() = default;
  virtual ~AotExtra() = default;
  virtual bool HasAttr(std::string name) = 0;

  template <typename T>
  inline T Attr(std::string name) {
    return T();
  }

  void SetWorkSpace(const std::vector<size_t> &workspace) { workspace_ = workspace; }
  const std::vector<size_t> &WorkSpace() const { return workspace_; }

  void SetKernelData(AotKernelData *kernel_data) { kernel_data_ = kernel_data; }
  AotKernelData *KernelData() const { return kernel_data_; }

  void DestructKernelData() {
    delete kernel_data_;
    kernel_data_ = nullptr;
  }

 private:
  virtual bool GetAttrBool(std::string name) = 0;
  virtual int64_t GetAttrInt(std::string name) = 0;
  virtual float GetAttrFloat(std::string name) = 0;
  virtual std::string GetAttrStr(std::string name) = 0;
  virtual std::vector<int64_t> GetAttrIntVec(std::string name) = 0;
  virtual std::vector<float> GetAttrFloatVec(std::string name) = 0;
  virtual std::vector<std::vector<int64_t>> GetAttrInt2DVec(std::string name) = 0;
  virtual std::vector<std::vector<float>> GetAttrFloat2DVec(std::string name) = 0;
  std::vector<size_t> workspace_;
  AotKernelData *kernel_data_{nullptr};
};

template <>
inline bool AotExtra::Attr(std::string name) {
  return GetAttrBool(name);
}
template <>
inline int64_t AotExtra::Attr(std::string name) {
  return GetAttrInt(name);
}
template <>
inline float AotExtra::Attr(std::string name) {
  return GetAttrFloat(name);
}
template <>
inline std::string AotExtra::Attr(std::string name) {
  return GetAttrStr(name);
}
template <>
inline std::vector<int64_t> AotExtra::Attr(std::string name) {
  return GetAttrIntVec(name);
}
template <>
inline std::vector<float> AotExtra::Attr(std::string name) {
  return GetAttrFloatVec(name);
}
template <>
inline std::vector<std::vector<int64_t>> AotExtra::Attr(std::string name) {
  return GetAttrInt2DVec(name);
}
template <>
inline std::vector<std::vector<float>> AotExtra::Attr(std::string name) {
  return GetAttrFloat2DVec(name);
}
#endif  // MSKERNEL_CUSTOM_AOT_EXTRA_H_
