"""Vector math: ``exp``, ``log``, ``sin``... in vectorized loops call glibc's SIMD variants (libmvec).

A loop calling ``exp`` cannot be vectorized by the compiler unless it knows a SIMD version of ``expf``
exists; without one, every call is a scalar library call and a row softmax runs at a third of numpy's
speed. glibc ships those versions (libmvec: 4, 8 and 16 lanes for SSE, AVX, AVX2 and AVX-512). When vector
math is on, the generated C++ declares those of the functions below that the kernel calls with GCC's
``simd`` attribute and links ``-lmvec``; the compiler then calls ``_ZGVeN16v_expf`` on 16 elements at
once wherever it vectorizes the loop (``vectorize`` and ``reduce`` loops, and any plain loop it can prove
safe), and the scalar ``expf`` for the rest.

The results differ from the scalar functions' in the last bits. Measured against float64 numpy (for
float32) and long double (for float64) on 65536 random points per function (``tests/hybrid/
test_vector_math.py`` asserts :data:`MAX_ULP`): the float32 variants are within 1-4 ulp, the class of
numpy's own float32 ``exp``/``log``/``sin`` (SIMD too, 1.3-2.6 ulp), where glibc's scalar ones are within
0.5-2.1 ulp. The float64 variants are within 1-3.3 ulp, where numpy's float64 functions are within
0.5-0.7 ulp (tanh 1.2). Hence the default, ``float32``: float32 (and float16, computed in float32) kernels
use vector math, float64 kernels keep the scalar functions and numpy-class accuracy. The setting, from
the first of these that is set:

1. :func:`set_vector_math` (``"float32"``, ``"all"``, ``"off"``; ``None``: unset again);
2. the environment variable ``MSKERNEL_VECTOR_MATH`` (the same words);
3. ``"float32"``.

It takes effect for kernels compiled afterwards: it changes the generated source, hence the build
cache's key. ``ms.benchmark`` records it. Where libmvec is not available (not x86-64 glibc, or the
compiler cannot find ``libmvec.so``), :func:`vector_math_setting` says so and kernels use the scalar
functions.

Example:
    >>> set_vector_math("off")
    >>> vector_math_setting().mode, declarations({"exp"})
    ('off', [])
    >>> set_vector_math(None)   # unset: the environment or the default decide again
"""
from __future__ import annotations

import ctypes
import os
import platform
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

__all__ = ["VECTOR_FUNCTIONS", "DSL_NAMES", "MAX_ULP", "MODES", "VectorMathSetting", "set_vector_math",
           "vector_math_setting", "declarations", "link_flags", "available_functions"]

#: the libm functions behind DSL calls that libmvec vectorizes: C name (double) -> arity.
#: The float versions add ``f`` (expf, ...). ``sqrt``, ``fabs``, ``floor``... are instructions already.
VECTOR_FUNCTIONS: dict[str, int] = {
    "exp": 1, "expm1": 1, "log": 1, "sin": 1, "cos": 1, "tanh": 1, "atan": 1, "erf": 1,
    "atan2": 2, "pow": 2,
}

#: the bound, in ulp of the exact result, that the tests hold each vector variant to: (float32, float64).
#: What glibc 2.36's libmvec measured (see the module text), rounded up, never above glibc's documented 4.
MAX_ULP: dict[str, tuple[float, float]] = {
    "exp": (3, 3), "expm1": (2, 2), "log": (4, 2), "sin": (2, 4), "cos": (2, 4), "tanh": (2, 2),
    "atan": (1, 1), "erf": (4, 2), "atan2": (4, 3), "pow": (1, 1),
}

#: the settings: which kernels' calls go to the vector variants
MODES = ("float32", "all", "off")

#: the SIMD variants GCC may call for a ``simd("notinbranch")`` declaration on x86-64 (vector ABI ISA
#: letter and lanes: b SSE4, c AVX, d AVX2, e AVX-512), for one float and one double argument
_VARIANTS = {"float": (("b", 4), ("c", 8), ("d", 8), ("e", 16)), "double": (("b", 2), ("c", 4), ("d", 4), ("e", 8))}

_set: Optional[str] = None


@dataclass(frozen=True)
class VectorMathSetting:
    """Which kernels use vector math (``mode``), what chose it, and the functions it covers on this machine.

    ``functions`` is empty where libmvec is unavailable; ``why`` then says why.

    Example:
        >>> VectorMathSetting("off", "MSKERNEL_VECTOR_MATH", ()).describe()
        'vector math off (MSKERNEL_VECTOR_MATH)'
    """

    mode: str
    source: str
    functions: tuple[str, ...]
    why: str = ""

    def describe(self) -> str:
        """One line for reports and ``ms.benchmark``."""
        if self.mode == "off":
            return f"vector math off ({self.source})"
        if not self.functions:
            return f"vector math unavailable: {self.why}"
        kinds = "float32 kernels" if self.mode == "float32" else "float32 and float64 kernels"
        return f"vector math (libmvec) in {kinds} ({self.source}): {', '.join(self.functions)}"


def set_vector_math(mode: Optional[str]) -> None:
    """Choose which kernels compiled from now on call libmvec: ``"float32"``, ``"all"``, ``"off"``, or
    ``None`` to unset (the environment or the default decide again).

    Example:
        >>> set_vector_math("all"); vector_math_setting().mode
        'all'
        >>> set_vector_math(None)
        >>> set_vector_math("fast")
        Traceback (most recent call last):
        ...
        ValueError: set_vector_math: mode must be one of 'float32', 'all', 'off' or None, got 'fast'
    """
    global _set
    if mode is not None and mode not in MODES:
        raise ValueError(f"set_vector_math: mode must be one of {', '.join(map(repr, MODES))} or None, got {mode!r}")
    _set = mode


def vector_math_setting() -> VectorMathSetting:
    """The setting now in force (see the module text for the order).

    Example:
        >>> vector_math_setting().mode in MODES
        True
    """
    if _set is not None:
        mode, source = _set, f"set_vector_math({_set!r})"
    else:
        env = os.environ.get("MSKERNEL_VECTOR_MATH", "").strip().lower()
        if env and env not in MODES:
            raise ValueError(f"MSKERNEL_VECTOR_MATH must be one of {', '.join(MODES)}, got {env!r}")
        mode, source = (env, "MSKERNEL_VECTOR_MATH") if env else ("float32", "default")
    functions, why = available_functions()
    return VectorMathSetting(mode, source, functions if mode != "off" else (), why)


@lru_cache(maxsize=None)
def available_functions() -> tuple[tuple[str, ...], str]:
    """(functions of :data:`VECTOR_FUNCTIONS` whose every SIMD variant, float and double, libmvec has;
    why none, if none). Looked up once per process: libmvec's symbols, and ``libmvec.so`` for the linker.

    Example:
        >>> functions, why = available_functions()
        >>> set(functions) <= set(VECTOR_FUNCTIONS) and (bool(functions) or bool(why))
        True
    """
    if platform.machine() not in ("x86_64", "AMD64") or platform.libc_ver()[0] != "glibc":
        here = f"{platform.machine()} {platform.libc_ver()[0] or 'without glibc'}"
        return (), f"libmvec's x86-64 variants need x86-64 glibc, this is {here}"
    try:
        lib = ctypes.CDLL("libmvec.so.1")
    except OSError as exc:
        return (), f"libmvec.so.1 does not load: {exc}"
    from mskernel.toolchain import find_toolchain

    toolchain = find_toolchain()
    cxx = toolchain.cxx
    try:
        found = subprocess.run([*toolchain.cxx_argv, "-print-file-name=libmvec.so"], capture_output=True,
                               text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return (), f"{cxx} -print-file-name failed: {exc}"
    if not os.path.isabs(found):
        return (), f"{cxx} cannot find libmvec.so to link (the libc development files)"
    have = []
    for name, arity in VECTOR_FUNCTIONS.items():
        args = "v" * arity
        symbols = [f"_ZGV{isa}N{lanes}{args}_{name}{suffix}" for kind, suffix in (("float", "f"), ("double", ""))
                   for isa, lanes in _VARIANTS[kind]]
        if all(hasattr(lib, s) for s in symbols):
            have.append(name)
    return tuple(have), "" if have else "libmvec has none of the functions' variants"


#: the DSL's names of those functions where they differ from C's
DSL_NAMES = {"power": "pow"}


def declarations(calls: Iterable[str]) -> list[str]:
    """The lines the generated C++ of a kernel calling the DSL functions ``calls`` starts with: those of
    :data:`VECTOR_FUNCTIONS` it calls, declared with the ``simd`` attribute, by the setting (none: no lines).

    Example:
        >>> set_vector_math("float32")
        >>> [line for line in declarations({"exp", "sqrt"}) if "noexcept" in line] == (
        ...     ['__attribute__((simd("notinbranch"))) float expf(float) noexcept;']
        ...     if "exp" in vector_math_setting().functions else [])
        True
        >>> declarations({"sqrt"})
        []
        >>> set_vector_math(None)
    """
    setting = vector_math_setting()
    used = [f for f in setting.functions if f in {DSL_NAMES.get(c, c) for c in calls}]
    if not used:
        return []
    kinds = [("float", "f")] + ([("double", "")] if setting.mode == "all" else [])
    lines = [f"// vector math ({setting.mode}): glibc's SIMD variants (libmvec) where a loop is vectorized",
             'extern "C" {']
    for name in used:
        for ctype, suffix in kinds:
            params = ", ".join([ctype] * VECTOR_FUNCTIONS[name])
            lines.append(f'__attribute__((simd("notinbranch"))) {ctype} {name}{suffix}({params}) noexcept;')
    return lines + ["}"]


def link_flags(source: str) -> tuple[str, ...]:
    """The linker flags a generated source needs: ``-lmvec`` if it declares vector math.

    Example:
        >>> link_flags("int x;")
        ()
    """
    return ("-lmvec",) if "// vector math (" in source else ()
