// The fastest BERT QKV schedule measured on the H200 (61.5 us, docs/results/gpu-h200-2026-11-26). With stages = 2 (double buffering, cp.async, one barrier per step): its tiles doubled need dynamic shared memory (session 29); timed next to the single-stage schedule in the same call.
// C = A * B, f32, A 128x768, B 768x2304 (cuBLAS: gemm=128,2304,768).
func.func @forward(%a: tensor<128x768xf32>, %b: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 1, 8, 1, 4], [48, 1, 48, 1, 1], [8, 12, 8]], unroll = 0, vector = [2, 2], stages = 2>}
    ins(%a, %b : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %r : tensor<128x2304xf32>
}
