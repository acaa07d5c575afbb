// batch_matmul 5x91x39 * 5x39x91: odd extents, a space small enough to enumerate
func.func @forward(%a: tensor<5x91x39xf32>, %b: tensor<5x39x91xf32>) -> tensor<5x91x91xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x91x91xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x91x91xf32>) -> tensor<5x91x91xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<5x91x39xf32>, tensor<5x39x91xf32>) outs(%c : tensor<5x91x91xf32>) -> tensor<5x91x91xf32>
  return %r : tensor<5x91x91xf32>
}
