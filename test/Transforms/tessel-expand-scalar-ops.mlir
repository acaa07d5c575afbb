// RUN: tessel-opt %s -split-input-file --tessel-expand-scalar-ops -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @fill_scalar
// CHECK-SAME: (%[[V:.*]]: i64)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<i64>
// CHECK: %[[X:.*]] = tensor.expand_shape %[[E]] [] output_shape [1] : tensor<i64> into tensor<1xi64>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : i64) outs(%[[X]] : tensor<1xi64>) -> tensor<1xi64>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[F]] [] : tensor<1xi64> into tensor<i64>
// CHECK: return %[[R]] : tensor<i64>
func.func @fill_scalar(%v: i64) -> tensor<i64> {
  %e = tensor.empty() : tensor<i64>
  %0 = linalg.fill ins(%v : i64) outs(%e : tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// The 0-d input is read through a broadcast map; the init gets one loop.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func @convert_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f64>
// CHECK: %[[XE:.*]] = tensor.expand_shape %[[E]] [] output_shape [1] : tensor<f64> into tensor<1xf64>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[SCALAR]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[X]] : tensor<f32>) outs(%[[XE]] : tensor<1xf64>)
// CHECK: arith.extf
// CHECK: } -> tensor<1xf64>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[G]] [] : tensor<1xf64> into tensor<f64>
// CHECK: return %[[R]] : tensor<f64>
func.func @convert_scalar(%x: tensor<f32>) -> tensor<f64> {
  %e = tensor.empty() : tensor<f64>
  %0 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%x : tensor<f32>) outs(%e : tensor<f64>) {
  ^bb0(%in: f32, %out: f64):
    %d = arith.extf %in : f32 to f64
    linalg.yield %d : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// Ops with loops are left alone.
// CHECK-LABEL: func @not_scalar
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: tensor.collapse_shape
func.func @not_scalar(%x: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %0 = linalg.fill ins(%v : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @copy_scalar(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot compile 'linalg.copy' without loops for the GPU}}
  %0 = linalg.copy ins(%x : tensor<f32>) outs(%y : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
