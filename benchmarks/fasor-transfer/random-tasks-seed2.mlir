func.func @matmul0(%a: tensor<96x384xf32>, %b: tensor<384x32xf32>) -> tensor<96x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<96x32xf32>) -> tensor<96x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x384xf32>, tensor<384x32xf32>) outs(%i : tensor<96x32xf32>) -> tensor<96x32xf32>
  return %r : tensor<96x32xf32>
}
func.func @conv1(%x: tensor<1x384x15x15xf32>, %w: tensor<24x384x3x3xf32>) -> tensor<1x24x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x384x15x15xf32>, tensor<24x384x3x3xf32>) outs(%i : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  return %r : tensor<1x24x7x7xf32>
}
func.func @depthwise2(%x: tensor<1x256x20x20xf32>, %w: tensor<256x7x7xf32>) -> tensor<1x256x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256x14x14xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x256x20x20xf32>, tensor<256x7x7xf32>) outs(%i : tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32>
  return %r : tensor<1x256x14x14xf32>
}
func.func @matmul3(%a: tensor<512x512xf32>, %b: tensor<512x4096xf32>) -> tensor<512x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x4096xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x4096xf32>) outs(%i : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  return %r : tensor<512x4096xf32>
}
func.func @conv4(%x: tensor<1x64x229x229xf32>, %w: tensor<64x64x7x7xf32>) -> tensor<1x64x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x112x112xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x64x229x229xf32>, tensor<64x64x7x7xf32>) outs(%i : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  return %r : tensor<1x64x112x112xf32>
}
func.func @depthwise5(%x: tensor<1x96x114x114xf32>, %w: tensor<96x3x3xf32>) -> tensor<1x96x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x96x112x112xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96x112x112xf32>) -> tensor<1x96x112x112xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x96x114x114xf32>, tensor<96x3x3xf32>) outs(%i : tensor<1x96x112x112xf32>) -> tensor<1x96x112x112xf32>
  return %r : tensor<1x96x112x112xf32>
}
func.func @matmul6(%a: tensor<1024x1536xf32>, %b: tensor<1536x96xf32>) -> tensor<1024x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x96xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x96xf32>) -> tensor<1024x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1536xf32>, tensor<1536x96xf32>) outs(%i : tensor<1024x96xf32>) -> tensor<1024x96xf32>
  return %r : tensor<1024x96xf32>
}
func.func @conv7(%x: tensor<1x32x227x227xf32>, %w: tensor<64x32x5x5xf32>) -> tensor<1x64x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x112x112xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x32x227x227xf32>, tensor<64x32x5x5xf32>) outs(%i : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  return %r : tensor<1x64x112x112xf32>
}
func.func @depthwise8(%x: tensor<1x32x112x112xf32>, %w: tensor<32x1x1xf32>) -> tensor<1x32x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x112x112xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x112x112xf32>, tensor<32x1x1xf32>) outs(%i : tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32>
  return %r : tensor<1x32x112x112xf32>
}
func.func @matmul9(%a: tensor<48x4096xf32>, %b: tensor<4096x512xf32>) -> tensor<48x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x512xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<48x512xf32>) -> tensor<48x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<48x4096xf32>, tensor<4096x512xf32>) outs(%i : tensor<48x512xf32>) -> tensor<48x512xf32>
  return %r : tensor<48x512xf32>
}
func.func @conv10(%x: tensor<1x192x28x28xf32>, %w: tensor<192x192x1x1xf32>) -> tensor<1x192x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x192x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x192x28x28xf32>, tensor<192x192x1x1xf32>) outs(%i : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  return %r : tensor<1x192x28x28xf32>
}
func.func @depthwise11(%x: tensor<1x16x58x58xf32>, %w: tensor<16x3x3xf32>) -> tensor<1x16x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x58x58xf32>, tensor<16x3x3xf32>) outs(%i : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  return %r : tensor<1x16x56x56xf32>
}
func.func @matmul12(%a: tensor<768x192xf32>, %b: tensor<192x32xf32>) -> tensor<768x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<768x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<768x32xf32>) -> tensor<768x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<768x192xf32>, tensor<192x32xf32>) outs(%i : tensor<768x32xf32>) -> tensor<768x32xf32>
  return %r : tensor<768x32xf32>
}
func.func @conv13(%x: tensor<1x384x18x18xf32>, %w: tensor<16x384x5x5xf32>) -> tensor<1x16x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x14x14xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x384x18x18xf32>, tensor<16x384x5x5xf32>) outs(%i : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  return %r : tensor<1x16x14x14xf32>
}
func.func @depthwise14(%x: tensor<1x512x62x62xf32>, %w: tensor<512x7x7xf32>) -> tensor<1x512x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512x56x56xf32>) -> tensor<1x512x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x512x62x62xf32>, tensor<512x7x7xf32>) outs(%i : tensor<1x512x56x56xf32>) -> tensor<1x512x56x56xf32>
  return %r : tensor<1x512x56x56xf32>
}
func.func @matmul15(%a: tensor<96x96xf32>, %b: tensor<96x256xf32>) -> tensor<96x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x256xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<96x256xf32>) -> tensor<96x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x96xf32>, tensor<96x256xf32>) outs(%i : tensor<96x256xf32>) -> tensor<96x256xf32>
  return %r : tensor<96x256xf32>
}
func.func @conv16(%x: tensor<1x256x59x59xf32>, %w: tensor<192x256x5x5xf32>) -> tensor<1x192x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x192x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x256x59x59xf32>, tensor<192x256x5x5xf32>) outs(%i : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  return %r : tensor<1x192x28x28xf32>
}
func.func @depthwise17(%x: tensor<1x128x30x30xf32>, %w: tensor<128x3x3xf32>) -> tensor<1x128x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x128x30x30xf32>, tensor<128x3x3xf32>) outs(%i : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %r : tensor<1x128x28x28xf32>
}
func.func @matmul18(%a: tensor<96x96xf32>, %b: tensor<96x32xf32>) -> tensor<96x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<96x32xf32>) -> tensor<96x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x96xf32>, tensor<96x32xf32>) outs(%i : tensor<96x32xf32>) -> tensor<96x32xf32>
  return %r : tensor<96x32xf32>
}
func.func @conv19(%x: tensor<1x128x34x34xf32>, %w: tensor<192x128x7x7xf32>) -> tensor<1x192x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x192x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x128x34x34xf32>, tensor<192x128x7x7xf32>) outs(%i : tensor<1x192x28x28xf32>) -> tensor<1x192x28x28xf32>
  return %r : tensor<1x192x28x28xf32>
}
func.func @depthwise20(%x: tensor<1x384x56x56xf32>, %w: tensor<384x1x1xf32>) -> tensor<1x384x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x384x56x56xf32>, tensor<384x1x1xf32>) outs(%i : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  return %r : tensor<1x384x56x56xf32>
}
func.func @matmul21(%a: tensor<256x2048xf32>, %b: tensor<2048x64xf32>) -> tensor<256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x2048xf32>, tensor<2048x64xf32>) outs(%i : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
func.func @conv22(%x: tensor<1x16x62x62xf32>, %w: tensor<16x16x7x7xf32>) -> tensor<1x16x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x62x62xf32>, tensor<16x16x7x7xf32>) outs(%i : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  return %r : tensor<1x16x56x56xf32>
}
func.func @depthwise23(%x: tensor<1x96x7x7xf32>, %w: tensor<96x1x1xf32>) -> tensor<1x96x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x96x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96x7x7xf32>) -> tensor<1x96x7x7xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x96x7x7xf32>, tensor<96x1x1xf32>) outs(%i : tensor<1x96x7x7xf32>) -> tensor<1x96x7x7xf32>
  return %r : tensor<1x96x7x7xf32>
}
func.func @matmul24(%a: tensor<4096x256xf32>, %b: tensor<256x96xf32>) -> tensor<4096x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x96xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x96xf32>) -> tensor<4096x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x256xf32>, tensor<256x96xf32>) outs(%i : tensor<4096x96xf32>) -> tensor<4096x96xf32>
  return %r : tensor<4096x96xf32>
}
func.func @conv25(%x: tensor<1x48x55x55xf32>, %w: tensor<48x48x1x1xf32>) -> tensor<1x48x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x48x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x48x28x28xf32>) -> tensor<1x48x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x48x55x55xf32>, tensor<48x48x1x1xf32>) outs(%i : tensor<1x48x28x28xf32>) -> tensor<1x48x28x28xf32>
  return %r : tensor<1x48x28x28xf32>
}
func.func @depthwise26(%x: tensor<1x16x117x117xf32>, %w: tensor<16x7x7xf32>) -> tensor<1x16x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x16x117x117xf32>, tensor<16x7x7xf32>) outs(%i : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  return %r : tensor<1x16x56x56xf32>
}
func.func @matmul27(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%i : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
func.func @conv28(%x: tensor<1x24x13x13xf32>, %w: tensor<16x24x1x1xf32>) -> tensor<1x16x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x24x13x13xf32>, tensor<16x24x1x1xf32>) outs(%i : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %r : tensor<1x16x7x7xf32>
}
func.func @depthwise29(%x: tensor<1x384x117x117xf32>, %w: tensor<384x7x7xf32>) -> tensor<1x384x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x384x117x117xf32>, tensor<384x7x7xf32>) outs(%i : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  return %r : tensor<1x384x56x56xf32>
}
func.func @matmul30(%a: tensor<4096x256xf32>, %b: tensor<256x96xf32>) -> tensor<4096x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x96xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x96xf32>) -> tensor<4096x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x256xf32>, tensor<256x96xf32>) outs(%i : tensor<4096x96xf32>) -> tensor<4096x96xf32>
  return %r : tensor<4096x96xf32>
}
func.func @conv31(%x: tensor<1x192x13x13xf32>, %w: tensor<384x192x7x7xf32>) -> tensor<1x384x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x7x7xf32>) -> tensor<1x384x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x192x13x13xf32>, tensor<384x192x7x7xf32>) outs(%i : tensor<1x384x7x7xf32>) -> tensor<1x384x7x7xf32>
  return %r : tensor<1x384x7x7xf32>
}
func.func @depthwise32(%x: tensor<1x256x19x19xf32>, %w: tensor<256x7x7xf32>) -> tensor<1x256x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x7x7xf32>) -> tensor<1x256x7x7xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x256x19x19xf32>, tensor<256x7x7xf32>) outs(%i : tensor<1x256x7x7xf32>) -> tensor<1x256x7x7xf32>
  return %r : tensor<1x256x7x7xf32>
}
func.func @matmul33(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%i : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
func.func @conv34(%x: tensor<1x192x13x13xf32>, %w: tensor<48x192x7x7xf32>) -> tensor<1x48x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x48x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x192x13x13xf32>, tensor<48x192x7x7xf32>) outs(%i : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  return %r : tensor<1x48x7x7xf32>
}
func.func @depthwise35(%x: tensor<1x128x18x18xf32>, %w: tensor<128x5x5xf32>) -> tensor<1x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x14x14xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x14x14xf32>) -> tensor<1x128x14x14xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x128x18x18xf32>, tensor<128x5x5xf32>) outs(%i : tensor<1x128x14x14xf32>) -> tensor<1x128x14x14xf32>
  return %r : tensor<1x128x14x14xf32>
}
func.func @matmul36(%a: tensor<1024x192xf32>, %b: tensor<192x2048xf32>) -> tensor<1024x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x2048xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x192xf32>, tensor<192x2048xf32>) outs(%i : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  return %r : tensor<1024x2048xf32>
}
func.func @conv37(%x: tensor<1x192x13x13xf32>, %w: tensor<32x192x1x1xf32>) -> tensor<1x32x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x192x13x13xf32>, tensor<32x192x1x1xf32>) outs(%i : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %r : tensor<1x32x7x7xf32>
}
func.func @depthwise38(%x: tensor<1x384x13x13xf32>, %w: tensor<384x1x1xf32>) -> tensor<1x384x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x7x7xf32>) -> tensor<1x384x7x7xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x384x13x13xf32>, tensor<384x1x1xf32>) outs(%i : tensor<1x384x7x7xf32>) -> tensor<1x384x7x7xf32>
  return %r : tensor<1x384x7x7xf32>
}
func.func @matmul39(%a: tensor<512x32xf32>, %b: tensor<32x1024xf32>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x1024xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x32xf32>, tensor<32x1024xf32>) outs(%i : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %r : tensor<512x1024xf32>
}
func.func @conv40(%x: tensor<1x512x11x11xf32>, %w: tensor<48x512x5x5xf32>) -> tensor<1x48x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x48x7x7xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x512x11x11xf32>, tensor<48x512x5x5xf32>) outs(%i : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  return %r : tensor<1x48x7x7xf32>
}
func.func @depthwise41(%x: tensor<1x384x31x31xf32>, %w: tensor<384x5x5xf32>) -> tensor<1x384x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x14x14xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x14x14xf32>) -> tensor<1x384x14x14xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x384x31x31xf32>, tensor<384x5x5xf32>) outs(%i : tensor<1x384x14x14xf32>) -> tensor<1x384x14x14xf32>
  return %r : tensor<1x384x14x14xf32>
}
func.func @matmul42(%a: tensor<3072x48xf32>, %b: tensor<48x384xf32>) -> tensor<3072x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3072x384xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<3072x384xf32>) -> tensor<3072x384xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3072x48xf32>, tensor<48x384xf32>) outs(%i : tensor<3072x384xf32>) -> tensor<3072x384xf32>
  return %r : tensor<3072x384xf32>
}
func.func @conv43(%x: tensor<1x64x111x111xf32>, %w: tensor<384x64x1x1xf32>) -> tensor<1x384x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x384x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x64x111x111xf32>, tensor<384x64x1x1xf32>) outs(%i : tensor<1x384x56x56xf32>) -> tensor<1x384x56x56xf32>
  return %r : tensor<1x384x56x56xf32>
}
func.func @depthwise44(%x: tensor<1x128x116x116xf32>, %w: tensor<128x5x5xf32>) -> tensor<1x128x112x112xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x112x112xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x112x112xf32>) -> tensor<1x128x112x112xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x128x116x116xf32>, tensor<128x5x5xf32>) outs(%i : tensor<1x128x112x112xf32>) -> tensor<1x128x112x112xf32>
  return %r : tensor<1x128x112x112xf32>
}
func.func @matmul45(%a: tensor<512x512xf32>, %b: tensor<512x128xf32>) -> tensor<512x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<512x128xf32>) -> tensor<512x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x128xf32>) outs(%i : tensor<512x128xf32>) -> tensor<512x128xf32>
  return %r : tensor<512x128xf32>
}
func.func @conv46(%x: tensor<1x192x34x34xf32>, %w: tensor<96x192x7x7xf32>) -> tensor<1x96x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x96x28x28xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96x28x28xf32>) -> tensor<1x96x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x192x34x34xf32>, tensor<96x192x7x7xf32>) outs(%i : tensor<1x96x28x28xf32>) -> tensor<1x96x28x28xf32>
  return %r : tensor<1x96x28x28xf32>
}
func.func @depthwise47(%x: tensor<1x64x113x113xf32>, %w: tensor<64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x64x113x113xf32>, tensor<64x3x3xf32>) outs(%i : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
