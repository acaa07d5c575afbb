// RUN: tessel-opt %s -split-input-file --tessel-fuse | FileCheck %s --check-prefix=FUSE
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s

// A prime-sized matmul (8191^3): fusion pads it to 8192 with zeros, the
// default schedule tiles the padded op (16384 blocks of 256 threads, the
// pads computed in the staged loads), and the slice of the padded result is
// a copy covered by boundary blocks (8191 rows x 32 blocks of 256 threads).
// Without padding it was 67092481 blocks of one thread.
// FUSE-LABEL: func @prime_matmul
// FUSE: tensor.pad %{{.*}} low[0, 0] high[1, 1]
// FUSE: tensor.pad %{{.*}} low[0, 0] high[1, 1]
// FUSE: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8192x8192xf32>)
// FUSE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8192x8192xf32>, tensor<8192x8192xf32>)
// FUSE: tensor.extract_slice %{{.*}}[0, 0] [8191, 8191] [1, 1] : tensor<8192x8192xf32> to tensor<8191x8191xf32>

// CHECK-LABEL: llvm.func @prime_matmul
// CHECK-DAG: %[[C16384:.*]] = llvm.mlir.constant(16384 : index) : i64
// CHECK-DAG: %[[C262112:.*]] = llvm.mlir.constant(262112 : index) : i64
// CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK: gpu.launch_func @prime_matmul_kernel::@prime_matmul_kernel blocks in (%[[C16384]], %{{.*}}, %{{.*}}) threads in (%[[C256]],
// CHECK: gpu.launch_func @prime_matmul_kernel_0::@prime_matmul_kernel blocks in (%[[C262112]], %{{.*}}, %{{.*}}) threads in (%[[C256]],
// CHECK-NOT: gpu.launch_func
func.func @prime_matmul(%a: tensor<8191x8191xf32>, %b: tensor<8191x8191xf32>) -> tensor<8191x8191xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8191x8191xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8191x8191xf32>) -> tensor<8191x8191xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8191x8191xf32>, tensor<8191x8191xf32>) outs(%init : tensor<8191x8191xf32>) -> tensor<8191x8191xf32>
  return %0 : tensor<8191x8191xf32>
}

// -----

// GPT-2's LM head (768 x 50257, 50257 = 29 * 1733): N is padded to 50304
// (a multiple of 128); the matmul has 9432 blocks instead of 50257.
// FUSE-LABEL: func @lm_head
// FUSE: tensor.pad %{{.*}} low[0, 0] high[0, 47]
// FUSE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<768x768xf32>, tensor<768x50304xf32>)
// FUSE: tensor.extract_slice %{{.*}}[0, 0] [768, 50257] [1, 1]

// CHECK-LABEL: llvm.func @lm_head
// CHECK-DAG: %[[C9432:.*]] = llvm.mlir.constant(9432 : index) : i64
// CHECK-DAG: %[[C151296:.*]] = llvm.mlir.constant(151296 : index) : i64
// CHECK: gpu.launch_func @lm_head_kernel::@lm_head_kernel blocks in (%[[C9432]],
// CHECK: gpu.launch_func @lm_head_kernel_0::@lm_head_kernel blocks in (%[[C151296]],
func.func @lm_head(%a: tensor<768x768xf32>, %b: tensor<768x50257xf32>) -> tensor<768x50257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<768x50257xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<768x50257xf32>) -> tensor<768x50257xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<768x768xf32>, tensor<768x50257xf32>) outs(%init : tensor<768x50257xf32>) -> tensor<768x50257xf32>
  return %0 : tensor<768x50257xf32>
}

// -----

// Extents that tiles divide, small primes (<= 64) and reductions other than
// sums of products are not padded.
// FUSE-LABEL: func @not_padded
// FUSE-NOT: tensor.pad
// FUSE: return
func.func @not_padded(%a: tensor<37x768xf32>, %b: tensor<768x61xf32>, %x: tensor<8191x8191xf32>) -> (tensor<37x61xf32>, tensor<8191xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<37x768xf32>, tensor<768x61xf32>) outs(%init : tensor<37x61xf32>) -> tensor<37x61xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty() : tensor<8191xf32>
  %init2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<8191xf32>) -> tensor<8191xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8191x8191xf32>) outs(%init2 : tensor<8191xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8191xf32>
  return %0, %1 : tensor<37x61xf32>, tensor<8191xf32>
}

// -----

// Primes up to 1024 (1021 x 1031 x 1019): M and K have no divisor from 16
// to 128, so they are padded to 1024 (a multiple of 32), N (above 1024) to
// 1152. The default kernel is a tiled one: 288 blocks of 256 threads, a
// staging loop over K, instead of 1,021 x 18 blocks of 16 threads.
// FUSE-LABEL: func @primes_below_1024
// FUSE: tensor.pad %{{.*}} low[0, 0] high[3, 5]
// FUSE: tensor.pad %{{.*}} low[0, 0] high[5, 121]
// FUSE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1024x1024xf32>, tensor<1024x1152xf32>)
// FUSE: tensor.extract_slice %{{.*}}[0, 0] [1021, 1031] [1, 1]

// CHECK-LABEL: llvm.func @primes_below_1024
// CHECK-DAG: %[[C288:.*]] = llvm.mlir.constant(288 : index) : i64
// CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK: gpu.launch_func @primes_below_1024_kernel::@primes_below_1024_kernel blocks in (%[[C288]], %{{.*}}, %{{.*}}) threads in (%[[C256]],
// CHECK: gpu.binary @primes_below_1024_kernel
// CHECK-SAME: fma.rn.f32
// CHECK-SAME: {{@%p[0-9]+ bra}}
func.func @primes_below_1024(%a: tensor<1021x1019xf32>, %b: tensor<1019x1031xf32>) -> tensor<1021x1031xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1021x1031xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1021x1031xf32>) -> tensor<1021x1031xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1021x1019xf32>, tensor<1019x1031xf32>) outs(%c : tensor<1021x1031xf32>) -> tensor<1021x1031xf32>
  return %r : tensor<1021x1031xf32>
}
