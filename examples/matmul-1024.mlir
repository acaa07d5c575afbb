// Single 1024x1024x1024 f32 matmul (C = A * B, C zero-filled first): the tuner's standard benchmark.
// Shapes: M = N = K = 1024, both operands are function arguments; linalg on tensors in torch-mlir style
// (tensor.empty + linalg.fill + linalg.matmul, as torch-mlir emits for torch.mm, cf. ../shared/eval/frontend-ir/torchmlir-alexnet.mlir).
module attributes {torch.debug_module_name = "MatMul"} {
  func.func @forward(%arg0: tensor<1024x1024xf32>, %arg1: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024x1024xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %2 : tensor<1024x1024xf32>
  }
}
