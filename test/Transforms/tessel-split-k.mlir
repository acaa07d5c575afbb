// RUN: tessel-opt %s -split-input-file --tessel-split-k -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-split-k="factor=2" -verify-diagnostics | FileCheck %s --check-prefix=FACTOR

// BERT's QKV projection at sequence length 128 split 4 ways along K: A and
// B are viewed as 128 x 4 x 192 and 4 x 192 x 2304, a partial op with a new
// outermost parallel loop writes 4 x 128 x 2304 partials (from a fill of
// zeros), and a combining reduction adds them into the op's init.
// CHECK-LABEL: func.func @qkv
// CHECK-DAG: %[[A:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [128, 4, 192]
// CHECK-DAG: %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [4, 192, 2304]
// CHECK: %[[P:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x128x2304xf32>)
// CHECK: %[[PART:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<128x4x192xf32>, tensor<4x192x2304xf32>) outs(%[[P]] : tensor<4x128x2304xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]
// CHECK-SAME: ins(%[[PART]] : tensor<4x128x2304xf32>) outs(%{{.*}} : tensor<128x2304xf32>)
// CHECK-NOT: linalg.matmul
// FACTOR-LABEL: func.func @qkv
// FACTOR: linalg.fill {{.*}} -> tensor<4x128x2304xf32>
func.func @qkv(%x: tensor<128x768xf32>, %w: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %mm = linalg.matmul {tessel.split_k = 4 : i64} ins(%x, %w : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%f : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %mm : tensor<128x2304xf32>
}

// -----

// Without the attribute only the pass option splits.
// CHECK-LABEL: func.func @unmarked
// CHECK: linalg.matmul
// FACTOR-LABEL: func.func @unmarked
// FACTOR: linalg.fill {{.*}} -> tensor<2x64x64xf32>
// FACTOR-NOT: linalg.matmul
func.func @unmarked(%x: tensor<64x256xf32>, %w: tensor<256x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %mm = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm : tensor<64x64xf32>
}

// -----

func.func @not_dividing(%x: tensor<64x250xf32>, %w: tensor<250x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{split-K by 4 needs a static reduction extent it divides; the extent is 250}}
  %mm = linalg.matmul {tessel.split_k = 4 : i64} ins(%x, %w : tensor<64x250xf32>, tensor<250x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm : tensor<64x64xf32>
}

// -----

func.func @not_positive(%x: tensor<64x256xf32>, %w: tensor<256x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tessel.split_k' must be a positive integer on a linalg op}}
  %mm = linalg.matmul {tessel.split_k = 0 : i64} ins(%x, %w : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm : tensor<64x64xf32>
}
