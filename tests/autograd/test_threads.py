"""Threads that build and differentiate separate graphs get their own grad mode and right answers."""
from __future__ import annotations

import sys
import threading

import numpy as np

import mskernel as ms
from mskernel.autograd import STATE


def test_two_threads_computing_thousands_of_grads_are_all_correct():
    """Before grad mode was per thread, one thread's grad()/no_grad switched recording off for the
    other mid-forward: all-zero gradients, and sometimes recording left off for the process."""
    errors: list[str] = []
    n = 1500

    def work(k: float) -> None:
        f = ms.grad(lambda x: (x * x * k).sum())
        x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        for i in range(n):
            if i % 7 == 0:
                with ms.no_grad():  # a no_grad block here must not leak into the other thread
                    (x * 2).sum()
            got = f(x).asnumpy()
            if not np.allclose(got, 2 * k * x.asnumpy()):
                errors.append(f"k={k}, iteration {i}: {got}")
                return
        if not STATE.enabled:
            errors.append(f"k={k}: recording left off in this thread")

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in (1.0, 3.0)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
    finally:
        sys.setswitchinterval(old)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert STATE.enabled  # and the main thread's mode is untouched


def test_a_new_thread_starts_with_recording_on_even_inside_no_grad():
    seen = []
    with ms.no_grad():
        t = threading.Thread(target=lambda: seen.append((STATE.enabled, STATE.depth)))
        t.start()
        t.join()
        assert not STATE.enabled
    assert seen == [(True, 0)]
