// BERT-base (hidden 768, 12 heads, FFN 3072) batch 1 seq 128: attention context P.V, 12 per forward pass
func.func @forward(%a: tensor<12x128x128xf32>, %b: tensor<12x128x64xf32>) -> tensor<12x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%c : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  return %r : tensor<12x128x64xf32>
}
