// softmax-max.mlir with the default schedule of fc136a9 (before row reductions split
// their rows over a block's threads), for the A/B of
// scripts/gpu-default-ab-modules.sh.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @forward(%arg0: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<1x12x128x1xf32>
    %1 = linalg.fill {tessel.config = #tessel.config<tiles = [[1, 1], [6, 2], [1, 128], [1, 1]], unroll = 0>, tessel.sketch = #tessel.sketch<two_level_injective, "SS">} ins(%cst : f32) outs(%0 : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x12x128x128xf32>) outs(%1 : tensor<1x12x128x1xf32>) attrs =  {tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [1, 1, 12, 1, 1], [8, 1, 16, 1, 1], [128, 1, 1]], unroll = 16>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS">} {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.maximumf %in, %out : f32
      linalg.yield %3 : f32
    } -> tensor<1x12x128x1xf32>
    return %2 : tensor<1x12x128x1xf32>
  }
}

