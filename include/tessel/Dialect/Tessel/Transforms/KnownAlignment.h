//===- KnownAlignment.h - Alignment proven from index arithmetic -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// What kernels may assume about the byte alignment of a memory access: the
// trailing zero bits of its index arithmetic, and the alignment of the
// buffer it addresses. Shared by tessel-align-global-accesses (vector loads
// and stores of global memory) and tessel-align-async-copies (cp.async).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_KNOWNALIGNMENT_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_KNOWNALIGNMENT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace tessel {

/// The argument attribute of a kernel argument whose accesses assume the
/// buffer alignment, and whose launches check it
/// (tessel-align-global-accesses).
inline constexpr llvm::StringLiteral kBufferAlignmentAttr =
    "tessel.buffer_alignment";

/// The trailing zero bits known of integer and index values: `v` is a
/// multiple of 2^get(v). Capped at kMax, which a constant 0 (a multiple of
/// everything) also gets. Knows constants, sums, differences, products,
/// shifts by constants, remainders, selects, casts and `scf.for` induction
/// variables (from their lower bound and step); anything else is 0.
class KnownTrailingZeros {
public:
  static constexpr unsigned kMax = 32;

  /// The trailing zeros known of `value` (memoized).
  unsigned get(Value value);

private:
  unsigned compute(Value value);

  llvm::DenseMap<Value, unsigned> known;
};

/// Whether `type` is a memref in global memory (no memory space, or the
/// global one).
bool isGlobalMemRef(MemRefType type);

/// Whether `type` is a memref in shared (workgroup) memory.
bool isSharedMemRef(MemRefType type);

/// The buffer `memref` is a view of: its source through the view-like ops
/// that keep the aligned base pointer (the base buffer of
/// `extract_strided_metadata` included). `memref.view` is not looked
/// through: it shifts the pointer by a byte count.
Value getViewRoot(Value memref);

/// The buffer under all views of `memref` (every view-like op, `memref.view`
/// included, and `memref.cast`): accesses through different views of one
/// buffer may touch the same elements.
Value getBufferRoot(Value memref);

/// The byte alignment of the access of `memref[indices]` known from its
/// layout and indices, assuming its base pointer is `baseAlignment`-aligned.
uint64_t getKnownAlignment(Value memref, ValueRange indices,
                           uint64_t baseAlignment, KnownTrailingZeros &zeros);

/// The byte alignment known of the shared-memory buffer `root` (a view
/// root): a shared global's alignment, the dynamic shared memory's 16 bytes,
/// a `memref.view`'s source alignment as far as its byte shift keeps it;
/// otherwise the element size.
uint64_t getSharedBaseAlignment(Value root, KnownTrailingZeros &zeros);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_KNOWNALIGNMENT_H
