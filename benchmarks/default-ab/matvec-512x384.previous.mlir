// matvec-512x384.mlir with the default schedule of fc136a9 (before row reductions split
// their rows over a block's threads), for the A/B of
// scripts/gpu-default-ab-modules.sh.
module {
  func.func @forward(%arg0: tensor<512x384xf32>, %arg1: tensor<384xf32>) -> tensor<512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<512xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512xf32>) -> tensor<512xf32>
    %2 = linalg.matvec {tessel.config = #tessel.config<tiles = [[8, 1, 16, 4, 1], [48, 8, 1]], unroll = 16, vector = [4, 1], stages = 2>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>} ins(%arg0, %arg1 : tensor<512x384xf32>, tensor<384xf32>) outs(%1 : tensor<512xf32>) -> tensor<512xf32>
    return %2 : tensor<512xf32>
  }
}

