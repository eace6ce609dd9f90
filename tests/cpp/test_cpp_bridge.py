"""mskernel.cpp (the Python side of the C++ headers): its docstring examples, and the aclnn table's error for unknown
names."""
import doctest
import re
from pathlib import Path

import numpy as np
import pytest

from mskernel import cpp
from mskernel.cpp import aclnn, arrays, buffers, function, tensor_methods


MODULES = [cpp, aclnn, arrays, buffers, function, tensor_methods]  # whose docstring examples this file runs


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_every_name_the_headers_look_up_is_on_the_package():
    include = Path(cpp.__file__).parents[1] / "include"
    called = set(re.findall(r'Bridge(?:Attr)?\("(\w+)"', "".join(p.read_text() for p in include.rglob("*.h"))))
    assert {"empty", "copy_into", "storage_offset", "reshape", "chunk", "Tensor", "array_api"} <= called
    assert not {name for name in called if not hasattr(cpp, name)}
    assert all(hasattr(cpp, name) for name in cpp.__all__)


def test_unknown_aclnn_name_lists_the_supported_ones():
    with pytest.raises(RuntimeError, match=r"'aclnnNope' has no CPU implementation.*aclnnAbs, aclnnAdd"):
        cpp.launch_aclnn("aclnnNope", [np.ones(1)], [np.ones(1)])


def test_aclnn_add_with_alpha_and_inplace_ops():
    out = np.empty(3)
    cpp.launch_aclnn("aclnnAdd", [np.ones(3), np.arange(3.0), 2], [out])
    np.testing.assert_allclose(out, [1.0, 3.0, 5.0])
    cpp.launch_aclnn("aclnnInplaceMuls", [out, 2.0], [])
    np.testing.assert_allclose(out, [2.0, 6.0, 10.0])
    s = np.empty((1,))
    cpp.launch_aclnn("aclnnReduceSum", [np.arange(4.0).reshape(2, 2), (0, 1), False], [s])
    assert s[0] == 6.0
