// Two tuned ops in one workload file: scripts/compare refuses the run.
func.func @forward(%a: tensor<15x9xf32>, %b: tensor<9x21xf32>, %c: tensor<21x5xf32>) -> tensor<15x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<15x21xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<15x21xf32>) -> tensor<15x21xf32>
  %r = linalg.matmul ins(%a, %b : tensor<15x9xf32>, tensor<9x21xf32>) outs(%f : tensor<15x21xf32>) -> tensor<15x21xf32>
  %e2 = tensor.empty() : tensor<15x5xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<15x5xf32>) -> tensor<15x5xf32>
  %s = linalg.matmul ins(%r, %c : tensor<15x21xf32>, tensor<21x5xf32>) outs(%f2 : tensor<15x5xf32>) -> tensor<15x5xf32>
  return %s : tensor<15x5xf32>
}
