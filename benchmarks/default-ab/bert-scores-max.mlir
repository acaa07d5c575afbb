// BERT-base's attention scores (12 heads of 128x64 by 64x128) and their
// softmax maximum, two kernels: the matmul's output is read by the
// reduction kernel, whose views kept the matmul's accumulators in global
// memory until session 34 (132 st.global a thread; now 16).
func.func @forward(%q: tensor<12x128x64xf32>, %k: tensor<12x64x128xf32>) -> tensor<12x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<12x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%f : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %e2 = tensor.empty() : tensor<12x128xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<12x128xf32>) -> tensor<12x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<12x128x128xf32>) outs(%f2 : tensor<12x128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<12x128xf32>
  return %r : tensor<12x128xf32>
}
