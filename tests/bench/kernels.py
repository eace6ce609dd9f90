"""Hybrid kernels whose loads, stores and flops are known by hand (tests/bench)."""
from mskernel.hybrid import HybridKernel


def _k(src: str) -> HybridKernel:
    return HybridKernel.from_source(src, filename="<tests/bench>")


SQ = _k("def sq(x):\n    y = output_tensor(x.shape, x.dtype)\n"
        "    for i in range(x.shape[0]):\n        y[i] = x[i] * x[i]\n    return y\n")
AXPY = _k("def axpy(x, y, a):\n    out = output_tensor(x.shape, x.dtype)\n"
          "    for i in range(x.shape[0]):\n        out[i] = a * x[i] + y[i]\n    return out\n")
GRID_SQ = _k("def gsq(x):\n    y = output_tensor(x.shape, x.dtype)\n"
             "    for i, j in grid(x.shape):\n        y[i, j] = x[i, j] * x[i, j] + 1.0\n    return y\n")
MATMUL = _k("def mm(a, b):\n    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)\n"
            "    for i in range(a.shape[0]):\n        for j in range(b.shape[1]):\n"
            "            for k in range(a.shape[1]):\n                c[i, j] = c[i, j] + a[i, k] * b[k, j]\n"
            "    return c\n")
TRIANGLE = _k("def tri(x):\n    y = output_tensor(x.shape, x.dtype)\n"
              "    for i in range(x.shape[0]):\n        for j in range(i):\n            y[i] = y[i] + x[j]\n"
              "    return y\n")
STRIDED = _k("def odd(x):\n    y = output_tensor((x.shape[0] // 2,), x.dtype)\n"
             "    for i in range(x.shape[0] // 2):\n        y[i] = x[2 * i + 1]\n    return y\n")
RELU_BRANCH = _k("def relu(x):\n    y = output_tensor(x.shape, x.dtype)\n"
                 "    for i in range(x.shape[0]):\n        if x[i] > 0.0:\n            y[i] = x[i] * 2.0\n"
                 "    return y\n")
ROWSUM_TEMP = _k("def rowsum(x):\n    y = output_tensor((x.shape[0],), x.dtype)\n"
                 "    acc = allocate((1,), x.dtype)\n"
                 "    for i in range(x.shape[0]):\n        acc[0] = 0.0\n"
                 "        for j in range(x.shape[1]):\n            acc[0] = acc[0] + x[i, j]\n"
                 "        y[i] = sqrt(acc[0])\n    return y\n")
ROWSUM_REDUCE = _k("def rowsum_r(x):\n    y = output_tensor((x.shape[0],), x.dtype)\n"
                   "    for i in range(x.shape[0]):\n        y[i] = 0.0\n"
                   "        for j in reduce(x.shape[1]):\n            y[i] = y[i] + x[i, j]\n    return y\n")
ROWSUM_RANGE = _k("def rowsum_s(x):\n    y = output_tensor((x.shape[0],), x.dtype)\n"
                  "    for i in range(x.shape[0]):\n        y[i] = 0.0\n"
                  "        for j in range(x.shape[1]):\n            y[i] = y[i] + x[i, j]\n    return y\n")
