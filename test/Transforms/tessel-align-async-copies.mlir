// RUN: tessel-opt %s -split-input-file --tessel-align-async-copies | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-align-async-copies=buffer-alignment=0 | FileCheck %s --check-prefix=NONE

// Each cp.async is split into the widest pieces its global source and shared
// destination are known to be aligned for (the H100 faulted with
// CUDA_ERROR_MISALIGNED_ADDRESS on 16-byte copies of a 3x3 conv's input rows,
// 4 bytes apart).

// CHECK-LABEL: gpu.func @f32_copies
// CHECK-SAME: %[[A:[^:]*]]: memref<64x64xf32> {tessel.buffer_alignment = 16 : i64}
// CHECK: %[[X:.*]] = arith.muli %{{.*}}, %c4
// CHECK: %[[X1:.*]] = arith.addi %[[X]], %c1
// CHECK: %[[X2:.*]] = arith.addi %[[X]], %c2
// Aligned: one 16-byte copy, L1 bypassed.
// CHECK: %[[T0:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}, %[[X]]], %{{.*}}[%{{.*}}, %[[X]]], 4 {bypassL1}
// One element off: four 4-byte copies, each an element further.
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[X1]]], %{{.*}}[%{{.*}}, %[[X]]], 1 :
// CHECK: %[[P1:.*]] = arith.addi %[[X1]], %[[ONE:.*]] :
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[P1]]], %{{.*}}, 1 :
// CHECK: %[[P2:.*]] = arith.addi %[[X1]], %[[TWO:.*]] :
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[P2]]], %{{.*}}, 1 :
// CHECK: %[[P3:.*]] = arith.addi %[[X1]], %[[THREE:.*]] :
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[P3]]], %{{.*}}, 1 :
// Two elements off: two 8-byte copies.
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[X2]]], %{{.*}}, 2 :
// CHECK: %[[Q1:.*]] = arith.addi %[[X2]], %{{.*}} :
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}, %[[Q1]]], %{{.*}}, 2 :
// A zero-filled tail of %n elements: the first piece reads
// min(max(n - 0, 0), 2), the second min(max(n - 2, 0), 2).
// CHECK: %[[N0:.*]] = arith.subi %[[N:.*]], %{{.*}} :
// CHECK: %[[M0:.*]] = arith.maxsi %[[N0]], %{{.*}} :
// CHECK: %[[E0:.*]] = arith.minsi %[[M0]], %{{.*}} :
// CHECK: nvgpu.device_async_copy {{.*}}, 2, %[[E0]] :
// CHECK: %[[N2:.*]] = arith.subi %[[N]], %{{.*}} :
// CHECK: %[[M2:.*]] = arith.maxsi %[[N2]], %{{.*}} :
// CHECK: %[[E2:.*]] = arith.minsi %[[M2]], %{{.*}} :
// CHECK: nvgpu.device_async_copy {{.*}}, 2, %[[E2]] :
// The destination 4 bytes into the dynamic shared memory: 4-byte pieces.
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 1 :
// The group takes every piece's token.
// CHECK: nvgpu.device_async_create_group %[[T0]]{{(, %[0-9]+){12}$}}

// Without the buffer contract nothing is wider than an element.
// NONE-LABEL: gpu.func @f32_copies
// NONE-NOT: tessel.buffer_alignment
// NONE-NOT: , 4 {bypassL1}
// NONE-NOT: , 2 :
// NONE: nvgpu.device_async_create_group
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @f32_copies(%a: memref<64x64xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %x = arith.muli %tid, %c4 : index
    %x1 = arith.addi %x, %c1 : index
    %x2 = arith.addi %x, %c2 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %shift = arith.constant 4 : index
    %off = memref.view %smem[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %t0 = nvgpu.device_async_copy %a[%c0, %x], %tile[%c0, %x], 4 {bypassL1} : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %t1 = nvgpu.device_async_copy %a[%c0, %x1], %tile[%c1, %x], 4 {bypassL1} : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %t2 = nvgpu.device_async_copy %a[%c0, %x2], %tile[%c2, %x], 4 : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %t3 = nvgpu.device_async_copy %a[%c1, %x2], %tile[%c2, %x], 4, %n : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %t4 = nvgpu.device_async_copy %a[%c2, %x], %off[%c0, %x], 4 : memref<64x64xf32> to memref<16x64xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t0, %t1, %t2, %t3, %t4
    nvgpu.device_async_wait %g
    gpu.return
  }
}
}

// -----

// f16 at an odd element: no 4-byte piece fits, so the copy is synchronous;
// with a zero-filled tail, a masked load.
// CHECK-LABEL: gpu.func @f16_odd
// CHECK: %[[ALIGNED:.*]] = nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf16>, vector<8xf16>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// CHECK: %[[W:.*]] = vector.maskedload %{{.*}}[%{{.*}}, %{{.*}}], %[[MASK]], %{{.*}} : memref<64x64xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK: vector.store %[[W]]
// CHECK: nvgpu.device_async_create_group %[[ALIGNED]]{{$}}
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @f16_odd(%a: memref<64x64xf16>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %x = arith.muli %tid, %c8 : index
    %x1 = arith.addi %x, %c1 : index
    %tile = memref.alloca() {alignment = 16 : i64} : memref<16x64xf16, #gpu.address_space<workgroup>>
    %aligned = nvgpu.device_async_copy %a[%c0, %x], %tile[%c0, %x], 8 {bypassL1} : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    %t0 = nvgpu.device_async_copy %a[%c0, %x1], %tile[%c0, %x], 8 {bypassL1} : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    %t1 = nvgpu.device_async_copy %a[%c1, %x1], %tile[%c1, %x], 8, %n : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %aligned, %t0, %t1
    nvgpu.device_async_wait %g
    gpu.return
  }
}
}
