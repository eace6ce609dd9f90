"""Image, detection and convolution primitives (table/image_crop.py, image_resize_kernels.py, patches.py, nms.py,
conv_special.py, space_batch.py, grid_sample3d.py): crops and ROI pooling, area/bicubic/kernel resizing, glimpses,
volume patches, 3-D grid sampling, non-maximum suppression, dilation, deformable offsets, max pooling with argmax;
values, gradients where the wheel defines them, dtypes and errors."""
_IMG = "x = Tensor(np.random.rand(2, 5, 6, 3).astype(np.float32))\n"
_BOX = ("boxes = Tensor(np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.7, 0.6, 0.2, 0.1], "
        "[-0.2, -0.1, 1.3, 0.5]], np.float32))\nbi = Tensor(np.array([0, 1, 0, 1], np.int32))\n")
_FEAT = ("f = Tensor(np.random.rand(2, 2, 6, 7).astype(np.float32))\n"
         "rois = Tensor(np.array([[0, 0.5, 0.5, 4.2, 3.9], [1, 1.0, 1.0, 5.0, 5.0], [0, -1.0, 2.0, 9.0, 4.0], "
         "[1, 3.0, 3.0, 3.2, 3.1]], np.float32))\n")
_HW = "x = Tensor(np.random.rand(2, 5, 6, 2).astype(np.float32))\n"
_NCHW = "x = Tensor(np.random.rand(2, 2, 5, 6).astype(np.float32))\n"
_VOL = "v = Tensor(np.random.rand(1, 1, 2, 3, 3).astype(np.float32))\ng = Tensor(np.random.uniform(-1.2, 1.2, (1, 2, 2, 3, 3)).astype(np.float32))\n"
_CNMS = ("boxes = Tensor(np.random.rand(2, 6, 1, 4).astype(np.float32))\nscores = Tensor(np.random.rand(2, 6, 3).astype(np.float32))\n")
_CNMS2 = ("boxes = Tensor(np.random.uniform(-0.2, 1.2, (1, 5, 2, 4)).astype(np.float32))\nscores = Tensor(np.random.rand(1, 5, 2).astype(np.float32))\n")
_OV = "ov = Tensor(np.random.rand(6, 6).astype(np.float32))\nsc = Tensor(np.random.rand(6).astype(np.float32))\n"
_DIL = "x = Tensor(np.random.rand(1, 2, 6, 6).astype(np.float32))\nw = Tensor(np.random.rand(2, 2, 3).astype(np.float32))\n"
_DEF = ("x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\n"
        "off = Tensor(np.random.uniform(-1.5, 1.5, (1, 12, 4, 4)).astype(np.float32))\n"
        "w = Tensor(np.random.rand(3, 2, 2, 2).astype(np.float32))\n")
_MP = "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\n"
CASES = {
    # CropAndResize / crop_and_resize
    "crop_bilinear": _IMG + _BOX + "result = ops.CropAndResize()(x, boxes, bi, (3, 4))",
    "crop_nearest": _IMG + _BOX + "result = ops.CropAndResize(method='nearest')(x, boxes, bi, (3, 4))",
    "crop_bilinear_v2": _IMG + _BOX + "result = ops.CropAndResize(method='bilinear_v2')(x, boxes, bi, (3, 4))",
    "crop_extrapolation": _IMG + _BOX + "result = ops.CropAndResize(extrapolation_value=0.5)(x, boxes, bi, (2, 5))",
    "crop_nearest_extrapolation": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes, bi, (4, 3), 'nearest', -1.0)",
    "crop_one_pixel": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes, bi, (1, 1))",
    "crop_functional": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes, bi, (3, 3), method='bilinear')",
    "crop_uint8": "x = Tensor(np.random.randint(0, 255, (1, 4, 4, 1)).astype(np.uint8))\n"
                  "result = ops.crop_and_resize(x, Tensor(np.array([[0.0, 0.0, 1.0, 1.0]], np.float32)), Tensor(np.array([0], np.int32)), (3, 3))",
    "crop_float64": "x = Tensor(np.random.rand(1, 4, 4, 2))\n"
                    "result = ops.crop_and_resize(x, Tensor(np.array([[0.1, 0.3, 0.9, 0.6]], np.float32)), Tensor(np.array([0], np.int32)), (2, 3))",
    "crop_float16": _IMG + _BOX + "result = ops.CropAndResize()(x.astype(ms.float16), boxes, bi, (3, 4))",
    "crop_grad_image": _IMG + _BOX + "result = ops.grad(lambda a: (ops.CropAndResize()(a, boxes, bi, (3, 4)) ** 2).sum())(x)",
    "crop_grad_boxes": _IMG + _BOX + "result = ops.grad(lambda a, b: (ops.CropAndResize()(a, b, bi, (3, 4)) ** 2).sum(), (0, 1))(x, boxes)",
    "crop_bad_method": _IMG + _BOX + "result = ops.CropAndResize(method='bicubic')",
    "crop_bad_rank": _BOX + "result = ops.crop_and_resize(Tensor(np.ones((5, 6, 3), np.float32)), boxes, bi, (3, 4))",
    # ROIAlign
    "roi": _FEAT + "result = ops.ROIAlign(2, 3, 0.5, 2)(f, rois)",
    "roi_scale1": _FEAT + "result = ops.ROIAlign(3, 2, 1.0, 1)(f, rois)",
    "roi_end_mode0": _FEAT + "result = ops.ROIAlign(2, 2, 1.0, 2, 0)(f, rois)",
    "roi_adaptive": _FEAT + "result = ops.ROIAlign(2, 2, 1.0, 0)(f, rois)",
    "roi_doc": "features = Tensor(np.array([[[[1., 2.], [3., 4.]]]]), ms.float32)\nrois = Tensor(np.array([[0, 0.2, 0.3, 0.2, 0.3]]), ms.float32)\nresult = ops.ROIAlign(2, 2, 0.5, 2)(features, rois)",
    "roi_grad": _FEAT + "result = ops.grad(lambda a: (ops.ROIAlign(2, 3, 0.5, 2)(a, rois) ** 2).sum())(f)",
    "roi_float16": _FEAT + "result = ops.ROIAlign(2, 3, 0.5, 2)(f.astype(ms.float16), rois.astype(ms.float16))",
    "roi_bad_scale": "result = ops.ROIAlign(2, 2, 1, 2)",
    # ResizeArea
    "area_down": _HW + "result = ops.ResizeArea()(x, Tensor(np.array([3, 4], np.int32)))",
    "area_up": _HW + "result = ops.ResizeArea()(x, Tensor(np.array([7, 9], np.int32)))",
    "area_align": _HW + "result = ops.ResizeArea(align_corners=True)(x, Tensor(np.array([3, 4], np.int32)))",
    "area_align_up": _HW + "result = ops.ResizeArea(align_corners=True)(x, Tensor(np.array([8, 7], np.int32)))",
    "area_doc": "images = Tensor([[[[2], [4], [6], [8]], [[10], [12], [14], [16]]]], ms.float16)\nresult = ops.ResizeArea()(images, Tensor([1, 2], ms.int32))",
    "area_int": "x = Tensor(np.random.randint(0, 9, (1, 4, 4, 1)).astype(np.int32))\nresult = ops.ResizeArea()(x, Tensor(np.array([3, 2], np.int32)))",
    # ResizeBicubic
    "bicubic": _NCHW + "result = ops.ResizeBicubic()(x, Tensor(np.array([7, 4], np.int32)))",
    "bicubic_align": _NCHW + "result = ops.ResizeBicubic(align_corners=True)(x, Tensor(np.array([7, 4], np.int32)))",
    "bicubic_half": _NCHW + "result = ops.ResizeBicubic(half_pixel_centers=True)(x, Tensor(np.array([3, 9], np.int32)))",
    "bicubic_float64": "x = Tensor(np.random.rand(1, 1, 3, 4))\nresult = ops.ResizeBicubic()(x, Tensor(np.array([5, 5], np.int32)))",
    "bicubic_grad": _NCHW + "result = ops.grad(lambda a: (ops.ResizeBicubic()(a, Tensor(np.array([7, 4], np.int32))) ** 2).sum())(x)",
    "bicubic_grad_half": _NCHW + "result = ops.grad(lambda a: (ops.ResizeBicubic(half_pixel_centers=True)(a, Tensor(np.array([3, 9], np.int32))) ** 2).sum())(x)",
    "bicubic_bad_flags": "result = ops.ResizeBicubic(align_corners=True, half_pixel_centers=True)",
    # ScaleAndTranslate
    "sat_lanczos3": _HW + "result = ops.ScaleAndTranslate()(x, Tensor(np.array([7, 4], np.int32)), Tensor(np.array([1.5, 0.7], np.float32)), Tensor(np.array([0.1, -0.3], np.float32)))",
    "sat_box": _HW + "result = ops.ScaleAndTranslate('box')(x, Tensor(np.array([3, 4], np.int32)), Tensor(np.array([0.6, 0.7], np.float32)), Tensor(np.array([0.0, 0.5], np.float32)))",
    "sat_triangle_noaa": _HW + "result = ops.ScaleAndTranslate('triangle', antialias=False)(x, Tensor(np.array([3, 4], np.int32)), Tensor(np.array([0.6, 0.7], np.float32)), Tensor(np.array([0.0, 0.5], np.float32)))",
    "sat_gaussian": _HW + "result = ops.ScaleAndTranslate('gaussian')(x, Tensor(np.array([6, 5], np.int32)), Tensor(np.array([1.2, 0.8], np.float32)), Tensor(np.array([0.3, 0.2], np.float32)))",
    "sat_keyscubic": _HW + "result = ops.ScaleAndTranslate('keyscubic')(x, Tensor(np.array([6, 5], np.int32)), Tensor(np.array([1.2, 0.8], np.float32)), Tensor(np.array([0.3, 0.2], np.float32)))",
    "sat_mitchell": _HW + "result = ops.ScaleAndTranslate('mitchellcubic')(x, Tensor(np.array([4, 8], np.int32)), Tensor(np.array([0.9, 1.3], np.float32)), Tensor(np.array([-0.5, 0.2], np.float32)))",
    "sat_lanczos1": _HW + "result = ops.ScaleAndTranslate('lanczos1')(x, Tensor(np.array([4, 8], np.int32)), Tensor(np.array([0.9, 1.3], np.float32)), Tensor(np.array([-0.5, 0.2], np.float32)))",
    "sat_lanczos5_noaa": _HW + "result = ops.ScaleAndTranslate('lanczos5', False)(x, Tensor(np.array([3, 3], np.int32)), Tensor(np.array([0.5, 0.5], np.float32)), Tensor(np.array([0.0, 0.0], np.float32)))",
    "sat_doc": "image = Tensor(np.array([[[[9.0], [5.0], [2.0], [1.0]], [[6.0], [1.0], [9.0], [7.0]]]]), ms.float32)\n"
               "result = ops.ScaleAndTranslate()(image, Tensor(np.array([2, 2]).astype(np.int32)), Tensor(np.array([1, 1]).astype(np.float32)), Tensor(np.array([1, 1]).astype(np.float32)))",
    "sat_grad": _HW + "result = ops.grad(lambda a: (ops.ScaleAndTranslate('triangle')(a, Tensor(np.array([3, 4], np.int32)), Tensor(np.array([0.6, 0.7], np.float32)), Tensor(np.array([0.0, 0.5], np.float32))) ** 2).sum())(x)",
    "sat_bad_kernel": "result = ops.ScaleAndTranslate('cubic')",
    # ExtractGlimpse
    "glimpse_corner": _HW + "result = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, noise='zero')(x, Tensor(np.array([3, 2], np.int32)), Tensor(np.array([[1.0, 2.0], [3.5, 4.2]], np.float32)))",
    "glimpse_centered": _HW + "result = ops.ExtractGlimpse(centered=True, normalized=True, uniform_noise=False, noise='zero')(x, Tensor(np.array([4, 3], np.int32)), Tensor(np.array([[0.0, 0.0], [0.5, -0.9]], np.float32)))",
    "glimpse_normalized": _HW + "result = ops.ExtractGlimpse(centered=False, normalized=True, uniform_noise=False, noise='zero')(x, Tensor(np.array([2, 2], np.int32)), Tensor(np.array([[0.5, 0.5], [1.0, 0.0]], np.float32)))",
    "glimpse_centered_pixels": _HW + "result = ops.ExtractGlimpse(centered=True, normalized=False, uniform_noise=False, noise='zero')(x, Tensor(np.array([3, 3], np.int32)), Tensor(np.array([[0.0, 0.0], [-2.0, 3.0]], np.float32)))",
    "glimpse_uniform_noise": _HW + "out = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=True, noise='uniform')(x, Tensor(np.array([4, 4], np.int32)), Tensor(np.array([[0.0, 0.0], [6.0, 7.0]], np.float32)))\n"
                             "o, a = out.asnumpy(), x.asnumpy()\n"
                             "result = (out.shape, out.dtype, bool(np.array_equal(o[0, 2:, 2:], a[0, :2, :2])), bool(np.array_equal(o[1, :1, :1], a[1, 4:, 5:])))",
    "glimpse_gaussian_noise": _HW + "out = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, noise='gaussian')(x, Tensor(np.array([3, 3], np.int32)), Tensor(np.array([[0.5, 0.5], [2.0, 2.0]], np.float32)))\n"
                              "o, a = out.asnumpy(), x.asnumpy()\n"
                              "result = (out.shape, out.dtype, bool(np.array_equal(o[1], a[1, :3, :3])), bool(np.array_equal(o[0, 1:, 1:], a[0, :2, :2])))",
    "glimpse_noise_bad": "result = ops.ExtractGlimpse(uniform_noise=True, noise='zero')",
    # ExtractVolumePatches
    "volume_valid": "x = Tensor(np.arange(2 * 2 * 4 * 4 * 5).reshape(2, 2, 4, 4, 5).astype(np.float32))\nresult = ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 2, 2), 'VALID')(x)",
    "volume_same": "x = Tensor(np.arange(1 * 2 * 3 * 4 * 5).reshape(1, 2, 3, 4, 5).astype(np.float32))\nresult = ops.ExtractVolumePatches((1, 1, 2, 3, 2), (1, 1, 2, 2, 3), 'SAME')(x)",
    "volume_float16": "x = Tensor(np.random.rand(1, 1, 3, 3, 3).astype(np.float16))\nresult = ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')(x)",
    "volume_bad_padding": "result = ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'FULL')",
    # GridSampler3D
    "gs3_bilinear": _VOL + "result = ops.GridSampler3D()(v, g)",
    "gs3_nearest_border": _VOL + "result = ops.GridSampler3D('nearest', 'border')(v, g)",
    "gs3_reflection_align": _VOL + "result = ops.GridSampler3D('bilinear', 'reflection', True)(v, g)",
    "gs3_border_align": _VOL + "result = ops.GridSampler3D('bilinear', 'border', True)(v, g)",
    "gs3_grad": _VOL + "result = ops.grad(lambda a, b: (ops.GridSampler3D()(a, b) ** 2).sum(), (0, 1))(v, g)",
    "gs3_grad_reflection": _VOL + "result = ops.grad(lambda a, b: (ops.GridSampler3D('bilinear', 'reflection', False)(a, b) ** 2).sum(), (0, 1))(v, g)",
    "gs3_bad_mode": "result = ops.GridSampler3D('bicubic')",
    # CombinedNonMaxSuppression
    "cnms": _CNMS + "result = ops.CombinedNonMaxSuppression()(boxes, scores, Tensor(3, ms.int32), Tensor(5, ms.int32), Tensor(0.4, ms.float32), Tensor(0.2, ms.float32))",
    "cnms_pad_per_class": _CNMS + "result = ops.CombinedNonMaxSuppression(pad_per_class=True)(boxes, scores, Tensor(2, ms.int32), Tensor(10, ms.int32), Tensor(0.5, ms.float32), Tensor(0.3, ms.float32))",
    "cnms_noclip": _CNMS2 + "result = ops.CombinedNonMaxSuppression(clip_boxes=False)(boxes, scores, Tensor(4, ms.int32), Tensor(6, ms.int32), Tensor(0.3, ms.float32), Tensor(0.0, ms.float32))",
    "cnms_clip": _CNMS2 + "result = ops.CombinedNonMaxSuppression()(boxes, scores, Tensor(4, ms.int32), Tensor(6, ms.int32), Tensor(0.3, ms.float32), Tensor(0.0, ms.float32))",
    "cnms_doc": "boxes = Tensor(np.array([[[[200, 100, 150, 100]], [[220, 120, 150, 100]], [[190, 110, 150, 100]], [[210, 112, 150, 100]]]])).astype('float32')\n"
                "scores = Tensor(np.array([[[0.2, 0.7, 0.1], [0.1, 0.8, 0.1], [0.3, 0.6, 0.1], [0.05, 0.9, 0.05]]])).astype('float32')\n"
                "result = ops.CombinedNonMaxSuppression()(boxes, scores, Tensor(4, ms.int32), Tensor(1, ms.int32), Tensor(0, ms.float32), Tensor(0, ms.float32))",
    # NonMaxSuppressionWithOverlaps
    "nmso": _OV + "result = ops.NonMaxSuppressionWithOverlaps()(ov, sc, Tensor(4, ms.int32), Tensor(0.5, ms.float32), Tensor(0.1, ms.float32))",
    "nmso_all": _OV + "result = ops.NonMaxSuppressionWithOverlaps()(ov, sc, Tensor(6, ms.int32), Tensor(1.0, ms.float32), Tensor(0.0, ms.float32))",
    "nmso_doc": "overlaps = Tensor(np.array([[0.6964692, 0.28613934, 0.22685145, 0.5513148], [0.71946895, 0.42310646, 0.9807642, 0.6848297], "
                "[0.4809319, 0.39211753, 0.343178, 0.7290497], [0.43857226, 0.059677895, 0.39804426, 0.7379954]]), ms.float32)\n"
                "scores = Tensor(np.array([0.18249173, 0.17545176, 0.53155136, 0.53182757]), ms.float32)\n"
                "result = ops.NonMaxSuppressionWithOverlaps()(overlaps, scores, Tensor(4, ms.int32), Tensor(0.1, ms.float32), Tensor(0.2, ms.float32))",
    # Dilation2D (its values: the wheel raises "Cast failed" for every pad_mode, so tests/ops/test_image_prims.py
    # holds them against numpy)
    "dilation_nhwc": "result = ops.Dilation2D(1, 1, 'SAME', 'NHWC')",
    # DeformableOffsets / deformable_conv2d
    "deform_offsets": _DEF + "result = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(x, off)",
    "deform_offsets_pad_stride": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\noff = Tensor(np.random.uniform(-1.5, 1.5, (1, 12, 3, 3)).astype(np.float32))\n"
                                 "result = ops.DeformableOffsets((1, 1, 2, 2), (1, 0, 1, 0), (2, 2))(x, off)",
    "deform_offsets_dilation": "x = Tensor(np.random.rand(1, 2, 6, 6).astype(np.float32))\noff = Tensor(np.random.uniform(-1.0, 1.0, (1, 12, 4, 4)).astype(np.float32))\n"
                               "result = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), (1, 1, 2, 2))(x, off)",
    "deform_groups": "x = Tensor(np.random.rand(1, 4, 4, 4).astype(np.float32))\noff = Tensor(np.random.uniform(-1.0, 1.0, (1, 24, 3, 3)).astype(np.float32))\n"
                     "result = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), deformable_groups=2)(x, off)",
    "deform_conv": _DEF + "result = ops.deformable_conv2d(x, w, off, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0))",
    "deform_conv_bias": _DEF + "result = ops.deformable_conv2d(x, w, off, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0), bias=Tensor(np.array([0.1, -0.2, 0.3], np.float32)))",
    "deform_conv_zero_offsets": "x = Tensor(np.random.rand(1, 2, 4, 4).astype(np.float32))\nw = Tensor(np.random.rand(3, 2, 3, 3).astype(np.float32))\n"
                                "off = Tensor(np.zeros((1, 27, 2, 2), np.float32))\nresult = ops.deformable_conv2d(x, w, off, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0))",
    "deform_grad": _DEF + "result = ops.grad(lambda a, o, k: (ops.deformable_conv2d(a, k, o, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)) ** 2).sum(), (0, 1, 2))(x, off, w)",
    "deform_bad_modulated": "result = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), modulated=False)",
    "deform_bad_strides": "result = ops.DeformableOffsets((2, 1, 1, 1), (0, 0, 0, 0), (2, 2))",
    # MaxPoolWithArgmax
    "mpa_valid": _MP + "result = ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(x)",
    "mpa_same": _MP + "result = ops.MaxPoolWithArgmax(kernel_size=3, strides=2, pad_mode='same')(x)",
    "mpa_rect": _MP + "result = ops.MaxPoolWithArgmax(kernel_size=(2, 3), strides=(1, 2))(x)",
    "mpa_float16": _MP + "result = ops.MaxPoolWithArgmax(2, 1)(x.astype(ms.float16))",
    "mpa_grad": _MP + "result = ops.grad(lambda a: (ops.MaxPoolWithArgmax(kernel_size=3, strides=2, pad_mode='same')(a)[0] ** 2).sum())(x)",
    "mpa_batch2": "x = Tensor(np.random.rand(2, 2, 4, 5).astype(np.float32))\nresult = ops.MaxPoolWithArgmax(kernel_size=2, strides=(2, 1))(x)",
    "mpa_bad_pad": "result = ops.MaxPoolWithArgmax(2, 2, 'pad')",
    # SampleDistortedBoundingBoxV2 (random: its constraints, not its values)
    "sdbb_constraints": "op = ops.SampleDistortedBoundingBoxV2(seed=1, seed2=2, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 1.0))\n"
                        "begin, size, box = op(Tensor([40, 60, 3], ms.int32), Tensor([[[0.2, 0.3, 0.6, 0.7]]], ms.float32), Tensor([0.1], ms.float32))\n"
                        "b, s, bb = begin.asnumpy(), size.asnumpy(), box.asnumpy()\n"
                        "area = s[0] * s[1] / 2400.0\n"
                        "result = (begin.dtype, size.dtype, box.dtype, begin.shape, size.shape, box.shape, int(b[2]), int(s[2]), "
                        "bool(b[0] >= 0 and b[1] >= 0 and b[0] + s[0] <= 40 and b[1] + s[1] <= 60), bool(0.1 - 1e-6 <= area <= 1.0 + 1e-6), "
                        "bool(np.allclose(bb[0, 0], [b[0] / 40, b[1] / 60, (b[0] + s[0]) / 40, (b[1] + s[1]) / 60], atol=1e-6)))",
    "sdbb_whole_image": "op = ops.SampleDistortedBoundingBoxV2(seed=3, seed2=4, aspect_ratio_range=(0.99, 1.01), area_range=(0.999, 1.0), max_attempts=5)\n"
                        "result = op(Tensor([10, 10, 1], ms.int32), Tensor([[[0.0, 0.0, 1.0, 1.0]]], ms.float32), Tensor([0.5], ms.float32))",
    "sdbb_bad_min": "result = ops.SampleDistortedBoundingBoxV2()(Tensor([10, 20, 3], ms.int32), Tensor([[[0.1, 0.2, 0.5, 0.6]]], ms.float32), Tensor(0.1, ms.float32))",
    # errors at the call
    "crop_bad_boxes": _IMG + "result = ops.CropAndResize()(x, Tensor(np.array([[0.1, 0.2, 0.8]], np.float32)), Tensor(np.array([0], np.int32)), (3, 4))",
    "crop_bad_size": _IMG + "result = ops.CropAndResize()(x, Tensor(np.array([[0.1, 0.2, 0.8, 0.9]], np.float32)), Tensor(np.array([0], np.int32)), (0, 4))",
    "crop_bad_index": _IMG + "result = ops.CropAndResize()(x, Tensor(np.array([[0.1, 0.2, 0.8, 0.9]], np.float32)), Tensor(np.array([2], np.int32)), (3, 4)).asnumpy()",
    "crop_functional_bad_crop_size": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes, bi, [3, 4])",
    "crop_functional_bad_boxes_dtype": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes.astype(ms.float64), bi, (3, 4))",
    "crop_functional_bad_extrapolation": _IMG + _BOX + "result = ops.crop_and_resize(x, boxes, bi, (3, 4), 'bilinear', 0)",
    "roi_bad_rois": "result = ops.ROIAlign(2, 2, 1.0)(Tensor(np.random.rand(1, 1, 4, 4).astype(np.float32)), Tensor(np.array([[0, 1, 1, 2]], np.float32)))",
    "area_bad_rank": "result = ops.ResizeArea()(Tensor(np.random.rand(4, 4, 1).astype(np.float32)), Tensor(np.array([2, 2], np.int32)))",
    "bicubic_bad_size": "result = ops.ResizeBicubic()(Tensor(np.random.rand(1, 1, 4, 4).astype(np.float32)), Tensor(np.array([2, 2, 2], np.int32)))",
    "volume_bad_rank": "result = ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')(Tensor(np.random.rand(1, 3, 3, 3).astype(np.float32)))",
    "volume_grad": "x = Tensor(np.random.rand(1, 1, 3, 3, 3).astype(np.float32))\nresult = ops.grad(lambda a: (ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')(a) ** 2).sum())(x)",
    "gs3_bad_grid": "result = ops.GridSampler3D()(Tensor(np.random.rand(1, 1, 2, 2, 2).astype(np.float32)), Tensor(np.random.rand(1, 2, 2, 2, 2).astype(np.float32))).asnumpy()",
    "mpa_bad_rank": "result = ops.MaxPoolWithArgmax(2, 2)(Tensor(np.random.rand(4, 4, 1).astype(np.float32)))",
    "deform_bad_offsets": "result = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32)), Tensor(np.random.rand(1, 12, 3, 3).astype(np.float32)))",
    "cnms_bad_boxes": "result = ops.CombinedNonMaxSuppression()(Tensor(np.random.rand(1, 4, 1, 3).astype(np.float32)), Tensor(np.random.rand(1, 4, 2).astype(np.float32)), Tensor(2, ms.int32), Tensor(2, ms.int32), Tensor(0.5, ms.float32), Tensor(0.0, ms.float32))",
    "nmso_bad_overlaps": "result = ops.NonMaxSuppressionWithOverlaps()(Tensor(np.random.rand(4, 3).astype(np.float32)), Tensor(np.random.rand(4).astype(np.float32)), Tensor(2, ms.int32), Tensor(0.5, ms.float32), Tensor(0.0, ms.float32))",
    "s2b_grad": "x = Tensor(np.random.rand(1, 2, 4, 4).astype(np.float32))\nresult = ops.grad(lambda a: (ops.SpaceToBatch(2, [[0, 2], [2, 0]])(a) ** 2).sum())(x)",
    "depthwise_grad": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\nw = Tensor(np.random.rand(1, 2, 3, 3).astype(np.float32))\n"
                      "result = ops.grad(lambda a, b: (ops.DepthwiseConv2dNative(1, 3, pad_mode='same')(a, b) ** 2).sum(), (0, 1))(x, w)",
    # SpaceToBatch / BatchToSpace / DepthwiseConv2dNative: no CPU kernel in the wheel (VIA below)
    "s2b": "x = Tensor(np.arange(2 * 3 * 4 * 6).reshape(2, 3, 4, 6).astype(np.float32))\nresult = ops.SpaceToBatch(2, [[0, 2], [1, 1]])(x)",
    "b2s": "x = Tensor(np.arange(8 * 2 * 2 * 3).reshape(8, 2, 2, 3).astype(np.float32))\nresult = ops.BatchToSpace(2, [[1, 0], [0, 2]])(x)",
    "depthwise": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\nw = Tensor(np.random.rand(1, 2, 3, 3).astype(np.float32))\nresult = ops.DepthwiseConv2dNative(1, 3, pad_mode='pad', pad=(1, 0, 1, 2), stride=2)(x, w)",
    "depthwise_bad_weight": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\nw = Tensor(np.random.rand(2, 2, 3, 3).astype(np.float32))\nresult = ops.DepthwiseConv2dNative(2, 3)(x, w)",
    "image_patches": "x = Tensor(np.arange(2 * 3 * 5 * 6).reshape(2, 3, 5, 6).astype(np.float32))\nresult = ops.ExtractImagePatches((1, 1, 2, 3), (1, 1, 2, 1), (1, 1, 1, 1), 'SAME')(x)",
    "depthwise_bad_stride": "result = ops.DepthwiseConv2dNative(1, 3, stride=(1, 2))",
}
VIA = {
    "s2b_grad": "x = Tensor(np.random.rand(1, 2, 4, 4).astype(np.float32))\nresult = ops.grad(lambda a: (ops.SpaceToBatchND(2, [[0, 2], [2, 0]])(a) ** 2).sum())(x)",
    "depthwise_grad": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\nw = Tensor(np.random.rand(1, 2, 3, 3).astype(np.float32))\n"
                      "result = ops.grad(lambda a, b: (ops.conv2d(a, b.reshape(2, 1, 3, 3), pad_mode='same', groups=2) ** 2).sum(), (0, 1))(x, w)",
    "s2b": "x = Tensor(np.arange(2 * 3 * 4 * 6).reshape(2, 3, 4, 6).astype(np.float32))\nresult = ops.SpaceToBatchND(2, [[0, 2], [1, 1]])(x)",
    "b2s": "x = Tensor(np.arange(8 * 2 * 2 * 3).reshape(8, 2, 2, 3).astype(np.float32))\nresult = ops.BatchToSpaceND(2, [[1, 0], [0, 2]])(x)",
    "depthwise": "x = Tensor(np.random.rand(1, 2, 5, 5).astype(np.float32))\nw = Tensor(np.random.rand(1, 2, 3, 3).astype(np.float32))\n"
                 "result = ops.conv2d(ops.pad(x, (1, 2, 1, 0)), w.reshape(2, 1, 3, 3), stride=2, groups=2)",
    "image_patches": "x = Tensor(np.arange(2 * 3 * 5 * 6).reshape(2, 3, 5, 6).astype(np.float32))\n"
                     "result = ops.ExtractVolumePatches((1, 1, 1, 2, 3), (1, 1, 1, 2, 1), 'SAME')(x.expand_dims(2)).squeeze(2)",
}
OPTIONS = {
    "roi_float16": {"rtol": 2e-3, "why": "the wheel sums the float16 samples in float16; mskernel sums in float64 and "
                                         "rounds once (the difference is a few float16 ulps)"},
    "image_patches": {"why": "the CPU wheel has no ExtractImagePatches kernel; ExtractVolumePatches over a depth of 1 "
                             "is the same op (rates of 1)"},
    "s2b_grad": {"why": "the CPU wheel has no SpaceToBatch kernel; SpaceToBatchND with one block size is the same op"},
    "depthwise_grad": {"why": "the CPU wheel has no DepthwiseConv2dNative kernel; the grouped conv2d is the same "
                              "convolution, its weight's gradient laid back out as (1, C, kh, kw)"},
    **{case: {"message": True} for case in ("crop_bad_boxes", "crop_bad_size", "crop_bad_index",
                                            "crop_functional_bad_crop_size", "crop_functional_bad_boxes_dtype",
                                            "crop_functional_bad_extrapolation", "roi_bad_rois", "area_bad_rank",
                                            "bicubic_bad_size", "volume_bad_rank", "gs3_bad_grid", "mpa_bad_rank",
                                            "deform_bad_offsets", "cnms_bad_boxes", "nmso_bad_overlaps",
                                            "depthwise_bad_weight")},
    **{case: {"message": True} for case in ("crop_bad_method", "crop_bad_rank", "deform_bad_modulated",
                                            "deform_bad_strides", "dilation_nhwc", "glimpse_noise_bad",
                                            "mpa_bad_pad", "roi_bad_scale", "sat_bad_kernel", "volume_bad_padding",
                                            "depthwise_bad_stride")},
    "gs3_bad_mode": {"message_parts": ["Failed to convert the value \"bicubic\" of input 'interpolation_mode' of "
                                       "'GridSampler3D' to enum."], "why": "the wheel appends its C++ call stack"},
    "sdbb_bad_min": {"message_parts": ["For primitive[SampleDistortedBoundingBoxV2], the min_object_covered "
                                       "dimension must be equal to 1, but got 0."],
                     "why": "the wheel appends its C++ call stack"},
    "s2b": {"why": "the CPU wheel has no SpaceToBatch kernel; SpaceToBatchND with one block size for both axes is the same op"},
    "b2s": {"why": "the CPU wheel has no BatchToSpace kernel; BatchToSpaceND with one block size for both axes is the same op"},
    "depthwise": {"why": "the CPU wheel has no DepthwiseConv2dNative kernel; a conv2d with groups = C and the (1, C) "
                         "filter laid out as (C, 1) is the same convolution"},
}
