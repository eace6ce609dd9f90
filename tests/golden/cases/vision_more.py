"""mindspore.dataset.vision beyond the basics (mskernel/dataset/vision/*.py): colour, geometry, conversion,
erasing/mixing, bounding boxes, codecs; the random ones at fixed probabilities, their shapes and dtypes.
"""
_V = ("import mindspore.dataset as ds\nimport mindspore.dataset.vision as V\n"
      "rng = np.random.default_rng(0)\nimg = rng.integers(0, 256, (6, 7, 3)).astype(np.uint8)\n"
      "img2 = (np.arange(4 * 5 * 3) * 7 % 256).astype(np.uint8).reshape(4, 5, 3)\n")


def _ops(*calls: str) -> str:
    return _V + "result = [" + ", ".join(calls) + "]"


def _shapes(*calls: str) -> str:
    return _V + "outs = [" + ", ".join(calls) + "]\nresult = [(np.asarray(o).shape, str(np.asarray(o).dtype)) for o in outs]"


CASES = {
    "brightness": _ops("V.AdjustBrightness(1.5)(img)", "V.AdjustBrightness(0.7)(img)", "V.AdjustBrightness(2.666)(img2.astype(np.float32) / 255)"),
    "contrast": _ops("V.AdjustContrast(1.5)(img)", "V.AdjustContrast(0.5)(img2)", "V.AdjustContrast(0.0)(img)"),
    "saturation": _ops("V.AdjustSaturation(1.5)(img)", "V.AdjustSaturation(0.7)(img2)"),
    "gamma": _ops("V.AdjustGamma(0.5, 1.2)(img)", "V.AdjustGamma(2.2, 0.9)(img2)", "V.AdjustGamma(2.0)(img.astype(np.float32) / 255)", "V.AdjustGamma(0.5, 1.2)(img.astype(np.float32) / 255)"),
    "sharpness": _ops("V.AdjustSharpness(2.0)(img)", "V.AdjustSharpness(0.0)(img2)", "V.AdjustSharpness(2.0)(img[..., 0])"),
    "hue_shape": _shapes("V.AdjustHue(0.2)(img)", "V.AdjustHue(-0.5)(img2)"),
    "autocontrast": _ops("V.AutoContrast()(img)", "V.AutoContrast()(img2)", "V.AutoContrast(10.0)(img)", "V.AutoContrast(ignore=[0, 255])(img2)"),
    "equalize": _ops("V.Equalize()(img)", "V.Equalize()(img2)", "V.Equalize()(img[..., 0])"),
    "invert_posterize_solarize": _ops("V.Invert()(img)", "V.Posterize(3)(img)", "V.Posterize(0)(img2)", "V.Solarize(100)(img)", "V.Solarize((50, 100))(img)"),
    "convert_color": _ops("V.ConvertColor(V.ConvertMode.COLOR_RGB2GRAY)(img)", "V.ConvertColor(V.ConvertMode.COLOR_RGB2BGR)(img2)", "V.ConvertColor(V.ConvertMode.COLOR_RGB2RGBA)(img2)", "V.ConvertColor(V.ConvertMode.COLOR_BGR2GRAY)(img)", "V.ConvertColor(V.ConvertMode.COLOR_GRAY2RGB)(img[..., 0])"),
    "rgb_hsv": _ops("V.RgbToHsv()(np.transpose(img.astype(np.float32) / 255, (2, 0, 1)))", "V.HsvToRgb(is_hwc=True)(V.RgbToHsv(is_hwc=True)(img2 / 255.0))", "V.RgbToHsv(is_hwc=True)(img2 / 255.0).dtype.name"),
    "rgb_hsv_error": _V + "result = V.RgbToHsv()(img)",
    "gaussian_blur": _ops("V.GaussianBlur(3, 1.0)(img)", "V.GaussianBlur((5, 3), (1.5, 0.7))(img)", "V.GaussianBlur(3)(img2)"),
    "grayscale_pil": _V + "from PIL import Image\nresult = [np.array(V.Grayscale(3)(Image.fromarray(img))), np.array(V.Grayscale()(Image.fromarray(img)))]",
    "grayscale_numpy_error": _V + "result = V.Grayscale(3)(img)",
    "crop_flip": _ops("V.Crop((1, 2), (3, 4))(img)", "V.Crop((0, 0), 1)(img2)", "V.HorizontalFlip()(img)", "V.VerticalFlip()(img)"),
    "pad": _ops("V.Pad([1, 2, 3, 4], 5)(img2)", "V.Pad([1, 2], padding_mode=V.Border.REFLECT)(img2)", "V.Pad(2, padding_mode=V.Border.EDGE)(img2)", "V.Pad(1, padding_mode=V.Border.SYMMETRIC)(img2)", "V.Pad(1, (1, 2, 3))(img2)"),
    "pad_to_size": _ops("V.PadToSize((9, 10))(img)", "V.PadToSize((9, 10), offset=(1, 2))(img)", "V.PadToSize((9, 10), offset=3)(img)", "V.PadToSize(8, fill_value=7)(img2)"),
    "rotate": _ops("V.Rotate(90)(img)", "V.Rotate(30)(img2)", "V.Rotate(-45)(img)", "V.Rotate(90, expand=True)(img)", "V.Rotate(180)(img)"),
    "rotate_expand_shape": _shapes("V.Rotate(30, expand=True)(img2)", "V.Rotate(10, expand=True)(img2)", "V.Rotate(60, expand=True)(np.zeros((30, 50, 3), np.uint8))", "V.Rotate(45, expand=True)(np.zeros((100, 100, 3), np.uint8))", "V.Rotate(20, expand=True)(np.zeros((30, 50, 3), np.uint8))"),
    "affine_translate_rotate": _ops("V.Affine(0, [0, 0], 1.0, [0, 0])(img)", "V.Affine(0, [1, 0], 1.0, [0, 0])(img2)", "V.Affine(0, [0.2, 0], 1.0, [0, 0])(np.arange(10, dtype=np.uint8).reshape(1, 10))", "V.Affine(0, [0.25, 0.5], 1.0, [0, 0])(np.arange(1, 17, dtype=np.uint8).reshape(4, 4))", "V.Affine(20, [0, 0], 1.0, [0, 0])(np.arange(1, 26, dtype=np.uint8).reshape(5, 5))"),
    "perspective_pil_error": _V + "result = V.RandomPerspective(prob=1.0)(img)",
    "affine_shape": _shapes("V.Affine(10, [1, 0], 1.0, [0, 0])(img2)", "V.Affine(30, [0.5, 0.5], 1.2, [10, 5])(img)"),
    "perspective_shape": _shapes("V.Perspective([[0, 0], [6, 0], [6, 5], [0, 5]], [[1, 1], [5, 0], [6, 4], [0, 5]])(img)"),
    "resized_crop": _ops("V.ResizedCrop(1, 1, 4, 4, (2, 2), V.Inter.NEAREST)(img)", "V.ResizedCrop(0, 0, 4, 5, (4, 5))(img2)"),
    "five_ten_crop": _V + "from PIL import Image\np = Image.fromarray(img)\nresult = ([np.array(c) for c in V.FiveCrop(3)(p)], [np.array(c) for c in V.TenCrop((2, 3))(p)], [np.array(c) for c in V.TenCrop(3, True)(p)][5:])",
    "slice_patches": _V + "result = [list(V.SlicePatches(2, 3)(img)), list(V.SlicePatches(4, 3, V.SliceMode.DROP)(img)), list(V.SlicePatches(1, 2, fill_value=9)(img2))]",
    "to_type_numpy_pil": _V + "from PIL import Image\nresult = [V.ToType(np.float32)(np.array([2.71606445312564e-03, 6.3476562564e-03])), V.ToNumpy()(Image.fromarray(img)), np.array(V.ToPIL()(img)), V.ToPIL()(img).mode, V.ToType(ms.int16)(img2).dtype.name]",
    "normalize_pad": _ops("V.NormalizePad([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])(img2)", "V.NormalizePad([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], 'float16')(img2)", "V.NormalizePad([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], is_hwc=False)(np.transpose(img2, (2, 0, 1)))"),
    "linear_transformation": _V + "x = (np.arange(12) / 12.0).reshape(3, 2, 2)\nm = np.arange(144).reshape(12, 12) / 100.0\nresult = V.LinearTransformation(m, np.full(12, 0.1))(x)",
    "erase": _ops("V.Erase(1, 2, 3, 4, 9)(img)", "V.Erase(0, 0, 2, 2, (1, 2, 3))(img2)"),
    "random_fixed_probability": _ops("V.RandomInvert(1.0)(img)", "V.RandomInvert(0.0)(img)", "V.RandomEqualize(1.0)(img2)", "V.RandomAutoContrast(prob=1.0)(img)", "V.RandomAdjustSharpness(2.0, 1.0)(img)", "V.RandomAdjustSharpness(2.0, 0.0)(img)", "V.RandomErasing(prob=0.0)(np.transpose(img, (2, 0, 1)))"),
    "random_fixed_ranges": _ops("V.RandomColor((1.5, 1.5))(img)", "V.RandomSharpness((2.0, 2.0))(img)", "V.RandomPosterize((3, 3))(img)", "V.RandomRotation((90, 90))(img)", "V.RandomColorAdjust()(img)", "V.RandomColorAdjust(brightness=(1.5, 1.5))(img)"),
    "random_shapes": "from PIL import Image\n" + _shapes("V.RandomResizedCrop((5, 6))(img)", "V.RandomResize((3, 4))(img)", "V.RandomRotation(30, expand=False)(img)", "V.RandomAffine(10, (0.1, 0.1), (0.9, 1.1))(img)", "V.RandomPerspective(prob=1.0)(Image.fromarray(img))", "V.RandomLighting()(img)", "V.RandomSolarize()(img)", "V.RandomColor()(img)", "V.RandomSharpness()(img)", "V.CutOut(2, 3)(img)", "V.RandomErasing(prob=1.0)(np.transpose(img, (2, 0, 1)))"),
    "augment_shapes": _shapes("V.AutoAugment()(img)", "V.RandAugment()(img)", "V.TrivialAugmentWide()(img)", "V.UniformAugment([V.Invert(), V.Equalize()])(img)", "V.RandomSelectSubpolicy([[(V.Invert(), 1.0)]])(img)", "V.AutoAugment(V.AutoAugmentPolicy.CIFAR10)(img)"),
    "select_subpolicy_fixed": _ops("V.RandomSelectSubpolicy([[(V.Invert(), 1.0), (V.Posterize(3), 1.0)]])(img)", "V.RandomSelectSubpolicy([[(V.Invert(), 0.0)]])(img)"),
    "mix_shapes": _V + ("imgs = rng.integers(0, 255, (3, 3, 10, 10)).astype(np.uint8)\nlabel = np.array([[0, 1], [1, 0], [1, 0]])\n"
                        "a = V.CutMixBatch(V.ImageBatchFormat.NCHW, 1.0, 1.0)(imgs, label)\nb = V.MixUpBatch(1.0)(np.transpose(imgs, (0, 2, 3, 1)), label)\n"
                        "c = V.MixUp(batch_size=2, alpha=0.2, is_single=False)(img, np.array([[0, 1]]))\n"
                        "d = V.CutMixBatch(V.ImageBatchFormat.NHWC, 1.0, 0.0)(np.transpose(imgs, (0, 2, 3, 1)), label)\n"
                        "result = [(x.shape, str(x.dtype)) for x in (*a, *b, *c)] + [d[0], d[1]]"),
    "mix_label_rows_sum_to_one": _V + ("imgs = rng.integers(0, 255, (4, 6, 6, 3)).astype(np.uint8)\nlabel = np.eye(4, dtype=np.int64)\n"
                                       "result = [np.round(V.CutMixBatch(V.ImageBatchFormat.NHWC)(imgs, label)[1].sum(1), 5), np.round(V.MixUpBatch()(imgs, label)[1].sum(1), 5)]"),
    "bbox": _V + ("f = img.astype(np.float32)\nbox = np.array([[1, 1, 3, 2]], np.float32)\n"
                  "result = [V.ResizeWithBBox((3, 14))(f, box.copy()), V.RandomHorizontalFlipWithBBox(1.0)(f, box.copy()), V.RandomVerticalFlipWithBBox(1.0)(f, box.copy()), "
                  "V.RandomHorizontalFlipWithBBox(0.0)(f, box.copy()), V.RandomCropWithBBox((6, 7))(f, box.copy()), V.ResizeWithBBox(3, V.Inter.NEAREST)(f, box.copy())]"),
    "bbox_shapes": _V + ("f = img.astype(np.float32)\nbox = np.array([[0, 0, 7, 6]], np.float32)\n"
                         "outs = [V.RandomResizeWithBBox(4)(f, box.copy()), V.RandomResizedCropWithBBox((3, 3))(f, box.copy()), V.RandomCropWithBBox(4)(f, box.copy()), V.BoundingBoxAugment(V.Invert(), 1.0)(img, box.copy())]\n"
                         "result = [[(np.asarray(x).shape, str(np.asarray(x).dtype)) for x in o] for o in outs]"),
    "codecs": _V + ("import tempfile, os\nfrom PIL import Image\nimport io as _io\nd = tempfile.mkdtemp()\np = os.path.join(d, 'a.png')\n"
                    "V.write_png(p, img)\nq = os.path.join(d, 'b.bin')\nV.write_file(q, np.array([1, 2, 3], np.uint8))\n"
                    "j = V.encode_jpeg(img, 90)\n"
                    "result = [V.read_image(p), V.read_image(p, V.ImageReadMode.GRAYSCALE), V.read_file(q), V.encode_png(img)[:8], j[:2], np.asarray(Image.open(_io.BytesIO(j.tobytes()))).shape, "
                    "V.get_image_size(img), V.get_image_num_channels(img), V.get_image_num_channels(img[..., 0]), V.get_image_size(Image.fromarray(img))]"),
    "read_file_missing": _V + "result = V.read_file('/no/such/file')",
    "onehot_label_column": _V + "import mindspore.dataset.transforms as T\nresult = [T.OneHot(4)(np.array([[1], [3]])), T.OneHot(4)(np.array(2))]",
    "decode_to_pil": _V + ("import io as _io\nfrom PIL import Image\nbuf = _io.BytesIO()\nImage.fromarray(img).save(buf, 'PNG')\n"
                           "p = V.Decode(to_pil=True)(np.frombuffer(buf.getvalue(), np.uint8))\nresult = [type(p).__name__, p.size, p.mode, np.array(p), [np.array(c).shape for c in V.TenCrop(3)(p)]]"),
    "t_concatenate": _V + "import mindspore.dataset.transforms as T\nresult = [T.Concatenate(0, np.array([10, 20]), np.array([100]))(np.array([1, 2, 3])), T.Concatenate(0, np.array(['dw', 'df']), np.array(['dwsdf', 'df']))(np.array(['This', 'is'])), T.Concatenate(-1, None, np.array([1.5]))(np.array([1.0]))]",
    "t_concatenate_rank_error": _V + "import mindspore.dataset.transforms as T\nresult = T.Concatenate()(np.zeros((2, 2)))",
    "t_mask": _V + "import mindspore.dataset.transforms as T\nfrom mindspore.dataset.transforms import Relational as R\nx = np.array([1, 2, 3, 2])\nresult = [T.Mask(r, 2)(x) for r in (R.EQ, R.NE, R.GT, R.GE, R.LT, R.LE)] + [T.Mask(R.EQ, 2, ms.int32)(x), T.Mask(R.GT, 1.5)(np.array([1.0, 2.0]))]",
    "t_pad_end": _V + "import mindspore.dataset.transforms as T\nresult = [T.PadEnd([4], 9)(np.array([1, 2])), T.PadEnd([3, 3])(np.ones((2, 2), np.float32)), T.PadEnd([3], 'x')(np.array(['a'])), T.PadEnd([1])(np.array([1, 2, 3]))]",
    "t_slice": _V + "import mindspore.dataset.transforms as T\nx = np.arange(12).reshape(3, 4)\nresult = [T.Slice(slice(1, 3))(np.array([1, 2, 3])), T.Slice(1)(x), T.Slice([0, 2], slice(1, 4, 2))(x), T.Slice(None, 2)(x), T.Slice(Ellipsis, [3, 0])(x)]",
    "t_unique": _V + "import mindspore.dataset.transforms as T\nresult = [list(T.Unique()(np.array([[0, -1, -2, -1, 2], [2, -0, 2, 1, -3]]))), list(T.Unique()(np.array([[5.0, 3.0], [5.0, 1.0]])))]",
    "t_unique_rank_error": _V + "import mindspore.dataset.transforms as T\nresult = T.Unique()(np.array([5.0, 3.0, 5.0]))",
    "t_random_fixed": _V + "import mindspore.dataset.transforms as T\nx = np.array([1, 2])\nresult = [T.RandomApply([lambda a: a + 1, lambda a: a * 3], 1.0)(x), T.RandomApply([lambda a: a + 1], 0.0)(x), T.RandomChoice([lambda a: a * 2])(x), T.RandomOrder([lambda a: a + 1])(x), T.RandomOrder([lambda a: a + 1, lambda a: a * 2])(x).tolist() in ([3, 5], [4, 6])]",
    "t_random_pipeline": _V + "import mindspore.dataset.transforms as T\nd = ds.NumpySlicesDataset({'x': np.arange(4)}, shuffle=False).map(T.RandomChoice([T.TypeCast(ms.float32)]), 'x')\nresult = [r[0] for r in d.create_tuple_iterator(output_numpy=True)]",
    "pipeline_map": _V + ("imgs = rng.integers(0, 255, (2, 8, 8, 3)).astype(np.uint8)\n"
                          "d = ds.NumpySlicesDataset(imgs, ['image'], shuffle=False).map([V.Invert(), V.Posterize(4), V.Rotate(90), V.Crop((1, 1), 4)], 'image')\n"
                          "result = [r[0] for r in d.create_tuple_iterator(output_numpy=True)]"),
}
_F = ("import mindspore.dataset as ds\nimport os, tempfile, struct\nroot = tempfile.mkdtemp()\n"
      "def idx(path, arr, code=0x08):\n"
      "    with open(path, 'wb') as f:\n"
      "        f.write(bytes([0, 0, code, arr.ndim]) + b''.join(struct.pack('>I', d) for d in arr.shape))\n"
      "        f.write(arr.astype('>i4' if code == 0x0C else np.uint8).tobytes())\n"
      "imgs = (np.arange(5 * 28 * 28) % 251).astype(np.uint8).reshape(5, 28, 28)\nlabels = np.array([3, 1, 4, 1, 5], np.uint8)\n"
      "def mnist(prefix='', train='train', test='t10k', label_suffix='-labels-idx1-ubyte'):\n"
      "    idx(os.path.join(root, f'{prefix}{train}-images-idx3-ubyte'), imgs[:3])\n"
      "    idx(os.path.join(root, f'{prefix}{train}{label_suffix}'), labels[:3])\n"
      "    idx(os.path.join(root, f'{prefix}{test}-images-idx3-ubyte'), imgs[3:])\n"
      "    idx(os.path.join(root, f'{prefix}{test}{label_suffix}'), labels[3:])\n"
      "def rows(d, k=None):\n"
      "    return [[(v.shape, str(v.dtype), v.ravel()[:6].tolist(), v.ravel()[-3:].tolist()) for v in r] for r in d.create_tuple_iterator(output_numpy=True)]\n")
_S = _F + "d = lambda **kw: ds.NumpySlicesDataset({'v': np.arange(10) * 10}, **kw)\nget = lambda x: [int(r[0]) for r in x.create_tuple_iterator(output_numpy=True)]\n"
CASES.update({
    "sampler_deterministic": _S + "result = [get(d(sampler=ds.SequentialSampler(2, 3))), get(d(sampler=ds.SubsetSampler([4, 0, 2]))), get(d(sampler=ds.DistributedSampler(3, 1, shuffle=False))), get(d(sampler=ds.DistributedSampler(4, 3, shuffle=False))), get(d(sampler=ds.WeightedRandomSampler([0, 0, 1, 0, 0], 3))), get(d(sampler=[7, 1])), d(sampler=ds.SubsetSampler([1, 2])).get_dataset_size()]",
    "sampler_random_properties": _S + "ds.config.set_seed(3)\nresult = [sorted(get(d(sampler=ds.RandomSampler()))), len(get(d(sampler=ds.RandomSampler(num_samples=4)))), sorted(get(d(sampler=ds.SubsetRandomSampler([5, 1, 8])))), len(set(get(d(sampler=ds.DistributedSampler(2, 0))) + get(d(sampler=ds.DistributedSampler(2, 1))))), all(v in (0, 10) for v in get(d(sampler=ds.WeightedRandomSampler([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], 20)))), len(get(d(sampler=ds.RandomSampler(True, 25))))]",
    "sampler_with_shuffle_error": _S + "result = d(sampler=ds.SequentialSampler(), shuffle=False)",
    "sampler_with_num_samples_error": _S + "result = d(sampler=ds.SequentialSampler(), num_samples=4)",
    "sampler_generator": _S + "class Src:\n    def __getitem__(self, i):\n        return (np.array(i),)\n    def __len__(self):\n        return 6\nresult = [get(ds.GeneratorDataset(Src(), ['a'], sampler=ds.SubsetSampler([5, 0]))), get(ds.GeneratorDataset(Src(), ['a'], sampler=ds.DistributedSampler(4, 2, shuffle=False)))]",
    "sampler_pk_mnist": _F + "mnist()\nresult = [[int(r[1]) for r in ds.MnistDataset(root, sampler=ds.PKSampler(2)).create_tuple_iterator(output_numpy=True)], [int(r[1]) for r in ds.MnistDataset(root, sampler=ds.PKSampler(1)).create_tuple_iterator(output_numpy=True)]]",
    "fashion_kmnist": _F + "mnist()\nresult = [rows(ds.FashionMnistDataset(root, shuffle=False)), rows(ds.MnistDataset(root, shuffle=False)), rows(ds.KMnistDataset(root, usage='test', shuffle=False)), ds.FashionMnistDataset(root, usage='train').get_dataset_size(), ds.KMnistDataset(root).get_col_names()]",
    "emnist": _F + "mnist('emnist-mnist-', test='test')\nresult = [rows(ds.EMnistDataset(root, 'mnist', shuffle=False)), rows(ds.EMnistDataset(root, 'mnist', usage='test', shuffle=False))]",
    "qmnist": _F + ("mnist('qmnist-', test='test', label_suffix='-labels-idx2-int')\n"
                    "lab = np.arange(5 * 8).reshape(5, 8)\nidx(os.path.join(root, 'qmnist-train-labels-idx2-int'), lab[:3], 0x0C)\nidx(os.path.join(root, 'qmnist-test-labels-idx2-int'), lab[3:], 0x0C)\n"
                    "idx(os.path.join(root, 'xnist-images-idx3-ubyte'), imgs[:2])\nidx(os.path.join(root, 'xnist-labels-idx2-int'), lab[:2] + 100, 0x0C)\n"
                    "result = [rows(ds.QMnistDataset(root, shuffle=False)), rows(ds.QMnistDataset(root, 'test', compat=False, shuffle=False)), rows(ds.QMnistDataset(root, 'nist', shuffle=False))]"),
    "qmnist_missing_nist": _F + "mnist('qmnist-', test='test', label_suffix='-labels-idx2-int')\nresult = [r for r in ds.QMnistDataset(root).create_tuple_iterator(output_numpy=True)]",
    "cifar100": _F + ("rec = np.zeros((10000, 3074), np.uint8)\nrec[:, 0] = np.arange(10000) % 20\nrec[:, 1] = np.arange(10000) % 100\nrec[:3, 2:] = (np.arange(3 * 3072) % 253).reshape(3, 3072)\n"
                      "rec.tofile(os.path.join(root, 'test.bin'))\n"
                      "d = ds.Cifar100Dataset(root, usage='test', shuffle=False)\nresult = [d.get_col_names(), d.get_dataset_size(), rows(d.take(3)), rows(ds.Cifar100Dataset(root, usage='test', sampler=ds.SubsetSampler([9999, 5])))]"),
    "cifar100_short_file": _F + "np.zeros((3, 3074), np.uint8).tofile(os.path.join(root, 'test.bin'))\nresult = [r for r in ds.Cifar100Dataset(root, usage='test').create_tuple_iterator(output_numpy=True)]",
    "cifar100_missing": _F + "result = ds.Cifar100Dataset('/no/such/dir')",
    "text_file": _F + ("a = os.path.join(root, 'a.txt')\nb = os.path.join(root, 'b.txt')\nopen(a, 'w').write('hello world\\n\\nsecond line\\n')\nopen(b, 'w').write('third\\nfourth')\n"
                       "get = lambda d: [str(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]\n"
                       "result = [get(ds.TextFileDataset([a, b], shuffle=False)), get(ds.TextFileDataset([a, b], shuffle=False, num_parallel_workers=1)), get(ds.TextFileDataset(os.path.join(root, '*.txt'), shuffle=False)), get(ds.TextFileDataset(a, shuffle=False, num_samples=1)), ds.TextFileDataset(a, shuffle=False).get_col_names(), [str(r['text'].dtype) for r in ds.TextFileDataset(b, shuffle=False).create_dict_iterator(output_numpy=True)]]"),
    "text_file_missing": _F + "result = ds.TextFileDataset(['/no/such/file'])",
    "csv": _F + ("a = os.path.join(root, 'a.csv')\nopen(a, 'w').write('id,name,score\\n1,ann,2.5\\n2,,3\\n\\n3,bob,7\\n')\nz = os.path.join(root, 'z.csv')\nopen(z, 'w').write('id,name,score\\n8,q,1\\n9,r,2\\n')\n"
                 "get = lambda d: [[(r.item() if r.ndim == 0 else r.tolist(), str(r.dtype)) for r in row] for row in d.create_tuple_iterator(output_numpy=True)]\n"
                 "result = [get(ds.CSVDataset(a, column_defaults=[0, 'none', 1.5], shuffle=False)), get(ds.CSVDataset(a, shuffle=False)), ds.CSVDataset(a, shuffle=False).get_col_names(), "
                 "get(ds.CSVDataset(a, column_names=['x', 'y', 'z'], shuffle=False)), ds.CSVDataset(a, column_names=['x', 'y', 'z'], shuffle=False).get_col_names(), "
                 "get(ds.CSVDataset([a, z], column_defaults=[0, '', 0.0], shuffle=False)), get(ds.CSVDataset([a, z], shuffle=False, num_parallel_workers=1)), get(ds.CSVDataset(a, field_delim=';', shuffle=False))]"),
    "csv_type_error": _F + "a = os.path.join(root, 'a.csv')\nopen(a, 'w').write('id,name\\n1,ann\\n,bob\\n')\nresult = [r for r in ds.CSVDataset(a, column_defaults=[0, ''], shuffle=False).create_tuple_iterator(output_numpy=True)]",
    "schema": _F + ("from mindspore import dtype as mstype\nimport json\ns = ds.Schema()\ns.add_column(name='col1', de_type=mstype.int64, shape=[2])\ns.add_column('col2', de_type='float32')\ns.add_column('col3', de_type=mstype.uint8, shape=[2, -1])\n"
                    "s3 = ds.Schema()\ns3.parse_columns({'a': {'type': 'int32', 'shape': [1]}, 'b': {'type': 'string'}})\n"
                    "s4 = ds.Schema()\ns4.parse_columns([{'name': 'x', 'type': 'uint8', 'shape': [3, 3]}])\n"
                    "result = [str(s), s.to_json(), s3.to_json(), s4.to_json()]"),
    "schema_numpy_type_error": _F + "s = ds.Schema()\nresult = s.add_column('c', de_type=np.uint8)",
    "schema_file": _F + ("p = os.path.join(root, 's.json')\nopen(p, 'w').write('{\"columns\": {\"image\": {\"type\": \"uint8\", \"shape\": [2]}, \"label\": {\"type\": \"int32\"}}, \"numRows\": 4}')\n"
                         "s = ds.Schema(p)\nresult = [s.to_json(), ds.Schema.get_num_rows(s)]"),
    "padded": _F + ("p = ds.PaddedDataset([{'image': np.zeros(1, np.uint8), 'label': np.array(3)}, {'image': np.zeros(2, np.uint8), 'label': np.array(4)}])\n"
                    "q = ds.NumpySlicesDataset({'image': np.ones((2, 1), np.uint8), 'label': np.array([1, 2])}, shuffle=False) + p\n"
                    "result = [p.get_col_names(), p.get_dataset_size(), [[v for v in r] for r in p.create_tuple_iterator(output_numpy=True)], [[v for v in r] for r in q.create_tuple_iterator(output_numpy=True)]]"),
    "padded_empty_error": _F + "result = ds.PaddedDataset([])",
    "fake_image_shapes": _F + ("f = ds.FakeImageDataset(num_images=5, image_size=(4, 3, 3), num_classes=10, base_seed=0, shuffle=False)\n"
                               "g = ds.FakeImageDataset(num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0, num_samples=3)\n"
                               "result = [f.get_col_names(), f.get_dataset_size(), [(r[0].shape, str(r[0].dtype), str(r[1].dtype), r[1].shape, bool(r[1] < 10)) for r in f.create_tuple_iterator(output_numpy=True)], g.get_dataset_size()]"),
    "random_dataset_shapes": _F + ("from mindspore import dtype as mstype\ns = ds.Schema()\ns.add_column('image', de_type=mstype.uint8, shape=[2])\ns.add_column('label', de_type=mstype.int32, shape=[1])\ns.add_column('f', de_type=mstype.float32, shape=[3, 2])\n"
                                   "r = ds.RandomDataset(schema=s, total_rows=4, num_parallel_workers=1)\nq = ds.RandomDataset(schema=s, columns_list=['label'], total_rows=2, num_parallel_workers=1)\n"
                                   "result = [r.get_col_names(), r.get_dataset_size(), [[(v.shape, str(v.dtype)) for v in x] for x in r.create_tuple_iterator(output_numpy=True)], q.get_col_names(), q.get_dataset_size()]"),
    "random_dataset_workers_error": _F + "result = ds.RandomDataset(total_rows=3, num_parallel_workers=64)",
    "compare": _F + ("a = ds.NumpySlicesDataset([1, 2], shuffle=False)\nb = ds.NumpySlicesDataset([1, 2], shuffle=False)\n"
                     "c = ds.NumpySlicesDataset([1, 2], shuffle=False)\nd = ds.NumpySlicesDataset([1, 2], shuffle=False)\n"
                     "result = [ds.compare(a, b), ds.compare(c.repeat(2), d.repeat(3)), ds.compare(ds.NumpySlicesDataset([1, 2], shuffle=False), ds.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x))]"),
    "ds_callback_events": _F + ("events = []\nclass Log(ds.DSCallback):\n    def ds_begin(self, c):\n        events.append(('begin', c.cur_epoch_num, c.cur_step_num))\n"
                                "    def ds_epoch_begin(self, c):\n        events.append(('epoch_begin', c.cur_epoch_num, c.cur_step_num))\n"
                                "    def ds_epoch_end(self, c):\n        events.append(('epoch_end', c.cur_epoch_num, c.cur_step_num))\n"
                                "    def ds_step_begin(self, c):\n        events.append(('step_begin', c.cur_epoch_num, c.cur_step_num_in_epoch, c.cur_step_num))\n"
                                "    def ds_step_end(self, c):\n        events.append(('step_end', c.cur_epoch_num, c.cur_step_num_in_epoch, c.cur_step_num))\n"
                                "d = ds.GeneratorDataset([1, 2, 3], 'col1', shuffle=False, num_parallel_workers=1).map(operations=lambda x: x, callbacks=Log())\n"
                                "it = d.create_tuple_iterator(num_epochs=2)\nfor i in range(2):\n    for r in it:\n        pass\n"
                                "n = len(events)\ne = ds.NumpySlicesDataset([1, 2, 3, 4, 5], shuffle=False).map(lambda x: x, callbacks=[Log(2)])\n_ = [r for r in e.create_tuple_iterator(num_epochs=1)]\n"
                                "def split(ev):\n    order = all(ev.index(('step_end',) + e[1:]) > ev.index(e) for e in ev if e[0] == 'step_begin')\n"
                                "    return [[e for e in ev if 'step' not in e[0]], [e for e in ev if e[0] == 'step_begin'], [e for e in ev if e[0] == 'step_end'], order]\n"
                                "result = [split(events[:n]), split(events[n:]), events[:8], d.get_dataset_size()]"),
    "ds_callback_type_error": _F + "result = ds.NumpySlicesDataset([1], shuffle=False).map(lambda x: x, callbacks=[object()])",
    "map_default_first_column": _F + "d = ds.NumpySlicesDataset(([1, 2], [10, 20]), column_names=['a', 'b'], shuffle=False).map(lambda x: x * 3)\nresult = [r for r in d.create_tuple_iterator(output_numpy=True)]",
    "waited_ds_callback_train": _F + ("import mindspore.nn as nn\nevents = []\nclass W(ds.WaitedDSCallback):\n    def __init__(self, events, step_size=1):\n        super().__init__(step_size)\n        self.events = events\n"
                                      "    def sync_epoch_begin(self, train_run_context, ds_run_context):\n        self.events.append(f'ds_epoch_begin_{ds_run_context.cur_epoch_num}_{ds_run_context.cur_step_num}')\n"
                                      "    def sync_step_begin(self, train_run_context, ds_run_context):\n        self.events.append(f'ds_step_begin_{ds_run_context.cur_epoch_num}_{ds_run_context.cur_step_num}')\n"
                                      "class M(ms.Callback):\n    def __init__(self, events):\n        self.events = events\n"
                                      "    def epoch_end(self, run_context):\n        p = run_context.original_args()\n        self.events.append(f'ms_epoch_end_{p.cur_epoch_num}_{p.cur_step_num}')\n"
                                      "    def step_end(self, run_context):\n        p = run_context.original_args()\n        self.events.append(f'ms_step_end_{p.cur_epoch_num}_{p.cur_step_num}')\n"
                                      "class Net(nn.Cell):\n    def construct(self, x, y):\n        return x\n"
                                      "w = W(events, 1)\narr = [1, 2, 3, 4]\ndata = ds.NumpySlicesDataset((arr, arr), column_names=['c1', 'c2'], shuffle=False).map(operations=(lambda x: x), callbacks=w)\n"
                                      "ms.train.Model(Net()).train(2, data, dataset_sink_mode=False, callbacks=[M(events), w])\nresult = events"),
    "serialize": _F + ("import json\nimport mindspore as ms\nimport mindspore.dataset.vision as V\nimport mindspore.dataset.transforms as T\nmnist()\n"
                       "def j(d):\n    return json.dumps(ds.serialize(d), sort_keys=True).replace(root, 'ROOT')\n"
                       "m = lambda **kw: ds.MnistDataset(root, num_parallel_workers=1, **kw)\n"
                       "result = [j(m()), j(m(usage='train', num_samples=2, shuffle=True)), j(m(shuffle=False).shuffle(4).take(2).skip(1).project(['image']).rename(['image'], ['x'])), "
                       "j(m(shuffle=False).map([V.Resize((4, 4)), V.HWC2CHW(), V.Normalize([1.0], [2.0]), V.Rescale(0.5, 1.0), T.TypeCast(ms.float32)], 'image', num_parallel_workers=1)), "
                       "j(m(shuffle=False).batch(2, drop_remainder=True, num_parallel_workers=1).repeat(3)), j(ds.FashionMnistDataset(root, num_parallel_workers=1, shuffle=False))]"),
    "deserialize_roundtrip": _F + ("import mindspore.dataset.vision as V\nmnist()\n"
                                   "d = ds.MnistDataset(root, usage='train', shuffle=False, num_parallel_workers=1).map(V.Rescale(0.5, 0.0), 'image', num_parallel_workers=1).batch(2, num_parallel_workers=1).repeat(2)\n"
                                   "p = os.path.join(root, 'p.json')\nds.serialize(d, json_filepath=p)\ne = ds.deserialize(json_filepath=p)\nf = ds.deserialize(input_dict=ds.serialize(d))\n"
                                   "result = [e.get_dataset_size(), [r for r in e.create_tuple_iterator(output_numpy=True)], [r[1] for r in f.create_tuple_iterator(output_numpy=True)], ds.show(d), ds.compare(d, e)]"),
})
OPTIONS = {
    "brightness": {"atol": 1e-6},
    "gaussian_blur": {"atol": 1},
    "autocontrast": {"atol": 1},
    "rgb_hsv": {"atol": 1e-6},
    "random_fixed_probability": {"atol": 1},
}
OPTIONS["rgb_hsv_error"] = {"message": True}
OPTIONS["grayscale_numpy_error"] = {"message": True}
OPTIONS["read_file_missing"] = {"message_parts": ["Invalid file path"], "why": "the wheel wraps the text in its pipeline banner and C++ source location"}
OPTIONS["perspective_pil_error"] = {"message": True}
OPTIONS["t_concatenate_rank_error"] = {"message_parts": ["Concatenate: only 1D input supported, got rank of input: 2"], "why": "the wheel wraps the text in its pipeline banner and C++ source location"}
OPTIONS["t_unique_rank_error"] = {"message_parts": ["Unique: input must be at least 2-D in order to do unique op, got rank:1"], "why": "the wheel wraps the text in its pipeline banner and C++ source location"}
OPTIONS["sampler_with_shuffle_error"] = {"message": True}
OPTIONS["cifar100_missing"] = {"message": True}
OPTIONS["text_file_missing"] = {"message": True}
OPTIONS["sampler_with_num_samples_error"] = {"message": True}
OPTIONS["qmnist_missing_nist"] = {"message_parts": ["Invalid file path, Qmnist data file:", "xnist-images-idx3-ubyte does not exist or is a directory."], "why": "the wheel wraps the text in its pipeline banner and C++ source location, and the folder is a fresh temporary one"}
OPTIONS["cifar100_short_file"] = {"message_parts": ["Invalid cifar100 file, failed to read data from: ", "test.bin, re-download dataset(make sure it is CIFAR-100 binary version)."], "why": "the wheel wraps the text in its pipeline banner and C++ source location, and the folder is a fresh temporary one"}
OPTIONS["csv_type_error"] = {"message_parts": ["Invalid csv, csv file: ", "a.csv parse failed at line 2, type does not match."], "why": "the wheel wraps the text in its pipeline banner and C++ source location, and the folder is a fresh temporary one"}
OPTIONS["schema_numpy_type_error"] = {"message": True}
OPTIONS["padded_empty_error"] = {"message": True}
OPTIONS["random_dataset_workers_error"] = {"message_parts": ["num_parallel_workers exceeds the boundary between 1 and "], "why": "the bound is the recording machine's CPU count"}
# ds_callback_events: how the step-begin and step-end hooks of different rows interleave depends on the wheel's
# threads after the first epoch; the case checks each kind's order, each step ending after it began, and the
# first epoch's exact sequence (every begin before the first end).
OPTIONS["ds_callback_type_error"] = {"message_parts": ["Argument callbacks[0] with value <object object at", "is not of type [<class 'mindspore.dataset.callback.ds_callback.DSCallback'>], but got <class 'object'>."], "why": "the object's address differs from run to run"}
