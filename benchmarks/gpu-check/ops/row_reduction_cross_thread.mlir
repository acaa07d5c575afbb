// The softmax maximum of a BERT encoder (12 heads x 128 rows of 128 scores
// to one per row, the keepdim result `(d0, d1, d2, 0)`) as a
// cross_thread_reduction: one block of 128 threads per row, combined across
// the block (the schedule the tuner finds for it, 17x faster than the
// default SIMULATED). Checked on the GPU against the CPU by
// scripts/gpu-check.sh and racechecked by scripts/gpu-verify-session.sh: no
// cross_thread_reduction kernel had run on a GPU before session 29, and it
// is the candidate default for such reductions (issue 41, item 8).
func.func @f(%x: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %init = linalg.fill ins(%cst : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"],
                       tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR">,
                       tessel.config = #tessel.config<tiles = [[1], [12], [128], [1, 128]], unroll = 64>}
      ins(%x : tensor<1x12x128x128xf32>) outs(%init : tensor<1x12x128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %0 : tensor<1x12x128x1xf32>
}
