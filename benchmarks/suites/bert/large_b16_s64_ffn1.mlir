// BERT-large (hidden 1024, 16 heads, FFN 4096) batch 16 seq 64: FFN in, 24 per forward pass
func.func @forward(%a: tensor<1024x1024xf32>, %b: tensor<1024x4096xf32>) -> tensor<1024x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x4096xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x4096xf32>) outs(%c : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  return %r : tensor<1024x4096xf32>
}
