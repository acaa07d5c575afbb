// BERT-large (hidden 1024, 16 heads, FFN 4096) batch 1 seq 128: Q/K/V/output projection, 96 per forward pass
func.func @forward(%a: tensor<128x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<128x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  return %r : tensor<128x1024xf32>
}
