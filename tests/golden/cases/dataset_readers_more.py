"""More mindspore.dataset corpus readers (CLUE, IWSLT, LFW, USPS, SBD, PhotoTour, Tedlium, GTZAN ...), each on
a tiny corpus the case writes in the corpus's own on-disk format (nothing is downloaded). An image column of raw
bytes is shown as the name of the file whose bytes it holds."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("golden_cases_dataset_readers_for_more",
                                               Path(__file__).resolve().parent / "dataset_readers.py")
_FIRST = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_FIRST)  # type: ignore[union-attr]
_H = _FIRST._H  # the corpus helpers every case starts with (writing files, showing image bytes as file names)

_CLUE = _H + (
    "def wl(name, recs):\n"
    "    p = os.path.join(root, name)\n"
    "    open(p, 'w', encoding='utf-8').write(''.join(json.dumps(r, ensure_ascii=False) + '\\n' for r in recs))\n"
    "    return p\n"
    "data = {\n"
    " 'AFQMC': [{'id': 3, 'sentence1': '双十一花呗', 'sentence2': '花呗提额', 'label': '0'}, {'id': 4, 'sentence1': 'a', 'sentence2': 'b', 'label': '1'}],\n"
    " 'TNEWS': [{'id': 5, 'label': '102', 'label_desc': 'news_ent', 'sentence': 's1', 'keywords': 'k1,k2'}, {'id': 6, 'label': '110', 'label_desc': 'x', 'sentence': 's2', 'keywords': ''}],\n"
    " 'IFLYTEK': [{'id': 7, 'label': '11', 'label_des': 'app', 'sentence': 's'}],\n"
    " 'CMNLI': [{'id': 8, 'sentence1': 'p', 'sentence2': 'h', 'label': 'neutral'}],\n"
    " 'WSC': [{'target': {'span2_index': 37, 'span1_index': 5, 'span1_text': '床', 'span2_text': '它'}, 'idx': 0, 'label': 'false', 'text': 't'}],\n"
    " 'CSL': [{'id': 1, 'abst': 'ab', 'keyword': ['k1', 'k2'], 'label': '1'}, {'id': 2, 'abst': 'cd', 'keyword': ['z'], 'label': '0'}],\n"
    "}\n"
    "files = {t: wl(t + '.json', r) for t, r in data.items()}\n"
    "b = wl('b.json', [{'sentence1': 'b%d' % i, 'sentence2': 'c', 'label': '0'} for i in range(3)])\n"
    "c = wl('c.json', [{'sentence1': 'z%d' % i, 'sentence2': 'c', 'label': '0'} for i in range(2)])\n"
    "open(os.path.join(root, 'blank.json'), 'w').write('{\"sentence1\": \"a\", \"sentence2\": \"b\", \"label\": \"0\"}\\n\\n{\"sentence1\": \"c\", \"sentence2\": \"d\", \"label\": \"1\"}\\n')\n")

CASES = {}
for _task in ("AFQMC", "TNEWS", "IFLYTEK", "CMNLI", "WSC", "CSL"):
    CASES[f"clue_{_task}"] = _CLUE + (
        f"result = [(u, d.get_col_names(), d.get_dataset_size(), rows(d)) for u in ('train', 'test', 'eval') "
        f"for d in [ds.CLUEDataset(files['{_task}'], task='{_task}', usage=u, shuffle=False)]]")
CASES.update({
    "clue_number_types": _CLUE + "p = wl('n.json', [{'sentence1': 'x', 'sentence2': 'y', 'label': 1}, {'sentence1': 'x2', 'sentence2': 'y2', 'label': 2.5}])\nresult = rows(ds.CLUEDataset(p, shuffle=False))",
    "clue_two_files": _CLUE + "result = [str(r[1]) for r in ds.CLUEDataset([c, b], shuffle=False).create_tuple_iterator(output_numpy=True)]",
    "clue_two_files_one_worker": _CLUE + "result = [str(r[1]) for r in ds.CLUEDataset([c, b], shuffle=False, num_parallel_workers=1).create_tuple_iterator(output_numpy=True)]",
    "clue_glob_num_samples": _CLUE + "d = ds.CLUEDataset(os.path.join(root, '[bc].json'), shuffle=False, num_samples=3)\nresult = (d.get_dataset_size(), rows(d))",
    "clue_blank_line": _CLUE + "result = rows(ds.CLUEDataset(os.path.join(root, 'blank.json'), shuffle=False, usage='eval'))",
    "clue_shuffle_permutation": _CLUE + "ds.config.set_seed(1)\nresult = sorted(str(r[1]) for r in ds.CLUEDataset([b, c]).create_tuple_iterator(output_numpy=True))",
    "clue_missing_key": _CLUE + "result = rows(ds.CLUEDataset(files['IFLYTEK'], task='TNEWS', shuffle=False))",
    "clue_bad_task": _CLUE + "ds.CLUEDataset(b, task='QQP')",
    "clue_bad_usage": _CLUE + "ds.CLUEDataset(b, usage='dev')",
    "clue_empty_files": _CLUE + "ds.CLUEDataset([])",
    "clue_no_match": _CLUE + "ds.CLUEDataset('/no/such/clue.json')",
})
OPTIONS = {
    "clue_missing_key": {"message_parts": ["Invalid json file, in given JSON file, failed to find key: keywords"],
                         "why": "the wheel's text goes on with its C++ call stack"},
    "clue_bad_task": {"message": True},
    "clue_bad_usage": {"message": True},
    "clue_empty_files": {"message": True},
    "clue_no_match": {"message": True},
}

_IW = _H + (
    "def xml(segs, lang, s):\n"
    "    return ('<?xml version=\"1.0\" encoding=\"UTF-8\"?>\\n<mteval>\\n<srcset setid=\"%s\" srclang=\"%s\">\\n<doc docid=\"1\" genre=\"lectures\">\\n<url>u</url>\\n<talkid>1</talkid>\\n' % (s, lang)\n"
    "            + ''.join('<seg id=\"%d\"> %s </seg>\\n' % (i + 1, t) for i, t in enumerate(segs)) + '</doc>\\n</srcset>\\n</mteval>\\n')\n"
    "def tags(lines):\n"
    "    head = ['<url>http://x</url>', '<keywords>k</keywords>', '  <talkid>1</talkid>', '<title>T</title>', '<description>d</description>', '<speaker>S</speaker>']\n"
    "    return '\\n'.join(head + lines + ['<reviewer></reviewer>', '<translator href=\"x\">y</translator>']) + '\\n'\n"
    "i16 = os.path.join(root, 'iw16')\n"
    "d16 = os.path.join(i16, 'texts', 'de', 'en', 'de-en')\n"
    "w(os.path.join(d16, 'train.tags.de-en.de'), tags(['Hallo Welt.', '  Zweite  Zeile ', 'a <b> c &amp; d', '<b>fett</b>', 'x <url> y']))\n"
    "w(os.path.join(d16, 'train.tags.de-en.en'), tags(['Hello world.', '  Second  line ', 'x <y> z', '<b>bold</b>', 'dropped']))\n"
    "for s in ('tst2013', 'tst2014', 'dev2010', 'tst2011'):\n"
    "    w(os.path.join(d16, 'IWSLT16.TED.%s.de-en.de.xml' % s), xml([s + ' eins', s + ' zwei &amp; &quot;drei&quot;'], 'german', s))\n"
    "    w(os.path.join(d16, 'IWSLT16.TED.%s.de-en.en.xml' % s), xml([s + ' one', s + ' two &amp; &lt;three&gt;'], 'english', s))\n"
    "e16 = os.path.join(i16, 'texts', 'en', 'fr', 'en-fr')\n"
    "w(os.path.join(e16, 'train.tags.en-fr.en'), tags(['one', '', 'three']))\n"
    "w(os.path.join(e16, 'train.tags.en-fr.fr'), tags(['un', 'deux', 'trois']))\n"
    "i17 = os.path.join(root, 'iw17')\n"
    "d17 = os.path.join(i17, 'texts', 'DeEnItNlRo', 'DeEnItNlRo', 'DeEnItNlRo-DeEnItNlRo')\n"
    "for a, b in (('en', 'nl'), ('de', 'en')):\n"
    "    w(os.path.join(d17, 'train.tags.%s-%s.%s' % (a, b, a)), tags(['%s line %d' % (a, i) for i in range(3)]))\n"
    "    w(os.path.join(d17, 'train.tags.%s-%s.%s' % (a, b, b)), tags(['%s line %d' % (b, i) for i in range(3)]))\n"
    "    for s in ('dev2010', 'tst2010'):\n"
    "        for l in (a, b):\n"
    "            w(os.path.join(d17, 'IWSLT17.TED.%s.%s-%s.%s.xml' % (s, a, b, l)), xml(['%s %s %d' % (s, l, i) for i in range(2)], l, s))\n")

def _iw(name: str, cls: str, where: str, kwargs: str) -> None:
    CASES[name] = _IW + (f"d = ds.{cls}({where}, shuffle=False, {kwargs})\n"
                         "result = (d.get_col_names(), d.get_dataset_size(), rows(d))")


for _u in ("train", "valid", "test", "all"):
    _iw(f"iwslt2016_{_u}", "IWSLT2016Dataset", "i16", f"usage='{_u}', num_parallel_workers=2")
    _iw(f"iwslt2017_{_u}", "IWSLT2017Dataset", "i17", f"usage='{_u}', language_pair=('en', 'nl'), num_parallel_workers=2")
_iw("iwslt2016_default", "IWSLT2016Dataset", "i16", "num_parallel_workers=2")
_iw("iwslt2016_sets", "IWSLT2016Dataset", "i16", "usage='all', valid_set='dev2010', test_set='tst2011', num_parallel_workers=1")
_iw("iwslt2016_num_samples", "IWSLT2016Dataset", "i16", "num_samples=4, num_parallel_workers=2")
_iw("iwslt2017_default_list_pair", "IWSLT2017Dataset", "i17", "language_pair=['de', 'en'], num_parallel_workers=1")
CASES.update({
    "iwslt2016_empty_line": _IW + "result = rows(ds.IWSLT2016Dataset(i16, usage='train', language_pair=('en', 'fr'), shuffle=False))",
    "iwslt2016_missing_xml": _IW + "result = rows(ds.IWSLT2016Dataset(i16, usage='test', test_set='tst2012', shuffle=False))",
    "iwslt2016_bad_pair": _IW + "ds.IWSLT2016Dataset(i16, language_pair=('de', 'fr'))",
    "iwslt2016_bad_pair_list": _IW + "ds.IWSLT2016Dataset(i16, language_pair=['de', 'fr'])",
    "iwslt2016_pair_str": _IW + "ds.IWSLT2016Dataset(i16, language_pair='de')",
    "iwslt2016_bad_valid_set": _IW + "ds.IWSLT2016Dataset(i16, valid_set='tst2015')",
    "iwslt2016_bad_test_set": _IW + "ds.IWSLT2016Dataset(i16, test_set='dev2012')",
    "iwslt2017_bad_pair": _IW + "ds.IWSLT2017Dataset(i17, language_pair=('en', 'fr'))",
    "iwslt2017_bad_usage": _IW + "ds.IWSLT2017Dataset(i17, usage='dev')",
})
OPTIONS.update({
    "iwslt2016_empty_line": {"message_parts": ["Invalid file, read an empty line."],
                             "why": "the wheel's text goes on with its C++ call stack"},
    "iwslt2016_missing_xml": {"message_parts": ["Invalid file, failed to load xml file:", "IWSLT16.TED.tst2012.de-en.de.xml"],
                              "why": "the temporary directory's path differs between runs"},
    "iwslt2016_bad_pair": {"message": True},
    "iwslt2016_bad_pair_list": {"message": True},
    "iwslt2016_pair_str": {"message": True},
    "iwslt2016_bad_valid_set": {"message": True},
    "iwslt2016_bad_test_set": {"message": True},
    "iwslt2017_bad_pair": {"message": True},
    "iwslt2017_bad_usage": {"message": True},
})

_LFW = _H + (
    "people = {'Aaron_Eckhart': 1, 'Bob_Smith': 3, 'Carl_Z': 2, 'Dan_Q': 1}\n"
    "k = 0\n"
    "for sub in ('lfw', 'lfw_funneled', 'lfw-deepfunneled'):\n"
    "    for n, c in people.items():\n"
    "        for i in range(c):\n"
    "            img(os.path.join(root, sub, n, '%s_%04d.jpg' % (n, i + 1)), 2, 3, k, 'PNG'); k += 1\n"
    "w(os.path.join(root, 'lfw-names.txt'), 'Dan_Q\\t1\\nCarl_Z\\t2\\nAaron_Eckhart\\t1\\nBob_Smith\\t3\\n')\n"
    "w(os.path.join(root, 'people.txt'), '2\\n2\\nCarl_Z\\t2\\nAaron_Eckhart\\t1\\n2\\nBob_Smith\\t3\\nDan_Q\\t1\\n')\n"
    "w(os.path.join(root, 'peopleDevTrain.txt'), '2\\nBob_Smith\\t3\\nAaron_Eckhart\\t1\\n')\n"
    "w(os.path.join(root, 'peopleDevTest.txt'), '1\\nDan_Q\\t1\\n')\n"
    "w(os.path.join(root, 'pairs.txt'), '2\\t1\\nBob_Smith\\t1\\t3\\nAaron_Eckhart\\t1\\tCarl_Z\\t2\\nCarl_Z\\t1\\t2\\nBob_Smith\\t2\\tDan_Q\\t1\\n')\n"
    "w(os.path.join(root, 'pairsDevTrain.txt'), '1\\nBob_Smith\\t2\\t3\\nDan_Q\\t1\\tAaron_Eckhart\\t1\\n')\n"
    "w(os.path.join(root, 'pairsDevTest.txt'), '1\\nCarl_Z\\t1\\t2\\nBob_Smith\\t1\\tCarl_Z\\t1\\n')\n")
for _i, _kw in enumerate(["", "usage='10fold'", "usage='train', image_set='original'", "usage='test', image_set='deepfunneled'",
                          "task='pairs'", "task='pairs', usage='10fold'", "task='pairs', usage='test', image_set='original'"]):
    CASES[f"lfw_{_i}"] = _LFW + f"d = ds.LFWDataset(root, shuffle=False, {_kw})\nresult = (d.get_col_names(), d.get_dataset_size(), rows(d))"
CASES.update({
    "lfw_decode": _LFW + "result = rows(ds.LFWDataset(root, shuffle=False, decode=True, task='pairs', usage='train'))",
    "lfw_num_samples_shard": _LFW + "result = [rows(ds.LFWDataset(root, shuffle=False, usage='10fold', num_shards=2, shard_id=s, num_samples=3)) for s in (0, 1)]",
    "lfw_shuffle_permutation": _LFW + "ds.config.set_seed(5)\nresult = sorted(int(r[1]) for r in ds.LFWDataset(root, usage='10fold').create_tuple_iterator(output_numpy=True))",
    "lfw_bad_task": _LFW + "ds.LFWDataset(root, task='faces')",
    "lfw_bad_usage": _LFW + "ds.LFWDataset(root, usage='dev')",
    "lfw_bad_image_set": _LFW + "ds.LFWDataset(root, image_set='raw')",
    "lfw_no_names": _LFW + "os.remove(os.path.join(root, 'lfw-names.txt'))\nresult = rows(ds.LFWDataset(root, shuffle=False))",
})
OPTIONS.update({
    "lfw_bad_task": {"message": True},
    "lfw_bad_usage": {"message": True},
    "lfw_bad_image_set": {"message": True},
    "lfw_no_names": {"message_parts": ["Invalid file, failed to open file: /tmp/"],
                     "why": "the temporary directory's path differs between runs"},
})

_USPS = _H + (
    "rng = np.random.RandomState(0)\n"
    "vals = [np.linspace(-1, 1, 256)[(np.arange(256) * (s + 1)) % 256] for s in range(3)] + [rng.uniform(-1, 1, 256) for _ in range(3)]\n"
    "def lines(vs, first, end=' \\n'):\n"
    "    return ''.join('%d %s%s' % ((k + first) % 10 + 1, ' '.join('%d:%s' % (i + 1, repr(float(x))) for i, x in enumerate(v)), end) for k, v in enumerate(vs))\n"
    "usps = os.path.join(root, 'usps_dir')\n"
    "w(os.path.join(usps, 'usps'), lines(vals[:4], 0))\n"
    "w(os.path.join(usps, 'usps.t'), lines(vals[4:], 7))\n"
    "bad = os.path.join(root, 'bad')\n"
    "w(os.path.join(bad, 'usps'), lines(vals[:2], 0, '\\n'))\n")
CASES.update({
    "usps_train": _USPS + "d = ds.USPSDataset(usps, usage='train', shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), rows(d))",
    "usps_test": _USPS + "result = rows(ds.USPSDataset(usps, usage='test', shuffle=False))",
    "usps_all": _USPS + "d = ds.USPSDataset(usps, shuffle=False)\nresult = (d.get_dataset_size(), [int(r[1]) for r in d.create_tuple_iterator(output_numpy=True)])",
    "usps_all_one_worker": _USPS + "result = [int(r[1]) for r in ds.USPSDataset(usps, shuffle=False, num_parallel_workers=1).create_tuple_iterator(output_numpy=True)]",
    "usps_num_samples": _USPS + "result = rows(ds.USPSDataset(usps, shuffle=False, usage='train', num_samples=2))",
    "usps_no_trailing_blank": _USPS + "result = rows(ds.USPSDataset(bad, usage='train', shuffle=False))",
    "usps_bad_usage": _USPS + "ds.USPSDataset(usps, usage='valid')",
    "usps_missing_dir": _USPS + "ds.USPSDataset(os.path.join(root, 'nope'))",
})
OPTIONS.update({
    "usps_no_trailing_blank": {"message_parts": ["Invalid data, the number of split characters ':' in USPS data file is corrupted, should be 257, but got 256."],
                               "why": "the wheel's text goes on with its C++ call stack"},
    "usps_bad_usage": {"message": True},
    "usps_missing_dir": {"message_parts": ["does not exist or is not a directory or permission denied!"],
                         "why": "the temporary directory's path differs between runs"},
})

_SBD = _H + (
    "from scipy.io import savemat\nfrom scipy import sparse\n"
    "sbd = os.path.join(root, 'sbd')\n"
    "ids = ['2008_000002', '2008_000003', '2008_000007']\n"
    "for k, i in enumerate(ids):\n"
    "    img(os.path.join(sbd, 'img', i + '.jpg'), 3, 4, k, 'PNG')\n"
    "    cells = np.empty((20, 1), object)\n"
    "    for c in range(20):\n"
    "        cells[c, 0] = sparse.csc_matrix(((np.arange(12).reshape(3, 4) + c + k) % 7 == 0).astype(np.uint8))\n"
    "    os.makedirs(os.path.join(sbd, 'cls'), exist_ok=True)\n"
    "    savemat(os.path.join(sbd, 'cls', i + '.mat'), {'GTcls': {'Boundaries': cells, 'Segmentation': ((np.arange(12).reshape(3, 4) * (k + 1)) % 21).astype(np.uint8), 'CategoriesPresent': np.array([[1, 2]])}})\n"
    "w(os.path.join(sbd, 'train.txt'), '2008_000003\\n2008_000002\\n')\n"
    "w(os.path.join(sbd, 'val.txt'), '2008_000007\\n')\n"
    "w(os.path.join(sbd, 'train_noval.txt'), '2008_000002\\n')\n")
CASES.update({
    "sbd_boundaries_all": _SBD + "d = ds.SBDataset(sbd, shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), rows(d))",
    "sbd_segmentation_decode": _SBD + "result = [rows(ds.SBDataset(sbd, task='Segmentation', usage=u, decode=True, shuffle=False)) for u in ('train', 'val', 'train_noval')]",
    "sbd_num_samples": _SBD + "result = rows(ds.SBDataset(sbd, task='Segmentation', num_samples=2, shuffle=False))",
    "sbd_shard": _SBD + "result = [rows(ds.SBDataset(sbd, task='Segmentation', num_shards=2, shard_id=s, shuffle=False)) for s in (0, 1)]",
    "sbd_bad_task": _SBD + "ds.SBDataset(sbd, task='Edges')",
    "sbd_bad_usage": _SBD + "ds.SBDataset(sbd, usage='test')",
    "sbd_missing_listing": _SBD + "os.remove(os.path.join(sbd, 'val.txt'))\nds.SBDataset(sbd)",
})
OPTIONS.update({
    "sbd_bad_task": {"message": True},
    "sbd_bad_usage": {"message": True},
    "sbd_missing_listing": {"message_parts": ["SBDataset: /tmp/", "/sbd/val.txt not found"],
                            "why": "the temporary directory's path differs between runs"},
})

_PT = _H + (
    "lib = os.path.join(root, 'liberty'); os.makedirs(lib)\n"
    "for f in range(2):\n"
    "    a = ((np.arange(1024 * 1024).reshape(1024, 1024) // 64 * 7 + np.arange(1024)[:, None] // 3 + f * 50) % 256).astype(np.uint8)\n"
    "    Image.fromarray(a, 'L').save(os.path.join(lib, 'patches%04d.bmp' % f))\n"
    "w(os.path.join(lib, 'info.txt'), ''.join('%d 0\\n' % (i // 3) for i in range(260)))\n"
    "w(os.path.join(lib, 'm50_100000_100000_0.txt'), '0 0 0 1 0 0 0\\n5 1 0 258 86 0 0\\n259 86 0 258 86 0 0\\n17 5 0 200 5 0 0\\n')\n"
    "def sig(c):\n"
    "    return (c.shape, str(c.dtype), int(c.astype(np.int64).sum()), c[::9, ::13].tolist()) if c.ndim else (str(c.dtype), int(c))\n"
    "def srows(d):\n"
    "    return [[sig(c) for c in r] for r in d.create_tuple_iterator(output_numpy=True)]\n")
CASES.update({
    "phototour_train": _PT + "d = ds.PhotoTourDataset(root, 'liberty', shuffle=False)\nr = srows(d)\nresult = (d.get_col_names(), d.get_dataset_size(), r[:3], r[15:18], r[255:])",
    "phototour_test": _PT + "d = ds.PhotoTourDataset(root, 'liberty', usage='test', shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), srows(d))",
    "phototour_num_samples_shard": _PT + "result = [srows(ds.PhotoTourDataset(root, 'liberty', usage='test', shuffle=False, num_shards=2, shard_id=s, num_samples=1)) for s in (0, 1)]",
    "phototour_bad_name": _PT + "ds.PhotoTourDataset(root, 'paris')",
    "phototour_bad_usage": _PT + "ds.PhotoTourDataset(root, 'liberty', usage='val')",
    "phototour_missing_name": _PT + "ds.PhotoTourDataset(root, 'yosemite').get_dataset_size()",
})
OPTIONS.update({
    "phototour_bad_name": {"message": True},
    "phototour_bad_usage": {"message": True},
    "phototour_missing_name": {"message_parts": ["/yosemite does not exist."],
                               "why": "the temporary directory's path differs between runs"},
})

# TedliumDataset: the wheel's waveform column is all zeros (its SPHERE reader appends the samples after a
# zero-filled buffer of the same length and hands out the buffer), so the goldens keep the waveform's shape and
# dtype only; tests/dataset/test_tedlium.py checks the samples against the file's PCM.
_TED = _H + (
    "def sph(path, samples, rate):\n"
    "    os.makedirs(os.path.dirname(path), exist_ok=True)\n"
    "    head = ('NIST_1A\\n   1024\\nsample_count -i %d\\nsample_rate -i %d\\nchannel_count -i 1\\nsample_byte_format -s2 01\\n'\n"
    "            'sample_n_bytes -i 2\\nsample_coding -s3 pcm\\nend_head\\n' % (len(samples), rate)).encode()\n"
    "    open(path, 'wb').write(head + b' ' * (1024 - len(head)) + np.asarray(samples, '<i2').tobytes())\n"
    "def stm(path, talk, n):\n"
    "    w(path, ''.join('%s 1 %s_s%d %.2f %.2f <o,f0,%s> words of line %d\\n' % (talk, talk, i % 2, i * 0.5, i * 0.5 + 0.7, 'male' if i % 2 else 'female', i) for i in range(n)))\n"
    "def trows(d):\n"
    "    return [[(c.shape, str(c.dtype)) if c.dtype == np.float32 else c for c in r] for r in d.create_tuple_iterator(output_numpy=True)]\n"
    "t1 = os.path.join(root, 'TEDLIUM_release1')\n"
    "for u, talks in (('train', [('BTalk_2010', 2), ('ATalk_2009', 12)]), ('test', [('CTalk', 1)]), ('dev', [('DTalk', 2)])):\n"
    "    for k, (t, n) in enumerate(talks):\n"
    "        sph(os.path.join(t1, u, 'sph', t + '.sph'), np.arange(80) * (k + 3) * 97 % 6000 - 3000, 10)\n"
    "        stm(os.path.join(t1, u, 'stm', t + '.stm'), t, n)\n"
    "t3 = os.path.join(root, 'TEDLIUM_release-3')\n"
    "for t, n in (('911Mothers_2010W', 2), ('AalaElKhani', 1)):\n"
    "    sph(os.path.join(t3, 'data', 'sph', t + '.sph'), np.arange(30), 16)\n"
    "    stm(os.path.join(t3, 'data', 'stm', t + '.stm'), t, n)\n")
CASES.update({
    "tedlium_release1_train": _TED + "d = ds.TedliumDataset(t1, 'release1', 'train', shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), trows(d))",
    "tedlium_release2_all": _TED + "d = ds.TedliumDataset(t1, 'release2', shuffle=False, num_samples=9)\nresult = (d.get_dataset_size(), trows(d))",
    "tedlium_release2_dev_test": _TED + "result = [trows(ds.TedliumDataset(t1, 'release2', u, shuffle=False)) for u in ('dev', 'test')]",
    "tedlium_release3": _TED + "d = ds.TedliumDataset(t3, 'release3', shuffle=False)\nresult = (d.get_dataset_size(), trows(d))",
    "tedlium_shard": _TED + "result = [trows(ds.TedliumDataset(t3, 'release3', 'all', shuffle=False, num_shards=2, shard_id=s)) for s in (0, 1)]",
    "tedlium_bad_release": _TED + "ds.TedliumDataset(t1, 'release4')",
    "tedlium_bad_usage": _TED + "ds.TedliumDataset(t1, 'release1', usage='valid')",
    "tedlium_release3_usage": _TED + "ds.TedliumDataset(t3, 'release3', usage='train')",
    "tedlium_missing_folder": _TED + "ds.TedliumDataset(t3, 'release1', usage='dev').get_dataset_size()",
})
OPTIONS.update({
    "tedlium_bad_release": {"message": True},
    "tedlium_bad_usage": {"message": True},
    "tedlium_release3_usage": {"message": True},
    "tedlium_missing_folder": {"message_parts": ["Invalid file, failed to open folder: /tmp/", "TEDLIUM_release-3/dev/stm"],
                               "why": "the temporary directory's path differs between runs"},
})

_GTZAN = _H + (
    "import wave\n"
    "gt = os.path.join(root, 'gtzan')\n"
    "G = ['blues', 'classical', 'country', 'disco', 'hiphop', 'jazz', 'metal', 'pop', 'reggae', 'rock']\n"
    "for g in G:\n"
    "    os.makedirs(os.path.join(gt, g))\n"
    "    for i in range(100):\n"
    "        with wave.open(os.path.join(gt, g, '%s.%05d.wav' % (g, i)), 'wb') as f:\n"
    "            f.setnchannels(1); f.setsampwidth(2); f.setframerate(22050); f.writeframes(np.array([i * 300 - 15000, G.index(g) * 7], '<i2').tobytes())\n"
    "def grows(d):\n"
    "    return [(str(r[2]), round(float(r[0][0, 0]) * 32767), r[0].shape, str(r[0].dtype), int(r[1]), str(r[1].dtype)) for r in d.create_tuple_iterator(output_numpy=True)]\n")
CASES.update({
    "gtzan_train": _GTZAN + "d = ds.GTZANDataset(gt, usage='train', shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), grows(d))",
    "gtzan_valid": _GTZAN + "d = ds.GTZANDataset(gt, usage='valid', shuffle=False)\nresult = (d.get_dataset_size(), grows(d))",
    "gtzan_test": _GTZAN + "d = ds.GTZANDataset(gt, usage='test', shuffle=False)\nresult = (d.get_dataset_size(), grows(d))",
    "gtzan_all_sorted": _GTZAN + "d = ds.GTZANDataset(gt, shuffle=False)\nresult = (d.get_dataset_size(), sorted(grows(d)))",
    "gtzan_first_row": _GTZAN + "result = next(ds.GTZANDataset(gt, usage='valid', shuffle=False).create_tuple_iterator(output_numpy=True))",
    "gtzan_shard": _GTZAN + "result = [grows(ds.GTZANDataset(gt, usage='test', shuffle=False, num_shards=4, shard_id=s, num_samples=5)) for s in range(4)]",
    "gtzan_bad_rate": _GTZAN + "with wave.open(os.path.join(gt, 'blues', 'blues.00029.wav'), 'wb') as f:\n    f.setnchannels(1); f.setsampwidth(2); f.setframerate(8000); f.writeframes(b'\\0\\0')\nresult = grows(ds.GTZANDataset(gt, usage='train', shuffle=False))",
    "gtzan_bad_usage": _GTZAN + "ds.GTZANDataset(gt, usage='dev')",
})
OPTIONS.update({
    "gtzan_bad_rate": {"message_parts": ["Invalid file, sampling rate of GTZAN wav file must be 22050, file path: /tmp/", "/gtzan/blues/blues.00029.wav"],
                       "why": "the temporary directory's path differs between runs"},
    "gtzan_bad_usage": {"message": True},
})

_LSUN = _H + (
    "lsun = os.path.join(root, 'lsun')\n"
    "k = 0\n"
    "for c in ('classroom', 'bedroom', 'tower'):\n"
    "    for part in ('train', 'val'):\n"
    "        for i in (2, 10, 1):\n"
    "            img(os.path.join(lsun, '%s_%s' % (c, part), '%d_%d.jpg' % (i, k)), 2, 3, k, 'JPEG'); k += 1\n"
    "for i in range(2):\n"
    "    img(os.path.join(lsun, 'test', 't%d.jpg' % i), 2, 3, k, 'JPEG'); k += 1\n")
CASES.update({
    "lsun_all": _LSUN + "d = ds.LSUNDataset(lsun, shuffle=False)\nresult = (d.get_col_names(), d.get_dataset_size(), rows(d))",
    "lsun_train": _LSUN + "d = ds.LSUNDataset(lsun, usage='train', shuffle=False)\nresult = (d.get_dataset_size(), rows(d))",
    "lsun_valid_classes": _LSUN + "d = ds.LSUNDataset(lsun, usage='valid', classes=['tower', 'bedroom'], shuffle=False)\nresult = (d.get_dataset_size(), rows(d))",
    "lsun_test_rows": _LSUN + "result = rows(ds.LSUNDataset(lsun, usage='test', shuffle=False))",
    "lsun_decode_shard": _LSUN + "result = rows(ds.LSUNDataset(lsun, usage='train', decode=True, shuffle=False, num_shards=3, shard_id=1, num_samples=2))",
    "lsun_missing_class": _LSUN + "result = rows(ds.LSUNDataset(lsun, usage='train', classes=['kitchen'], shuffle=False))",
    "lsun_bad_class": _LSUN + "ds.LSUNDataset(lsun, classes=['attic'])",
    "lsun_bad_usage": _LSUN + "ds.LSUNDataset(lsun, usage='val')",
})
OPTIONS.update({
    "lsun_missing_class": {"message_parts": ["Invalid data, LSUNDataset API can't read the data file (interface mismatch or no data found). Check lsun file path: /tmp/"],
                           "why": "the temporary directory's path differs between runs"},
    "lsun_bad_class": {"message": True},
    "lsun_bad_usage": {"message": True},
})
