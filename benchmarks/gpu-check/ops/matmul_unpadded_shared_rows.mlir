// Padded shared tiles (session 40, never run on a GPU): 64 x 4 threads of
// 2 x 4 accumulators, A's 128 x 32 tile read along k by lanes of two thread
// rows per request phase. Unpadded, A's rows are 256 bytes apart (the same
// banks: 16 of 48 shared loads 2-way conflicted); with pad = [4, 0] its row
// pitch is 36 floats and every load is conflict-free
// (test/Pipelines/tessel-to-cuda-padded-shared-tile.mlir).
// matmul_padded_shared_rows.mlir and matmul_unpadded_shared_rows.mlir differ
// only in the pad; step 1 of scripts/gpu-verify-session.sh verifies both
// against the CPU and times them in the same call.
func.func @f(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 1, 64, 2, 1], [32, 1, 4, 1, 4], [16, 8, 4]], unroll = 16, vector = [4, 4], stages = 2>}
    ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
