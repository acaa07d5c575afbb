// Depthwise 3x3 convolutions of MobileNetV2 (batch 1, NCHW, padded inputs):
// the stride-1 one of the 144-channel 56x56 block and the stride-2 one of the
// 96-channel 112x112 block. Workloads of the PSA benchmark (docs/Pruner.md).
func.func @forward(%x1: tensor<1x144x58x58xf32>, %w1: tensor<144x3x3xf32>,
                   %x2: tensor<1x96x113x113xf32>, %w2: tensor<96x3x3xf32>)
    -> (tensor<1x144x56x56xf32>, tensor<1x96x56x56xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x144x56x56xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x1, %w1 : tensor<1x144x58x58xf32>, tensor<144x3x3xf32>) outs(%i1 : tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32>
  %e2 = tensor.empty() : tensor<1x96x56x56xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x2, %w2 : tensor<1x96x113x113xf32>, tensor<96x3x3xf32>) outs(%i2 : tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32>
  return %0, %1 : tensor<1x144x56x56xf32>, tensor<1x96x56x56xf32>
}
