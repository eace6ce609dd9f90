"""The op table's compiled-code cache (mskernel.ops.codecache): a second import reuses the first one's code, and a
file that cannot be trusted or read is ignored (everything compiles as if it were absent), never half-used."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mskernel.ops.codecache import CodeTable

SRC = "def f(x):\n    return x * 3\n"


def _file(root: Path) -> Path:
    return root / "opcode" / f"{sys.implementation.cache_tag}-marshal{marshal.version}.bin"


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(tmp_path))
    return tmp_path


def _run(code, scope=None):
    scope = {} if scope is None else scope
    exec(code, scope)
    return scope["f"](2)


def test_a_saved_table_is_reused_and_holds_only_what_was_used(root):
    first = CodeTable()
    code = first.compiled(SRC, "<t>")
    first.compiled("def g():\n    pass\n", "<unused later>")
    assert first.save() and _file(root).is_file()
    second = CodeTable()
    again = second.compiled(SRC, "<t>")
    assert again == code and _run(again) == 6
    assert not second.save()  # nothing new compiled: the file is not rewritten
    second.compiled("def h():\n    pass\n", "<new>")
    assert second.save()
    with open(_file(root), "rb") as f:
        assert set(marshal.load(f)) == {("<t>", SRC), ("<new>", "def h():\n    pass\n")}


def test_an_edited_source_is_compiled_anew(root):
    t = CodeTable()
    t.compiled(SRC, "<t>")
    t.save()
    edited = SRC.replace("3", "5")
    assert _run(CodeTable().compiled(edited, "<t>")) == 10


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"k": "not code"})])
def test_an_unreadable_or_foreign_file_is_ignored(root, content):
    _file(root).parent.mkdir(parents=True, mode=0o700)
    _file(root).write_bytes(content)
    t = CodeTable()
    assert _run(t.compiled(SRC, "<t>")) == 6
    assert t.save()  # replaced by a good table
    assert _run(CodeTable().compiled(SRC, "<t>")) == 6


def test_a_file_others_can_write_is_not_loaded(root):
    planted = compile("def f(x):\n    return 'planted'\n", "<t>", "exec")
    _file(root).parent.mkdir(parents=True, mode=0o700)
    _file(root).write_bytes(marshal.dumps({("<t>", SRC): planted}))
    os.chmod(_file(root), 0o666)
    assert _run(CodeTable().compiled(SRC, "<t>")) == 6


def test_an_untrusted_cache_directory_only_costs_compiling(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(shared))
    t = CodeTable()
    assert _run(t.compiled(SRC, "<t>")) == 6
    assert not t.save() and not (shared / "opcode").exists()


def test_import_writes_the_table_and_the_next_import_compiles_nothing(tmp_path):
    env = {**os.environ, "MSKERNEL_CACHE_DIR": str(tmp_path)}
    probe = ("import mskernel\nfrom mskernel.ops import codecache as c\n"
             "print(c.TABLE._new, len(c.TABLE._used))")
    subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True)
    assert _file(tmp_path).is_file()
    out = subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True).stdout
    new, used = map(int, out.split())
    assert new == 0 and used > 500  # every generated function came from the table
