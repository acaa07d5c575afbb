// depthwise_conv_2d_nhwc_hwc 1x29x29x192 * 3x3x192 stride 2 -> 1x14x14x192: task 14 of tpp-mobilenetv2-nhwc.mlir (--list-tasks)
func.func @forward(%x: tensor<1x29x29x192xf32>, %w: tensor<3x3x192xf32>) -> tensor<1x14x14x192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x192xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x192xf32>) -> tensor<1x14x14x192xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x29x29x192xf32>, tensor<3x3x192xf32>) outs(%c : tensor<1x14x14x192xf32>) -> tensor<1x14x14x192xf32>
  return %r : tensor<1x14x14x192xf32>
}
