// ResNet-50 conv3_1 3x3 stride 2, 128 channels, 56x56 -> 28x28.
// NCHW f32 convolution, input given already padded (56x56 + 1 on each
// side = 58x58), filter 128x128x3x3, stride 2, output 28x28
// (cuDNN: conv=1,128,56,56,128,3,3,2,1, which pads itself).
func.func @forward(%x: tensor<1x128x58x58xf32>, %w: tensor<128x128x3x3xf32>) -> tensor<1x128x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x128x58x58xf32>, tensor<128x128x3x3xf32>) outs(%c : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %r : tensor<1x128x28x28xf32>
}
