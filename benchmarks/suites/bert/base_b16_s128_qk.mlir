// BERT-base (hidden 768, 12 heads, FFN 3072) batch 16 seq 128: attention scores Q.K^T, 12 per forward pass
func.func @forward(%a: tensor<192x128x64xf32>, %b: tensor<192x64x128xf32>) -> tensor<192x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<192x128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<192x128x128xf32>) -> tensor<192x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<192x128x64xf32>, tensor<192x64x128xf32>) outs(%c : tensor<192x128x128xf32>) -> tensor<192x128x128xf32>
  return %r : tensor<192x128x128xf32>
}
