// BERT-base's LayerNorm mean before its division: 128 rows of 768 summed
// (keepdim result as torch-mlir writes it).
func.func @forward(%x: tensor<1x128x768xf32>) -> tensor<1x128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x128x768xf32>) outs(%f : tensor<1x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x128x1xf32>
  return %r : tensor<1x128x1xf32>
}
