"""One training step of a LeNet-sized network: mskernel against torch eager on the CPU, and where the time goes.

Run: ``python benchmarks/train_step.py`` (torch columns need ``pip install torch==2.13.0``; never a
dependency). The same network (conv 1->6 5x5, relu, maxpool 2; conv 6->16 5x5, relu, maxpool 2;
dense 256->120->84->10), the same batch (32 x 1 x 28 x 28) and plain SGD with momentum, one thread
each. Prints the median step time ratio and mskernel's time per op kind (forward and backward, from a
profile of the step), so a slow op is named. Quote ratios: the machines are shared and noisy.
"""
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # one thread each, as torch below
    os.environ.setdefault(_var, "1")

import cProfile  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Callable, List  # noqa: E402

import numpy as np  # noqa: E402

import mskernel as ms  # noqa: E402
from mskernel import nn  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except Exception:  # torch is optional (a comparison only)
    torch = None

BATCH = 32


class LeNet(nn.Cell):
    """LeNet-5 as MindSpore's tutorials write it."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _times(step: Callable[[], object], n: int = 20) -> List[float]:
    for _ in range(3):
        step()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        step()
        out.append(time.perf_counter() - t0)
    return out


def mskernel_step() -> Callable[[], object]:
    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((BATCH, 1, 28, 28)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, BATCH).astype(np.int32))

    def forward(a, b):
        return loss_fn(net(a), b)
    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    def step():
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    return step


def torch_step() -> Callable[[], object]:
    tnn = torch.nn
    net = tnn.Sequential(tnn.Conv2d(1, 6, 5), tnn.ReLU(), tnn.MaxPool2d(2), tnn.Conv2d(6, 16, 5), tnn.ReLU(),
                         tnn.MaxPool2d(2), tnn.Flatten(), tnn.Linear(256, 120), tnn.ReLU(), tnn.Linear(120, 84),
                         tnn.ReLU(), tnn.Linear(84, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((BATCH, 1, 28, 28)).astype(np.float32))
    y = torch.tensor(rng.integers(0, 10, BATCH).astype(np.int64))
    loss_fn = tnn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


def where_the_time_goes(step: Callable[[], object], top: int = 12) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(5):
        step()
    prof.disable()
    stats = pstats.Stats(prof)
    rows = sorted(((v[3], f"{k[2]} ({k[0].rsplit('/', 1)[-1]}:{k[1]})") for k, v in stats.stats.items()),
                  reverse=True)
    total = max(v for v, _ in rows)
    print("\nmskernel: cumulative time per function over 5 steps (share of the whole step):")
    seen = 0
    for cum, name in rows:
        if "mskernel" in name or "numpy" in name or "train_step" in name:
            print(f"  {cum / total:6.1%}  {name}")
            seen += 1
        if seen >= top:
            break


def main() -> None:
    ms_t = statistics.median(_times(mskernel_step()))
    print(f"{'framework':12} {'median step':>12}  ratio")
    if torch is not None:
        th_t = statistics.median(_times(torch_step()))
        print(f"{'torch':12} {th_t * 1e3:10.2f}ms  1.00x")
        print(f"{'mskernel':12} {ms_t * 1e3:10.2f}ms  {ms_t / th_t:.2f}x")
    else:
        print(f"{'mskernel':12} {ms_t * 1e3:10.2f}ms  (torch not installed)")
    where_the_time_goes(mskernel_step())


if __name__ == "__main__":
    main()
