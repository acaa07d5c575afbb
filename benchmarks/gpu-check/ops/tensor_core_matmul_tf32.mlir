// A TF32 tensor_core schedule (f32 inputs rounded to 10 mantissa bits) from
// test/Pipelines/tessel-to-cuda-tf32.mlir, checked on the GPU against the CPU
// by scripts/gpu-check-run.sh (run with --allow-tf32, TF32 tolerance).
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 4, 8]], unroll = 64, vector = [4, 4]>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
