// A kernel with a fused epilogue keeps its block's accumulator in shared
// memory, started by the fused fill. The fill's destination is a slice of
// the kernel's output, which bufferize_to_allocation copied into the new
// shared buffer before the fill overwrote it: the whole 8 x 8 x 8 tile
// loaded from global memory in every one of the 128 threads (128
// ld.global.v4 and st.shared.v4 each; test/KNOWN_ISSUES.md, session 31).
// transform.tessel.init_from_empty gives the fill an empty destination.
//
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" \
// RUN:   | grep -o 'ld\.global[.a-z0-9]*\|st\.shared[.a-z0-9]*' | sort | uniq -c | FileCheck %s
// CHECK-NOT: v4
// CHECK: ld.global.v2
// CHECK-NOT: v4
func.func @forward(%img: tensor<1x64x58x58xf32>, %wc: tensor<64x64x3x3xf32>, %bc: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x64x56x56xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator, fused_consumers = 1>, tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [8, 1, 4, 2, 1], [7, 1, 4, 2, 1], [7, 1, 8, 1, 1], [8, 2, 4], [1, 1, 3], [1, 1, 3]], unroll = 16, vector = [2, 1]>}
      ins(%img, %wc : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%f1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bc : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%e1 : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  return %act : tensor<1x64x56x56xf32>
}
