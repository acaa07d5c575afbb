// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s

// A matmul whose result a later kernel reads (here a column sum; also
// softmax after QK^T, split-K's combining kernel) keeps its accumulators in
// registers, as the matmul alone does: a load, an FMA and a store of global
// memory per accumulator and step before (132 st.global, 16 ld.global, the
// fill stored and reloaded), because upstream's hoisting refuses a buffer
// that any view reads, and the later kernel views it
// (transform.tessel.hoist_kernel_accumulators).
// CHECK-LABEL: .visible .entry chain_kernel(
// CHECK-NOT: ld.global
// CHECK-COUNT-16: st.global.b32
// CHECK-NEXT: ret;
// The column sum itself accumulates in registers: no barrier (it had 9
// a thread, a global load and store a step).
// CHECK-LABEL: .visible .entry chain_kernel(
// CHECK-NOT: bar.sync
// CHECK: ret;
func.func @chain(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<256x256xf32>) outs(%f2 : tensor<256xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// BERT's QKV projection split 4 ways along K: the partial kernel (4 x 128 x
// 2304 partial sums, read by the combining kernel) accumulates in registers
// too (test/KNOWN_ISSUES.md had 128 st.global a thread a step).
// CHECK-LABEL: .visible .entry qkv_kernel(
// CHECK-NOT: ld.global
// CHECK: cp.async
// CHECK-NOT: ld.global
// CHECK-COUNT-16: st.global.b32
// CHECK-NEXT: ret;
// The combining kernel sums the 4 partials in registers (5 barriers a
// thread before).
// CHECK-LABEL: .visible .entry qkv_kernel(
// CHECK-NOT: bar.sync
// CHECK-COUNT-4: ld.global
// CHECK-NOT: bar.sync
// CHECK: st.global
// CHECK-NOT: bar.sync
// CHECK: ret;
func.func @qkv(%x: tensor<128x768xf32>, %w: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %mm = linalg.matmul {tessel.split_k = 4 : i64} ins(%x, %w : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%f : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %mm : tensor<128x2304xf32>
}
