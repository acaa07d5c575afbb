// RUN: tessel-opt %s -split-input-file --transform-interpreter | FileCheck %s

// transform.tessel.rewrite_window_accesses on the register-level tiles of
// convolutions: each input index `oh * s + kh` with one loop of more than one
// iteration becomes a strided view indexed by that loop alone.

// A stride-2 NCHW convolution tile of 2x4 outputs, one filter tap: the input
// is read through a view with strides 2 along h and w, and the op is a
// generic of projected permutations with the convolution's body.
// The maps: (n, f, oh, ow, c, kh, kw); the input window by (n, c, oh, ow).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2, d3)>
// CHECK-DAG: #[[F:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @stride2_tap
// CHECK-SAME: (%[[X:.*]]: memref<1x1x3x7xf32{{.*}}>, %[[W:.*]]: memref<1x1x1x1xf32{{.*}}>, %[[Y:.*]]: memref<1x1x2x4xf32{{.*}}>)
// CHECK: %[[V:.*]] = memref.subview %[[X]][0, 0, 0, 0] [1, 1, 2, 4] [1, 1, 2, 2] : memref<1x1x3x7xf32, strided<[147, 49, 7, 1], offset: ?>> to memref<1x1x2x4xf32, strided<[147, 49, 14, 2], offset: ?>>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[F]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[V]], %[[W]] : {{.*}}) outs(%[[Y]] : {{.*}}) attrs = {tessel.anchor = 3 : i64} {
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @stride2_tap(%x: memref<1x1x3x7xf32, strided<[147, 49, 7, 1], offset: ?>>,
                       %w: memref<1x1x1x1xf32, strided<[9, 9, 3, 1], offset: ?>>,
                       %y: memref<1x1x2x4xf32, strided<[64, 16, 4, 1], offset: ?>>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tessel.anchor = 3 : i64}
    ins(%x, %w : memref<1x1x3x7xf32, strided<[147, 49, 7, 1], offset: ?>>, memref<1x1x1x1xf32, strided<[9, 9, 3, 1], offset: ?>>)
    outs(%y : memref<1x1x2x4xf32, strided<[64, 16, 4, 1], offset: ?>>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match attributes {tessel.anchor = 3 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.rewrite_window_accesses %tiles : !transform.any_op
    transform.yield
  }
}

// -----

// One output, a column of three filter taps (kh): the input window is a
// column of the input read with stride 1 (the dilation) by kh.
// CHECK-LABEL: func.func @tap_column
// CHECK: %[[V:.*]] = memref.subview %{{.*}}[0, 0, 0, 0] [1, 1, 3, 1] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[V]], %{{.*}} : memref<1x1x3x1xf32, strided<[3, 3, 1, 1]>>, memref<1x1x3x1xf32>)
func.func @tap_column(%x: memref<1x1x3x1xf32>, %w: memref<1x1x3x1xf32>, %y: memref<1x1x1x1xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.anchor = 3 : i64}
    ins(%x, %w : memref<1x1x3x1xf32>, memref<1x1x3x1xf32>) outs(%y : memref<1x1x1x1xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match attributes {tessel.anchor = 3 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.rewrite_window_accesses %tiles : !transform.any_op
    transform.yield
  }
}

// -----

// A constant in the index (a shifted read of a 1-D stencil) becomes the
// view's offset.
// CHECK-LABEL: func.func @shifted
// CHECK: %[[V:.*]] = memref.subview %{{.*}}[2] [4] [3] : memref<16xf32> to memref<4xf32, strided<[3], offset: 2>>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : memref<4xf32, strided<[3], offset: 2>>)
func.func @shifted(%x: memref<16xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 3 + 2)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%y : memref<4xf32>) attrs = {tessel.anchor = 3 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match attributes {tessel.anchor = 3 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.rewrite_window_accesses %tiles : !transform.any_op
    transform.yield
  }
}

// -----

// Left as they are: an index of two loops of more than one iteration (two
// outputs and two taps along w), a negative coefficient, and dynamic sizes.
// CHECK-LABEL: func.func @not_windows
// CHECK-NOT: memref.subview
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: memref.subview
func.func @not_windows(%x: memref<1x1x1x3xf32>, %w: memref<1x1x1x2xf32>, %y: memref<1x1x1x2xf32>,
                       %r: memref<4xf32>, %s: memref<4xf32>,
                       %dx: memref<1x1x?x?xf32>, %dw: memref<1x1x1x1xf32>, %dy: memref<1x1x?x?xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.anchor = 3 : i64}
    ins(%x, %w : memref<1x1x1x3xf32>, memref<1x1x1x2xf32>) outs(%y : memref<1x1x1x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (-d0 + 3)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%r : memref<4xf32>) outs(%s : memref<4xf32>) attrs = {tessel.anchor = 3 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.anchor = 3 : i64}
    ins(%dx, %dw : memref<1x1x?x?xf32>, memref<1x1x1x1xf32>) outs(%dy : memref<1x1x?x?xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match attributes {tessel.anchor = 3 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.rewrite_window_accesses %tiles : !transform.any_op
    transform.yield
  }
}
