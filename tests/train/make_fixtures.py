"""Checkpoint fixtures written by real MindSpore, and the check that MindSpore reads mskernel's files.

Run with the MindSpore 2.10 wheel's interpreter (see tests/golden/record.py for its virtual environment):

    $MSKERNEL_MS_VENV/bin/python tests/train/make_fixtures.py             # writes fixtures/ms.{ckpt,safetensors}
    python tests/train/make_fixtures.py --mskernel DIR                   # mskernel writes DIR/mk.{ckpt,safetensors}
    $MSKERNEL_MS_VENV/bin/python tests/train/make_fixtures.py --check DIR  # MindSpore loads and checks them

The fixtures hold a Float32 matrix, a Float16 vector, an Int32 vector and an append_dict (int, float, str).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
VALUES = {"layer.weight": np.arange(6, dtype=np.float32).reshape(2, 3) / 4,
          "layer.bias": np.array([0.5, -1.5], np.float16),
          "steps": np.array([3, 1, 4], np.int32)}
APPEND = {"epoch_num": 7, "lr": 0.125, "note": "mindspore"}


def write(ms, out_dir: str, prefix: str) -> None:
    params = [{"name": k, "data": ms.Tensor(v)} for k, v in VALUES.items()]
    ms.save_checkpoint(params, os.path.join(out_dir, f"{prefix}.ckpt"), append_dict=APPEND)
    ms.save_checkpoint(params, os.path.join(out_dir, prefix), format="safetensors")


def check(ms, in_dir: str, prefix: str) -> None:
    for name, fmt in ((f"{prefix}.ckpt", "ckpt"), (f"{prefix}.safetensors", "safetensors")):
        loaded = ms.load_checkpoint(os.path.join(in_dir, name), format=fmt)
        for k, v in VALUES.items():
            got = loaded[k].asnumpy()
            assert got.dtype == v.dtype and np.array_equal(got, v), (name, k, got)
        if fmt == "ckpt":
            assert int(loaded["epoch_num"].asnumpy()) == 7 and float(loaded["lr"].asnumpy()) == 0.125
            assert loaded["note"] == "mindspore", loaded["note"]
        print(f"{ms.__name__} {ms.__version__} read {name}: {sorted(loaded)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", help="load mk.* files from this directory with the running framework")
    ap.add_argument("--mskernel", help="write mk.* files into this directory with mskernel")
    args = ap.parse_args()
    if args.mskernel:
        import mskernel
        write(mskernel, args.mskernel, "mk")
        check(mskernel, args.mskernel, "mk")
        return
    import mindspore
    if args.check:
        check(mindspore, args.check, "mk")
        return
    for name in ("ms.ckpt", "ms.safetensors"):
        path = os.path.join(HERE, "fixtures", name)
        if os.path.exists(path):
            os.chmod(path, 0o600)
            os.remove(path)
    write(mindspore, os.path.join(HERE, "fixtures"), "ms")
    check(mindspore, os.path.join(HERE, "fixtures"), "ms")


if __name__ == "__main__":
    sys.exit(main())
