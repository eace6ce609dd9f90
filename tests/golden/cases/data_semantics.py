"""mindspore.dataset semantics: filter on every dataset kind, Python-object / string / bytes / ragged columns as
GeneratorDataset and NumpySlicesDataset yield them (types, dtypes, what the iterators return), their errors, and
MindRecord (mindspore.mindrecord.FileWriter, dataset.MindDataset)."""
_D = ("import mindspore.dataset as ds\n"
      "data = {'x': np.arange(10, dtype=np.float32).reshape(5, 2), 'y': np.array([0, 1, 2, 1, 0], np.int32)}\n"
      "sl = lambda: ds.NumpySlicesDataset(data, shuffle=False)\n"
      "rows = lambda d, **kw: [r for r in d.create_tuple_iterator(output_numpy=True, **kw)]\n"
      "def gen():\n"
      "    yield ('hello', [1, 2, 3], 3.5, 7, True, b'xy')\n"
      "    yield ('hi', [4, 5], 1.5, 8, False, b'z')\n"
      "py = lambda: ds.GeneratorDataset(gen, ['s', 'l', 'f', 'i', 'b', 'by'], shuffle=False)\n"
      "def gen_dict():\n"
      "    yield ('abc', {'k': 1, 'l': [1, 2], 's': 'txt', 'n': {'d': 1.5}})\n"
      "    yield ('de', {'k': 2, 'l': [3], 's': 'u', 'n': {'d': -1.0}})\n"
      "objs = lambda: ds.GeneratorDataset(gen_dict, ['s', 'o'], shuffle=False)\n")
_IMG = _D + ("import os, tempfile\nfrom PIL import Image\nroot = tempfile.mkdtemp()\n"
             "for cls, n in (('cat', 2), ('dog', 2)):\n"
             "    os.makedirs(os.path.join(root, cls))\n"
             "    for i in range(n):\n"
             "        Image.fromarray((np.arange(12).reshape(2, 2, 3) * 10 + i).astype(np.uint8)).save(os.path.join(root, cls, f'{i}.png'))\n")
_MNIST = _D + ("import os, tempfile\nroot = tempfile.mkdtemp()\n"
               "imgs = (np.arange(4 * 28 * 28) % 251).astype(np.uint8).reshape(4, 28, 28)\n"
               "for p in ('train', 't10k'):\n"
               "    with open(os.path.join(root, f'{p}-images-idx3-ubyte'), 'wb') as fh:\n"
               "        fh.write(bytes([0, 0, 8, 3]) + (4).to_bytes(4, 'big') + (28).to_bytes(4, 'big') * 2 + imgs.tobytes())\n"
               "    with open(os.path.join(root, f'{p}-labels-idx1-ubyte'), 'wb') as fh:\n"
               "        fh.write(bytes([0, 0, 8, 1]) + (4).to_bytes(4, 'big') + bytes([3, 1, 4, 1]))\n")

CASES = {
    # ---- filter ----------------------------------------------------------------------------------------
    "filter_all_columns": _D + "d = sl().filter(lambda x, y: y > 0)\nresult = (rows(d), d.get_dataset_size(), d.get_col_names())",
    "filter_input_columns": _D + "result = (rows(sl().filter(lambda y: y == 1, input_columns=['y'])), rows(sl().filter(lambda y: y == 1, input_columns='y')))",
    "filter_truthiness": _D + ("result = (rows(sl().filter(lambda y: np.array(y == 1), input_columns=['y'])), rows(sl().filter(lambda y: int(y), input_columns=['y'])), "
                               "rows(sl().filter(lambda y: None, input_columns=['y'])), rows(sl().filter(lambda x: x.sum() > 8, input_columns='x')))"),
    "filter_num_parallel_workers": _D + "result = rows(sl().filter(lambda y: y != 1, input_columns=['y'], num_parallel_workers=2))",
    "filter_after_batch": _D + "result = rows(sl().batch(2).filter(lambda x, y: y.sum() > 1))",
    # (a dataset object feeds one pipeline only: MindSpore refuses a node with two consumers, so each is built anew)
    "filter_then_batch_repeat": _D + "d = lambda: ds.NumpySlicesDataset({'v': np.arange(7)}, shuffle=False).filter(lambda v: v % 2 == 0)\nresult = (rows(d().batch(3)), rows(d().repeat(2)), d().batch(3).get_dataset_size())",
    "filter_after_map": _D + "result = rows(sl().map(lambda x: x * 10, input_columns='x').filter(lambda x: x[0] > 35, input_columns=['x']))",
    "filter_zip_concat": _D + ("a = lambda: ds.NumpySlicesDataset({'a': [1, 2, 3]}, shuffle=False)\nb = ds.NumpySlicesDataset({'b': [4, 5, 6]}, shuffle=False)\n"
                               "result = (rows(ds.zip((a(), b)).filter(lambda a, b: a + b > 6)), rows((a() + ds.NumpySlicesDataset({'a': [9]}, shuffle=False)).filter(lambda a: a != 2)))"),
    "filter_project_rename_skip_take": _D + "result = rows(sl().project(['y']).rename('y', 'label').filter(lambda label: label < 2).skip(1).take(2))",
    "filter_generator_strings": _D + "result = (rows(py().filter(lambda s: s == 'hi', input_columns=['s'])), py().filter(lambda f: f > 2, input_columns=['f']).get_dataset_size())",
    "filter_generator_random_access": _D + ("class Src:\n    def __getitem__(self, i):\n        return np.array([i], np.float32), np.array(i * 2, np.int64)\n"
                                            "    def __len__(self):\n        return 6\n"
                                            "result = rows(ds.GeneratorDataset(Src(), ['a', 'b'], shuffle=False).filter(lambda b: b % 4 == 0, input_columns='b'))"),
    "filter_sees_python_dict": _D + "seen = []\nd = objs().filter(lambda o: seen.append(type(o).__name__) or o['k'] > 1, input_columns=['o'])\nresult = (rows(d), seen)",
    "filter_image_folder": _IMG + "d = ds.ImageFolderDataset(root, shuffle=False, decode=True).filter(lambda image, label: label == 1 and image[0, 0, 0] > 0)\nresult = (rows(d), d.get_dataset_size())",
    "filter_mnist": _MNIST + "d = ds.MnistDataset(root, usage='train', shuffle=False).filter(lambda label: label == 1, input_columns=['label'])\nresult = [(r[0].shape, r[0][0, :3, 0], r[1]) for r in rows(d)]",
    # (no Cifar10Dataset case: the wheel reads only full CIFAR-10 files, 10000 records each, too big for a case)
    "filter_predicate_error": _D + "result = rows(sl().filter(lambda y: 1 / 0, input_columns=['y']))",
    "filter_truth_value_error": _D + "result = rows(sl().filter(lambda x, y: x > 3))",
    "filter_arity_error": _D + "result = rows(sl().filter(lambda y: True))",
    "filter_missing_column": _D + "result = rows(sl().filter(lambda y: True, input_columns=['z']))",
    "filter_not_callable": _D + "sl().filter(3)",
    "filter_list_of_predicates": _D + "sl().filter([lambda y: True])",
    "filter_input_columns_type": _D + "sl().filter(lambda y: True, input_columns=3)",
    "filter_input_columns_empty": _D + "sl().filter(lambda y: True, input_columns=[])",
    "filter_workers_zero": _D + "sl().filter(lambda y: True, num_parallel_workers=0)",
    # ---- Python-object, string, bytes and ragged columns ----------------------------------------------------
    "generator_python_values": _D + "result = (rows(py()), py().get_col_names())",
    "generator_python_values_tensors": _D + "result = [r for r in py().create_tuple_iterator()]",
    "generator_python_values_dict_iterator": _D + "result = [r for r in py().create_dict_iterator()]",
    "generator_types_shapes": _D + "result = ([str(t) for t in py().output_types()], py().output_shapes())",
    "generator_dict_column": _D + "result = (rows(objs()), [str(t) for t in objs().output_types()], objs().output_shapes())",
    "generator_dict_column_tensors": _D + "result = ([r for r in objs().create_tuple_iterator()], [r for r in objs().create_dict_iterator()])",
    "generator_dict_column_dict_numpy": _D + "result = [r for r in objs().create_dict_iterator(output_numpy=True)]",
    "generator_string_lists": _D + ("def g():\n    for i in range(3):\n        yield (['a', 'bb'][: i % 2 + 1], np.float32(i), [1.5, 2])\n"
                                    "d = ds.GeneratorDataset(g, ['s', 'f', 'm'], shuffle=False)\nresult = (rows(d), [r for r in d.create_tuple_iterator()])"),
    "generator_single_values": _D + ("def g():\n    yield 'one'\n    yield 'two'\n"
                                     "def h():\n    yield {'a': 1}\n"
                                     "result = (rows(ds.GeneratorDataset(g, ['s'], shuffle=False)), rows(ds.GeneratorDataset(h, ['o'], shuffle=False)))"),
    "generator_batch_strings": _D + "result = rows(py().project(['s', 'f', 'by']).batch(2))",
    "map_column_order": _D + ("mk = lambda: ds.NumpySlicesDataset({'a': [1], 'b': [2], 'c': [3]}, shuffle=False)\n"
                              "two = lambda *v: (v[0] * 10, v[-1] + 100)\none = lambda *v: v[0] - 1\n"
                              "result = [(d.get_col_names(), rows(d)) for d in (mk().map(two, ['c', 'a'], ['c', 'a']), mk().map(two, ['c', 'a'], ['x', 'y']), "
                              "mk().map(two, ['c', 'a']), mk().map(two, ['b'], ['x', 'y']), mk().map(one, ['c', 'a'], ['z']))]"),
    "map_sees_python_values": _D + ("seen = []\ndef look(o, s):\n    seen.append((type(o).__name__, type(s).__name__, str(s.dtype), repr(o)))\n    return o, s\n"
                                    "result = (rows(objs().map(look, input_columns=['o', 's'], output_columns=['o', 's'])), seen)"),
    "map_returns_python_values": _D + ("v = lambda: ds.NumpySlicesDataset({'v': [1, 2]}, shuffle=False)\n"
                                       "result = (rows(v().map(lambda v: str(int(v)) + '!', input_columns='v')), rows(v().map(lambda v: {'x': v, 't': 'k'}, input_columns='v')), "
                                       "rows(v().map(lambda v: [int(v), 5], input_columns='v')), [r for r in v().map(lambda v: str(int(v)), input_columns='v').create_tuple_iterator()])"),
    "slices_strings_bytes": _D + ("d = ds.NumpySlicesDataset({'s': ['a', 'bcd'], 'b': [b'ab', b'c'], 'v': [1, 2]}, shuffle=False)\n"
                                  "result = (rows(d), [r for r in d.create_tuple_iterator()], [str(t) for t in d.output_types()], d.output_shapes())"),
    "slices_numpy_strings": _D + "result = (rows(ds.NumpySlicesDataset(np.array(['x', 'yy']), shuffle=False)), rows(ds.NumpySlicesDataset((['a', 'b'], [1, 2]), shuffle=False)))",
    "slices_ragged_and_mixed": _D + ("result = (rows(ds.NumpySlicesDataset({'r': [[1, 2], [3]], 's': [1, 2]}, shuffle=False)), rows(ds.NumpySlicesDataset({'r': [1, 'a']}, shuffle=False)), "
                                     "rows(ds.NumpySlicesDataset({'r': [1, 2.5]}, shuffle=False)), rows(ds.NumpySlicesDataset([[1.5], [2, 3]], shuffle=False)))"),
    "slices_list_of_dicts": _D + ("d = ds.NumpySlicesDataset([{'a': 1}, {'a': 2, 'b': 'z'}], shuffle=False)\n"
                                  "result = (d.get_col_names(), rows(d), [r for r in d.create_tuple_iterator()])"),
    "slices_numpy_dtypes_kept": _D + "result = rows(ds.NumpySlicesDataset({'h': np.array([1, 2], np.float16), 'u': np.array([3, 4], np.uint8), 'i': [np.int32(5), np.int32(6)]}, shuffle=False))",
    "slices_unequal_lengths": _D + "ds.NumpySlicesDataset({'a': [1, 2], 'b': [1]})",
    "generator_ragged_error": _D + "def g():\n    yield ([[1, 2], [3]],)\nresult = rows(ds.GeneratorDataset(g, ['r'], shuffle=False))",
    "generator_object_error": _D + "class O:\n    pass\ndef g():\n    yield (1, O())\nresult = rows(ds.GeneratorDataset(g, ['a', 'r'], shuffle=False))",
    "generator_column_count_error": _D + "def g():\n    yield (np.array([1, 2]), np.array([3]))\nresult = rows(ds.GeneratorDataset(g, ['a'], shuffle=False))",
    "batch_ragged_error": _D + "result = rows(ds.NumpySlicesDataset({'q': [1, 2], 'r': [[[1, 2]], [[3, 4], [5, 6]]]}, shuffle=False).batch(2))",
}
_PIPELINE = "the wheel inserts the Python call stack (file paths of its install and of the case) and a pipeline banner"
OPTIONS = {
    "filter_not_callable": {"message": True},
    "filter_list_of_predicates": {"message": True},
    "filter_input_columns_type": {"message": True},
    "filter_input_columns_empty": {"message": True},
    "slices_unequal_lengths": {"message": True},
    "filter_workers_zero": {"message_parts": ["num_parallel_workers exceeds the boundary between 1 and "],
                            "why": "the bound is this machine's CPU count"},
    "filter_predicate_error": {"message_parts": ["Exception thrown from user defined Python function in dataset.",
                                                 "ZeroDivisionError: division by zero"], "why": _PIPELINE},
    "filter_truth_value_error": {"message_parts": [
        "Exception thrown from user defined Python function in dataset.",
        "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"],
        "why": _PIPELINE},
    "filter_arity_error": {"message_parts": ["Exception thrown from user defined Python function in dataset.",
                                             "TypeError: <lambda>() takes 1 positional argument but 2 were given"],
                           "why": _PIPELINE},
    "filter_missing_column": {"message_parts": [
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.",
        "Invalid parameter, column name: z does not exist in the dataset columns."], "why": _PIPELINE},
    "generator_ragged_error": {"message_parts": [
        "Exception thrown from user defined Python function in dataset.",
        "ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after "
        "1 dimensions. The detected shape was (2,) + inhomogeneous part."], "why": _PIPELINE},
    "generator_object_error": {"message_parts": [
        "Exception thrown from user defined Python function in dataset.",
        "TypeError: Data type of 2th item of the input or its converted Numpy array is expected to be int or float "
        "or str, but got object."], "why": _PIPELINE},
    "generator_column_count_error": {"message_parts": [
        "Exception thrown from user defined Python function in dataset.",
        "Invalid Python function, the 'source' of 'GeneratorDataset' should return same number of NumPy arrays as "
        "specified in column_names, the size of column_names is:1 and number of returned NumPy array is:2"],
        "why": _PIPELINE},
    "batch_ragged_error": {"message_parts": [
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.",
        "Cannot batch tensors with different shapes in column 1. First element had shape <1,2> and this element "
        "had shape <2,2>"], "why": _PIPELINE},
}
