"""mindspore.dataset in memory: sources, pipeline operations, iterators, transforms (mskernel/dataset)."""
_D = ("import mindspore.dataset as ds\nimport mindspore.dataset.transforms as T\nimport mindspore.dataset.vision as V\n"
      "data = {'x': np.arange(10, dtype=np.float32).reshape(5, 2), 'y': np.array([0, 1, 2, 1, 0], np.int32)}\n")
_IMG = _D + ("import os, tempfile\nfrom PIL import Image\nroot = tempfile.mkdtemp()\n"
             "for cls, n in (('cat', 2), ('dog', 1), ('empty', 0)):\n"
             "    os.makedirs(os.path.join(root, cls))\n"
             "    for i in range(n):\n"
             "        Image.fromarray((np.arange(12).reshape(2, 2, 3) * 10 + i).astype(np.uint8)).save(os.path.join(root, cls, f'{i}.png'))\n")


def _rows(expr: str, dict_: bool = False) -> str:
    it = "create_dict_iterator(output_numpy=True)" if dict_ else "create_tuple_iterator(output_numpy=True)"
    return f"d = {expr}\nresult = [r for r in d.{it}]"


CASES = {
    "slices_no_shuffle": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False)"),
    "slices_tuple_source": _D + _rows("ds.NumpySlicesDataset((data['x'], data['y']), column_names=['a', 'b'], shuffle=False)"),
    "slices_list": _D + _rows("ds.NumpySlicesDataset([1, 2, 3], column_names=['v'], shuffle=False)"),
    "col_names_size": _D + "d = ds.NumpySlicesDataset(data, shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size())",
    "output_shapes_types": _D + "d = ds.NumpySlicesDataset(data, shuffle=False).batch(2)\nresult = (d.output_shapes(), [str(t) for t in d.output_types()])",
    "batch": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).batch(2)"),
    "batch_drop_remainder": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).batch(2, drop_remainder=True)"),
    "batch_size": _D + "result = [ds.NumpySlicesDataset(data, shuffle=False).batch(2, drop_remainder=d).get_dataset_size() for d in (False, True)]",
    "batch_per_batch_map": _D + ("def f(x, y, info):\n    return ([a * 2 for a in x], [b + np.int32(10) for b in y])\n"
                                 + _rows("ds.NumpySlicesDataset(data, shuffle=False).batch(2, per_batch_map=f, input_columns=['x', 'y'])")),
    "map_callable": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map(lambda x: x + 1, input_columns=['x'])"),
    "map_two_ops": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map([lambda x: x * 2, lambda x: x - 1], input_columns='x')"),
    "map_typecast": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map(T.TypeCast(ms.int32), 'y').map(T.TypeCast(ms.float16), 'x')"),
    "map_onehot": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map(T.OneHot(3), 'y')"),
    "map_compose": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map(T.Compose([lambda x: x * 3, T.TypeCast(ms.int64)]), 'x')"),
    "map_output_columns": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).map(lambda x: (x, x.sum()), input_columns='x', output_columns=['x', 's'])", True),
    "repeat": _D + "d = ds.NumpySlicesDataset(data, shuffle=False).repeat(2)\nresult = (d.get_dataset_size(), [r[1] for r in d.create_tuple_iterator(output_numpy=True)])",
    "take_skip": _D + "d = lambda: ds.NumpySlicesDataset(data, shuffle=False)\nresult = ([r[1] for r in d().take(2).create_tuple_iterator(output_numpy=True)], [r[1] for r in d().skip(3).create_tuple_iterator(output_numpy=True)], d().take(2).get_dataset_size(), d().skip(3).get_dataset_size())",
    "per_batch_map_error": _D + ("def f(x, y, info):\n    return (x + 1, y)\n"
                                 + _rows("ds.NumpySlicesDataset(data, shuffle=False).batch(2, per_batch_map=f, input_columns=['x', 'y'])")),
    "project_rename": _D + _rows("ds.NumpySlicesDataset(data, shuffle=False).project(['y']).rename('y', 'label')", True),
    "zip": _D + _rows("ds.zip((ds.NumpySlicesDataset({'a': [1, 2, 3]}, shuffle=False), ds.NumpySlicesDataset({'b': [4, 5]}, shuffle=False)))", True),
    "zip_method": _D + _rows("ds.NumpySlicesDataset({'a': [1, 2]}, shuffle=False).zip(ds.NumpySlicesDataset({'b': [4, 5]}, shuffle=False))", True),
    "concat": _D + "d = ds.NumpySlicesDataset({'a': [1, 2]}, shuffle=False) + ds.NumpySlicesDataset({'a': [7]}, shuffle=False)\nresult = (d.get_dataset_size(), [r[0] for r in d.create_tuple_iterator(output_numpy=True)])",
    "concat_method": _D + _rows("ds.NumpySlicesDataset({'a': [1, 2]}, shuffle=False).concat(ds.NumpySlicesDataset({'a': [7]}, shuffle=False))"),
    "shuffle_is_permutation": _D + "ds.config.set_seed(1)\nd = ds.NumpySlicesDataset(data, shuffle=True)\nresult = sorted(int(r[1]) for r in d.create_tuple_iterator(output_numpy=True))",
    "shuffle_op_is_permutation": _D + "ds.config.set_seed(1)\nd = ds.NumpySlicesDataset(data, shuffle=False).shuffle(4)\nresult = sorted(float(r[0][0]) for r in d.create_tuple_iterator(output_numpy=True))",
    "tuple_iterator_tensors": _D + "d = ds.NumpySlicesDataset(data, shuffle=False).batch(5)\nr = next(d.create_tuple_iterator())\nresult = (type(r).__name__, str(r[0].dtype), r[0].shape, r[1])",
    "dict_iterator_tensors": _D + "d = ds.NumpySlicesDataset(data, shuffle=False)\nr = next(d.create_dict_iterator())\nresult = (sorted(r), r['x'], r['y'])",
    "iterator_epochs": _D + "d = ds.NumpySlicesDataset(data, shuffle=False).batch(5)\nit = d.create_tuple_iterator(num_epochs=2, output_numpy=True)\nresult = [[r[1] for r in it] for _ in range(2)]",
    "generator_function": _D + "def gen():\n    for i in range(3):\n        yield np.array([i, i]), np.int32(i * 10)\n" + _rows("ds.GeneratorDataset(gen, ['a', 'b'], shuffle=False)"),
    "generator_random_access": _D + ("class Src:\n    def __getitem__(self, i):\n        return np.array([i], np.float32), np.array(i * 2, np.int64)\n"
                                     "    def __len__(self):\n        return 4\n" + _rows("ds.GeneratorDataset(Src(), column_names=['a', 'b'], shuffle=False)")),
    "generator_iterable": _D + ("class It:\n    def __iter__(self):\n        return iter([(np.array([1.0]),), (np.array([2.0]),)])\n"
                                + _rows("ds.GeneratorDataset(It(), column_names=['a'])")),
    "generator_size": _D + "class Src:\n    def __getitem__(self, i):\n        return (np.array([i]),)\n    def __len__(self):\n        return 7\nresult = ds.GeneratorDataset(Src(), ['a'], shuffle=False).batch(3).get_dataset_size()",
    "vision_ops": _D + ("img = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)\n"
                        "result = (V.Resize((2, 3))(img), V.Rescale(1 / 255.0, -0.5)(img)[0, 0], V.HWC2CHW()(img).shape, V.CenterCrop(2)(img), V.ToTensor()(img)[:, 0, 0], "
                        "V.Normalize(mean=[1.0, 2.0, 3.0], std=[2.0, 2.0, 2.0])(img.astype(np.float32))[0, 0])"),
    "vision_resize_nearest": _D + "img = np.arange(4 * 6, dtype=np.uint8).reshape(4, 6, 1)\nresult = V.Resize((3, 4), V.Inter.NEAREST)(img)[..., 0]",
    "vision_pipeline": _D + ("imgs = np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3)\n"
                             + _rows("ds.NumpySlicesDataset({'image': imgs, 'label': np.array([1, 0], np.int32)}, shuffle=False).map([V.Rescale(1 / 255.0, 0.0), V.HWC2CHW()], 'image').batch(2)")),
    "flip_deterministic": _D + "img = np.arange(2 * 3 * 1, dtype=np.uint8).reshape(2, 3, 1)\nresult = (V.RandomHorizontalFlip(1.0)(img)[..., 0], V.RandomVerticalFlip(1.0)(img)[..., 0], V.RandomHorizontalFlip(0.0)(img)[..., 0])",
    "image_folder_raw": _IMG + "d = ds.ImageFolderDataset(root, shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), [(r[0].dtype.name, r[0][:4], r[1]) for r in d.create_tuple_iterator(output_numpy=True)])",
    "image_folder_decode": _IMG + _rows("ds.ImageFolderDataset(root, shuffle=False, decode=True)", True),
    "image_folder_class_indexing": _IMG + "d = ds.ImageFolderDataset(root, shuffle=False, class_indexing={'dog': 0, 'cat': 5, 'empty': 1})\nresult = ([int(r[1]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_class_indexing())",
    "image_folder_default_indexing": _IMG + "result = ds.ImageFolderDataset(root).get_class_indexing()",
    "image_folder_decode_op": _IMG + _rows("ds.ImageFolderDataset(root, shuffle=False, num_samples=2).map(V.Decode(), 'image').map(V.Resize((4, 4)), 'image').batch(2)"),
    "image_folder_missing": _IMG + "result = ds.ImageFolderDataset('/no/such/folder')",
    "mnist_missing": _D + "result = ds.MnistDataset('/no/such/folder')",
}
OPTIONS = {"image_folder_missing": {"message": True}, "image_folder_decode_op": {"atol": 1}}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('mnist_missing', {})["message"] = True
OPTIONS.setdefault('per_batch_map_error', {}).update(message_parts=[
    'Exception thrown from user defined Python function in dataset.',
    'TypeError: can only concatenate list (not "int") to list'],
    why='the wheel inserts the Python call stack (file paths of its install and of the case) and a pipeline banner')
