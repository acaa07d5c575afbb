// The matmul of tuning-spec.mlir's model with another N: a different
// workload, which the model's spec must leave alone.
func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
