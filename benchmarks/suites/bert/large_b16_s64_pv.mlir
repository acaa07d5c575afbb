// BERT-large (hidden 1024, 16 heads, FFN 4096) batch 16 seq 64: attention context P.V, 24 per forward pass
func.func @forward(%a: tensor<256x64x64xf32>, %b: tensor<256x64x64xf32>) -> tensor<256x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x64x64xf32>) -> tensor<256x64x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<256x64x64xf32>, tensor<256x64x64xf32>) outs(%c : tensor<256x64x64xf32>) -> tensor<256x64x64xf32>
  return %r : tensor<256x64x64xf32>
}
