// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //' > %t.parallel
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" --mlir-disable-threading | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //' > %t.serial
// RUN: cmp %t.parallel %t.serial
// RUN: FileCheck %s < %t.parallel
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=fatbin" | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //' > %t.fatbin-parallel
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=fatbin" --mlir-disable-threading | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //' > %t.fatbin-serial
// RUN: cmp %t.fatbin-parallel %t.fatbin-serial

// tessel-compile-ptx assembles the kernels of a module on every core (each
// its own ptxas process) when the context is multithreaded, one at a time
// with --mlir-disable-threading (as in compile workers): the output is the
// same, byte for byte, except upstream's own timing property. ResNet-50:
// 88.7 s -> 53.7 s on two cores (docs/results/compile-models.md).
// Two kernels (the activation fuses into the first matmul), two cubins.
// CHECK-COUNT-2: bin = "\7FELF
// CHECK-NOT: bin = "\7FELF
func.func @forward(%x: tensor<64x128xf32>, %w1: tensor<128x64xf32>, %w2: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x64xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x64xf32>) outs(%c1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h1 : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x32xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %h3 = linalg.matmul ins(%r, %w2 : tensor<64x64xf32>, tensor<64x32xf32>) outs(%c3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %h3 : tensor<64x32xf32>
}
