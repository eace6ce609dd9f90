"""Builds the optional compiled engine core; everything else is configured in pyproject.toml.

``optional=True``: without a working C compiler the install still succeeds and mskernel runs its
pure-Python engine (``python -m mskernel doctor`` says which engine is active).
"""
from setuptools import Extension, setup

try:  # numpy's headers (pyproject.toml's build requirements bring numpy); without them the build fails: optional
    import numpy
    NUMPY_INCLUDE = [numpy.get_include()]
except ImportError:
    NUMPY_INCLUDE = []

SOURCES = [f"mskernel/autograd/_cengine{part}.c" for part in ("", "_backward", "_operators", "_calls")]
setup(ext_modules=[Extension("mskernel.autograd._cengine", SOURCES, depends=["mskernel/autograd/_cengine.h"],
                             optional=True, include_dirs=NUMPY_INCLUDE,
                             extra_compile_args=["-O2", "-fvisibility=hidden"])])
