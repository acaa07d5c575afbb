// matmul-1024-best.mlir's blocks (copy rounds, thread tile, staging) on a 128^3 matmul: 4 blocks, small enough for compute-sanitizer's racecheck.
// C = A * B, f32, A 128x128, B 128x128.
func.func @forward(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 1, 4, 8, 1], [1, 1, 64, 2, 1], [2, 16, 4]], unroll = 512, vector = [4, 4]>}
    ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
