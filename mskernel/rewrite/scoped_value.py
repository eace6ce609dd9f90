"""ScopedValue: a name (``self.conv``, ``x``) or a constant, as an argument or target of a rewrite node.

Example:
    >>> print(ScopedValue.create_naming_value("conv", "self"), ScopedValue.create_variable_value(2))
    self.conv 2
"""
from __future__ import annotations

from enum import Enum
from typing import Any, List, Optional, Sequence

from mskernel.rewrite._check import check_elements, check_type

__all__ = ["ValueType", "ScopedValue"]


class ValueType(Enum):
    """The kind of a :class:`ScopedValue`.

    Example:
        >>> ValueType.NamingValue.value
        40
    """
    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


class ScopedValue:
    """A value with its scope: ``self.relu`` is the name ``relu`` in scope ``self``.

    Example:
        >>> ScopedValue(ValueType.NamingValue, "self", "relu")
        self.relu
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value: Any = None) -> None:
        check_type("arg_type", arg_type, [ValueType], "ScopedValue")
        check_type("scope", scope, [str], "ScopedValue")
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value: Any) -> Optional["ScopedValue"]:
        """A constant (or container of constants, or any object) as a ScopedValue.

        Example:
            >>> print(ScopedValue.create_variable_value(2))
            2
        """
        if value is None or isinstance(value, (int, float, str, bool)):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "",
                       {cls.create_variable_value(k): cls.create_variable_value(v) for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> "ScopedValue":
        """A reference to the variable ``name`` (in ``scope``, e.g. ``"self"``).

        Example:
            >>> print(ScopedValue.create_naming_value("conv", "self"))
            self.conv
        """
        check_type("name", name, [str], "ScopedValue")
        check_type("scope", scope, [str], "ScopedValue")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names: Sequence[str], scopes: Optional[Sequence[str]] = None) -> List["ScopedValue"]:
        """Several naming values at once.

        Example:
            >>> ScopedValue.create_name_values(names=["z", "z_1"], scopes=["self", "self"])
            [self.z, self.z_1]
        """
        check_elements("names", names, [str], "ScopedValue")
        if scopes is not None:
            check_elements("scopes", scopes, [str], "ScopedValue")
            if len(names) != len(scopes):
                raise ValueError("Length of names should be equal to length of scopes")
        return [ScopedValue.create_naming_value(n, scopes[i] if scopes is not None else "")
                for i, n in enumerate(names)]

    def __str__(self) -> str:
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ScopedValue):
            return False
        return self.type == other.type and self.scope == other.scope and self.value == other.value

    def __hash__(self) -> int:
        return hash((self.type, self.scope, self.value))
