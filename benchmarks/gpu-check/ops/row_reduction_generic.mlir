// Op kind "row_reduction_generic" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%a: tensor<24x96xf32>, %c: tensor<24xf32>) -> tensor<24xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<24x96xf32>) outs(%c : tensor<24xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %0 : tensor<24xf32>
}
