// A matmul with its bias added on the register accumulators
// (--tessel-forward-accumulators, session 32): the schedule 300 analytic
// trials picked for GPT-2's QKV projection with bias (6 virtual threads in
// j, 48 KiB of staged tiles) with K = 192, two staging steps. No fused
// epilogue had run without its shared accumulator before; checked on the
// GPU against the CPU by scripts/gpu-check.sh
// (test/Pipelines/tessel-to-cuda-register-epilogue.mlir: the same kernel
// at K = 768).
func.func @f(%x: tensor<256x192xf32>, %w: tensor<192x2304xf32>, %b: tensor<2304xf32>) -> tensor<256x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator, fused_consumers = 1>, tessel.config = #tessel.config<tiles = [[8, 1, 4, 4, 2], [24, 6, 16, 1, 1], [2, 96, 1]], unroll = 16, vector = [4, 4]>}
      ins(%x, %w : tensor<256x192xf32>, tensor<192x2304xf32>) outs(%f : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<256x2304xf32>, tensor<2304xf32>) outs(%e : tensor<256x2304xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<256x2304xf32>
  return %r : tensor<256x2304xf32>
}
