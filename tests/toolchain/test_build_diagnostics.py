"""Compile errors point at the user's file/cell, line and column, with the full log kept."""
from __future__ import annotations

import pytest

from mskernel.toolchain import BuildError, Diagnostic, Source, build
from mskernel.toolchain.diagnostics import first_user_error, line_table, parse_diagnostics
from mskernel.errors import SourceLocation, UserCodeError

BAD = """extern "C" int ok(int a) { return a; }

extern "C" int bad(int a) {
    int b = a * 2;
    return b + missing_value;
}
"""


def test_inline_source_error_location_message_and_log(cache):
    with pytest.raises(BuildError) as info:
        build("diag", [Source("<cell 7>", BAD)])
    e = info.value
    assert isinstance(e, UserCodeError) and isinstance(e, RuntimeError)
    col = BAD.splitlines()[4].index("missing_value") + 1
    assert e.location == SourceLocation("<cell 7>", 5, col, "    return b + missing_value;")
    lines = str(e).splitlines()
    assert lines[0] == f"diag: compile error at <cell 7>:5:{col}: 'missing_value' was not declared in this scope" \
        or lines[0].startswith(f"diag: compile error at <cell 7>:5:{col}: ")
    assert "missing_value" in lines[0]
    assert lines[1] == "      return b + missing_value;"
    assert lines[2] == "  " + " " * (col - 1) + "^"
    assert ".log" in lines[-1]
    assert "error:" in e.log and "missing_value" in e.log and "FAILED:" in e.log
    assert " -c " in e.command and e.command.startswith(("/", "g++"))
    errors = [d for d in e.diagnostics if d.severity == "error"]
    assert errors and isinstance(errors[0], Diagnostic) and errors[0].location.file == "<cell 7>"


def test_file_source_error_names_the_file(cache, tmp_path):
    path = tmp_path / "kernel.cpp"
    path.write_text(BAD)
    with pytest.raises(BuildError) as info:
        build("diagf", [path])
    loc = info.value.location
    assert (loc.file, loc.line) == (str(path), 5)
    assert loc.source_line == "    return b + missing_value;"


def test_error_in_a_local_header_names_the_header(cache, tmp_path):
    (tmp_path / "helper.h").write_text("inline int helper() {\n  return 1 +;\n}\n")
    src = Source(str(tmp_path / "k.cpp"), '#include "helper.h"\nextern "C" int f() { return helper(); }\n')
    with pytest.raises(BuildError) as info:
        build("diagh", [src])
    loc = info.value.location
    assert loc.file.endswith("helper.h") and loc.line == 2 and loc.source_line == "  return 1 +;"
    err = next(d for d in info.value.diagnostics if d.severity == "error")
    assert any(c.file == str(tmp_path / "k.cpp") and c.line == 1 for c in err.context)


def test_line_directives_in_the_source_are_respected(cache):
    text = 'extern "C" int a() { return 1; }\n#line 40 "notebook.ipynb"\nextern "C" int b() { return oops; }\n'
    with pytest.raises(BuildError) as info:
        build("diagl", [Source("<cell 2>", text)])
    loc = info.value.location
    assert (loc.file, loc.line) == ("notebook.ipynb", 40)
    assert loc.source_line == 'extern "C" int b() { return oops; }'


def test_error_inside_a_system_header_maps_to_the_users_line(cache):
    text = ('#include <algorithm>\n#include <vector>\nstruct A { int x; };\n'
            'extern "C" void f() {\n  std::vector<A> v(3);\n  std::sort(v.begin(), v.end());\n}\n')
    with pytest.raises(BuildError) as info:
        build("diags", [Source("<cell 9>", text)])
    loc = info.value.location
    assert (loc.file, loc.line) == ("<cell 9>", 6), str(info.value)
    assert "std::sort" in loc.source_line
    first_error = next(d for d in info.value.diagnostics if d.severity == "error")
    assert first_error.location.file != "<cell 9>"  # gcc reports it inside the library header


def test_warnings_do_not_fail_and_are_kept_in_the_log(cache):
    art = build("warn", [Source("<w>", 'extern "C" int f() { int unused = 1; return 2; }')], cflags=["-Wall"])
    assert "unused variable" in art.log
    assert [d.severity for d in parse_diagnostics(art.log)] == ["warning"]


def test_parse_gcc_and_linker_output():
    log = """\
In file included from /src/k.cpp:1:
/src/inc.h:4:3: error: expected ';' before '}' token
/src/k.cpp:9: warning: something without a column
cc1plus: fatal error: missing.cpp: No such file or directory
/usr/bin/ld: obj/k.o: in function `f':
k.cpp:(.text+0x11): undefined reference to `g(int)'
collect2: error: ld returned 1 exit status
"""
    diags = parse_diagnostics(log)
    assert [(d.severity, d.location.file, d.location.line) for d in diags] == [
        ("error", "/src/inc.h", 4), ("warning", "/src/k.cpp", 9), ("error", "cc1plus", 0),
        ("error", "k.cpp", 0)]
    assert diags[0].context == (SourceLocation("/src/k.cpp", 1, 0),)
    assert diags[3].message == "undefined reference to `g(int)' (in function 'f')"
    assert first_user_error(diags, ["/src/k.cpp"]) == SourceLocation("/src/k.cpp", 1, 0, None)


def test_line_table_and_utf8_columns():
    table = line_table("<c>", 'int a;\n#line 7 "x.cu"\nint b;\n#line 1\nint c;')
    assert table == {("<c>", 1): "int a;", ("x.cu", 7): "int b;", ("x.cu", 1): "int c;"}
    diags = parse_diagnostics("<c>:1:17: error: boom\n")
    loc = first_user_error(diags, ["<c>"], [{("<c>", 1): 'auto s = "héé"; x'}])
    assert loc.col == 15  # byte column 17 -> character column 15 ("é" is two bytes)
