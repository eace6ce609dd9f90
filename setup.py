"""Builds the engine core (mskernel.autograd._cengine); everything else is configured in pyproject.toml.

The engine core is the autograd engine itself (recording, the backward pass, the gradient calls), so the build
needs a C compiler -- the one mskernel uses for its kernels anyway. numpy's headers come from pyproject.toml's
build requirements.
"""
import numpy
from setuptools import Extension, setup

PARTS = ("", "_state", "_rules", "_backward", "_operators", "_calls", "_capi")  # _cengine.h says what each holds
SOURCES = [f"mskernel/autograd/_cengine{part}.c" for part in PARTS]
DEPENDS = ["mskernel/autograd/_cengine.h", "mskernel/include/mskernel/engine_api.h"]  # the C API's layout is shared
setup(ext_modules=[Extension("mskernel.autograd._cengine", SOURCES, depends=DEPENDS, include_dirs=[numpy.get_include()],
                             extra_compile_args=["-O2", "-fvisibility=hidden"])])
