"""The CPU's device queries: one device, always available.

Example:
    >>> device_count(), is_available()
    (1, True)
"""
__all__ = ["device_count", "is_available"]


def device_count() -> int:
    """The number of CPU devices: 1.

    Example:
        >>> device_count()
        1
    """
    return 1


def is_available() -> bool:
    """Whether the CPU can run kernels: True.

    Example:
        >>> is_available()
        True
    """
    return True
