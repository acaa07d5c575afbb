// conv_2d_nchw_fchw 16x128x58x58 * 128x128x3x3 stride 2 -> 16x128x28x28: task 7 of torchmlir-resnet50.mlir (--list-tasks), batch set to 16
func.func @forward(%x: tensor<16x128x58x58xf32>, %w: tensor<128x128x3x3xf32>) -> tensor<16x128x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128x28x28xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128x28x28xf32>) -> tensor<16x128x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<16x128x58x58xf32>, tensor<128x128x3x3xf32>) outs(%c : tensor<16x128x28x28xf32>) -> tensor<16x128x28x28xf32>
  return %r : tensor<16x128x28x28xf32>
}
