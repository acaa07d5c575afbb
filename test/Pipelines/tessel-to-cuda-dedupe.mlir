// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa dedupe-kernels=0" | FileCheck %s --check-prefix=ALL

// Two layers of the same shape (a repeated block) compile to one kernel,
// launched twice; the third matmul, of another shape, keeps its own.
// (ResNet-50: 74 launches, 44 kernels compiled, the same 38 distinct PTX
// texts as without: docs/Materialization.md.)
// CHECK: gpu.launch_func @forward_kernel::@forward_kernel
// CHECK: gpu.launch_func @forward_kernel::@forward_kernel
// CHECK: gpu.launch_func @forward_kernel_1::@forward_kernel
// CHECK-COUNT-2: gpu.binary
// CHECK-NOT: gpu.binary

// ALL: gpu.launch_func @forward_kernel::@forward_kernel
// ALL: gpu.launch_func @forward_kernel_0::@forward_kernel
// ALL: gpu.launch_func @forward_kernel_1::@forward_kernel
// ALL-COUNT-3: gpu.binary
func.func @forward(%x: tensor<64x128xf32>, %w1: tensor<128x128xf32>, %w2: tensor<128x128xf32>, %w3: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h2 = linalg.matmul ins(%h1, %w2 : tensor<64x128xf32>, tensor<128x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e3 = tensor.empty() : tensor<64x32xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %h3 = linalg.matmul ins(%h2, %w3 : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %h3 : tensor<64x32xf32>
}
