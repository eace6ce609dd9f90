"""Record golden suites inside a MindSpore cluster of one worker (for cases that call ``init()``).

    python tests/golden/record_one_worker.py distributed_more

The CPU wheel's ``communication.init()`` joins a cluster that a scheduler process runs (``msrun`` starts both);
without one it raises. This starts the scheduler (``MS_ROLE=MS_SCHED``) with the wheel's interpreter on a free
local port, then runs ``record.py`` with the worker's environment (``MS_ROLE=MS_WORKER``, ``MS_WORKER_NUM=1``),
so that ``init()`` in a case makes the recorder rank 0 of a group of one, as mskernel always is.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(suites: list) -> int:
    sys.path.insert(0, str(HERE))
    from record import ensure_venv

    py = ensure_venv()
    env = dict(os.environ, MS_WORKER_NUM="1", MS_SCHED_HOST="127.0.0.1", MS_SCHED_PORT=str(_free_port()))
    sched = subprocess.Popen([str(py), "-c", "from mindspore.communication import init; init()"],
                             env=dict(env, MS_ROLE="MS_SCHED"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return subprocess.run([sys.executable, str(HERE / "record.py"), *suites],
                              env=dict(env, MS_ROLE="MS_WORKER")).returncode
    finally:
        sched.terminate()
        sched.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
