// matmul 273x273 * 273x273: odd extents, a space small enough to enumerate
func.func @forward(%a: tensor<273x273xf32>, %b: tensor<273x273xf32>) -> tensor<273x273xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<273x273xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<273x273xf32>) -> tensor<273x273xf32>
  %r = linalg.matmul ins(%a, %b : tensor<273x273xf32>, tensor<273x273xf32>) outs(%c : tensor<273x273xf32>) -> tensor<273x273xf32>
  return %r : tensor<273x273xf32>
}
