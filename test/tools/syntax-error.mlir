// RUN: not tessel-opt %s 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"
// RUN: not tessel-opt %s --tessel-to-cuda 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"

func.func @broken(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  // CHECK: syntax-error.mlir:[[@LINE+1]]:12: error: expected ':'
  return %0 tensor<4xf32>
}
