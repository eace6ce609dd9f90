"""The first call of a C++ op from two threads at once completes (no deadlock in the bridge's
one-time initialisation), in fresh processes, each bounded by a timeout."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FUNCTION_CPP = REPO / "docs" / "howto" / "examples" / "ratio_ops.cpp"  # a C++ Function<T> op: x / y


@pytest.mark.slow
def test_first_calls_from_two_threads_do_not_deadlock(tmp_path):
    code = textwrap.dedent(f"""
        import sys, threading
        import mskernel as ms
        from mskernel.ops import CustomOpBuilder
        ops = CustomOpBuilder("mk_thread_ops", [{str(FUNCTION_CPP)!r}]).load()
        sys.setswitchinterval(1e-6)
        start = threading.Barrier(2)
        results = []
        def first_call():
            x = ms.Tensor([1.0, 2.0], ms.float32)
            start.wait()
            results.append(ops.ratio(x * 3, x).asnumpy().tolist())
        threads = [threading.Thread(target=first_call) for _ in range(2)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(results)
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO), "MSKERNEL_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-c", f"from mskernel.ops import CustomOpBuilder\n"
                    f"CustomOpBuilder('mk_thread_ops', [{str(FUNCTION_CPP)!r}]).load()"], env=env, check=True,
                   timeout=600)  # build into this test's cache first
    for _ in range(6):  # the deadlock used to hit 7 runs in 8
        try:
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the first calls of a C++ op from two threads hung")
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[[3.0, 3.0], [3.0, 3.0]]"
