// An unscheduled op with dynamic shapes cannot get a default schedule.
// RUN: not tessel-opt %s --tessel-to-cuda 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"
// RUN: not tessel-opt %s --tessel-to-cuda=format=isa 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"

func.func @dynamic(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+1]]:8: error: cannot give 'linalg.matmul' a default schedule: Tessel needs static shapes and at least one parallel loop
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
