"""custom_aot_extra.h has MindSpore's binary layout, so AOT kernels and libraries made for MindSpore work here.

The facts checked (MindSpore's AotExtra, Itanium C++ ABI on x86-64/aarch64 Linux): the vtable holds the two
destructor entries, then HasAttr, then the eight attribute readers in the order bool, int64, float, string,
int64 list, float list, int64 list of lists, float list of lists; the members are the workspace sizes
(std::vector<size_t>) and then the kernel-data pointer. A pointer to a virtual member function carries its
vtable offset plus one (Itanium ABI 2.3), which is how the program below reads each reader's slot.
"""
from __future__ import annotations

import subprocess

from mskernel.toolchain import find_toolchain, include_dir

PROBE = r"""
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "custom_aot_extra.h"

// Overrides every virtual publicly (the base's readers are private), so their slots can be read below.
struct Probe : AotExtra {
  bool HasAttr(std::string) override { return false; }
  bool ReadBool(std::string) override { return true; }
  int64_t ReadInt(std::string) override { return 7; }
  float ReadFloat(std::string) override { return 0.5f; }
  std::string ReadString(std::string) override { return "s"; }
  std::vector<int64_t> ReadInts(std::string) override { return {1, 2}; }
  std::vector<float> ReadFloats(std::string) override { return {1.5f}; }
  std::vector<std::vector<int64_t>> ReadIntRows(std::string) override { return {{3}}; }
  std::vector<std::vector<float>> ReadFloatRows(std::string) override { return {{2.5f}}; }
};

template <typename M>
long Slot(M member) {  // Itanium ABI: {1 + vtable offset in bytes, this adjustment}
  struct { uintptr_t ptr; ptrdiff_t adj; } raw;
  static_assert(sizeof(raw) == sizeof(member), "a member function pointer is two words");
  std::memcpy(&raw, &member, sizeof(raw));
  return static_cast<long>((raw.ptr - 1) / sizeof(void *));
}

// The offset of the first pointer-sized word of `object` that holds `value`, or -1.
long OffsetOf(const void *object, size_t size, const void *value) {
  for (size_t at = 0; at + sizeof(void *) <= size; at += sizeof(void *)) {
    const void *word;
    std::memcpy(&word, static_cast<const char *>(object) + at, sizeof(word));
    if (word == value) return static_cast<long>(at);
  }
  return -1;
}

int main() {
  std::printf("slots %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", Slot(&Probe::HasAttr), Slot(&Probe::ReadBool),
              Slot(&Probe::ReadInt), Slot(&Probe::ReadFloat), Slot(&Probe::ReadString), Slot(&Probe::ReadInts),
              Slot(&Probe::ReadFloats), Slot(&Probe::ReadIntRows), Slot(&Probe::ReadFloatRows));
  std::printf("size %d\n", static_cast<int>(sizeof(AotExtra) == sizeof(void *) * 2 + sizeof(std::vector<size_t>)));
  Probe p;
  auto *data = new AotKernelData;
  p.SetKernelData(data);
  const char *base = reinterpret_cast<const char *>(&p);
  std::printf("workspace at %ld\n", static_cast<long>(reinterpret_cast<const char *>(&p.WorkSpace()) - base));
  std::printf("kernel data at %ld\n", OffsetOf(&p, sizeof(AotExtra), data));
  p.DestructKernelData();
  AotExtra &e = p;
  std::printf("attrs %d %lld %g %s", e.Attr<bool>("a"), static_cast<long long>(e.Attr<int64_t>("a")),
              e.Attr<float>("a"), e.Attr<std::string>("a").c_str());
  std::printf(" %zu %zu", e.Attr<std::vector<int64_t>>("a").size(), e.Attr<std::vector<float>>("a").size());
  std::printf(" %zu %zu", e.Attr<std::vector<std::vector<int64_t>>>("a").size(),
              e.Attr<std::vector<std::vector<float>>>("a").size());
  std::printf(" %d\n", e.Attr<int>("a"));
  return p.KernelData() == nullptr ? 0 : 1;
}
"""


def test_the_layout_is_mindsporess(tmp_path):
    src, exe = tmp_path / "probe.cpp", tmp_path / "probe"
    src.write_text(PROBE)
    build = subprocess.run(list(find_toolchain().cxx_argv) + ["-std=c++17", "-O1", "-I", str(include_dir()), str(src),
                                                             "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    word = 8  # x86-64 and aarch64
    assert run.stdout.splitlines() == [
        "slots 2 3 4 5 6 7 8 9 10",  # 0 and 1: the destructors
        "size 1",
        f"workspace at {word}",  # after the vtable pointer
        f"kernel data at {word + 24}",  # after the vector (three pointers)
        "attrs 1 7 0.5 s 2 1 1 1 0",  # each type to its reader; a type with none gives T{} (Attr<int>: 0)
    ]
