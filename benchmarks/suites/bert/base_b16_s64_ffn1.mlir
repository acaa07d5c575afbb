// BERT-base (hidden 768, 12 heads, FFN 3072) batch 16 seq 64: FFN in, 12 per forward pass
func.func @forward(%a: tensor<1024x768xf32>, %b: tensor<768x3072xf32>) -> tensor<1024x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x3072xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x768xf32>, tensor<768x3072xf32>) outs(%c : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  return %r : tensor<1024x3072xf32>
}
