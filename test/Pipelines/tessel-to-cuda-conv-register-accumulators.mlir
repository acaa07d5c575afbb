// A convolution's kernel keeps its accumulators in registers: the thread's
// innermost tile reads its input window through a strided view
// (docs/Materialization.md, "Window accesses") and vectorizes like a matmul.
// The ResNet-50 1x1 layer of the GPU check under fc136a9's default schedule:
// each of 196 threads computes a 4x4 tile of one output channel, 16
// accumulators, over 256 input channels 8 at a time (unrolled). Before
// (fc136a9) the kernel loaded and stored its output around every
// multiply-add: 384 loads and 132 stores of global memory per thread, 753.9
// us on the H100 against cuDNN's 27.1
// (docs/results/kernels-ptx-conv-window-views-2026-11-27.md).
//
// RUN: tessel-opt %s --tessel-materialize | FileCheck %s --check-prefix=IR
// IR: } {tessel.accumulators = 1 : i64, tessel.kernel = {{[0-9]+}} : i64}
//
// 128 FMAs of one staging step, 128 input and 8 filter loads, and the 16
// results stored once.
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" \
// RUN:   | grep -o 'st\.global[.a-z0-9]*\|ld\.global[.a-z0-9]*\|fma\.rn\.f32' | sort | uniq -c | FileCheck %s
// CHECK: {{^ *}}128 fma.rn.f32
// CHECK-NEXT: {{^ *}}136 ld.global.b32
// CHECK-NEXT: {{^ *}}16 st.global.b32
// CHECK-NOT: global
func.func @forward(%x: tensor<1x256x56x56xf32>, %w: tensor<64x256x1x1xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>,
      tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [64, 1, 1, 1, 1], [1, 1, 14, 4, 1], [1, 1, 14, 4, 1], [32, 8, 1], [1, 1, 1], [1, 1, 1]], unroll = 16>}
      ins(%x, %w : tensor<1x256x56x56xf32>, tensor<64x256x1x1xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
