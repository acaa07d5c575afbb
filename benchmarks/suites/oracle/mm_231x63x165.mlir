// matmul 231x63 * 63x165: odd extents, a space small enough to enumerate
func.func @forward(%a: tensor<231x63xf32>, %b: tensor<63x165xf32>) -> tensor<231x165xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<231x165xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<231x165xf32>) -> tensor<231x165xf32>
  %r = linalg.matmul ins(%a, %b : tensor<231x63xf32>, tensor<63x165xf32>) outs(%c : tensor<231x165xf32>) -> tensor<231x165xf32>
  return %r : tensor<231x165xf32>
}
