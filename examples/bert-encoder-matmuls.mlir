// One BERT-base encoder layer (HF BertLayer) at batch 1, seq 128, hidden 768, 12 heads x 64, FFN 3072, f32, as torch-mlir emits it.
// Shapes and op style from ../shared/eval/frontend-ir/torchmlir-bert-base-seq128.mlir: Q/K/V/out projections are 1x128x768 * 1x768x768
// linalg.batch_matmul with transposed+broadcast weights, QK^T 12x128x64 * 12x64x128, PV 12x128x128 * 12x128x64, FFN 768->3072 (GELU via math.erf) ->768.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map12 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map13 = affine_map<(d0, d1, d2) -> (0, d1, 0)>
module attributes {torch.debug_module_name = "BertLayer"} {
  func.func @forward(%arg0: tensor<1x128x768xf32>) -> tensor<1x128x768xf32> {
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 7.680000e+02 : f32
    %cst_3 = arith.constant 9.9999999999999998E-13 : f64
    %cst_4 = arith.constant dense<1.000000e-02> : tensor<768x768xf32>
    %cst_5 = arith.constant dense<2.000000e-02> : tensor<768x768xf32>
    %cst_6 = arith.constant dense<3.000000e-02> : tensor<768x768xf32>
    %cst_7 = arith.constant dense<4.000000e-02> : tensor<768x768xf32>
    %cst_8 = arith.constant dense<1.000000e-02> : tensor<3072x768xf32>
    %cst_9 = arith.constant dense<1.000000e-02> : tensor<768x3072xf32>
    %cst_10 = arith.constant dense<1.000000e+00> : tensor<768xf32>
    %cst_11 = arith.constant dense<0.000000e+00> : tensor<768xf32>
    %cst_12 = arith.constant 8.000000e+00 : f32
    %cst_13 = arith.constant dense<1.000000e+00> : tensor<3072xf32>
    %cst_14 = arith.constant 1.41421354 : f32
    %cst_15 = arith.constant 1.000000e+00 : f32
    %cst_16 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<1x128x768xf32>
    %1 = tensor.empty() : tensor<1x128x1xf32>
    %2 = linalg.fill ins(%cst_0 : f32) outs(%1 : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
    %3 = tensor.empty() : tensor<768x768xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_4 : tensor<768x768xf32>) outs(%3 : tensor<768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<768x768xf32>
    %5 = tensor.empty() : tensor<1x768x768xf32>
    %6 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<768x768xf32>) outs(%5 : tensor<1x768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x768x768xf32>
    %7 = tensor.empty() : tensor<768x768xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_5 : tensor<768x768xf32>) outs(%7 : tensor<768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<768x768xf32>
    %9 = tensor.empty() : tensor<1x768x768xf32>
    %10 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<768x768xf32>) outs(%9 : tensor<1x768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x768x768xf32>
    %11 = tensor.empty() : tensor<768x768xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_6 : tensor<768x768xf32>) outs(%11 : tensor<768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<768x768xf32>
    %13 = tensor.empty() : tensor<1x768x768xf32>
    %14 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12 : tensor<768x768xf32>) outs(%13 : tensor<1x768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x768x768xf32>
    %15 = tensor.empty() : tensor<768x768xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_7 : tensor<768x768xf32>) outs(%15 : tensor<768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<768x768xf32>
    %17 = tensor.empty() : tensor<1x768x768xf32>
    %18 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16 : tensor<768x768xf32>) outs(%17 : tensor<1x768x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x768x768xf32>
    %19 = tensor.empty() : tensor<768x3072xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_8 : tensor<3072x768xf32>) outs(%19 : tensor<768x3072xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<768x3072xf32>
    %21 = tensor.empty() : tensor<1x768x3072xf32>
    %22 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<768x3072xf32>) outs(%21 : tensor<1x768x3072xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x768x3072xf32>
    %23 = tensor.empty() : tensor<3072x768xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_9 : tensor<768x3072xf32>) outs(%23 : tensor<3072x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<3072x768xf32>
    %25 = tensor.empty() : tensor<1x3072x768xf32>
    %26 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24 : tensor<3072x768xf32>) outs(%25 : tensor<1x3072x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x3072x768xf32>
    %27 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %28 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %29 = linalg.batch_matmul ins(%28, %6 : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%27 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %31 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %32 = linalg.batch_matmul ins(%31, %10 : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%27 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %33 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%32, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %35 = linalg.batch_matmul ins(%34, %14 : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%27 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %36 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %37 = tensor.empty() : tensor<1x12x128x64xf32>
    %expanded_30 = tensor.expand_shape %30 [[0], [1], [2, 3]] output_shape [1, 128, 12, 64] : tensor<1x128x768xf32> into tensor<1x128x12x64xf32>
    %38 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<1x128x12x64xf32>) outs(%37 : tensor<1x12x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x128x64xf32>
    %expanded_33 = tensor.expand_shape %33 [[0], [1], [2, 3]] output_shape [1, 128, 12, 64] : tensor<1x128x768xf32> into tensor<1x128x12x64xf32>
    %39 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_33 : tensor<1x128x12x64xf32>) outs(%37 : tensor<1x12x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x128x64xf32>
    %expanded_36 = tensor.expand_shape %36 [[0], [1], [2, 3]] output_shape [1, 128, 12, 64] : tensor<1x128x768xf32> into tensor<1x128x12x64xf32>
    %40 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<1x128x12x64xf32>) outs(%37 : tensor<1x12x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x128x64xf32>
    %41 = tensor.empty() : tensor<1x12x64x128xf32>
    %42 = linalg.generic {indexing_maps = [#map6, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<1x12x128x64xf32>) outs(%41 : tensor<1x12x64x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x64x128xf32>
    %43 = linalg.generic {indexing_maps = [#map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38 : tensor<1x12x128x64xf32>) outs(%37 : tensor<1x12x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x128x64xf32>
    %44 = linalg.generic {indexing_maps = [#map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42 : tensor<1x12x64x128xf32>) outs(%41 : tensor<1x12x64x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x64x128xf32>
    %collapsed_q = tensor.collapse_shape %43 [[0, 1], [2], [3]] : tensor<1x12x128x64xf32> into tensor<12x128x64xf32>
    %collapsed_kt = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<1x12x64x128xf32> into tensor<12x64x128xf32>
    %45 = tensor.empty() : tensor<12x128x128xf32>
    %46 = linalg.fill ins(%cst_0 : f32) outs(%45 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
    %47 = linalg.batch_matmul ins(%collapsed_q, %collapsed_kt : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%46 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
    %expanded_s = tensor.expand_shape %47 [[0, 1], [2], [3]] output_shape [1, 12, 128, 128] : tensor<12x128x128xf32> into tensor<1x12x128x128xf32>
    %48 = tensor.empty() : tensor<1x12x128x128xf32>
    %49 = linalg.generic {indexing_maps = [#map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_s : tensor<1x12x128x128xf32>) outs(%48 : tensor<1x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_12 : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x128xf32>
    %50 = tensor.empty() : tensor<1x12x128x1xf32>
    %51 = linalg.fill ins(%cst_1 : f32) outs(%50 : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
    %52 = linalg.generic {indexing_maps = [#map6, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%49 : tensor<1x12x128x128xf32>) outs(%51 : tensor<1x12x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.maximumf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x1xf32>
    %53 = linalg.generic {indexing_maps = [#map9, #map10, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %52 : tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>) outs(%48 : tensor<1x12x128x128xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.subf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x128xf32>
    %54 = linalg.generic {indexing_maps = [#map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53 : tensor<1x12x128x128xf32>) outs(%48 : tensor<1x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = math.exp %in : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x128xf32>
    %55 = linalg.fill ins(%cst_0 : f32) outs(%50 : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
    %56 = linalg.generic {indexing_maps = [#map6, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%54 : tensor<1x12x128x128xf32>) outs(%55 : tensor<1x12x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.addf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x1xf32>
    %57 = linalg.generic {indexing_maps = [#map9, #map10, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54, %56 : tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>) outs(%48 : tensor<1x12x128x128xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.divf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x12x128x128xf32>
    %collapsed_p = tensor.collapse_shape %57 [[0, 1], [2], [3]] : tensor<1x12x128x128xf32> into tensor<12x128x128xf32>
    %58 = linalg.generic {indexing_maps = [#map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40 : tensor<1x12x128x64xf32>) outs(%37 : tensor<1x12x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x12x128x64xf32>
    %collapsed_v = tensor.collapse_shape %58 [[0, 1], [2], [3]] : tensor<1x12x128x64xf32> into tensor<12x128x64xf32>
    %59 = tensor.empty() : tensor<12x128x64xf32>
    %60 = linalg.fill ins(%cst_0 : f32) outs(%59 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
    %61 = linalg.batch_matmul ins(%collapsed_p, %collapsed_v : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%60 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
    %expanded_o = tensor.expand_shape %61 [[0, 1], [2], [3]] output_shape [1, 12, 128, 64] : tensor<12x128x64xf32> into tensor<1x12x128x64xf32>
    %62 = tensor.empty() : tensor<1x128x12x64xf32>
    %63 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_o : tensor<1x12x128x64xf32>) outs(%62 : tensor<1x128x12x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x12x64xf32>
    %collapsed_o = tensor.collapse_shape %63 [[0], [1], [2, 3]] : tensor<1x128x12x64xf32> into tensor<1x128x768xf32>
    %64 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_o : tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %65 = linalg.batch_matmul ins(%64, %18 : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%27 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %66 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %67 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%66, %arg0 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %68 = linalg.generic {indexing_maps = [#map3, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%67 : tensor<1x128x768xf32>) outs(%2 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.addf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %69 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_2 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %70 = linalg.generic {indexing_maps = [#map12, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<1x128x1xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %71 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %70 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.subf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %72 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71, %71 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %73 = linalg.generic {indexing_maps = [#map3, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%72 : tensor<1x128x768xf32>) outs(%2 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.addf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %74 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%73 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_2 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %75 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%74 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.truncf %cst_3 : f64 to f32
      %901 = arith.addf %in, %900 : f32
      linalg.yield %901 : f32
    } -> tensor<1x128x1xf32>
    %76 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%75 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = math.rsqrt %in : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %77 = linalg.generic {indexing_maps = [#map12, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%76 : tensor<1x128x1xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %78 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71, %77 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %79 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %80 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79, %cst_11 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %81 = tensor.empty() : tensor<1x128x3072xf32>
    %82 = linalg.fill ins(%cst_0 : f32) outs(%81 : tensor<1x128x3072xf32>) -> tensor<1x128x3072xf32>
    %83 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%80 : tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %84 = linalg.batch_matmul ins(%83, %22 : tensor<1x128x768xf32>, tensor<1x768x3072xf32>) outs(%82 : tensor<1x128x3072xf32>) -> tensor<1x128x3072xf32>
    %85 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84, %cst_13 : tensor<1x128x3072xf32>, tensor<3072xf32>) outs(%81 : tensor<1x128x3072xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x3072xf32>
    %86 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<1x128x3072xf32>) outs(%81 : tensor<1x128x3072xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_14 : f32
      %901 = math.erf %900 : f32
      %902 = arith.addf %901, %cst_15 : f32
      %903 = arith.mulf %902, %cst_16 : f32
      %904 = arith.mulf %in, %903 : f32
      linalg.yield %904 : f32
    } -> tensor<1x128x3072xf32>
    %87 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%86 : tensor<1x128x3072xf32>) outs(%81 : tensor<1x128x3072xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x3072xf32>
    %88 = linalg.batch_matmul ins(%87, %26 : tensor<1x128x3072xf32>, tensor<1x3072x768xf32>) outs(%27 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
    %89 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %90 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89, %80 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %91 = linalg.generic {indexing_maps = [#map3, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%90 : tensor<1x128x768xf32>) outs(%2 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.addf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %92 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_2 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %93 = linalg.generic {indexing_maps = [#map12, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92 : tensor<1x128x1xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %94 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90, %93 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.subf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %95 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94, %94 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %96 = linalg.generic {indexing_maps = [#map3, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%95 : tensor<1x128x768xf32>) outs(%2 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.addf %in, %out : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %97 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.divf %in, %cst_2 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %98 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%97 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = arith.truncf %cst_3 : f64 to f32
      %901 = arith.addf %in, %900 : f32
      linalg.yield %901 : f32
    } -> tensor<1x128x1xf32>
    %99 = linalg.generic {indexing_maps = [#map13, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%98 : tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %900 = math.rsqrt %in : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x1xf32>
    %100 = linalg.generic {indexing_maps = [#map12, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%99 : tensor<1x128x1xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x128x768xf32>
    %101 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94, %100 : tensor<1x128x768xf32>, tensor<1x128x768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %102 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101, %cst_10 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.mulf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    %103 = linalg.generic {indexing_maps = [#map2, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102, %cst_11 : tensor<1x128x768xf32>, tensor<768xf32>) outs(%0 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %900 = arith.addf %in, %in_0 : f32
      linalg.yield %900 : f32
    } -> tensor<1x128x768xf32>
    return %103 : tensor<1x128x768xf32>
  }
}
