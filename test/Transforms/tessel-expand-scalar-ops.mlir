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

// -----

// A reduction to a scalar gets a leading parallel loop of extent 1, through
// its generic form; its init becomes tensor<1xT>.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func @sum_to_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<16x48xf32>, %[[S:.*]]: tensor<f32>)
// CHECK: %[[SE:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<16x48xf32>) outs(%[[SE]] : tensor<1xf32>)
// CHECK: arith.addf
// CHECK: } -> tensor<1xf32>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[G]] [] : tensor<1xf32> into tensor<f32>
// CHECK: return %[[R]] : tensor<f32>
func.func @sum_to_scalar(%x: tensor<16x48xf32>, %s: tensor<f32>) -> tensor<f32> {
  %0 = linalg.reduce ins(%x : tensor<16x48xf32>) outs(%s : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<f32>
}

// -----

// linalg.index follows the shift of the loops.
// CHECK-LABEL: func @index_weighted_sum
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: linalg.index 1 : index
func.func @index_weighted_sum(%x: tensor<64xf32>, %s: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<64xf32>) outs(%s : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %p = arith.mulf %in, %f : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Ops with dynamic shapes are left to the diagnostics of later passes.
// CHECK-LABEL: func @dynamic_sum
// CHECK: linalg.reduce
// CHECK-NOT: tensor.expand_shape
func.func @dynamic_sum(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<f32> {
  %0 = linalg.reduce ins(%x : tensor<?xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<f32>
}
