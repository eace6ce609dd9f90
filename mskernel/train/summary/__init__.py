"""MindSpore's ``mindspore.train.summary``: ``SummaryRecord`` writes scalars, tensors, images and histograms to a
summary file MindInsight reads.

* :mod:`~mskernel.train.summary.event_file` — the file's framing and its ``Event`` protobuf;
* :mod:`~mskernel.train.summary.values` — how each plugin's value is stored;
* :mod:`~mskernel.train.summary.summary_record` — ``SummaryRecord``.

Example:
    >>> from mskernel.train import summary
    >>> summary.__all__
    ['SummaryRecord']
"""
from mskernel.train.summary import event_file, summary_record, values
from mskernel.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
_ = (event_file, values)
