// Strict-inlinable producers are part of the task of their consumer: the
// pad of a convolution and the transpose of a weight are listed with it,
// never as tasks of their own.
// RUN: tessel-tune %s --list-tasks | FileCheck %s --check-prefix=TASKS
// TASKS: task weight        MFLOP kernel
// TASKS-NEXT: 0      2          0.6 conv_2d_nchw_fchw 1x8x18x18 * 16x8x3x3 s1 f32 +pad inlined
// TASKS-NEXT: 1      1          0.2 matmul 32x48 * 48x64 f32 +generic inlined
// TASKS-NEXT: 2 tasks, 0.0 GFLOP per model run

func.func @f(%x: tensor<1x8x16x16xf32>, %y: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %a: tensor<32x48xf32>, %bt: tensor<64x48xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %px = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%px, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %py = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%py, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %te = tensor.empty() : tensor<48x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, n) -> (n, k)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bt : tensor<64x48xf32>) outs(%te : tensor<48x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<48x64xf32>
  %me = tensor.empty() : tensor<32x64xf32>
  %minit = linalg.fill ins(%zero : f32) outs(%me : tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%minit : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0, %1, %2 : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<32x64xf32>
}
