"""A layer's gradients (its input's and every parameter's) against float64 central differences of its loss,
taken with the perturbed arrays put in place (tests/central_differences.py): an oracle that shares no code with
the engine's backward. Used by the recurrent and transformer layer tests."""
from __future__ import annotations

import numpy as np

import mskernel as ms
from central_differences import gradient


def check_against_differences(net, x: np.ndarray, loss) -> None:
    """The engine's gradients of ``loss`` for the input and every parameter, against float64 central differences
    of the same loss evaluated with the perturbed arrays put in place."""
    params = net.trainable_params()
    gx, gps = ms.grad(loss, 0, params)(ms.Tensor(x))

    def value(arrays):
        for p in params:
            p.set_data(ms.Tensor(arrays[p.name]))
        return float(loss(ms.Tensor(arrays["x"])).asnumpy())
    point = {"x": x, **{p.name: p.asnumpy().copy() for p in params}}
    want = gradient(value, point)
    np.testing.assert_allclose(gx.asnumpy(), want["x"], rtol=1e-6, atol=1e-8)
    for p, g in zip(params, gps):
        np.testing.assert_allclose(g.asnumpy(), want[p.name], rtol=1e-6, atol=1e-8, err_msg=p.name)
