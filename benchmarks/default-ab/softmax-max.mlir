// BERT-base's attention softmax maximum: 12 x 128 rows of 128, keepdim.
func.func @forward(%x: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x12x128x128xf32>) outs(%f : tensor<1x12x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %r : tensor<1x12x128x1xf32>
}
