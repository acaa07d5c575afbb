// BERT-base's QKV projection (128x768 by 768x2304) split 4 ways along K:
// a partial kernel (4 x 128 x 2304 partial sums, accumulators in registers
// since session 34) and the combining reduction (docs/Materialization.md,
// "Split-K"). Nothing split has run on a GPU before.
func.func @forward(%x: tensor<128x768xf32>, %w: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %mm = linalg.matmul {tessel.split_k = 4 : i64} ins(%x, %w : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%f : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %mm : tensor<128x2304xf32>
}
