// BERT-base (hidden 768, 12 heads, FFN 3072) batch 1 seq 128: FFN in, 12 per forward pass
func.func @forward(%a: tensor<128x768xf32>, %b: tensor<768x3072xf32>) -> tensor<128x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x3072xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x768xf32>, tensor<768x3072xf32>) outs(%c : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  return %r : tensor<128x3072xf32>
}
