"""``mindspore.dataset`` in memory and in one process: sources, pipeline ops, iterators, transforms.

Supported: ``NumpySlicesDataset``, ``GeneratorDataset`` (generator functions, random-access and iterable
sources), ``MnistDataset`` and ``Cifar10Dataset`` (standard files in a local directory; never downloaded),
``ImageFolderDataset``, ``MindDataset`` (MindRecord files, see ``mskernel.mindrecord``);
``batch`` (``drop_remainder``, ``per_batch_map``), ``shuffle`` (seeded by ``dataset.config.set_seed``),
``map`` (callables and ``transforms``/``vision`` operations), ``filter``, ``repeat``, ``take``, ``skip``, ``zip``,
``concat``/``+``, ``project``, ``rename``; ``create_tuple_iterator``/``create_dict_iterator``
(``num_epochs``, ``output_numpy``), ``get_dataset_size``, ``get_col_names``, ``output_shapes``,
``output_types``. ``num_parallel_workers`` and ``python_multiprocessing`` are accepted; everything runs in
this process.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32), "y": np.arange(6) % 2}, shuffle=False)
    >>> for x, y in data.batch(4).create_tuple_iterator():
    ...     print(x, y)
    [0. 1. 2. 3.] [0 1 0 1]
    [4. 5.] [0 1]
"""
from mskernel.dataset import config, transforms, vision
from mskernel.dataset.engine import Dataset, DictIterator, TupleIterator
from mskernel.dataset.image_folder import ImageFolderDataset
from mskernel.dataset.mind_dataset import MindDataset, Shuffle
from mskernel.dataset.ops import ZipDataset
from mskernel.dataset.sources import Cifar10Dataset, GeneratorDataset, MnistDataset, NumpySlicesDataset
from mskernel.dataset.file_sources import (CSVDataset, Cifar100Dataset, EMnistDataset, FashionMnistDataset,
                                           KMnistDataset, QMnistDataset, TextFileDataset)
from mskernel.dataset.callbacks import DSCallback, WaitedDSCallback
from mskernel.dataset.schema import Schema
from mskernel.dataset.serializer import deserialize, serialize, show
from mskernel.dataset.synthetic import FakeImageDataset, PaddedDataset, RandomDataset, compare
from mskernel.dataset.detection_corpora import CocoDataset, KITTIDataset, VOCDataset, WIDERFaceDataset
from mskernel.dataset.text_corpora import (AGNewsDataset, AmazonReviewDataset, DBpediaDataset, IMDBDataset,
                                           SogouNewsDataset, SQuADDataset, YahooAnswersDataset, YelpReviewDataset)
from mskernel.dataset.vision_corpora import (Caltech101Dataset, Caltech256Dataset, CelebADataset, Flowers102Dataset,
                                             STL10Dataset, SVHNDataset)
from mskernel.dataset.audio_corpora import (CMUArcticDataset, LibriTTSDataset, LJSpeechDataset, SpeechCommandsDataset,
                                            YesNoDataset)
from mskernel.dataset.tfrecord import TFRecordDataset
from mskernel.dataset.text_line_corpora import (CoNLL2000Dataset, EnWik9Dataset, Multi30kDataset,
                                                PennTreebankDataset, SST2Dataset, UDPOSDataset, WikiTextDataset)
from mskernel.dataset.image_corpora import (CityscapesDataset, DIV2KDataset, FlickrDataset, Food101Dataset,
                                            ManifestDataset, OmniglotDataset, Places365Dataset, RenderedSST2Dataset,
                                            SBUDataset, SemeionDataset, SUN397Dataset)
from mskernel.dataset.samplers import (DistributedSampler, PKSampler, RandomSampler, Sampler, SequentialSampler,
                                       SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)


from mskernel.refusals import refused_names as _refused_names  # noqa: E402

globals().update(_refused_names("mindspore.dataset"))  # refused with their reason (mskernel.refusals)


def zip(datasets):  # noqa: A001 (MindSpore's name)
    """Rows of several datasets side by side (MindSpore's ``dataset.zip``).

    Example:
        >>> from mskernel import dataset as ds
        >>> ds.zip((ds.NumpySlicesDataset({"a": [1]}), ds.NumpySlicesDataset({"b": [2]}))).get_col_names()
        ['a', 'b']
    """
    return ZipDataset(list(datasets))


__all__ = ["config", "transforms", "vision", "Dataset", "DictIterator", "TupleIterator", "NumpySlicesDataset",
           "GeneratorDataset", "MnistDataset", "Cifar10Dataset", "ImageFolderDataset", "MindDataset", "Shuffle", "zip",
           "CSVDataset", "Cifar100Dataset", "EMnistDataset", "FashionMnistDataset", "KMnistDataset", "QMnistDataset",
           "TextFileDataset", "Sampler", "DistributedSampler", "PKSampler", "RandomSampler", "SequentialSampler",
           "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler", "Schema", "FakeImageDataset",
           "PaddedDataset", "RandomDataset", "compare", "DSCallback", "WaitedDSCallback", "serialize", "deserialize",
           "show", "VOCDataset", "CocoDataset", "IMDBDataset", "AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset",
           "SogouNewsDataset", "YahooAnswersDataset", "YelpReviewDataset",
           "CelebADataset", "SVHNDataset", "STL10Dataset", "Caltech256Dataset", "YesNoDataset", "LJSpeechDataset",
           "SpeechCommandsDataset", "TFRecordDataset", "PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset",
           "Multi30kDataset", "SST2Dataset", "CoNLL2000Dataset", "UDPOSDataset", "Food101Dataset", "SUN397Dataset",
           "OmniglotDataset", "RenderedSST2Dataset", "SBUDataset", "ManifestDataset", "SemeionDataset",
           "Caltech101Dataset", "Flowers102Dataset", "CMUArcticDataset", "LibriTTSDataset", "SQuADDataset",
           "FlickrDataset", "DIV2KDataset", "WIDERFaceDataset", "KITTIDataset", "Places365Dataset",
           "CityscapesDataset"]
