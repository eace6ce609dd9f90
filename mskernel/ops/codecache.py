"""The op table's generated code, compiled once and kept between runs, as Python keeps ``.pyc`` files.

The registry writes the source of every functional op, primitive class and front-end function it generates
(:mod:`mskernel.ops.registry`, :mod:`mskernel.ops.opdef`). Compiling ~1000 small sources is most of the time
``import mskernel`` spends building the table; unmarshalling their code objects takes a tenth of it.

:func:`compiled` looks a ``(filename, source)`` pair up in the table loaded from
``<cache_dir()>/opcode/<interpreter tag>.marshal`` and compiles only what is not there. :func:`save` writes the
table back (only when something had to be compiled), holding exactly the entries used in this process, so that
sources no longer generated drop out. The file is written to a temporary name and renamed into place: a
process killed while writing leaves the previous table or none, never a torn one. A table that cannot be used
(an unreadable or corrupt file, one another user could have written, no usable cache directory) is ignored
and everything is compiled as if it were absent: the cache never stops the import.

Example:
    >>> import os, tempfile
    >>> os.environ["MSKERNEL_CACHE_DIR"] = tempfile.mkdtemp()
    >>> table = CodeTable()
    >>> code = table.compiled("def f(x):\\n    return x + 1\\n", "<demo>")
    >>> scope = {}; exec(code, scope); scope["f"](1)
    2
    >>> table.save(), CodeTable().compiled("def f(x):\\n    return x + 1\\n", "<demo>") == code
    (True, True)
"""
from __future__ import annotations

import logging
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType
from typing import Dict, Optional, Tuple

__all__ = ["CodeTable", "TABLE", "compiled", "save"]

log = logging.getLogger("mskernel.ops")
_Key = Tuple[str, str]


def _path() -> Optional[Path]:
    """The table's file, or None when there is no cache directory mskernel may use."""
    from mskernel.cachedir import cache_dir, ensure_private_dir
    try:
        where = ensure_private_dir(cache_dir() / "opcode")
    except Exception as exc:  # untrusted or unwritable: compile everything
        log.debug("op code cache unused: %s", exc)
        return None
    return where / f"{sys.implementation.cache_tag}-marshal{marshal.version}.bin"


def _load(path: Optional[Path]) -> Dict[_Key, CodeType]:
    from mskernel.cachedir import untrusted_reason
    if path is None or not path.is_file():
        return {}
    try:
        with open(path, "rb") as f:
            why = untrusted_reason(os.fstat(f.fileno()))
            if why:
                log.warning("op code cache %s ignored: it %s", path, why)
                return {}
            table = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError) as exc:
        log.debug("op code cache %s unreadable (%s): compiling", path, exc)
        return {}
    ok = isinstance(table, dict) and all(
        isinstance(k, tuple) and len(k) == 2 and isinstance(v, CodeType) for k, v in table.items())
    return table if ok else {}


class CodeTable:
    """A table of compiled sources, loaded from the cache file when first needed.

    Example:
        >>> t = CodeTable()
        >>> t.compiled("x = 1\\n", "<one>").co_filename
        '<one>'
    """

    def __init__(self) -> None:
        self._path: Optional[Path] = None
        self._old: Optional[Dict[_Key, CodeType]] = None
        self._used: Dict[_Key, CodeType] = {}
        self._new = 0

    def compiled(self, source: str, filename: str) -> CodeType:
        """The code of ``source`` (compiled in ``exec`` mode under ``filename``), from the table if it is there.

        Example:
            >>> CodeTable().compiled("y = 2\\n", "<two>").co_names
            ('y',)
        """
        if self._old is None:
            self._path = _path()
            self._old = _load(self._path)
        key = (filename, source)
        code = self._used.get(key) or self._old.get(key)
        if code is None:
            code = compile(source, filename, "exec")
            self._new += 1
        self._used[key] = code
        return code

    def save(self) -> bool:
        """Write the entries used so far, if any had to be compiled; whether the file was written.

        Example:
            >>> CodeTable().save()  # nothing compiled: nothing to write
            False
        """
        if not self._new or self._path is None:
            return False
        try:
            fd, tmp = tempfile.mkstemp(dir=self._path.parent, prefix=".opcode-")
            try:
                with os.fdopen(fd, "wb") as f:
                    marshal.dump(self._used, f)
                os.replace(tmp, self._path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:  # a full disk or a read-only cache: the next import compiles again
            log.debug("op code cache not written: %s", exc)
            return False
        self._new = 0
        return True


#: the table the registry and the front ends compile through
TABLE = CodeTable()


def compiled(source: str, filename: str) -> CodeType:
    """:meth:`CodeTable.compiled` of the shared :data:`TABLE`.

    Example:
        >>> compiled("z = 3\\n", "<three>").co_consts[0]
        3
    """
    return TABLE.compiled(source, filename)


def save() -> bool:
    """:meth:`CodeTable.save` of the shared :data:`TABLE` (``import mskernel`` calls it once the table is built).

    Example:
        >>> isinstance(save(), bool)
        True
    """
    return TABLE.save()
