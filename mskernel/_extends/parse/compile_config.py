"""MindSpore's graph-compiler switches (``compile_config.CHECK_BPROP = "1"`` and the like).

Every upper-case name reads as MindSpore's default, an empty string, and may be set; mskernel runs
programs eagerly, so none of them changes what runs.

Example:
    >>> from mskernel._extends.parse import compile_config
    >>> compile_config.GRAD_FOR_SCALAR = "1"
    >>> compile_config.GRAD_FOR_SCALAR, compile_config.DEBUG_LEVEL
    ('1', '')
"""
from __future__ import annotations


def __getattr__(name: str) -> str:
    if name.isupper():
        return ""
    raise AttributeError(f"module 'compile_config' has no attribute {name!r}")
