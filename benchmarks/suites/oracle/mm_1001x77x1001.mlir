// matmul 1001x77 * 77x1001: odd extents, a space small enough to enumerate
func.func @forward(%a: tensor<1001x77xf32>, %b: tensor<77x1001xf32>) -> tensor<1001x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1001x1001xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1001x1001xf32>) -> tensor<1001x1001xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1001x77xf32>, tensor<77x1001xf32>) outs(%c : tensor<1001x1001xf32>) -> tensor<1001x1001xf32>
  return %r : tensor<1001x1001xf32>
}
