// A tensor_core schedule of a batch matmul (f16 into f32) from
// test/Pipelines/tessel-to-cuda-tensor-core.mlir, checked on the GPU against
// the CPU by scripts/gpu-check-run.sh.
func.func @f(%a: tensor<4x128x64xf16>, %b: tensor<4x64x128xf16>, %c: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {
  %0 = linalg.batch_matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                            tessel.config = #tessel.config<tiles = [[4, 1, 1, 1], [1, 2, 4, 16], [2, 2, 4, 8], [2, 2, 16]], vector = [8, 8]>}
    ins(%a, %b : tensor<4x128x64xf16>, tensor<4x64x128xf16>) outs(%c : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  return %0 : tensor<4x128x128xf32>
}
