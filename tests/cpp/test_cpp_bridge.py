"""mskernel.cpp_bridge: its docstring examples, and the aclnn table's error for unknown names."""
import doctest

import numpy as np
import pytest

from mskernel import cpp_bridge


def test_docstring_examples():
    result = doctest.testmod(cpp_bridge, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 20


def test_unknown_aclnn_name_lists_the_supported_ones():
    with pytest.raises(RuntimeError, match=r"'aclnnNope' has no CPU implementation.*aclnnAbs, aclnnAdd"):
        cpp_bridge.launch_aclnn("aclnnNope", [np.ones(1)], [np.ones(1)])


def test_aclnn_add_with_alpha_and_inplace_ops():
    out = np.empty(3)
    cpp_bridge.launch_aclnn("aclnnAdd", [np.ones(3), np.arange(3.0), 2], [out])
    np.testing.assert_allclose(out, [1.0, 3.0, 5.0])
    cpp_bridge.launch_aclnn("aclnnInplaceMuls", [out, 2.0], [])
    np.testing.assert_allclose(out, [2.0, 6.0, 10.0])
    s = np.empty((1,))
    cpp_bridge.launch_aclnn("aclnnReduceSum", [np.arange(4.0).reshape(2, 2), (0, 1), False], [s])
    assert s[0] == 6.0
