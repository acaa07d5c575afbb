// conv_2d_nchw_fchw 1x2048x7x7 * 512x2048x1x1 stride 1 -> 1x512x7x7: task 22 of torchmlir-resnet50.mlir (--list-tasks)
func.func @forward(%x: tensor<1x2048x7x7xf32>, %w: tensor<512x2048x1x1xf32>) -> tensor<1x512x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512x7x7xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2048x7x7xf32>, tensor<512x2048x1x1xf32>) outs(%c : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  return %r : tensor<1x512x7x7xf32>
}
