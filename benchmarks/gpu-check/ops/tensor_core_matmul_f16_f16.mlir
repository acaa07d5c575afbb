// A tensor_core schedule accumulating in f16 from
// test/Pipelines/tessel-to-cuda-tensor-core.mlir, checked on the GPU against
// the CPU by scripts/gpu-check-run.sh.
func.func @f(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}
