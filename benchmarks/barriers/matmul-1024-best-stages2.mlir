// The fastest 1024^3 matmul schedule measured on the H200 (117.8 us, docs/results/gpu-h200-2026-11-26): 8 virtual threads, 2 copy rounds a staging step. With stages = 2 (double buffering, cp.async, one barrier per step): its tiles doubled need dynamic shared memory (session 29); timed next to the single-stage schedule in the same call.
// C = A * B, f32, A 1024x1024, B 1024x1024 (cuBLAS: gemm=1024,1024,1024).
func.func @forward(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[32, 1, 4, 8, 1], [8, 1, 64, 2, 1], [16, 16, 4]], unroll = 512, vector = [4, 4], stages = 2>}
    ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
