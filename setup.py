"""Builds the optional compiled engine core; everything else is configured in pyproject.toml.

``optional=True``: without a working C compiler the install still succeeds and mskernel runs its
pure-Python engine (``python -m mskernel doctor`` says which engine is active).
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("mskernel.autograd._cengine", ["mskernel/autograd/_cengine.c"], optional=True,
                             extra_compile_args=["-O2"])])
