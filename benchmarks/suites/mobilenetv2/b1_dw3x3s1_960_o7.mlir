// depthwise_conv_2d_nhwc_hwc 1x9x9x960 * 3x3x960 stride 1 -> 1x7x7x960: task 26 of tpp-mobilenetv2-nhwc.mlir (--list-tasks)
func.func @forward(%x: tensor<1x9x9x960xf32>, %w: tensor<3x3x960xf32>) -> tensor<1x7x7x960xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x960xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x960xf32>) -> tensor<1x7x7x960xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x960xf32>, tensor<3x3x960xf32>) outs(%c : tensor<1x7x7x960xf32>) -> tensor<1x7x7x960xf32>
  return %r : tensor<1x7x7x960xf32>
}
