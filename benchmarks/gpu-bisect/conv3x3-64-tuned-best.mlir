// The fastest schedule the H100 measured for the ResNet-50 3x3 64-channel
// layer (22.4 us = 1.97x cuDNN, docs/results/gpu-h100-2026-11-27-b), for the
// static kernel report (docs/results/kernels-ptx-conv-window-views-2026-11-27.md).
func.func @forward(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
      tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [16, 1, 2, 1, 2], [14, 1, 2, 2, 1], [7, 1, 8, 1, 1], [8, 2, 4], [1, 1, 3], [1, 1, 3]], unroll = 0, vector = [2, 1]>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
