// tensor_core_matmul_f16_pipelined_2stages.mlir with padded shared tiles
// (pad = [8, 8], session 40, never run on a GPU): every ldmatrix
// conflict-free instead of 4-way (A) and 8-way (B), A's cp.async stores
// 2-way (test/Pipelines/tessel-to-cuda-tensor-core-padded.mlir). Step 1 of
// scripts/gpu-verify-session.sh verifies it against the CPU and times it
// beside the unpadded schedule in the same call.
func.func @f(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 2, pad = [8, 8]>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
