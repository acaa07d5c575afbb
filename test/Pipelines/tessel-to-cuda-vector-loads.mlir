// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa buffer-alignment=0" | FileCheck %s --check-prefix=UNALIGNED

// The staging copies of the fastest measured 1024^3 matmul schedule (vector
// width 4 for A and B) load global memory 128 bits at a time under the
// 16-byte buffer contract (docs/Alignment.md): before, every st.shared.v4
// was fed by four ld.global.b32 (56 in the kernel), which is what
// buffer-alignment=0 still gives. The host checks its arguments' alignment
// before the launch (a printed message and abort, not a misaligned-address
// fault).

// CHECK: llvm.func @forward
// CHECK: llvm.and
// CHECK: llvm.icmp "eq"
// CHECK: llvm.cond_br
// CHECK: gpu.launch_func
// CHECK: llvm.call @puts
// CHECK-NEXT: llvm.call @abort
// CHECK: gpu.binary
// CHECK-SAME: ld.global.v4.b32
// CHECK-NOT: ld.global.b32
// CHECK-NOT: ld.global.f32

// UNALIGNED: llvm.func @forward
// UNALIGNED-NOT: llvm.call @abort
// UNALIGNED: gpu.binary
// UNALIGNED-NOT: ld.global.v4
// UNALIGNED-SAME: ld.global.b32
// UNALIGNED-NOT: ld.global.v4
func.func @forward(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[32, 1, 4, 8, 1], [8, 1, 64, 2, 1], [16, 16, 4]], unroll = 512, vector = [4, 4]>}
    ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
