// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
// A sampled schedule of BERT-base's layer-norm variance with its fused
// normalization (session 27's known issue): a cross-thread reduction with
// one thread per block, whose 1x1x1 contraction of a unit broadcast made the
// schedule script's vector lowering rewrite the broadcast into an insert
// and back without end, allocating until memory ran out (3.6 GB in 12 s).
// Leading unit dims are now dropped in a rewrite before broadcasts lower.
// CHECK-LABEL: llvm.func @main
// CHECK: gpu.launch_func @main_kernel::@main_kernel
// CHECK: gpu.binary @main_kernel
// CHECK-SAME: .entry main_kernel
// CHECK-SAME: rsqrt.approx
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @main(%arg0: tensor<1x128x768xf32>, %arg1: tensor<1x128xi64>, %arg2: tensor<1x128x1xf32>, %arg3: tensor<1x128x768xf32>, %arg4: tensor<1x128xi64>, %arg5: tensor<1x128x1xf32>) -> tensor<1x128x768xf32> {
    %cst = arith.constant 9.9999999999999998E-13 : f64
    %cst_0 = arith.constant 7.680000e+02 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %c512 = arith.constant 512 : index
    %cst_2 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x128x1xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map2], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%arg0, %arg1, %arg2 : tensor<1x128x768xf32>, tensor<1x128xi64>, tensor<1x128x1xf32>) outs(%1 : tensor<1x128x1xf32>) attrs =  {tessel.config = #tessel.config<tiles = [[1], [128], [768, 1], [1]], unroll = 16>, tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR", fused_consumers = 1>} {
    ^bb0(%in: f32, %in_3: i64, %in_4: f32, %out: f32):
      %5 = arith.addf %in, %cst_2 : f32
      %6 = arith.index_cast %in_3 : i64 to index
      %7 = arith.cmpi slt, %6, %c512 : index
      %8 = arith.cmpi sge, %in_3, %c0_i64 : i64
      %9 = arith.addf %5, %cst_2 : f32
      %10 = arith.subf %9, %in_4 : f32
      %11 = arith.mulf %10, %10 : f32
      %12 = arith.addf %11, %out : f32
      linalg.yield %12 : f32
    } -> tensor<1x128x1xf32>
    %3 = tensor.empty() : tensor<1x128x768xf32>
    %4 = linalg.generic {indexing_maps = [#map3, #map4, #map5, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3, %arg4, %arg5, %2 : tensor<1x128x768xf32>, tensor<1x128xi64>, tensor<1x128x1xf32>, tensor<1x128x1xf32>) outs(%3 : tensor<1x128x768xf32>) {
    ^bb0(%in: f32, %in_3: i64, %in_4: f32, %in_5: f32, %out: f32):
      %5 = arith.addf %in, %cst_2 : f32
      %6 = arith.index_cast %in_3 : i64 to index
      %7 = arith.cmpi slt, %6, %c512 : index
      %8 = arith.cmpi sge, %in_3, %c0_i64 : i64
      %9 = arith.addf %5, %cst_2 : f32
      %10 = arith.divf %in_5, %cst_0 : f32
      %11 = arith.subf %9, %in_4 : f32
      %12 = arith.truncf %cst : f64 to f32
      %13 = arith.addf %10, %12 : f32
      %14 = math.rsqrt %13 : f32
      %15 = arith.mulf %11, %14 : f32
      %16 = arith.addf %15, %cst_2 : f32
      linalg.yield %16 : f32
    } -> tensor<1x128x768xf32>
    return %4 : tensor<1x128x768xf32>
  }
}
