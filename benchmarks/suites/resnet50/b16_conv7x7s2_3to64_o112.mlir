// conv_2d_nchw_fchw 16x3x230x230 * 64x3x7x7 stride 2 -> 16x64x112x112: task 0 of torchmlir-resnet50.mlir (--list-tasks), batch set to 16
func.func @forward(%x: tensor<16x3x230x230xf32>, %w: tensor<64x3x7x7xf32>) -> tensor<16x64x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64x112x112xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64x112x112xf32>) -> tensor<16x64x112x112xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<16x3x230x230xf32>, tensor<64x3x7x7xf32>) outs(%c : tensor<16x64x112x112xf32>) -> tensor<16x64x112x112xf32>
  return %r : tensor<16x64x112x112xf32>
}
