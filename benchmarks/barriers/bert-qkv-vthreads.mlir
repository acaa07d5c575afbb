// A BERT QKV schedule with 8 virtual threads (664 us on the H200, simulated 24.8 us; docs/results/gpu-h200-2026-11-26).
// C = A * B, f32, A 128x768, B 768x2304 (cuBLAS: gemm=128,2304,768).
func.func @forward(%a: tensor<128x768xf32>, %b: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[16, 1, 4, 2, 1], [8, 8, 36, 1, 1], [96, 2, 4]], unroll = 512, vector = [4, 1]>}
    ins(%a, %b : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %r : tensor<128x2304xf32>
}
