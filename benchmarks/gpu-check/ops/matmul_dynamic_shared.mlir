// A 128x128 block tile with K = 32 a staging step over 2 stages: 64 KiB of
// shared tiles, above CUDA's 48 KiB static limit, so the kernel takes them
// as dynamic shared memory and the runner opts in to 64 KiB
// (test/Pipelines/tessel-to-cuda-dynamic-shared.mlir). Checked on the GPU
// against the CPU by scripts/gpu-check.sh: no kernel with dynamic shared
// memory had run on a GPU before session 29.
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[2, 1, 16, 8, 1], [2, 1, 16, 8, 1], [8, 32, 1]], unroll = 16, vector = [4, 4], stages = 2>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
