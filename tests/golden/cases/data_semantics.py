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

# ---- MindRecord: mindspore.mindrecord.FileWriter and dataset.MindDataset -----------------------------------
# (each case writes into a directory of its own; the files both ways are checked by test_mindrecord.py)
_MR = _D + ("import os, tempfile\nfrom mindspore.mindrecord import FileWriter\n"
            "os.chdir(tempfile.mkdtemp())\n"
            "SCHEMA = {'id': {'type': 'int32'}, 'big': {'type': 'int64'}, 'f': {'type': 'float64'}, 'g': {'type': 'float32'},\n"
            "          's': {'type': 'string'}, 'b': {'type': 'bytes'}, 'a': {'type': 'float32', 'shape': [-1]},\n"
            "          'm': {'type': 'int64', 'shape': [2, 2]}}\n"
            "def make_rows(n, start=0):\n"
            "    return [{'id': i, 'big': -(1 << 40) * i, 'f': i * 0.1, 'g': np.float32(i / 3), 's': 'row%d' % i, 'b': bytes([i, 0, 255]),\n"
            "             'a': np.arange(i % 3 + 1, dtype=np.float32) / 4, 'm': np.arange(4, dtype=np.int64).reshape(2, 2) * i} for i in range(start, start + n)]\n"
            "def write(name, rows, schema=SCHEMA, index=None, shard_num=1, batches=1):\n"
            "    w = FileWriter(name, shard_num=shard_num, overwrite=True)\n"
            "    w.add_schema(schema, 'case')\n"
            "    if index:\n"
            "        w.add_index(index)\n"
            "    step = -(-len(rows) // batches)\n"
            "    for k in range(0, len(rows), step):\n"
            "        w.write_raw_data(rows[k:k + step])\n"
            "    w.commit()\n"
            "    return name if shard_num == 1 else name + '0'\n"
            "ids = lambda d: [int(r[0]) for r in d.project(['id']).create_tuple_iterator(output_numpy=True)]\n")
CASES.update({
    "mr_roundtrip_numpy": _MR + ("p = write('all.mindrecord', make_rows(4))\nd = ds.MindDataset(p, shuffle=False)\n"
                                 "result = (d.get_col_names(), d.get_dataset_size(), [r for r in d.create_dict_iterator(output_numpy=True)], "
                                 "[str(t) for t in d.output_types()], d.output_shapes())"),
    "mr_roundtrip_tensors": _MR + ("p = write('all.mindrecord', make_rows(2))\n"
                                   "result = ([r for r in ds.MindDataset(p, shuffle=False).create_tuple_iterator()], [r for r in ds.MindDataset(p, shuffle=False).create_dict_iterator()])"),
    "mr_columns_list": _MR + ("p = write('all.mindrecord', make_rows(3))\nd = ds.MindDataset(p, columns_list=['s', 'id', 'm'], shuffle=False)\n"
                              "result = (d.get_col_names(), rows(d))"),
    "mr_num_samples_shards": _MR + ("p = write('all.mindrecord', make_rows(8))\n"
                                    "result = (ids(ds.MindDataset(p, shuffle=False, num_samples=3)), ds.MindDataset(p, shuffle=False, num_samples=3).get_dataset_size(), "
                                    "[ids(ds.MindDataset(p, shuffle=False, num_shards=3, shard_id=k)) for k in range(3)], ds.MindDataset(p, shuffle=False, num_samples=0).get_dataset_size())"),
    "mr_shard_files_order": _MR + ("p = write('sh.mindrecord', make_rows(4) + make_rows(4, 10), shard_num=2, batches=2)\n"
                                   "result = (sorted(os.listdir('.')), ids(ds.MindDataset('sh.mindrecord0', shuffle=False)), ids(ds.MindDataset('sh.mindrecord1', shuffle=False)), "
                                   "ids(ds.MindDataset(['sh.mindrecord1'], shuffle=False)), ids(ds.MindDataset(['sh.mindrecord1', 'sh.mindrecord0'], shuffle=False)))"),
    "mr_shuffle_is_permutation": _MR + ("p = write('all.mindrecord', make_rows(6))\nds.config.set_seed(3)\n"
                                        "result = (sorted(ids(ds.MindDataset(p))), sorted(ids(ds.MindDataset(p, shuffle=True))), sorted(ids(ds.MindDataset(p, shuffle=ds.Shuffle.GLOBAL))))"),
    "mr_pipeline": _MR + ("p = write('all.mindrecord', make_rows(6))\n"
                          "d = ds.MindDataset(p, columns_list=['id', 'm', 's'], shuffle=False).filter(lambda id: id % 2 == 1, input_columns=['id']).map(lambda m: m * 10, input_columns='m').batch(2)\n"
                          "result = rows(d)"),
    "mr_blob_and_raw_only": _MR + ("a = write('blob.mindrecord', [{'x': np.array([1, -5, 1 << 40][: i + 1], np.int64)} for i in range(3)], schema={'x': {'type': 'int64', 'shape': [-1]}})\n"
                                   "b = write('raw.mindrecord', [{'x': i, 'y': 'y' * i} for i in range(3)], schema={'x': {'type': 'int64'}, 'y': {'type': 'string'}})\n"
                                   "result = (rows(ds.MindDataset(a, shuffle=False)), rows(ds.MindDataset(b, shuffle=False)))"),
    "mr_index_db": _MR + ("import sqlite3\np = write('all.mindrecord', make_rows(3))\nq = write('idx.mindrecord', make_rows(3), index=['s', 'id'])\n"
                          "def db(path):\n    con = sqlite3.connect(path + '.db')\n"
                          "    return (con.execute(\"SELECT sql FROM sqlite_master WHERE name='INDEXES'\").fetchone()[0], con.execute('SELECT * FROM INDEXES ORDER BY ROW_ID').fetchall(), con.execute('SELECT * FROM SHARD_NAME').fetchall())\n"
                          "result = (db(p), db(q))"),
    "mr_header": _MR + ("import json, struct\np = write('all.mindrecord', make_rows(3), index=['id'])\n"
                        "with open(p, 'rb') as fh:\n    n = struct.unpack('<Q', fh.read(8))[0]\n    text = fh.read(n).decode()\n"
                        "h = json.loads(text)\nresult = (list(h), h['schema'], h['index_fields'], h['page'], h['compression_size'], h['shard_addresses'], os.path.getsize(p), text[:40])"),
    "mr_rows_not_matching_dropped": _MR + ("good = make_rows(3)\nbad = [dict(good[0], id=1.5), dict(good[1], s=7), {k: v for k, v in good[2].items() if k != 'b'}, dict(good[0], m=np.zeros((2, 2), np.int32)), "
                                           "dict(good[1], a=[1.0]), dict(good[2], id=np.int64(9)), dict(good[0], id=True), dict(good[1], m=np.zeros(3, np.int64))]\n"
                                           "p = write('mixed.mindrecord', bad + good + [dict(good[0], id=np.int32(40), f=np.float64(2.5), extra='ignored')])\nresult = ids(ds.MindDataset(p, shuffle=False))"),
    "mr_exists_without_overwrite": _MR + "p = write('all.mindrecord', make_rows(1))\nw = FileWriter('all.mindrecord')\nw.add_schema(SCHEMA)\nw.write_raw_data(make_rows(1))",
    "mr_db_exists_without_overwrite": _MR + "open('lone.mindrecord.db', 'w').close()\nw = FileWriter('lone.mindrecord')\nw.add_schema(SCHEMA)\nw.commit()",
    "mr_overwrite_replaces": _MR + "write('all.mindrecord', make_rows(5))\nwrite('all.mindrecord', make_rows(2, 100))\nresult = ids(ds.MindDataset('all.mindrecord', shuffle=False))",
    "mr_file_name_empty": _MR + "FileWriter('')",
    "mr_file_name_slash": _MR + "FileWriter('dir/')",
    "mr_file_name_chars": _MR + "FileWriter('a:b.mindrecord')",
    "mr_file_name_type": _MR + "FileWriter(3)",
    "mr_shard_num_range": _MR + "FileWriter('x.mindrecord', shard_num=1001)",
    "mr_shard_num_type": _MR + "FileWriter('x.mindrecord', shard_num='2')",
    "mr_overwrite_type": _MR + "FileWriter('x.mindrecord', overwrite=1)",
    "mr_schema_empty": _MR + "FileWriter('x.mindrecord').add_schema({})",
    "mr_schema_not_dict": _MR + "FileWriter('x.mindrecord').add_schema([('id', 'int32')])",
    "mr_schema_field_name": _MR + "FileWriter('x.mindrecord').add_schema({'a-b': {'type': 'int32'}})",
    "mr_schema_field_type": _MR + "FileWriter('x.mindrecord').add_schema({'a': {'type': 'uint8'}})",
    "mr_schema_array_type": _MR + "FileWriter('x.mindrecord').add_schema({'a': {'type': 'bytes', 'shape': [-1]}})",
    "mr_schema_shape_type": _MR + "FileWriter('x.mindrecord').add_schema({'a': {'type': 'int32', 'shape': 3}})",
    "mr_schema_extra_keys": _MR + "FileWriter('x.mindrecord').add_schema({'a': {'type': 'int32', 'size': 4}})",
    "mr_schema_value_not_dict": _MR + "FileWriter('x.mindrecord').add_schema({'a': 'int32'})",
    "mr_schema_twice": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.add_schema(SCHEMA)",
    "mr_index_blob_field": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.add_index(['m'])",
    "mr_index_unknown_field": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.add_index(['zz'])",
    "mr_index_not_list": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.add_index('id')",
    "mr_index_not_str": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.add_index([1])",
    "mr_index_before_schema": _MR + "FileWriter('x.mindrecord').add_index(['id'])",
    "mr_raw_data_not_list": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.write_raw_data(make_rows(1)[0])",
    "mr_raw_data_item": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.write_raw_data([1])",
    "mr_raw_data_none_valid": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.write_raw_data([dict(make_rows(1)[0], id='x')])",
    "mr_write_after_commit": _MR + "w = FileWriter('x.mindrecord')\nw.add_schema(SCHEMA)\nw.write_raw_data(make_rows(1))\nw.commit()\nw.write_raw_data(make_rows(1))",
    "mr_commit_without_schema": _MR + "FileWriter('x.mindrecord').commit()",
    "mr_header_size_range": _MR + "FileWriter('x.mindrecord').set_header_size(1 << 10)",
    "mr_page_size_range": _MR + "FileWriter('x.mindrecord').set_page_size(1 << 29)",
    "mr_page_size_four": _MR + "FileWriter('x.mindrecord').set_page_size((1 << 15) + 2)",
    "mr_dataset_missing_file": _MR + "ds.MindDataset('/no/such/dir/x.mindrecord')",
    "mr_dataset_missing_db": _MR + "p = write('all.mindrecord', make_rows(1))\nos.remove('all.mindrecord.db')\nresult = rows(ds.MindDataset('all.mindrecord'))",
    "mr_dataset_shuffle_type": _MR + "p = write('all.mindrecord', make_rows(1))\nds.MindDataset(p, shuffle=3)",
})
_PATH = "the wheel's text holds the case's temporary directory"
OPTIONS.update({name: {"message": True} for name in (
    "mr_file_name_empty", "mr_file_name_slash", "mr_file_name_chars", "mr_file_name_type", "mr_shard_num_range",
    "mr_shard_num_type", "mr_overwrite_type", "mr_schema_empty", "mr_schema_not_dict", "mr_schema_field_name",
    "mr_schema_field_type", "mr_schema_array_type", "mr_schema_shape_type", "mr_schema_extra_keys",
    "mr_schema_value_not_dict", "mr_schema_twice", "mr_index_blob_field", "mr_index_not_list", "mr_index_not_str",
    "mr_index_before_schema", "mr_raw_data_not_list", "mr_raw_data_item", "mr_raw_data_none_valid",
    "mr_write_after_commit", "mr_dataset_missing_file", "mr_dataset_missing_db", "mr_dataset_shuffle_type")})
OPTIONS.update({
    "mr_exists_without_overwrite": {"message_parts": [
        "Invalid file, mindrecord files already exist. Please check file path: ",
        "/all.mindrecord.\nIf you do not want to keep the files, set the 'overwrite' parameter to True and try again."],
        "why": _PATH},
    "mr_db_exists_without_overwrite": {"message_parts": [
        "Invalid file, mindrecord files already exist. Please check file path: ",
        "/lone.mindrecord.\nIf you do not want to keep the files, set the 'overwrite' parameter to True and try "
        "again."], "why": _PATH},
    "mr_index_unknown_field": {"message_parts": [
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.",
        "Invalid input, 'index_fields': zz can not found in schema: {\"a\":{\"shape\":[-1],\"type\":\"float32\"},"
        "\"b\":{\"type\":\"bytes\"},\"big\":{\"type\":\"int64\"},\"f\":{\"type\":\"float64\"},"
        "\"g\":{\"type\":\"float32\"},\"id\":{\"type\":\"int32\"},\"m\":{\"shape\":[2,2],\"type\":\"int64\"},"
        "\"s\":{\"type\":\"string\"}}.\n Please use 'add_index' function to add proper 'index_fields'."],
        "why": _PIPELINE},
    "mr_commit_without_schema": {"message_parts": [
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.",
        "Invalid data, schema is not found in header, please use 'add_schema' to add a schema for new mindrecord "
        "files."], "why": _PIPELINE},
    "mr_header_size_range": {"message_parts": [
        "Invalid data, header size: 1024 should be in range [16384 bytes, 134217728 bytes]."], "why": _PIPELINE},
    "mr_page_size_range": {"message_parts": [
        "Invalid data, page size: 536870912 should be in range [32768 bytes, 268435456 bytes]."], "why": _PIPELINE},
    "mr_page_size_four": {"message_parts": ["Invalid data, page size 32770 should be divided by four."],
                          "why": _PIPELINE},
})

CASES["dataset_helper"] = ("import mindspore.dataset as ds\ndata = ds.NumpySlicesDataset({'x': np.arange(8, dtype=np.float32).reshape(4, 2), 'y': np.arange(4)}, shuffle=False).batch(2)\n"
                           "h = ms.DatasetHelper(data, dataset_sink_mode=False)\nresult = [list(step) for step in h]")
CASES["dataset_helper_sink"] = ("import mindspore.dataset as ds\ndata = ds.NumpySlicesDataset({'x': np.ones((2, 1), np.float32)})\n"
                                "result = ms.DatasetHelper(data)")
OPTIONS["dataset_helper_sink"] = {"message_parts": ["Unsupported op [InitDataSetQueue] on CPU"],
                                  "why": "the wheel's text goes on with its kernel graph's node names and C++ stack"}
