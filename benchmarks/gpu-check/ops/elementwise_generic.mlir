// Op kind "elementwise_generic" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%a: tensor<8x16x32xf32>, %b: tensor<32xf32>, %c: tensor<8x16x32xf32>) -> tensor<8x16x32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<8x16x32xf32>, tensor<32xf32>) outs(%c : tensor<8x16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<8x16x32xf32>
  return %0 : tensor<8x16x32xf32>
}
