// Default schedules give the GPU work to do where the problem has it (issue
// 52): a matrix-vector product, a keepdim row reduction and a 1x1
// convolution each launch at least 64 blocks of at least 128 threads, in
// one kernel (their fills computed in it). The matvec had 8 blocks of 16
// threads before rows split over a block's threads, the 1x1 convolution 64
// blocks of 196 threads, each block the whole 56 x 56 image of one output
// channel, unstaged (docs/DefaultSchedules.md).
//
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
//
// CHECK-LABEL: llvm.func @matvec(
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(512 : index) : i64
// CHECK-DAG: %[[T:.*]] = llvm.mlir.constant(192 : index) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.launch_func @matvec_kernel::@matvec_kernel blocks in (%[[B]], %[[ONE]], %[[ONE]]) threads in (%[[T]], %[[ONE]], %[[ONE]])
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @row_sum_keepdim(
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG: %[[T:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.launch_func @row_sum_keepdim_kernel::@row_sum_keepdim_kernel blocks in (%[[B]], %[[ONE]], %[[ONE]]) threads in (%[[T]], %[[ONE]], %[[ONE]])
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @conv1x1(
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(392 : index) : i64
// CHECK-DAG: %[[T:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.launch_func @conv1x1_kernel::@conv1x1_kernel blocks in (%[[B]], %[[ONE]], %[[ONE]]) threads in (%[[T]], %[[ONE]], %[[ONE]])
// CHECK-NOT: gpu.launch_func
func.func @matvec(%a: tensor<512x384xf32>, %x: tensor<384xf32>) -> tensor<512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %r = linalg.matvec ins(%a, %x : tensor<512x384xf32>, tensor<384xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  return %r : tensor<512xf32>
}
func.func @row_sum_keepdim(%a: tensor<1x128x768xf32>) -> tensor<1x128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<1x128x768xf32>) outs(%f : tensor<1x128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<1x128x1xf32>
  return %r : tensor<1x128x1xf32>
}
func.func @conv1x1(%x: tensor<1x256x56x56xf32>, %w: tensor<64x256x1x1xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x256x56x56xf32>, tensor<64x256x1x1xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
