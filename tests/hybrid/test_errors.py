"""One test per DSL rule: HybridError (TypeError and ValueError), kernel name, line, column.

Each bad kernel marks its offending line with ``# ERR``; the expected line number is found
with ``inspect`` (real file lines, through the dedent of nested defs) and the expected
column is where ``token`` starts on that line. Every message is checked to show that line
with a caret under that column, to say what is not allowed (``reason``) and, where the
rule has alternatives, what is allowed there (``allowed``).
"""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from mskernel.hybrid import HybridError, HybridKernel
from mskernel.hybrid.codegen import Generated
from mskernel.hybrid.compiler import load_generated
from mskernel.hybrid.errors import HybridInternalError
from mskernel.hybrid.intrinsics import INTRINSICS


def located(func, token: str, reason: str, run_with=None, allowed: tuple = ()) -> HybridError:
    lines, start = inspect.getsourcelines(func)
    idx = next(i for i, text in enumerate(lines) if "# ERR" in text)
    line, col = start + idx, lines[idx].index(token) + 1
    with pytest.raises(HybridError) as info:
        hk = HybridKernel.from_function(func)
        if run_with is not None:
            before = hk.compile_count
            try:
                hk.run(*run_with)
            finally:
                assert hk.compile_count == before  # failed before any C++ was built
    e = info.value
    assert isinstance(e, TypeError) and isinstance(e, ValueError)
    assert (e.location.line, e.location.col) == (line, col), (e.location, line, col)
    msg = str(e)
    assert func.__name__ in msg
    assert f"line {line}, column {col}" in msg
    assert reason in e.reason, msg
    shown = msg.splitlines()
    code = lines[idx].strip()
    at = shown.index("    " + code)  # the offending line, then a caret under the offending column
    indent = len(lines[idx].expandtabs(4)) - len(lines[idx].expandtabs(4).lstrip())
    assert shown[at + 1] == "    " + " " * (col - 1 - indent) + "^", (shown[at + 1], col)
    for alternative in allowed:
        assert alternative in msg, msg
    assert "mindspore" not in msg.lower() and "http" not in msg  # our own words, no links
    assert e.location.file == inspect.getsourcefile(func)
    return e


def test_while_is_rejected_with_what_to_write_instead():
    def k_while(x):
        y = output_tensor(x.shape, x.dtype)
        while x[0] > 0:  # ERR
            pass
        return y
    located(k_while, "while", "'while' loops are not part of the DSL", allowed=("for v in range(n)",))


def test_break_and_continue():
    def k_break(x):
        for i in range(3):
            break  # ERR
        return x

    def k_continue(x):
        for i in range(3):
            continue  # ERR
        return x
    located(k_break, "break", "'break' is not part of the DSL", allowed=("guard the rest of its body with an if",))
    located(k_continue, "continue", "'continue' is not part of the DSL", allowed=("with an if",))


def test_undeclared_variable_lists_what_a_kernel_reads():
    def k_undeclared(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = x[i] * zz  # ERR
        return y
    e = located(k_undeclared, "zz", "zz is not defined in the kernel",
                allowed=("a kernel reads its parameters (x), its loop variables",))
    assert "did you mean" not in e.reason  # nothing visible is close to zz


def test_a_misspelt_name_suggests_the_nearest_visible_one():
    def k_typo(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            total = x[i] * 2.0
            y[i] = totl + 1.0  # ERR
        return y

    def k_out_of_scope(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            total = x[i]
        y[0] = totl  # ERR
        return y
    located(k_typo, "totl", "totl is not defined in the kernel (did you mean total?)")
    e = located(k_out_of_scope, "totl", "totl is not defined in the kernel")
    assert "did you mean" not in e.reason  # total is not visible after its loop: not suggested


def test_unknown_intrinsic_lists_the_intrinsics_and_the_nearest_one():
    def k_unknown(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = softplus(x[i])  # ERR
        return y

    def k_typo(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = sqrtt(x[i])  # ERR
        return y

    def k_method(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = np.sqrt(x[i])  # ERR
        return y
    callable_in_expressions = [n for n, i in INTRINSICS.items() if i.kind in ("unary", "binary", "cast", "minmax")]
    e = located(k_unknown, "softplus", "softplus is not an intrinsic of the DSL",
                allowed=("a kernel can call: ", *callable_in_expressions))
    assert e.allowed.startswith("a kernel can call: ") and "did you mean" not in e.reason
    located(k_typo, "sqrtt", "sqrtt is not an intrinsic of the DSL (did you mean sqrt?)", allowed=("rsqrt, exp",))
    located(k_method, "np.sqrt", "np.sqrt(...) cannot be called in a kernel (did you mean sqrt?)",
            allowed=("by their bare names",))


def test_wrong_arity_shows_how_to_call():
    def k_unary(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = sqrt(x[i], 2.0)  # ERR
        return y

    def k_binary(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = power(x[i])  # ERR
        return y

    def k_buffer(x):
        y = output_tensor(x.shape)  # ERR
        return y

    def k_max(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = max(x[i])  # ERR
        return y
    located(k_unary, "sqrt", "sqrt takes 1 argument, but got 2: write sqrt(x)")
    located(k_binary, "power", "power takes 2 arguments, but got 1: write power(x, y)")
    located(k_buffer, "output_tensor", "output_tensor takes 2 arguments, but got 1: write output_tensor(shape, dtype)")
    located(k_max, "max", "max takes at least 2 arguments, but got 1: write max(a, b, ...)")


def test_write_to_read_only_input():
    def k_readonly(x, b):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            b[i] = 0.0  # ERR
            y[i] = x[i]
        return y
    located(k_readonly, "b[i]", "the input b is written but not returned: an input may be written only when the kernel "
                                 "returns it (in place); write into an output_tensor, or return b")


def test_variable_used_out_of_its_scope():
    def k_scope(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            s = x[i]
        y[0] = s  # ERR
        return y
    located(k_scope, "s  #", "s is used outside the for loop that declares it")


def test_scalar_reused_in_a_sibling_loop_is_out_of_scope():
    def k_sibling(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            t = x[i]
            y[i] = t
        for j in range(x.shape[0]):
            t = x[j] * 2  # ERR
            y[j] = t
        return y
    located(k_sibling, "t =", "t is used outside the for loop that declares it")


def test_loop_variable_cannot_be_overwritten():
    def k_iter(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            i = 0  # ERR
            y[i] = x[i]
        return y
    located(k_iter, "i = 0", "i is a loop variable of an enclosing loop and cannot be assigned")


def test_multiple_assignment():
    def k_multi(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            a = b = x[i]  # ERR
            y[i] = a
        return y
    located(k_multi, "a = b", "a = b = ... assigns several targets at once: assign one target per statement")


def test_tensor_redefinition():
    def k_redef(x):
        y = output_tensor(x.shape, x.dtype)
        y = output_tensor(x.shape, x.dtype)  # ERR
        return y
    located(k_redef, "y =", "y is already defined: a tensor gets its name once")


def test_bad_getattr():
    def k_attr(x):
        y = output_tensor((x.size,), x.dtype)  # ERR
        return y

    def k_attr_scalar(x):
        n = 3
        y = output_tensor(n.shape, x.dtype)  # ERR
        return y

    def k_attr_expr(x):
        y = output_tensor((x + 1).shape, x.dtype)  # ERR
        return y
    located(k_attr, "x.size", "a tensor has no attribute size: it has only .shape and .dtype")
    located(k_attr_scalar, "n.shape", "n is a scalar: .shape exists only on tensors")
    located(k_attr_expr, "(x + 1).shape", "(x + 1).shape is not allowed: only a tensor's name has .shape and .dtype")


def test_return_rules():
    def k_ret_expr(x):
        y = output_tensor(x.shape, x.dtype)
        return y + 1  # ERR

    def k_ret_tuple(x):
        y = output_tensor(x.shape, x.dtype)
        return y, 1  # ERR

    def k_ret_temp(x):
        t = allocate(x.shape, x.dtype)
        return t  # ERR

    def k_missing_output(x):
        y = output_tensor(x.shape, x.dtype)
        z = output_tensor(x.shape, x.dtype)
        return y  # ERR

    def k_return_in_loop(x):
        for i in range(2):
            return x  # ERR
        return x
    located(k_ret_expr, "y + 1", "return y + 1 is not allowed: return names the output tensors (return y, or")
    located(k_ret_tuple, "1  #", "1 is not a tensor name: return names tensors only")
    located(k_ret_temp, "t  #", "t cannot be returned (a temporary from allocate): return the tensors made by "
                                "output_tensor (none yet) or inputs written in place")
    located(k_missing_output, "return", "the output tensor z is not returned: return every tensor made by "
                                        "output_tensor (return y, z)")
    located(k_return_in_loop, "return", "return inside a for or an if is not allowed: return once, as the "
                                        "kernel's last statement")


def test_unsupported_syntax():
    def k_slice(x):
        y = output_tensor(x.shape, x.dtype)
        y[0] = x[1:3]  # ERR
        return y

    def k_lambda(x):
        y = output_tensor(x.shape, x.dtype)
        f = lambda v: v  # ERR
        return y

    def k_assert(x):
        assert x  # ERR
        return x

    def k_with(x):
        with open(x):  # ERR
            pass
        return x
    located(k_slice, "1:3", "slicing is not supported: index every dimension of x with a scalar")
    located(k_lambda, "lambda", "a lambda is not an expression of the DSL",
            allowed=("an expression may use: numbers, scalars", "calls of intrinsics"))
    located(k_assert, "assert", "an assert statement is not a statement of the DSL",
            allowed=("a kernel's body may hold: v = e, t[i, j] = e", "if/elif/else"))
    located(k_with, "open", "with open(x) is not supported: a with statement may only use attr(name, value) or "
                            "block_realize(tensor)")


def test_output_tensor_inside_a_loop():
    def k_out_loop(x):
        for i in range(2):
            y = output_tensor(x.shape, x.dtype)  # ERR
        return x
    located(k_out_loop, "output_tensor", "output_tensor must be called at the top level of the kernel, not inside "
                                         "a loop or a branch: allocate the output before the loops")


def test_dtype_mix_needs_a_cast():
    def k_mix(a, b):
        c = output_tensor(a.shape, a.dtype)
        for i in range(a.shape[0]):
            c[i] = a[i] + b[i]  # ERR
        return c
    e = located(k_mix, "a[i] +", "different dtypes float32 and int32",
                run_with=([np.ones(2, np.float32), np.ones(2, np.int32)],))
    assert "cast" in e.reason


def test_storing_another_dtype_needs_a_cast():
    def k_store(a):
        c = output_tensor(a.shape, "float64")
        for i in range(a.shape[0]):
            c[i] = a[i] * 2  # ERR
        return c
    located(k_store, "a[i] * 2", "cannot store a value of dtype float32 into the tensor c of dtype float64",
            run_with=([np.ones(2, np.float32)],))


def test_scalar_dtype_cannot_change():
    def k_var(a, b):
        c = output_tensor(a.shape, a.dtype)
        for i in range(a.shape[0]):
            s = a[i]
            s = b[i]  # ERR
            c[i] = s
        return c
    located(k_var, "s = b", "the variable s has dtype float32 but is assigned a value of dtype float64",
            run_with=([np.ones(2, np.float32), np.ones(2, np.float64)],))


def test_index_count_must_match_rank():
    def k_rank(a):
        c = output_tensor(a.shape, a.dtype)
        for i in range(a.shape[0]):
            c[i] = a[i]  # ERR
        return c
    located(k_rank, "c[i]", "the tensor c has 2 dimension(s) but is indexed with 1 index(es)",
            run_with=([np.ones((2, 2), np.float32)],))


def test_from_source_lines_are_offset_by_first_line():
    text = "import numpy\n\ndef cell_kernel(x):\n    y = output_tensor(x.shape, x.dtype)\n" \
           "    for i in range(x.shape[0]):\n        y[i] = x[i] + q\n    return y\n"
    with pytest.raises(HybridError) as info:
        HybridKernel.from_source(text, "cell_kernel", filename="<cell 3>", first_line=40)
    e = info.value
    assert (e.location.file, e.location.line, e.location.col) == ("<cell 3>", 45, 23)
    assert 'File "<cell 3>", line 45, column 23, in kernel cell_kernel' in str(e)
    assert "y[i] = x[i] + q" in str(e)


def test_from_source_syntax_error_is_located():
    with pytest.raises(HybridError) as info:
        HybridKernel.from_source("def f(x):\n    y = = 1\n    return x\n", filename="<cell 9>", first_line=3)
    assert info.value.location.line == 4
    assert "invalid Python syntax" in str(info.value)


def test_from_source_dtype_error_is_located_at_run():
    hk = HybridKernel.from_source("def f(a, b):\n    c = output_tensor(a.shape, a.dtype)\n"
                                  "    for i in range(a.shape[0]):\n        c[i] = a[i] * b[i]\n    return c\n",
                                  filename="<cell 2>", first_line=10)
    with pytest.raises(TypeError) as info:
        hk.infer([(2,), (2,)], [np.float64, np.int64])
    assert (info.value.location.line, info.value.location.col) == (13, 16)
    assert "float64 and int64" in str(info.value)


def test_a_loop_over_something_else_names_the_loop_intrinsics():
    def k_iter(x):
        y = output_tensor(x.shape, x.dtype)
        for i in ranges(x.shape[0]):  # ERR
            y[i] = x[i]
        return y
    located(k_iter, "ranges", "a loop cannot iterate over ranges(x.shape[0]) (did you mean range?): iterate over "
                              "range(...), serial(...), parallel(...), vectorize(...), reduce(...), grid(...)")


def test_mindspore_style_except_clauses_catch_it():
    def k_while2(x):
        while True:  # ERR
            pass
        return x
    for exc in (TypeError, ValueError):
        with pytest.raises(exc):
            HybridKernel.from_function(k_while2)


def test_generated_code_that_fails_to_compile_is_an_internal_error():
    bad = Generated('#include "hybrid_runtime.h"\nint broken( {\n', ["x"], False)
    with pytest.raises(HybridInternalError) as info:
        load_generated("broken_kernel", bad)
    msg = str(info.value)
    assert "bug in mskernel.hybrid" in msg and "int broken( {" in msg and "build log" in msg
    assert "error" in info.value.log
