// BERT-large (hidden 1024, 16 heads, FFN 4096) batch 1 seq 64: attention scores Q.K^T, 24 per forward pass
func.func @forward(%a: tensor<16x64x64xf32>, %b: tensor<16x64x64xf32>) -> tensor<16x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64x64xf32>) -> tensor<16x64x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x64x64xf32>, tensor<16x64x64xf32>) outs(%c : tensor<16x64x64xf32>) -> tensor<16x64x64xf32>
  return %r : tensor<16x64x64xf32>
}
