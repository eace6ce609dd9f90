"""Random DAG programs (random_dags.py) whose gradients mskernel gets wrong today, and why.

Both oracles read this: tests/autograd/test_random_dags_fd.py (float64 central differences on numpy) and the
golden suite tests/golden/cases/random_dags.py (MindSpore 2.10's recorded answers agree with the differences
there). Each listed program is expected to fail, strictly: once a bug is fixed its programs fail until their
entries are removed. All of them are in-place updates the engine mishandles. The causes were told apart by
rewriting a failing program three ways, each avoiding one cause with the same arithmetic (a copy ``t = t * 1.0``
before the write; the slice read on the right copied, ``(t[j] * 1.0) * u``; a write through a view made on ``t``
directly): a program is listed with the smallest set of rewrites that makes it pass.
"""
from __future__ import annotations

from typing import Dict, Tuple

__all__ = ["CAUSES", "ENGINE_BUGS"]

CAUSES = {
    "slice": "t[i] *= u or t[i] = t[j] * u: Mul saves the slice it reads, a view of t, and the write then changes "
             "it, so u's gradient uses the new values",
    "view": "a write through a view (s = t[i]; s[j] = u) changes t's values but not t's graph: u gets no gradient "
            "and the overwritten elements of t still do",
    "output": "an in-place write into the output of an op whose backward reads that output (sigmoid, tanh, exp, "
              "...): backward uses the overwritten values",
}

_PROGRAMS: Dict[str, Tuple[str, ...]] = {
    "dag_000": ('slice', 'output'), "dag_002": ('view',), "dag_007": ('output',), "dag_009": ('slice',),
    "dag_017": ('view',), "dag_028": ('view',), "dag_034": ('slice',), "dag_035": ('view',), "dag_041": ('slice',),
    "dag_047": ('slice',), "dag_059": ('slice', 'output'), "dag_062": ('slice',), "dag_071": ('slice',),
    "dag_081": ('view',), "dag_086": ('slice',), "dag_097": ('slice',), "dag_098": ('view',), "dag_121": ('view',),
    "dag_124": ('view',), "dag_150": ('output',), "dag_151": ('slice',), "dag_160": ('view',),
    "dag_167": ('slice', 'output'), "dag_171": ('view',), "dag_172": ('slice',), "dag_185": ('slice',),
    "dag_187": ('slice',), "dag_194": ('slice',), "dag_201": ('view',), "dag_216": ('slice',), "dag_224": ('slice',),
    "dag_228": ('view',), "dag_231": ('view',), "dag_233": ('slice', 'view'), "dag_234": ('slice',),
    "dag_235": ('slice',), "dag_238": ('slice',), "dag_242": ('slice',), "dag_250": ('slice', 'output'),
    "dag_257": ('slice',), "dag_266": ('slice', 'output'), "dag_270": ('slice', 'output'), "dag_274": ('view',),
    "dag_283": ('slice',), "dag_298": ('view',), "dag_299": ('slice',), "dag_311": ('slice',), "dag_323": ('view',),
    "dag_327": ('slice',), "dag_328": ('slice',), "dag_359": ('slice', 'output'), "dag_360": ('view',),
    "dag_363": ('output',), "dag_364": ('slice',), "dag_371": ('view',), "dag_373": ('slice', 'view'),
    "dag_377": ('slice',), "dag_383": ('view',), "dag_388": ('slice',), "dag_405": ('view',), "dag_411": ('slice',),
    "dag_415": ('slice',), "dag_418": ('slice',), "dag_420": ('view',), "dag_435": ('slice',), "dag_447": ('slice',),
    "dag_453": ('view',), "dag_455": ('slice',), "dag_461": ('slice',), "dag_462": ('slice',), "dag_480": ('view',),
    "dag_483": ('view',), "dag_494": ('view',), "dag_496": ('slice',),
}

ENGINE_BUGS: Dict[str, str] = {name: "; ".join(CAUSES[c] for c in causes) for name, causes in _PROGRAMS.items()}
