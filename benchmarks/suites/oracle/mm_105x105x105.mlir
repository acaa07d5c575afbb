// matmul 105x105 * 105x105: odd extents, a space small enough to enumerate
func.func @forward(%a: tensor<105x105xf32>, %b: tensor<105x105xf32>) -> tensor<105x105xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<105x105xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<105x105xf32>) -> tensor<105x105xf32>
  %r = linalg.matmul ins(%a, %b : tensor<105x105xf32>, tensor<105x105xf32>) outs(%c : tensor<105x105xf32>) -> tensor<105x105xf32>
  return %r : tensor<105x105xf32>
}
