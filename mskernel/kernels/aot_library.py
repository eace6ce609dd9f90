"""Loading an AOT kernel's shared library: refuse GPU builds, and always see the current file.

* **GPU libraries are refused before dlopen.** A library whose ELF dynamic section needs a GPU
  runtime (``libcudart``, ``libcuda``, cuBLAS/cuDNN/..., HIP) or that carries CUDA device code
  (an ``.nv_fatbin`` section) would be called on host pointers and return garbage; it raises
  :class:`GpuLibraryError` naming the library and the reason instead.
* **A rebuilt library is never stale.** ``dlopen`` of a path already loaded returns the old
  image even after the file was rebuilt. The first load of a path maps the file itself; a later
  load of the same path with *different contents* maps a content-addressed copy (in a private
  per-user directory, one copy per content, reused), so each op sees the code the file holds
  when it is constructed. Cost: reading and hashing the file on each load (~1 ms per MB) and one
  copy per distinct rebuild.

The file is read once per load: the GPU checks, the content hash and a copy all use those bytes, so
what is checked is what is hashed and copied (``dlopen`` then maps the file itself).

Example:
    >>> gpu_requirement("/bin/ls") is None  # an ELF file that needs no GPU runtime
    True
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import struct
import tempfile
import threading
from typing import Dict, List, Optional, Tuple

from mskernel.errors import MskernelError

__all__ = ["GpuLibraryError", "gpu_requirement", "needed_libraries", "load_library"]

#: library name prefixes that mean "needs a GPU runtime" (one rule per line)
GPU_RUNTIMES: Tuple[Tuple[str, str], ...] = (
    ("libcudart", "the CUDA runtime"),
    ("libcuda.", "the CUDA driver"),
    ("libcublas", "cuBLAS (CUDA)"),
    ("libcudnn", "cuDNN (CUDA)"),
    ("libcufft", "cuFFT (CUDA)"),
    ("libcurand", "cuRAND (CUDA)"),
    ("libcusparse", "cuSPARSE (CUDA)"),
    ("libcusolver", "cuSOLVER (CUDA)"),
    ("libnvrtc", "NVRTC (CUDA)"),
    ("libnccl", "NCCL (CUDA)"),
    ("libamdhip64", "the HIP runtime (ROCm)"),
)
_CUDA_SECTIONS = (b".nv_fatbin", b"__nv_relfatbin")


class GpuLibraryError(MskernelError, RuntimeError):
    """A library built for a GPU was given to the CPU.

    Example:
        >>> import subprocess
        >>> import mskernel as ms
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, "kernel.cc"), "w") as f:  # CUDA device code, as nvcc leaves it in a .so
        ...     _ = f.write('__attribute__((section(".nv_fatbin"), used)) const char fatbin[16] = {1};\\n')
        >>> lib = os.path.join(d, "kernel.so")
        >>> subprocess.run(["g++", "-shared", "-fPIC", os.path.join(d, "kernel.cc"), "-o", lib]).returncode
        0
        >>> ms.ops.Custom(f"{lib}:Scale", lambda x: x, lambda x: x, func_type="aot")
        Traceback (most recent call last):
        ...
        mskernel.kernels.aot_library.GpuLibraryError: For 'Custom', 'func_type': aot, 'func': ...kernel.so:Scale, '...kernel.so' is built for a GPU: it contains CUDA device code (an .nv_fatbin section). mskernel runs AOT kernels on the CPU: build the kernel for the CPU (give the .cc/.cpp source, or a CPU .so).
    """  # noqa: E501


def _elf_sections(data: bytes) -> Optional[List[Tuple[bytes, int, int, int, int]]]:
    """(name, type, offset, size, link) per section of a 64- or 32-bit ELF file, or None if not ELF."""
    if data[:4] != b"\x7fELF":
        return None
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
        fmt, fields = order + "IIQQQQIIQQ", (0, 1, 4, 5, 6)
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        fmt, fields = order + "IIIIIIIIII", (0, 1, 4, 5, 6)
    raw = [struct.unpack_from(fmt, data, shoff + k * shentsize) for k in range(shnum)]
    if not raw or shstrndx >= len(raw):
        return []
    names_off = raw[shstrndx][fields[2]]
    out = []
    for r in raw:
        name_off, kind, off, size, link = (r[i] for i in fields)
        end = data.find(b"\0", names_off + name_off)
        out.append((data[names_off + name_off:end], kind, off, size, link))
    return out


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def needed_libraries(path: str) -> List[str]:
    """The DT_NEEDED entries of an ELF shared library ([] for other files).

    Example:
        >>> any(n.startswith("libc.so") for n in needed_libraries("/bin/ls"))
        True
    """
    data = _read(path)
    return _needed(data, _elf_sections(data))


def _needed(data: bytes, sections: Optional[List[Tuple[bytes, int, int, int, int]]]) -> List[str]:
    """The DT_NEEDED entries, from the file's bytes and its parsed sections."""
    if not sections:
        return []
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    out: List[str] = []
    for _, kind, off, size, link in sections:
        if kind != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link][2]
        step, fmt = (16, order + "qQ") if wide else (8, order + "iI")
        for k in range(0, size, step):
            tag, val = struct.unpack_from(fmt, data, off + k)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                end = data.find(b"\0", strtab + val)
                out.append(data[strtab + val:end].decode(errors="replace"))
    return out


def gpu_requirement(path: str) -> Optional[str]:
    """Why the library at ``path`` needs a GPU, or None."""
    return _gpu_requirement(_read(path))


def _gpu_requirement(data: bytes) -> Optional[str]:
    """:func:`gpu_requirement` of a file's bytes (its sections are parsed once)."""
    sections = _elf_sections(data)
    for lib in _needed(data, sections):
        for prefix, what in GPU_RUNTIMES:
            if lib.startswith(prefix):
                return f"it links {lib} ({what})"
    for name, *_ in sections or []:
        if name in _CUDA_SECTIONS:
            return f"it contains CUDA device code (an {name.decode()} section)"
    return None


_loaded: Dict[str, str] = {}  # real path -> content digest of its first load in this process
_lock = threading.Lock()


def _copy_dir() -> str:
    path = os.path.join(tempfile.gettempdir(), f"mskernel-aot-{os.getuid()}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.stat(path)
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise PermissionError(f"{path} must be yours and writable only by you to hold copies of AOT libraries.")
    return path


def load_library(path: str, prefix: str) -> Tuple[ctypes.CDLL, str]:
    """dlopen ``path`` (see the module docstring): ``(library, path actually mapped)``."""
    real = os.path.realpath(path)
    data = _read(real)  # the one read: checked, hashed and (if rebuilt) copied from these bytes
    why = _gpu_requirement(data)
    if why is not None:
        raise GpuLibraryError(f"{prefix}, '{path}' is built for a GPU: {why}. mskernel runs AOT kernels on the CPU: "
                              f"build the kernel for the CPU (give the .cc/.cpp source, or a CPU .so).")
    digest = hashlib.sha256(data).hexdigest()[:20]
    with _lock:
        first = _loaded.setdefault(real, digest)
        target = real
        if first != digest:  # rebuilt since this process first loaded it: map a copy of the new contents
            stem = os.path.basename(real).split(".")[0]
            target = os.path.join(_copy_dir(), f"{stem}-{digest}.so")
            if not os.path.exists(target):
                tmp = f"{target}.{os.getpid()}.tmp"
                try:
                    with open(tmp, "wb") as f:
                        f.write(data)
                    os.replace(tmp, target)
                except BaseException:
                    if os.path.exists(tmp):
                        os.unlink(tmp)
                    raise
    return ctypes.CDLL(target, mode=os.RTLD_LAZY | os.RTLD_LOCAL), target
