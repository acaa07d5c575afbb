// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa fp-contract=0" | FileCheck %s --check-prefix=SEPARATE

// A convolution's default kernel is a scalar loop nest (its maps are not
// projected permutations, so it is not vectorized): every multiply-add is
// one fma.rn.f32 (docs/Materialization.md, --tessel-contract-kernel-float-ops).
// Before, and with fp-contract=0, each was a mul.rn.f32 and an add.rn.f32,
// which ptxas does not fuse: the ResNet-50 layers of the GPU check ran at
// most half the FMA rate.

// CHECK: gpu.binary
// CHECK-NOT: mul.rn.f32
// CHECK-SAME: fma.rn.f32
// CHECK-NOT: mul.rn.f32
// CHECK-NOT: add.rn.f32

// SEPARATE: gpu.binary
// SEPARATE-NOT: fma.rn.f32
// SEPARATE-SAME: mul.rn.f32
// SEPARATE-SAME: add.rn.f32
func.func @f(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%y : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}
