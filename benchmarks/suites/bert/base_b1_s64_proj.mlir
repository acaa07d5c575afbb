// BERT-base (hidden 768, 12 heads, FFN 3072) batch 1 seq 64: Q/K/V/output projection, 48 per forward pass
func.func @forward(%a: tensor<64x768xf32>, %b: tensor<768x768xf32>) -> tensor<64x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x768xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x768xf32>) -> tensor<64x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x768xf32>, tensor<768x768xf32>) outs(%c : tensor<64x768xf32>) -> tensor<64x768xf32>
  return %r : tensor<64x768xf32>
}
