// Control: conv3x3-64-wrong.mlir staging 32 channels a step instead of 64 (config 140, verified ok on the H100, 352 us; dynamic shared memory too).
// ResNet-50 conv2_x 3x3, 64 channels, 56x56, NCHW f32, input given padded (58x58).
func.func @forward(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
      tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [8, 2, 4, 1, 1], [7, 1, 8, 1, 1], [1, 1, 14, 1, 4], [2, 1, 32], [3, 1, 1], [1, 3, 1]], unroll = 64, vector = [1, 1]>,
      dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
