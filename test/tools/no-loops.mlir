// A loop-less op that is neither a fill nor a generic cannot become a kernel.
// RUN: not tessel-opt %s --tessel-to-cuda=format=isa 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"

func.func @copy_scalar(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  // CHECK: no-loops.mlir:[[@LINE+1]]:8: error: cannot compile 'linalg.copy' without loops for the GPU
  %0 = linalg.copy ins(%x : tensor<f32>) outs(%y : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
