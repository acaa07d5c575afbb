// depthwise_conv_2d_nhwc_hwc 1x114x114x32 * 3x3x32 stride 1 -> 1x112x112x32: task 1 of tpp-mobilenetv2-nhwc.mlir (--list-tasks)
func.func @forward(%x: tensor<1x114x114x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x112x112x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x112x112x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x112x112x32xf32>) -> tensor<1x112x112x32xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x114x114x32xf32>, tensor<3x3x32xf32>) outs(%c : tensor<1x112x112x32xf32>) -> tensor<1x112x112x32xf32>
  return %r : tensor<1x112x112x32xf32>
}
