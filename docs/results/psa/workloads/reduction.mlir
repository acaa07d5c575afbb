// Reductions: the global average pool of ResNet-50 (sum of 1x2048x7x7 over
// the 7x7 window) and the row sums of a LayerNorm over BERT-base's hidden
// size (128 rows of 768). Workloads of the PSA benchmark (docs/Pruner.md).
#in4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#out4 = affine_map<(n, c, h, w) -> (n, c)>
#in2 = affine_map<(r, k) -> (r, k)>
#out2 = affine_map<(r, k) -> (r)>
func.func @forward(%x: tensor<1x2048x7x7xf32>, %y: tensor<128x768xf32>)
    -> (tensor<1x2048xf32>, tensor<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x2048xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %0 = linalg.generic {indexing_maps = [#in4, #out4],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x2048x7x7xf32>) outs(%i1 : tensor<1x2048xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x2048xf32>
  %e2 = tensor.empty() : tensor<128xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128xf32>) -> tensor<128xf32>
  %1 = linalg.generic {indexing_maps = [#in2, #out2],
                       iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<128x768xf32>) outs(%i2 : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0, %1 : tensor<1x2048xf32>, tensor<128xf32>
}
