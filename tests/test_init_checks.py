"""The table of constructor checks (mskernel/ops/init_checks.py) names real primitives and their arguments, and
each named primitive checks when it is built. What the checks say is held by the golden suite prim_init_checks
(recorded from the MindSpore 2.10 wheel)."""
from __future__ import annotations

import inspect

import pytest

from mskernel import ops
from mskernel.ops.init_checks import INIT_CHECKS, check_args, install
from mskernel.ops.primitive import Primitive


@pytest.mark.parametrize("prim", sorted(INIT_CHECKS))
def test_entry_names_a_primitive_and_its_arguments(prim):
    cls = getattr(ops, prim, None)
    assert isinstance(cls, type) and issubclass(cls, Primitive), f"{prim} is no primitive class of mskernel.ops"
    params = inspect.signature(cls.__init__).parameters
    missing = [a for a in INIT_CHECKS[prim] if a not in params]
    assert not missing, f"{prim}.__init__ has no parameter {missing}"


@pytest.mark.parametrize("prim", sorted(set(INIT_CHECKS) - {"Primitive"}))
def test_entry_is_installed(prim):
    init = getattr(ops, prim).__init__
    assert getattr(init, "_init_checked", False), f"{prim}'s constructor does not consult the table"


def test_checks_run_before_the_constructor_and_leave_good_arguments_alone():
    with pytest.raises(TypeError, match=r"For 'Pack', the type of 'axis' should be 'int', but got type 'float'\."):
        ops.Pack(1.5)
    assert ops.Pack(axis=-1).axis == -1
    with pytest.raises(ValueError, match=r"the 'out_channel' must be int and must > 0, but got '0'"):
        ops.Conv2D(0, 3)
    assert ops.Conv2D(2, (3, 3), pad_mode="pad", pad=1).attrs  # a pad is allowed with pad_mode 'pad'


def test_a_class_outside_mskernel_is_not_checked_unless_installed():
    class Pack(Primitive):
        def __init__(self, axis=0):
            super().__init__("Pack")
            self.axis = axis

    assert Pack(axis="a").axis == "a"  # a user's class of the same name is the user's business
    install(Pack)
    with pytest.raises(TypeError, match="the type of 'axis' should be 'int'"):
        Pack(axis="a")


def test_check_args_skips_absent_arguments_and_unknown_primitives():
    assert check_args("Conv2D", {"out_channel": 2}) is None
    assert check_args("NoSuchPrimitive", {"x": object()}) is None
