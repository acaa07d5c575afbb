// conv_2d_nchw_fchw 1x256x14x14 * 512x256x1x1 stride 2 -> 1x512x7x7: a ResNet-18 layer (He et al. 2016, Table 1; padding 0) at batch 1, not in ResNet-50
func.func @forward(%x: tensor<1x256x14x14xf32>, %w: tensor<512x256x1x1xf32>) -> tensor<1x512x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512x7x7xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x256x14x14xf32>, tensor<512x256x1x1xf32>) outs(%c : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  return %r : tensor<1x512x7x7xf32>
}
