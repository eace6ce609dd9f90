"""``TCPStore``: the key-value store the ranks of a job share, for one process.

MindSpore's store is a TCP server (the master) and its clients; every rank reads and writes the same keys. mskernel
runs one process, so every store on the same ``(host_name, port)`` shares one table in this process, whether
it was made as the master or not, and no socket is opened. Values are kept as bytes; ``add`` keeps a counter as
its decimal text, as MindSpore does. A ``get`` of a key nobody set fails at once (MindSpore waits for another
process to set it until ``timeout``; here there is none).

Example:
    >>> store = TCPStore("127.0.0.1", 29500, 1, True)
    >>> store.set("epoch", "3"); store.get("epoch")
    b'3'
    >>> store.add("step", 2), store.add("step", 5), store.get("step")
    (2, 7, b'7')
    >>> store.delete_key("epoch"), store.delete_key("epoch")
    (True, False)
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any, Dict, Optional, Tuple, Union

__all__ = ["TCPStore"]

#: (host, port) -> the store's table, shared by every store of this process on that address
_TABLES: Dict[Tuple[str, int], Dict[str, bytes]] = {}


def _key(key: Any, method: str) -> str:
    if not isinstance(key, str):
        raise TypeError(f"For 'TCPStore.{method}', the argument 'key' must be type of string, but got 'key' type : "
                        f"{type(key)}.")
    return key


class TCPStore:
    """A key-value store shared by the ranks of a job (here: by every store of this process on the same address).

    Example:
        >>> s = TCPStore("127.0.0.1", 29501, is_master=True)
        >>> s.set("k", b"\\x00v"); TCPStore("127.0.0.1", 29501).get("k")
        b'\\x00v'
    """

    def __init__(self, host_name: str, port: int, world_size: Optional[int] = None, is_master: bool = False,
                 timeout: timedelta = timedelta(seconds=300), wait_for_workers: bool = True,
                 multi_tenant: bool = False, master_listen_fd: Any = None, use_libuv: bool = True) -> None:
        for name, value, kind, text in (("host_name", host_name, str, "string"), ("port", port, int, "int"),
                                        ("is_master", is_master, bool, "bool"),
                                        ("timeout", timeout, timedelta, "timedelta"),
                                        ("wait_for_workers", wait_for_workers, bool, "bool")):
            if not isinstance(value, kind):
                raise TypeError(f"For 'TCPStore', the argument '{name}' must be type of {text}, but got '{name}' "
                                f"type : {type(value)}.")
        world_size = 1 if world_size is None else world_size
        if not isinstance(world_size, int):
            raise TypeError(f"For 'TCPStore', the argument 'world_size' must be type of int, but got 'world_size' "
                            f"type : {type(world_size)}.")
        if port < 0 or port > 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(f"For 'TCPStore', the argument 'world_size' must be legal, but got {world_size}.")
        self.host = host_name
        self.port = port
        self._table = _TABLES.setdefault((host_name, port), {})

    def add(self, key: str, amount: int) -> int:
        """Add ``amount`` to the counter ``key`` (0 when unset) and return its new value."""
        _key(key, "add")
        if not isinstance(amount, int):
            raise TypeError(f"For 'TCPStore.add', the argument 'amount' must be type of string or int, but got "
                            f"'amount' type : {type(amount)}.")
        old = self._table.get(key, b"0")
        try:
            value = int(old.decode()) + amount
        except (UnicodeDecodeError, ValueError):
            raise RuntimeError("TCP addition operation failed!") from None
        self._table[key] = str(value).encode()
        return value

    def set(self, key: str, value: Union[str, bytes]) -> None:
        """Store ``value`` (text or bytes) under ``key``."""
        _key(key, "set")
        if not isinstance(value, (str, bytes)):
            raise TypeError(f"For 'TCPStore.set', the argument 'value' must be type of string or bytes, but got "
                            f"'value' type : {type(value)}.")
        self._table[key] = value.encode() if isinstance(value, str) else bytes(value)

    def get(self, key: str) -> bytes:
        """The bytes stored under ``key``."""
        _key(key, "get")
        if key not in self._table:
            raise RuntimeError("TCP get operation failed.")
        return self._table[key]

    def delete_key(self, key: str) -> bool:
        """Remove ``key``; whether it was there."""
        _key(key, "delete_key")
        return self._table.pop(key, None) is not None
