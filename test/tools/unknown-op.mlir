// An op of an unregistered dialect is rejected by the parser.
// RUN: not tessel-opt %s 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"

func.func @unknown(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: unknown-op.mlir:[[@LINE+1]]:8: error: Dialect `torch' not found for custom op 'torch.aten.relu'
  %0 = torch.aten.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
