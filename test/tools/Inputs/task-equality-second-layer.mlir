// The second layer of tessel-tune-task-equality.mlir alone.
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @second_layer(%x: tensor<32x48xf32>, %w: tensor<48x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %b2 = arith.constant dense<0.25> : tensor<48xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %3 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%2, %b2 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %3 : tensor<32x48xf32>
}
