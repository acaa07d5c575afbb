// ResNet-50 conv3_x 3x3, 128 channels, 28x28.
// NCHW f32 convolution, input given already padded (28x28 + 1 on each
// side = 30x30), filter 128x128x3x3, stride 1, output 28x28
// (cuDNN: conv=1,128,28,28,128,3,3,1,1, which pads itself).
func.func @forward(%x: tensor<1x128x30x30xf32>, %w: tensor<128x128x3x3xf32>) -> tensor<1x128x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x128x30x30xf32>, tensor<128x128x3x3xf32>) outs(%c : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %r : tensor<1x128x28x28xf32>
}
