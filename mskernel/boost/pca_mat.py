"""The PCA subspace ``DimReduce`` trains in: from weights saved as checkpoints, split between ranks.

``AutoBoost``'s ``dim_reduce`` boost reads every ``.ckpt`` in ``weight_load_dir`` (one row per file: the
network's trainable parameters flattened), centres the rows and keeps the first ``n_components``
principal directions (a randomized SVD, drawing from numpy's global generator); or it loads them from
``pca_mat_path`` (a ``.npy``). Rank 0 of each ``device_number`` writes each rank's rows to
``<name>_rank_<r>.npy`` and marks the end with ``save_pca_end.txt``; every rank waits for that mark
(at most ``timeout`` seconds) and loads its rows.

Example:
    >>> import numpy as np
    >>> data = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    >>> np.round(np.abs(compute_pca_mat(data, 1, randomized=False)), 4)
    array([[0.7071, 0.7071]])
"""
from __future__ import annotations

import os
import re
import time
from typing import Any, Optional

import numpy as np
from scipy import linalg

__all__ = ["get_local_pca_mat_path", "compute_pca_mat", "load_local_pca_mat"]

_END_MARK = "save_pca_end.txt"


def get_local_pca_mat_path(weight_load_dir: Optional[str], pca_mat_path: Optional[str], n_component: int,
                           device_number: int, network: Any) -> str:
    """This rank's ``.npy`` of PCA rows, written (on the first rank of a device group) from ``pca_mat_path``
    or from the checkpoints in ``weight_load_dir``.

    Example:
        >>> get_local_pca_mat_path(None, None, 2, 1, None)
        Traceback (most recent call last):
        ...
        ValueError: The weight_load_dir: None is None / not exists / not directory.
    """
    from mskernel.communication import get_rank

    if pca_mat_path is not None and os.path.isfile(pca_mat_path) and pca_mat_path.endswith(".npy"):
        full_path, exists = pca_mat_path, True
    else:
        if weight_load_dir is None or not os.path.isdir(weight_load_dir):
            raise ValueError(f"The weight_load_dir: {weight_load_dir} is None / not exists / not directory.")
        full_path, exists = os.path.join(weight_load_dir, "pca_mat_temp.npy"), False
    end_mark = os.path.join(os.path.dirname(full_path), _END_MARK)
    if os.path.exists(end_mark):
        os.remove(end_mark)
    rank = get_rank()
    local_path = f"{full_path[:-4]}_rank_{rank}.npy"
    if os.path.exists(local_path):
        os.remove(local_path)
    if rank % device_number != 0:
        return local_path
    if exists:
        pca_mat = np.load(full_path)
    else:
        pca_mat = compute_pca_mat(_load_weights(weight_load_dir, network), n_component)
        np.save(full_path, pca_mat)
    _save_local_pca_mat(pca_mat, full_path, n_component)
    return local_path


def _load_weights(weight_load_dir: str, network: Any) -> np.ndarray:
    """One row per checkpoint in the directory: the network's trainable parameters, flattened, in file order."""
    from mskernel.train.serialization import load_checkpoint

    trainable = {p.name for p in network.trainable_params()}
    rows = []
    for file in os.listdir(weight_load_dir):
        if file.endswith(".ckpt"):
            saved = load_checkpoint(os.path.join(weight_load_dir, file))
            rows.append(np.concatenate([v.asnumpy().reshape(1, -1) for k, v in saved.items() if k in trainable],
                                       axis=1))
    return np.concatenate(rows, axis=0)


def compute_pca_mat(data: np.ndarray, n_component: int, randomized: bool = True) -> np.ndarray:
    """The first ``n_component`` principal directions of the rows of ``data`` (``n_component x features``),
    each signed so that its largest entry is positive.

    Example:
        >>> compute_pca_mat(np.zeros((1, 3)), 2)
        Traceback (most recent call last):
        ...
        ValueError: The samples: 1 is less than: n_component 2.
    """
    if data.shape[0] < n_component:
        raise ValueError(f"The samples: {data.shape[0]} is less than: n_component {n_component}.")
    centred = data - data.mean(axis=0)
    if not randomized:
        _, _, vt = linalg.svd(centred, full_matrices=False)
        return _signed(vt[:n_component])
    # randomized range finder: a Gaussian sketch, one LU-normalised power iteration, then QR
    sketch = centred.T if centred.shape[0] < centred.shape[1] else centred
    q = np.random.normal(size=(sketch.shape[1], n_component + 10))
    q, _ = linalg.lu(sketch @ q, permute_l=True)
    q, _ = linalg.lu(sketch.T @ q, permute_l=True)
    q, _ = linalg.qr(sketch @ q, mode="economic")
    u_small, _, vt = linalg.svd(q.T @ sketch, full_matrices=False)
    if sketch is centred:
        return _signed(vt[:n_component])
    return _signed((q @ u_small)[:, :n_component].T)


def _signed(rows: np.ndarray) -> np.ndarray:
    peak = np.argmax(np.abs(rows), axis=1)
    return rows * np.sign(rows[np.arange(rows.shape[0]), peak])[:, None]


def _check_path(path: str) -> None:
    if re.search(r"[^_A-Za-z0-9/.-]", path):
        raise ValueError("Input path contains invalid characters.")
    if os.path.islink(os.path.abspath(os.path.expanduser(path))):
        raise ValueError(f"The value of the path cannot be soft link: {path}.")


def _save_local_pca_mat(pca_mat: np.ndarray, full_path: str, n_component: int) -> None:
    from mskernel.communication import get_group_size

    _check_path(full_path)
    rank_size = get_group_size()
    local_dim = n_component // rank_size
    for rank_id in range(rank_size):
        start, end = min(n_component, rank_id * local_dim), min(n_component, (rank_id + 1) * local_dim)
        local = np.zeros([local_dim, pca_mat.shape[1]])
        local[:end - start] = pca_mat[start:end]
        np.save(f"{full_path[:-4]}_rank_{rank_id}.npy", local)
    open(os.path.join(os.path.dirname(full_path), _END_MARK), "w").close()


def load_local_pca_mat(local_pca_mat_path: str, timeout: float) -> np.ndarray:
    """This rank's rows, once the writer has marked them complete (RuntimeError after ``timeout`` seconds).

    Example:
        >>> load_local_pca_mat("/nonexistent/x_rank_0.npy", 0)
        Traceback (most recent call last):
        ...
        RuntimeError: the time of waiting to load local pca mat is larger than 0 second.
    """
    end_mark = os.path.join(os.path.dirname(local_pca_mat_path), _END_MARK)
    start = time.time()
    while not os.path.exists(end_mark):
        if time.time() - start >= timeout:
            raise RuntimeError(f"the time of waiting to load local pca mat is larger than {timeout} second.")
        time.sleep(min(5.0, max(0.0, timeout - (time.time() - start))))
    return np.load(local_pca_mat_path)
