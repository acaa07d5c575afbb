// A matmul whose staging loop (32 steps of K = 8) is pipelined over 3
// stages (cp.async on sm_80 and newer, one barrier per step:
// test/Pipelines/tessel-to-cuda-pipelined.mlir), checked on the GPU against
// the CPU by scripts/gpu-check.sh: no pipelined kernel had run on a GPU
// before session 28 changed its synchronization.
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 1, 16, 4, 1], [4, 1, 16, 4, 1], [32, 8, 1]], unroll = 16, vector = [4, 4], stages = 3>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
