// A pipelined tensor_core schedule (3 stages of cp.async, ldmatrix +
// mma.sync m16n8k16, f16 into f32; issue 43 item 1, never run on a GPU) from
// test/Pipelines/tessel-to-cuda-tensor-core-pipelined.mlir, checked on the GPU against
// the CPU by scripts/gpu-check-run.sh.
func.func @f(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 3>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
