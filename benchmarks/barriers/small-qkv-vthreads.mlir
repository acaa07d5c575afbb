// bert-qkv-vthreads.mlir's blocks (8 virtual threads) on an 8x288x32 matmul: one block, for compute-sanitizer's racecheck.
// C = A * B, f32, A 8x32, B 32x288.
func.func @forward(%a: tensor<8x32xf32>, %b: tensor<32x288xf32>) -> tensor<8x288xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x288xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x288xf32>) -> tensor<8x288xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[1, 1, 4, 2, 1], [1, 8, 36, 1, 1], [4, 2, 4]], unroll = 512, vector = [4, 1]>}
    ins(%a, %b : tensor<8x32xf32>, tensor<32x288xf32>) outs(%c : tensor<8x288xf32>) -> tensor<8x288xf32>
  return %r : tensor<8x288xf32>
}
