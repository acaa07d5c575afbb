// resnet-conv3x3-64.mlir with the default schedule of fc136a9 (a block for the whole
// image of one output channel, unstaged), for the A/B of
// scripts/gpu-default-ab-modules.sh.
module {
  func.func @forward(%arg0: tensor<1x64x58x58xf32>, %arg1: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x64x56x56xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [64, 1, 1, 1, 1], [1, 1, 14, 4, 1], [1, 1, 14, 4, 1], [8, 8, 1], [1, 3, 1], [1, 3, 1]], unroll = 16>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>} ins(%arg0, %arg1 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    return %2 : tensor<1x64x56x56xf32>
  }
}

