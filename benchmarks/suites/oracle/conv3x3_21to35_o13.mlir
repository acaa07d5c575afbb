// conv_2d_nchw_fchw 1x21x15x15 * 35x21x3x3 stride 1 -> 1x35x13x13: odd extents, a space small enough to enumerate
func.func @forward(%x: tensor<1x21x15x15xf32>, %w: tensor<35x21x3x3xf32>) -> tensor<1x35x13x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x35x13x13xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x35x13x13xf32>) -> tensor<1x35x13x13xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x21x15x15xf32>, tensor<35x21x3x3xf32>) outs(%c : tensor<1x35x13x13xf32>) -> tensor<1x35x13x13xf32>
  return %r : tensor<1x35x13x13xf32>
}
