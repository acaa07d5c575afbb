// ResNet-50 bottleneck residual block (conv2_x identity block), batch 1, NCHW, f32, linalg on tensors in torch-mlir style.
// Shapes: torchvision resnet50 layer1 block 2/3: 1x256x56x56 -> conv1x1 256->64 -> pad+conv3x3 64->64 -> conv1x1 64->256 -> +input -> ReLU,
// as in ../shared/eval/frontend-ir/torchmlir-resnet50.mlir; inference BatchNorm folded into a per-channel bias add; splat weights.
#map = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {torch.debug_module_name = "Bottleneck"} {
  func.func @forward(%arg0: tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32> {
    %cst = arith.constant dense<1.000000e-02> : tensor<64x256x1x1xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<1.000000e-01> : tensor<64xf32>
    %cst_2 = arith.constant dense<1.000000e-02> : tensor<64x64x3x3xf32>
    %cst_3 = arith.constant dense<1.000000e-02> : tensor<256x64x1x1xf32>
    %cst_4 = arith.constant dense<1.000000e-01> : tensor<256xf32>
    %0 = tensor.empty() : tensor<1x64x56x56xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %cst : tensor<1x256x56x56xf32>, tensor<64x256x1x1xf32>) outs(%1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %cst_1 : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%0 : tensor<1x64x56x56xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %100 = arith.addf %in, %in_5 : f32
      linalg.yield %100 : f32
    } -> tensor<1x64x56x56xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x64x56x56xf32>) outs(%0 : tensor<1x64x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.cmpf ugt, %in, %cst_0 : f32
      %101 = arith.select %100, %in, %cst_0 : f32
      linalg.yield %101 : f32
    } -> tensor<1x64x56x56xf32>
    %padded = tensor.pad %4 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
    %5 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    %6 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_2 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%5 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %cst_1 : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%0 : tensor<1x64x56x56xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %100 = arith.addf %in, %in_5 : f32
      linalg.yield %100 : f32
    } -> tensor<1x64x56x56xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<1x64x56x56xf32>) outs(%0 : tensor<1x64x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.cmpf ugt, %in, %cst_0 : f32
      %101 = arith.select %100, %in, %cst_0 : f32
      linalg.yield %101 : f32
    } -> tensor<1x64x56x56xf32>
    %9 = tensor.empty() : tensor<1x256x56x56xf32>
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
    %11 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%8, %cst_3 : tensor<1x64x56x56xf32>, tensor<256x64x1x1xf32>) outs(%10 : tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %cst_4 : tensor<1x256x56x56xf32>, tensor<256xf32>) outs(%9 : tensor<1x256x56x56xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %100 = arith.addf %in, %in_5 : f32
      linalg.yield %100 : f32
    } -> tensor<1x256x56x56xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %arg0 : tensor<1x256x56x56xf32>, tensor<1x256x56x56xf32>) outs(%9 : tensor<1x256x56x56xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %100 = arith.addf %in, %in_5 : f32
      linalg.yield %100 : f32
    } -> tensor<1x256x56x56xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<1x256x56x56xf32>) outs(%9 : tensor<1x256x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.cmpf ugt, %in, %cst_0 : f32
      %101 = arith.select %100, %in, %cst_0 : f32
      linalg.yield %101 : f32
    } -> tensor<1x256x56x56xf32>
    return %14 : tensor<1x256x56x56xf32>
  }
}
