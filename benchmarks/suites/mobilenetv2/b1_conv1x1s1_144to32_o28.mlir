// conv_2d_nhwc_hwcf 1x28x28x144 * 1x1x144x32 stride 1 -> 1x28x28x32: task 10 of tpp-mobilenetv2-nhwc.mlir (--list-tasks)
func.func @forward(%x: tensor<1x28x28x144xf32>, %w: tensor<1x1x144x32xf32>) -> tensor<1x28x28x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x28x28x144xf32>, tensor<1x1x144x32xf32>) outs(%c : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  return %r : tensor<1x28x28x32xf32>
}
