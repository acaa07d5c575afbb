// One ResNet-50 3x3 convolution (conv3_x block, 128->128 channels, stride 1) with bias + ReLU, batch 1, NCHW, f32, torch-mlir style.
// Shapes: input 1x128x28x28, explicit tensor.pad to 1x128x30x30, filter 128x128x3x3, output 1x128x28x28 (torchvision resnet50 layer2,
// see ../shared/eval/frontend-ir/torchmlir-resnet50.mlir); inference BatchNorm folded into the per-channel bias; splat weights.
#map = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {torch.debug_module_name = "Conv3x3BiasReLU"} {
  func.func @forward(%arg0: tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32> {
    %cst = arith.constant dense<1.000000e-02> : tensor<128x128x3x3xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<1.000000e-01> : tensor<128xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x128x28x28xf32> to tensor<1x128x30x30xf32>
    %0 = tensor.empty() : tensor<1x128x28x28xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst : tensor<1x128x30x30xf32>, tensor<128x128x3x3xf32>) outs(%1 : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %cst_1 : tensor<1x128x28x28xf32>, tensor<128xf32>) outs(%0 : tensor<1x128x28x28xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %100 = arith.addf %in, %in_2 : f32
      linalg.yield %100 : f32
    } -> tensor<1x128x28x28xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x128x28x28xf32>) outs(%0 : tensor<1x128x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.cmpf ugt, %in, %cst_0 : f32
      %101 = arith.select %100, %in, %cst_0 : f32
      linalg.yield %101 : f32
    } -> tensor<1x128x28x28xf32>
    return %4 : tensor<1x128x28x28xf32>
  }
}
