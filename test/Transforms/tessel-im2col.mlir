// RUN: tessel-opt %s --split-input-file --tessel-im2col | FileCheck %s
// RUN: tessel-opt %s --split-input-file --tessel-im2col --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA

// NCHW of batch 1, stride 2: the patches (c, kh, kw, oh, ow) read the input
// at (oh * 2 + kh, ow * 2 + kw); W (F x C*KH*KW) @ patches (C*KH*KW x
// OH*OW); the fill of the init is a fill of the matrix.
// CHECK-DAG: #[[PATCH:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (0, d0, d3 * 2 + d1, d4 * 2 + d2)>
// CHECK-LABEL: func.func @nchw_stride2
// CHECK: %[[COLS:.*]] = linalg.generic {indexing_maps = [#[[PATCH]],
// CHECK: } -> tensor<8x3x3x8x8xf16>
// CHECK: %[[B:.*]] = tensor.collapse_shape %[[COLS]] {{\[}}[0, 1, 2], [3, 4]] : tensor<8x3x3x8x8xf16> into tensor<72x64xf16>
// CHECK: %[[A:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<16x8x3x3xf16> into tensor<16x72xf16>
// CHECK: %[[INIT:.*]] = linalg.fill {{.*}} -> tensor<16x64xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x72xf16>, tensor<72x64xf16>) outs(%[[INIT]] : tensor<16x64xf32>)
// CHECK: tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2, 3]] output_shape [1, 16, 8, 8]
// CHECK-NOT: linalg.conv
// ISA: gpu.binary
func.func @nchw_stride2(%x: tensor<1x8x17x17xf16>, %w: tensor<16x8x3x3xf16>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x17x17xf16>, tensor<16x8x3x3xf16>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// NHWC of batch 2, dilation 2: patches (n, oh, ow, kh, kw, c) @ W
// (KH*KW*C x F); the init argument is reshaped.
// CHECK-DAG: #[[PATCH6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3 * 2, d2 + d4 * 2, d5)>
// CHECK-LABEL: func.func @nhwc_dilation2
// CHECK: linalg.generic {indexing_maps = [#[[PATCH6]],
// CHECK: } -> tensor<2x8x8x3x3x8xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<128x72xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<72x16xf32>
// CHECK: %[[INIT2:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x8x8x16xf32> into tensor<128x16xf32>
// CHECK: linalg.matmul {{.*}} outs(%[[INIT2]] : tensor<128x16xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 8, 8, 16]
func.func @nhwc_dilation2(%x: tensor<2x12x12x8xf32>, %w: tensor<3x3x8x16xf32>, %y: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x12x12x8xf32>, tensor<3x3x8x16xf32>) outs(%y : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  return %0 : tensor<2x8x8x16xf32>
}

// -----

// NCHW with a batch: the matmul would broadcast the filter; left alone.
// CHECK-LABEL: func.func @nchw_batch2
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.matmul
func.func @nchw_batch2(%x: tensor<2x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %y: tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%y : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %0 : tensor<2x16x8x8xf32>
}

// -----

// A 1x1 window of stride 1: the patches are the input, reshaped; no copy.
// CHECK-LABEL: func.func @pointwise_nchw
// CHECK-NOT: linalg.generic
// CHECK: %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<1x32x14x14xf16> into tensor<32x196xf16>
// CHECK: %[[W:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<64x32x1x1xf16> into tensor<64x32xf16>
// CHECK: linalg.matmul ins(%[[W]], %[[X]] : tensor<64x32xf16>, tensor<32x196xf16>)
func.func @pointwise_nchw(%x: tensor<1x32x14x14xf16>, %w: tensor<64x32x1x1xf16>, %y: tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x14x14xf16>, tensor<64x32x1x1xf16>) outs(%y : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  return %0 : tensor<1x64x14x14xf32>
}

// -----

// CHECK-LABEL: func.func @pointwise_nhwc
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x7x7x32xf32> into tensor<98x32xf32>
// CHECK: linalg.matmul
func.func @pointwise_nhwc(%x: tensor<2x7x7x32xf32>, %w: tensor<1x1x32x16xf32>, %y: tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x7x7x32xf32>, tensor<1x1x32x16xf32>) outs(%y : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  return %0 : tensor<2x7x7x16xf32>
}
