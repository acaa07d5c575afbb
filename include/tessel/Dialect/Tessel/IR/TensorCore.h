//===- TensorCore.h - Ops a tensor_core sketch fits ---------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A `tensor_core` sketch computes a matmul-like contraction with the
// warp-level `mma.sync` instructions of sm_80 and newer (through upstream
// NVGPU): each warp accumulates a grid of 16x8 output tiles in registers,
// reading its operand tiles from shared memory with `ldmatrix`. f16 and bf16
// inputs use m16n8k16; f32 inputs use m16n8k8 in TF32, which rounds the inputs to a
// 10-bit mantissa and so is only compiled when the user allows it.
// Which ops fit, and the fixed innermost (instruction) level of each loop,
// are decided here for the verifier, the search space and the script writer.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TENSORCORE_H
#define TESSEL_DIALECT_TESSEL_IR_TENSORCORE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace tessel {

/// Threads of a warp.
constexpr int64_t kWarpSize = 32;

/// The role of each loop of a matmul-like contraction `C[b, m, n] +=
/// A[b, m, k] * B[b, k, n]` (the operands' last two dims in either order).
struct MatmulLoops {
  SmallVector<unsigned> batch;
  unsigned m = 0, n = 0, k = 0;
};

/// The loop roles of `op`, or a message saying why it is not a matmul-like
/// contraction a tensor_core sketch can compute.
FailureOr<MatmulLoops> getMatmulLoops(linalg::LinalgOp op,
                                      std::string *reason = nullptr);

/// Empty when a tensor_core sketch fits `op`; otherwise why not. Fits: a
/// matmul-like contraction (multiply-add body) of two f16 operands into f32
/// or f16, of two bf16 operands into f32, or of two f32 operands into f32
/// (TF32), whose M, N and K extents are multiples of the instruction shape
/// (16x8x16 for f16 and bf16, 16x8x8 for TF32).
std::string getTensorCoreBlocker(linalg::LinalgOp op);

/// Whether a tensor_core schedule of `op` computes in TF32: its inputs are
/// f32, which the tensor cores round to a 10-bit mantissa.
bool isTf32Contraction(linalg::LinalgOp op);

/// The extent of one `mma.sync` along each loop of `op` (16 for M, 8 for N,
/// 16 for K (8 in TF32), 1 for batch loops): the innermost tile level of
/// every loop of a tensor_core config. `op` must fit (getTensorCoreBlocker
/// is empty).
SmallVector<int64_t> getMmaLevelExtents(linalg::LinalgOp op);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_IR_TENSORCORE_H
