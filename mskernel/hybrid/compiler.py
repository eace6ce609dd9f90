"""Compiling a specialized kernel through the build layer, and calling it.

Generated C++ is built as a ``kind="plain"`` extern "C" library (no Python headers, fast to
compile) and loaded once per distinct source in the process. Calls go through one small
CPython extension, ``dispatch.c``, built once (and cached on disk by the build layer): it
takes the kernel's function pointers, a spec of the signature, the arrays and the attributes,
and calls the kernel on the arrays' own buffers. It also holds the thread pool of ``parallel``
loops (``thread_pool.h``; its size: :mod:`.threads`), whose entry the loader stores in every
kernel library it opens.

Example:
    >>> COMPILE_FLAGS[:2]
    ('-std=c++17', '-march=native')
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .check import Typed
from .codegen import Generated, generate
from . import threads, vector_math
from .errors import HybridInternalError
from .shapes import make_alloc, make_call, make_infer, make_select

__all__ = ["CompiledKernel", "compile_typed", "load_generated", "dispatcher", "output_allocator",
           "release_output_blocks", "attach_pool", "COMPILE_FLAGS"]

_log = logging.getLogger("mskernel.hybrid")
_HERE = Path(__file__).resolve().parent

#: flags of every generated kernel: exact IEEE semantics (no FMA contraction, no fast-math),
#: wrapping signed integers like numpy, no errno from math functions, OpenMP SIMD pragmas (SIMD only:
#: parallel loops run on mskernel's own thread pool, so no OpenMP runtime is linked).
COMPILE_FLAGS = ("-std=c++17", "-march=native", "-ffp-contract=off", "-fwrapv",
                 "-fno-math-errno", "-fopenmp-simd", "-fno-semantic-interposition")

_lock = threading.Lock()
_dispatch: Optional[Callable[..., Any]] = None
_module: Any = None
_loaded: dict[str, tuple[Any, Any]] = {}


def dispatcher() -> Callable[..., Any]:
    """The dispatcher's ``call`` function (built on first use, then cached on disk).

    Example:
        >>> callable(dispatcher())
        True
    """
    global _dispatch
    if _dispatch is None:
        from mskernel.toolchain import BuildError
        from mskernel.toolchain.numpy_ext import build_numpy_extension

        with _lock:
            if _dispatch is None:
                try:
                    module = build_numpy_extension("mskernel_hybrid_dispatch", _HERE / "dispatch.c", "_mskh_dispatch",
                                                   include_paths=[str(_HERE)])
                except BuildError as exc:
                    text = (_HERE / "dispatch.c").read_text()
                    raise HybridInternalError("<dispatcher>", text, getattr(exc, "log", str(exc))) from exc
                global _module
                _module = module
                threads.attach(module)
                _dispatch = module.call
    return _dispatch  # type: ignore[return-value]


def output_allocator() -> Callable[..., np.ndarray]:
    """``empty(shape, dtype[, inputs])`` for outputs a kernel writes in full: ``numpy.empty``, except that
    outputs from 4 KB are 64-byte aligned, from 16 KB placed 2 KB away from the ``inputs`` modulo 4096
    (no 4K aliasing between the kernel's loads and stores), and outputs of 16 MB or more reuse the blocks
    earlier such outputs freed (see ``dispatch.c``):
    fresh memory that large is a new mapping, and faulting its pages in (the OS zeroes each one)
    costs an elementwise kernel a third of its bandwidth. At most 4 blocks and 512 MB are kept;
    :func:`release_output_blocks` unmaps them.

    Example:
        >>> empty = output_allocator()
        >>> x = np.ones(1 << 16, np.float32)
        >>> y = empty((1 << 16,), np.dtype("float32"), [x])
        >>> y.shape, y.dtype, y.ctypes.data % 64, (y.ctypes.data - x.ctypes.data) % 4096 in range(1024, 3073)
        ((65536,), dtype('float32'), 0, True)
    """
    dispatcher()
    return _module.empty  # type: ignore[no-any-return]


def release_output_blocks() -> int:
    """Unmap the blocks the output cache holds (memory of freed large kernel outputs); the bytes released.

    Example:
        >>> release_output_blocks() >= 0
        True
    """
    dispatcher()
    return int(_module.release())


@dataclass
class CompiledKernel:
    """One kernel compiled for one signature: the handle ``HybridKernel.compile`` returns.

    ``generated.source`` is the C++; ``artifact`` the build layer's result (``.cached``,
    ``.seconds``); ``alloc``/``select``/``infer`` the generated Python shape functions.
    Calling it runs the kernel: ``compiled(inputs, attrs) -> tuple of arrays``.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
        >>> ck = hk.compile(["float32"], [1])
        >>> ck([np.array([1.0, 2.0], np.float32)], [])
        (array([2., 4.], dtype=float32),)
    """

    typed: Typed
    generated: Generated
    artifact: Any
    contig: int
    strided: int
    spec: bytes
    alloc: Callable[..., tuple[np.ndarray, ...]]
    select: Optional[Callable[..., tuple[np.ndarray, ...]]]
    infer: Callable[..., list[tuple[tuple[int, ...], str]]]
    seconds: float
    library: Any = None
    call: Optional[Callable[..., Any]] = None  # allocate + dispatch in one Python call (shapes.make_call)
    call_into: Optional[Callable[..., Any]] = None  # the same into given outputs (make_call(into=True))

    @property
    def source(self) -> str:
        """The generated C++."""
        return self.generated.source

    @property
    def cached(self) -> bool:
        """True if the build layer found the library in its cache (no compiler ran)."""
        return bool(getattr(self.artifact, "cached", False))

    def __call__(self, inputs: Sequence[np.ndarray], attrs: Sequence[Any] = ()) -> tuple[np.ndarray, ...]:
        outs = self.call(inputs, tuple(attrs))  # type: ignore[misc]
        if outs is None:
            raise RuntimeError("hybrid kernel call failed; use HybridKernel.run, which says why")
        return outs  # type: ignore[no-any-return]


def _spec(typed: Typed, arrays: list[str]) -> bytes:
    written = set(typed.kernel.returns) & set(typed.kernel.params)
    items = [len(arrays), len(typed.attrs)]
    for name in arrays:
        info = typed.tensors[name]
        role = 1 if info.kind == "output" else 2 if name in written else 0
        items += [np.dtype(info.dtype).num, info.rank, role]
    spec = bytes(items)
    kinds = {"float": "f", "bool": "b", "int": "i"}
    return spec + "".join(kinds[t] for _, t in sorted(typed.attrs.values())).encode()


def load_generated(name: str, gen: Generated, force: bool = False, optimize: str = "-O3") -> tuple[Any, Any, float]:
    """Build (or fetch from the build cache) and load the library of generated C++: (artifact, CDLL, seconds).

    One library per distinct source is loaded per process; ``force`` builds it again.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
        >>> art, lib, seconds = load_generated("f", generate(hk.specialize(hk.signature(["int8"], [1]))))
        >>> hasattr(lib, "mskh_kernel_contig")
        True
    """
    from mskernel.toolchain import BuildError, Source, build, load_library

    key = hashlib.sha256(f"{optimize}\n{gen.source}".encode()).hexdigest()
    if key in _loaded and not force:
        art, lib = _loaded[key]
        return art, lib, 0.0
    start = time.perf_counter()
    try:
        art = build(f"hybrid_{name}", [Source(f"hybrid_{name}.cpp", gen.source)], kind="plain",
                    include_paths=[str(_HERE)], cflags=COMPILE_FLAGS, ldflags=vector_math.link_flags(gen.source),
                    optimize=optimize, force=force)
    except BuildError as exc:
        raise HybridInternalError(name, gen.source, getattr(exc, "log", "") or str(exc)) from exc
    lib = load_library(art)
    attach_pool(lib)
    seconds = time.perf_counter() - start
    _log.debug("hybrid kernel %s: %s in %.3f s", name,
               "loaded from cache" if getattr(art, "cached", False) else "compiled", seconds)
    _loaded[key] = (art, lib)
    return art, lib, seconds


def attach_pool(lib: Any) -> bool:
    """Store the thread pool's entry in a loaded kernel library (``mskh_parallel_runtime``, see
    ``hybrid_runtime.h``), so its parallel loops run on the pool; False if the library has no such slot.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
        >>> _, lib, _ = load_generated("f", generate(hk.specialize(hk.signature(["int8"], [1]))))
        >>> attach_pool(lib)
        True
    """
    try:
        slot = ctypes.c_void_p.in_dll(lib, "mskh_parallel_runtime")
    except ValueError:
        return False
    dispatcher()
    slot.value = _module.runtime()
    return True


def _symbol(lib: Any, name: str) -> int:
    return ctypes.cast(getattr(lib, name), ctypes.c_void_p).value  # type: ignore[return-value]


def compile_typed(typed: Typed, debug: bool, bounds: bool = True, force: bool = False) -> CompiledKernel:
    """Generate, build (or fetch from cache) and load ``typed``; see :class:`CompiledKernel`.

    ``force=True`` builds it again, bypassing the libraries loaded in this process and the
    build layer's disk cache.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.check import specialize, Signature
        >>> k = parse(KernelSource.from_text("def ident(x):\\n    return x\\n"))
        >>> ck = compile_typed(specialize(k, Signature(("float32",), (1,))), debug=False)
        >>> x = np.ones(3, np.float32)
        >>> ck([x])[0] is x
        True
    """
    gen = generate(typed, debug, bounds)  # bounds=False: unsafe, for benchmarks only
    art, lib, seconds = load_generated(typed.kernel.name, gen, force)
    contig, strided = _symbol(lib, gen.contig_symbol), _symbol(lib, gen.strided_symbol)
    spec = _spec(typed, gen.arrays)
    return CompiledKernel(typed, gen, art, contig, strided, spec, make_alloc(typed, output_allocator()),
                          make_select(typed), make_infer(typed), seconds, lib,
                          make_call(typed, output_allocator(), dispatcher(), (contig, strided, spec)),
                          make_call(typed, output_allocator(), dispatcher(), (contig, strided, spec), into=True))


def clear_memory_cache() -> None:
    """Forget the libraries loaded in this process (the next compile reloads from disk).

    Example:
        >>> clear_memory_cache()
    """
    _loaded.clear()
