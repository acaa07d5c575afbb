// BERT-base attention scores Q K^T, 12 heads, sequence 128.
// C[b] = A[b] * B[b], f32 (cuBLAS: gemm=128,128,64 batch=12).
func.func @forward(%a: tensor<12x128x64xf32>, %b: tensor<12x64x128xf32>) -> tensor<12x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%c : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  return %r : tensor<12x128x128xf32>
}
