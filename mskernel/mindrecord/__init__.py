"""``mindspore.mindrecord``: MindRecord files written and read in MindSpore's own format.

``FileWriter`` writes files MindSpore 2.10 reads (byte for byte the data files its writer makes, with the same
SQLite ``.db`` index); ``mindspore.dataset.MindDataset`` (``mskernel.dataset.MindDataset``) reads them and the
wheel's. The format is described in ``mskernel.mindrecord.shard``. The exceptions are MindSpore's classes with
its messages; ``SUCCESS``/``FAILED`` are its status values. Not here: ``FileReader``, ``MindPage``,
``open_for_append``, the ``*ToMR`` converters and encryption (``set_enc_key``).

Example:
    >>> import os, tempfile
    >>> import numpy as np
    >>> from mskernel.dataset import MindDataset
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.mindrecord")
    >>> writer = FileWriter(path, overwrite=True)
    >>> writer.add_schema({"label": {"type": "int64"}, "pixels": {"type": "int32", "shape": [2, 2]}}, "toy")
    >>> writer.write_raw_data([{"label": 7, "pixels": np.arange(4, dtype=np.int32).reshape(2, 2)}])
    >>> writer.commit()
    >>> for row in MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True):
    ...     print(row["label"], row["pixels"].tolist())
    7 [[0, 1], [2, 3]]
"""
from mskernel.mindrecord.errors import *  # noqa: F403 (MindSpore exports every error class here)
from mskernel.mindrecord.errors import __all__ as _errors
from mskernel.mindrecord.writer import FileWriter

SUCCESS = "SUCCESS"
FAILED = "FAILED"

__all__ = ["FileWriter", "SUCCESS", "FAILED", *_errors]
